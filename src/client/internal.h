/* The client's shared state: the control connection and its frames
 * (frames.c), the greeting and key (greet.c), the streams' sockets
 * (data.c), the reader of the server's frames (reader.c), the test itself
 * (control.c), all under client.c's ttcp_client_run_until(). The files
 * mirror the server's: greet.c answers greet.c, data.c the data half of
 * server/control.c, control.c its conversation. */
#ifndef TTCP_CLIENT_INTERNAL_H
#define TTCP_CLIENT_INTERNAL_H

#include "client/client.h"
#include "engine/streams.h"
#include "remote/auth.h"
#include "remote/channel.h"
#include "remote/wire.h"

#define CONTROL_NS (10ll * 1000000000ll)

struct client {
    const struct ttcp_options *opts;
    const struct ttcp_client_observer *obs;
    struct ttcp_client_outcome *out;
    struct ttcp_options local; /* as the server granted */
    struct ttcp_key key;
    tt_socket control;
    struct tt_addr server;     /* the address the control connection reached */
    char token[TTCP_TOKEN_HEX + 1];
    struct tt_mutex *lock;     /* sends on the control connection */
    int ids;                   /* stream numbers on the wire: 2 x -P */
    tt_socket socks[TTCP_STREAM_IDS];           /* each stream's, until its run takes it */
    unsigned char unconnected[TTCP_STREAM_IDS]; /* -m: a member's socket, not connected */
    struct ttcp_streams_observer stream_obs;    /* the streams' facts -> obs */
    struct ttcp_streams run;   /* the streams side by side (engine/streams.h) */
    size_t kept;               /* the server's intervals kept (the reader's) */
    int64_t deadline;          /* every wait for the server ends by it; 0: none */
    unsigned char mine_in[TTCP_STREAM_IDS]; /* -C host1 host2: host1's own result came */
    struct {                   /* --latency (probe.c); samples in out->latency */
        tt_socket sock;        /* TT_NO_SOCKET: none */
        int64_t next_ns;       /* the next probe's time */
        int64_t origin_ns;     /* the data's start (the loaded probes' first) */
    } probes;
};

/* Stream number id's way (0: the client sends). */
static inline struct ttcp_client_stream *way_of(struct client *c, int id)
{
    return &c->out->stream[id % 2];
}

/* The stream numbers this test uses (TTCP_STREAM_ID), by way. */
static inline int in_use(const struct client *c, int id)
{
    return id >= 0 && id < c->ids && c->out->stream[id % 2].used;
}

/* frames.c: the control connection. Each failure sets out->problem (and
 * the failure's code) and returns -1. */
int ttcp_client_problem(struct client *c, enum ttcp_client_problem p, int code);
/* When a wait of span for the server ends: span from now, or sooner at
 * the deadline. */
int64_t ttcp_client_wait_end(const struct client *c, int64_t span);
/* A connect that gives up at the deadline. */
int ttcp_client_connect(const struct client *c, tt_socket s, const struct tt_addr *a);
/* The next frame, whatever it is; the server's busy and error answers end
 * the conversation here, with their message. */
int ttcp_client_receive_any(struct client *c, struct ttcp_message *m);
/* The same, waiting at most span (ns) for it. */
int ttcp_client_receive_within(struct client *c, struct ttcp_message *m, int64_t span);
/* The next frame, which must be of the given type. */
int ttcp_client_receive(struct client *c, struct ttcp_message *m, const char *type);
/* One frame, whichever thread sends it. */
int ttcp_client_send_frame(struct client *c, struct ttcp_frame *f);

/* greet.c: the control connection to the server, hello and welcome, the
 * key's proof both ways. */
int ttcp_client_connect_control(struct client *c);
int ttcp_client_greet(struct client *c);

/* data.c: every stream's socket in c->socks: a data connection (TCP) or a
 * UDP socket with its token datagram answered. */
int ttcp_client_open_streams(struct client *c);

/* reader.c: on a thread beside the streams (arg: the client), the
 * server's live intervals and its results, until every stream has one. */
void ttcp_client_read_server(void *arg);

/* probe.c: --latency's probes. open: the socket and its hello answered
 * (0, or -1 with the problem); idle: --latency-idle of probes, watching the
 * control connection (-1 with the problem when the server ends); loaded: on
 * a thread beside the streams, probes while they run; close: the last
 * echoes awaited, the samples' times made the data's. */
int ttcp_client_probe_open(struct client *c);
int ttcp_client_probe_idle(struct client *c); /* -1: the server ended the test */
void ttcp_client_probe_loaded(void *arg);
void ttcp_client_probe_close(struct client *c);

/* reader.c: a far end's interval kept with its figures (res), within the
 * test's bound on intervals kept. */
void ttcp_client_keep_interval(struct client *c, struct ttcp_result *res,
                               const struct ttcp_interval *in);

/* control.c: the test, from the request to bye; and its pieces a third
 * party's test shares: the ways planned, each way's totals. */
int ttcp_client_converse(struct client *c);
int ttcp_client_plan(struct client *c);
void ttcp_client_total_ways(struct client *c);

/* third.c: -C host1 host2, from the request to bye: host1 runs the test
 * to host2 and passes its facts on. */
int ttcp_client_converse_third(struct client *c);

#endif
