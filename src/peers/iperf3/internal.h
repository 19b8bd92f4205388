/* The iperf3 client's shared state (test.c's conversation, control.c's
 * control connection, figures.c's results both ways, check.c's
 * parameters). */
#ifndef TTCP_PEERS_IPERF3_INTERNAL_H
#define TTCP_PEERS_IPERF3_INTERNAL_H

#include "engine/streams.h"
#include "peers/iperf3/iperf3.h"
#include "peers/iperf3/wire.h"
#include "ttcp/platform.h"

#define I3_CONTROL_NS (10ll * 1000000000ll) /* the longest wait for one control message */
#define I3_END_POLL_NS (5ll * 1000000ll)    /* how often the end of the test is looked at */
#define I3_END_GRACE_NS (50ll * 1000000ll)  /* after our data was acknowledged, for the server
                                             * to read the last of it before TEST_END */
#define I3_UDP_RESEND_NS 1000000000ll       /* "9876" again when no "6789" came */
#define I3_UDP_DRAIN_NS (100ll * 1000000ll) /* a UDP receiver reads so long after TEST_END */

struct i3 {
    const struct ttcp_options *opts;
    const struct ttcp_client_observer *obs;
    struct ttcp_client_outcome *out;
    struct ttcp_options local;       /* the test as carried: -l, -R per stream, ... */
    struct ttcp_iperf3_params params;
    tt_socket control;
    struct tt_addr server;
    char cookie[TTCP_IPERF3_COOKIE_LEN];
    int64_t deadline;                /* 0: none */
    int n;                           /* streams each way */
    unsigned ways;                   /* bit 0: we send, bit 1: the server sends */
    tt_socket socks[2][TTCP_IPERF3_MAX_STREAMS];
    int32_t ids[2][TTCP_IPERF3_MAX_STREAMS];
    struct ttcp_streams run;
    struct ttcp_streams_observer stream_obs;
    struct tt_mutex *lock;           /* the end's state below, the control sends */
    int senders_left;                /* our sending streams that have not told SENT */
    uint64_t received;               /* bytes our receiving streams counted (intervals) */
    int64_t start_ns;                /* the streams began */
    int ended;                       /* TEST_END went out */
    int64_t ended_ns;                /* when */
    struct ttcp_iperf3_results theirs;
};

/* check.c: the parameters and the local options of the test. */
void ttcp_iperf3_plan(struct i3 *c);

/* control.c. Each failure sets out->problem (and why, the failure) and
 * returns -1. */
int ttcp_iperf3_fail(struct i3 *c, enum ttcp_client_problem p, int code, const char *why);
int ttcp_iperf3_connect(struct i3 *c, tt_socket s, const struct tt_addr *a);
int ttcp_iperf3_open_control(struct i3 *c);
int ttcp_iperf3_send(struct i3 *c, tt_socket s, const void *buf, size_t len);
int ttcp_iperf3_send_state(struct i3 *c, enum ttcp_iperf3_state st);
/* The next state byte, which must be want (ACCESS_DENIED and SERVER_ERROR
 * end the conversation with the server's word). */
int ttcp_iperf3_expect(struct i3 *c, enum ttcp_iperf3_state want);
int ttcp_iperf3_send_json(struct i3 *c, const char *json, size_t len);
/* A length and its JSON (at most max bytes) into buf (max + 1 bytes). */
int ttcp_iperf3_read_json(struct i3 *c, char *buf, uint32_t max, uint32_t *len);

/* figures.c: our results for the server, theirs into the outcome. */
int ttcp_iperf3_our_results(struct i3 *c, char *buf, size_t cap, size_t *len);
void ttcp_iperf3_take_theirs(struct i3 *c);

#endif
