/* The client's test against a nuttcp server, shared by test.c (the
 * conversation: hello, parameters, answer, the server's figures) and
 * data.c (the streams: their sockets, their run, each end's totals). */
#ifndef TTCP_PEERS_NUTTCP_INTERNAL_H
#define TTCP_PEERS_NUTTCP_INTERNAL_H

#include "engine/streams.h"
#include "peers/nuttcp/ctl.h"
#include "peers/nuttcp/nuttcp.h"
#include "peers/nuttcp/wire.h"

#define NUTTCP_CONTROL_NS (10ll * 1000000000ll) /* each wait for the server's answer */
#define NUTTCP_RESULTS_NS (15ll * 1000000000ll) /* its figures, once our streams ended */
#define NUTTCP_CONNECT_NS (5ll * 1000000000ll)  /* a data port 6.1.2 binds after its OK */
#define NUTTCP_UDP_DEFAULT_BPS 1000000u          /* nuttcp's UDP rate when -R is not given */

struct nuttcp_test {
    const struct ttcp_options *o;
    const struct ttcp_client_observer *obs;
    struct ttcp_client_outcome *out;
    int64_t deadline;              /* 0: none */
    struct nuttcp_ctl ctl;
    struct tt_addr server;         /* the control connection's peer */
    int way;                       /* 0: we send (nuttcp's trans = 1), 1: the server sends */
    unsigned n;                    /* streams */
    unsigned dport;                /* the first data port */
    tt_socket socks[TTCP_NUTTCP_STREAMS_MAX]; /* each stream's, until its run takes it */
    tt_socket listeners[TTCP_NUTTCP_STREAMS_MAX]; /* -r, TCP: where the server connects */
    struct ttcp_streams run;
    struct ttcp_streams_observer stream_obs;
    int run_ready;
    struct ttcp_nuttcp_report report;
};

/* A problem of the conversation: out->problem (and the code); -1. */
int nuttcp_problem(struct nuttcp_test *t, enum ttcp_client_problem p, int code);
/* When a wait of span ends: span from now, or sooner at the deadline. */
int64_t nuttcp_wait_end(const struct nuttcp_test *t, int64_t span);

/* data.c: each end's options for the way and its streams; 0 or -1. */
int nuttcp_plan(struct nuttcp_test *t);
/* -r: the data sockets the server will reach, ready before it is asked. */
int nuttcp_listen(struct nuttcp_test *t);
/* After the server's OK: the data sockets of every stream. */
int nuttcp_open_streams(struct nuttcp_test *t);
/* The streams side by side, then each end's totals (the server's from
 * t->report). */
void nuttcp_run_streams(struct nuttcp_test *t);
void nuttcp_totals(struct nuttcp_test *t);
/* Closes what a test that failed left open. */
void nuttcp_close_all(struct nuttcp_test *t);

#endif
