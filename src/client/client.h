/* ttcp -C: a test against a ttcp -S, from the client's side of the
 * conversation (docs/PROTOCOL.md). Prints nothing: both ends' facts go to
 * the observer and into the outcome. */
#ifndef TTCP_CLIENT_H
#define TTCP_CLIENT_H

#include "config/options.h"
#include "measure/result.h"
#include "measure/hops.h"

/* One way of a test, 0: the client sends, 1: the server does: its figures
 * at each end, and with -P its streams' (part_*[i], i < n). With one
 * stream, mine and theirs are that stream's. */
struct ttcp_client_stream {
    int used;
    struct ttcp_options local, remote; /* each end's side (remote: for its lines) */
    struct ttcp_result mine;           /* the client's end (-P: the streams' total) */
    struct ttcp_result theirs;         /* the server's end, as its results said */
    int theirs_valid;                  /* every stream's result came from the server */
    int rc;                            /* the client's end: 0 or the first failure's code */
    int n;                             /* streams this way */
    struct ttcp_options *part_local, *part_remote; /* [n], tagged with -P */
    struct ttcp_result *part_mine, *part_theirs;   /* [n] */
    int *part_theirs_valid, *part_rc;              /* [n] */
};

/* Why the conversation itself failed (not a stream's data). */
enum ttcp_client_problem {
    TTCP_CLIENT_OK,
    TTCP_CLIENT_KEY,       /* the key file (why) */
    TTCP_CLIENT_CONNECT,   /* resolving or connecting (failure) */
    TTCP_CLIENT_LOST,      /* the control connection failed or timed out (failure) */
    TTCP_CLIENT_SILENT,    /* connected, but no answer to the hello (a classic receiver?) */
    TTCP_CLIENT_PROTOCOL,  /* the server broke the protocol (why) */
    TTCP_CLIENT_REFUSED,   /* the server said no: error (why: its message) */
    TTCP_CLIENT_BUSY,      /* the server said busy (why: its message) */
    TTCP_CLIENT_AUTH,      /* authentication failed (why) */
    TTCP_CLIENT_LOCAL      /* this end could not do its part (why, failure) */
};

struct ttcp_client_outcome {
    struct ttcp_client_stream stream[2];
    enum ttcp_client_problem problem;
    struct ttcp_failure failure;
    char why[256];
};

struct ttcp_client_observer {
    /* A stream's progress at one end (local: the client's own). */
    void (*event)(void *ctx, const struct ttcp_options *o, int local,
                  const struct ttcp_event *ev, const struct ttcp_result *res);
    void *ctx;
    /* --traceroute: the client's path to the server (local), then the
     * server's back: its start (h NULL, not ended), each hop, its end
     * (ended: t->failure tells a trace that could not be made). */
    void (*trace)(void *ctx, int local, const struct ttcp_trace *t, const struct ttcp_hop *h,
                  int ended);
};

/* 0 when the conversation completed (each stream's own rc says how its
 * data went), -1 with out->problem set. out is filled either way; release
 * it with ttcp_client_release(). */
int ttcp_client_run(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                    struct ttcp_client_outcome *out);
/* The same, with every wait for the server (the connects, each control
 * frame, the UDP agreement, the results after the streams) ended by
 * deadline (tt_now_ns(); 0: none, as ttcp_client_run). The data itself is
 * bounded by the test's --time or -n and the idle timeout, as ever. */
int ttcp_client_run_until(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                          struct ttcp_client_outcome *out, int64_t deadline);
void ttcp_client_release(struct ttcp_client_outcome *out);

#endif
