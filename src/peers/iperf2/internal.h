/* peers/iperf2's shared state: the test's (test.c) and its UDP end
 * (udp.c). */
#ifndef TTCP_PEERS_IPERF2_INTERNAL_H
#define TTCP_PEERS_IPERF2_INTERNAL_H

#include "engine/streams.h"
#include "peers/iperf2/iperf2.h"
#include "peers/iperf2/wire.h"
#include "ttcp/platform.h"

#define IPERF2_TOOL "iperf2"
#define IPERF2_ACK_WAIT_MS 3000   /* the server's CLIENTHDRACK, before any data */
#define IPERF2_FIN_TRIES 200      /* 2.1.8's: negative datagrams every 10 ms */
#define IPERF2_FIN_WAIT_MS 10

struct iperf2 {
    const struct ttcp_options *o;
    const struct ttcp_client_observer *obs;
    struct ttcp_client_outcome *out;
    int64_t deadline;
    struct tt_addr server;
    int way;                       /* 0: we send; 1: the server does (-r) */
    int n;                         /* streams */
    struct ttcp_iperf2_hdr hdr;
    unsigned char udp_template[TTCP_IPERF2_UDP_HDR_LEN];
    tt_socket socks[TTCP_STREAMS_MAX];
    int reported[TTCP_STREAMS_MAX]; /* UDP: the stream's server report came */
    struct ttcp_streams run;
    struct ttcp_streams_observer stream_obs;
};

/* UDP stream i: the run with iperf2's datagrams, its end and the server
 * report into the stream's far-end figures (udp.c). */
void ttcp_iperf2_udp_stream(struct iperf2 *t, int i, const struct ttcp_observer *obs);

#endif
