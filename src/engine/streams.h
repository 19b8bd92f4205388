/* Streams side by side: the one runner behind -P in the classic pair, the
 * client's and the server's streams (-P and --bidir), and the other tools'
 * protocols once they come (docs/DESIGN.md, "Other tools' protocols"). A stream is one data phase on a thread of its
 * own; the runner starts them, joins them, serialises what they tell the
 * observer, adds up their intervals as each stream closes them, and makes
 * each way's totals. What a stream runs, on which socket, is the caller's. */
#ifndef TTCP_STREAMS_H
#define TTCP_STREAMS_H

#include "config/options.h"
#include "measure/result.h"
#include "measure/sum.h"

/* Where a stream's facts come from: this host's own run of it, or the far
 * end's as its reports said (the client reads the server's). */
enum ttcp_stream_end { TTCP_END_PEER = 0, TTCP_END_LOCAL = 1 };

struct ttcp_streams_observer {
    /* Stream i of way's event, one at a time across the group. */
    void (*event)(void *ctx, int way, int i, enum ttcp_stream_end end,
                  const struct ttcp_event *ev, const struct ttcp_result *res);
    /* With more than one stream: way's total interval at an end, once every
     * stream has closed that interval or ended (under the same lock). NULL:
     * no interval totals are kept. */
    void (*total)(void *ctx, int way, enum ttcp_stream_end end, const struct ttcp_interval *in);
    /* Passed to every stream's run (struct ttcp_observer); either may be NULL. */
    int (*stop)(void *ctx);
    int (*claim)(void *ctx, const struct tt_datagram *d);
    void *ctx;
};

/* Runs stream i of way, on its thread, with obs as the data phase's
 * observer (its events reach the group's observer, serialised). */
typedef void (*ttcp_stream_body)(void *ctx, int way, int i, const struct ttcp_observer *obs);

struct ttcp_streams {
    int n;              /* streams each way */
    unsigned ways;      /* bit w: way w has streams (the caller says what a way is) */
    const struct ttcp_streams_observer *obs;
    struct tt_mutex *lock;                  /* one event at a time reaches obs */
    int sums_kept;                          /* obs->total given, n > 1 */
    struct ttcp_interval_sum sums[2][2];    /* [way][end] */
    int running;                            /* streams whose body has not returned */
};

/* 0, or TT_E_NOMEM. ways: a mask of bits 0 and 1. */
int ttcp_streams_init(struct ttcp_streams *g, int n, unsigned ways,
                      const struct ttcp_streams_observer *obs);
void ttcp_streams_free(struct ttcp_streams *g);

/* Every stream of every way on a thread of its own, in the order of their
 * numbers on the wire (stream i's ways together); one that cannot get a
 * thread runs on the caller's, after those started before it. beside (may
 * be NULL) runs meanwhile on a thread too (the client's reader of the
 * server's frames), or after the streams when it cannot get one. Returns
 * when all have ended. */
void ttcp_streams_run(struct ttcp_streams *g, ttcp_stream_body body, void *body_ctx,
                      void (*beside)(void *ctx), void *beside_ctx);
/* A task beside the streams; the same run with up to TTCP_BESIDE_MAX of
 * them (the client's reader and its --latency probes), each on a thread. */
struct ttcp_beside {
    void (*run)(void *ctx);
    void *ctx;
};
#define TTCP_BESIDE_MAX 2
void ttcp_streams_run_beside(struct ttcp_streams *g, ttcp_stream_body body, void *body_ctx,
                             const struct ttcp_beside *tasks, int count);

/* A stream's event that did not come through its run's observer (the far
 * end's, from its reports): serialised and summed as the streams' own. */
void ttcp_streams_event(struct ttcp_streams *g, int way, int i, enum ttcp_stream_end end,
                        const struct ttcp_event *ev, const struct ttcp_result *res);
/* Stream i of way closes no more intervals at end: the totals go on
 * without it. The runner says so for the local end when a body returns. */
void ttcp_streams_closed(struct ttcp_streams *g, int way, int i, enum ttcp_stream_end end);
/* How many streams are still running (their bodies have not returned). */
int ttcp_streams_running(struct ttcp_streams *g);

/* Way's figures at one end from its streams' results (parts[g->n]): with one stream,
 * that stream's, moved (its intervals go with it); with more, their sum
 * (measure/sum.h), the threads' CPU added, and the interval totals kept. */
void ttcp_streams_total(struct ttcp_streams *g, int way, enum ttcp_stream_end end,
                        struct ttcp_result *parts, struct ttcp_result *total);

/* Stream i's options (0-based) of a test of n streams: with one, whole's
 * own; with more, numbered i + 1 (its lines tagged), its share of the
 * total -R, its CPU of --cpu, the thread's CPU time. */
void ttcp_stream_options(const struct ttcp_options *whole, int i, int n,
                         struct ttcp_options *out);

#endif
