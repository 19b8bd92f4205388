/* The iperf3 server end's shared state (serve.c's conversation,
 * serve_streams.c's data connections and streams, serve_figures.c's
 * results): the mirror of internal.h's client, way for way. */
#ifndef TTCP_PEERS_IPERF3_SERVE_H
#define TTCP_PEERS_IPERF3_SERVE_H

#include "engine/streams.h"
#include "peers/iperf3/iperf3.h"
#include "peers/iperf3/wire.h"
#include "ttcp/platform.h"

#define I3S_COOKIE_NS (5ll * 1000000000ll)   /* the cookie after the connect */
#define I3S_CONTROL_NS (10ll * 1000000000ll) /* any other wait for the client */
#define I3S_UDP_DRAIN_NS (100ll * 1000000ll) /* a UDP receiver reads so long after TEST_END */
#define I3S_TCP_QUIET_NS (50ll * 1000000ll) /* after TEST_END, a TCP receiver so long quiet */
#define I3S_TCP_DRAIN_MAX_NS 2000000000ll   /* ... or at most so long */
#define I3S_POLL_MS 100                      /* the control reader's look at the streams */
#define I3S_SEND_GRACE_NS (10ll * 1000000000ll) /* our sender's bound past the client's -t */

/* iperf3's i_errno values (iperf_api.h) the server end answers with. */
#define I3S_IE_NUMSTREAMS 6   /* "number of parallel streams too large" */
#define I3S_IE_TOTALRATE 27   /* "total required bandwidth is larger than server limit" */
#define I3S_IE_INITTEST 101   /* "test initialization failed" */
#define I3S_IE_ACCEPT 104     /* "unable to accept connection from client" */
#define I3S_IE_RECVPARAMS 114 /* "unable to receive parameters from client" */

/* Ways as the client sees them (internal.h's): 0 the client sends (we
 * receive), 1 we send. */
struct i3s {
    struct ttcp_peer_serving *s;
    struct ttcp_iperf3_params params;
    unsigned char cookie[TTCP_IPERF3_COOKIE_LEN];
    int n;                           /* streams each way */
    unsigned ways;                   /* bit w: way w has streams */
    struct ttcp_options whole[2];    /* each way's side */
    struct ttcp_options *side[2];    /* [n]: a stream's (with -P, numbered) */
    struct ttcp_result *res[2];      /* [n] */
    int *rc[2];                      /* [n] */
    tt_socket socks[2][TTCP_IPERF3_MAX_STREAMS]; /* open until the test's end */
    int32_t ids[2][TTCP_IPERF3_MAX_STREAMS];
    struct ttcp_streams run;
    struct ttcp_streams_observer stream_obs;
    struct tt_mutex *lock;           /* the end's state below, the sockets' shutdown */
    int ended;                       /* TEST_END came */
    int gone;                        /* the client went away, or the server stops */
    int drained;                     /* our TCP receivers have read what came before */
    int64_t ended_ns;
    int64_t start_ns;
    char peer[80];                   /* the client's address: our sender's "host" */
};

/* serve_control.c */
int ttcp_iperf3_serve_send(struct i3s *v, const void *buf, size_t len);
int ttcp_iperf3_serve_state(struct i3s *v, enum ttcp_iperf3_state st);
/* SERVER_ERROR with iperf3's i_errno: the client prints its words. -1. */
int ttcp_iperf3_serve_refuse(struct i3s *v, int32_t ierrno);

/* serve_streams.c: each way's options and room for its figures (0, or -1:
 * memory); the data connections (TCP: the cookie's, UDP: "9876" answered)
 * after CREATE_STREAMS; the streams run beside a reader of the control
 * connection until TEST_END or the client's going. */
int ttcp_iperf3_serve_plan(struct i3s *v);
int ttcp_iperf3_serve_connect(struct i3s *v);
void ttcp_iperf3_serve_run(struct i3s *v);
void ttcp_iperf3_serve_free(struct i3s *v);

/* serve_figures.c: our results message for the client (its streams' ids). */
int ttcp_iperf3_serve_results(struct i3s *v, char *buf, size_t cap, size_t *len);

#endif
