/* What a test run from the client's side leaves, whatever protocol it
 * spoke to the far end (ttcp's own in client/; the other tools' that are to
 * come in peers/, docs/DESIGN.md):
 * each way's figures at both ends, or why the conversation failed, and
 * the observer that hears both ends' facts as they come. cli/client_cli.c
 * and the exporter print it; the conversations fill it. */
#ifndef TTCP_REMOTE_OUTCOME_H
#define TTCP_REMOTE_OUTCOME_H

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
    int theirs_unknown;                /* the far end's protocol never tells its figures
                                        * (iperf2's TCP server): theirs_valid 0 is no failure */
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

/* -C host1 host2: where host1 ran the test, and for whom. */
struct ttcp_third {
    char target[80];       /* host2's address, numeric, as host1 resolved it */
    uint64_t target_port;
    char client[80];       /* the asking client's address, as host1 saw it */
};

struct ttcp_client_outcome {
    struct ttcp_client_stream stream[2];
    struct ttcp_pmtu pmtu;         /* --pmtu: the path MTU to the server (pmtu.found) */
    struct ttcp_latency latency;   /* --latency: the probes' round trips (client/probe.c) */
    /* -C host1 host2: host1 took the test (third_ran); leg_failed: problem,
     * failure and why are host1's conversation with host2's, not ours */
    int third_ran, leg_failed;
    struct ttcp_third third;
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

/* Room for n streams in a way (st->n = n, the part_* arrays zeroed): 0,
 * or -1 when memory is short (what came is freed by ttcp_client_release). */
int ttcp_outcome_parts(struct ttcp_client_stream *st, int n);

/* Stream i of way's fact at an end (local: the client's), or with i < 0
 * way's total, to obs with the options its lines are told by: what every
 * conversation's streams tell the client's observer. */
void ttcp_outcome_tell(const struct ttcp_client_outcome *out, const struct ttcp_client_observer *obs,
                       int way, int i, int local, const struct ttcp_event *ev,
                       const struct ttcp_result *res);

/* The conversation failed: out->problem, and with code (a TT_E_*) the
 * failure, its native number read now. Returns -1, for the caller's return. */
int ttcp_outcome_problem(struct ttcp_client_outcome *out, enum ttcp_client_problem p, int code);

/* Frees what a conversation left in out (the streams' parts and intervals). */
void ttcp_client_release(struct ttcp_client_outcome *out);

#endif
