/* peers/iperf2's shared state: the test's (test.c) and its UDP end
 * (udp.c); and the end of a stream of datagrams both ends send (udp.c,
 * serve_udp.c). */
#ifndef TTCP_PEERS_IPERF2_INTERNAL_H
#define TTCP_PEERS_IPERF2_INTERNAL_H

#include "engine/run.h"
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
    unsigned ways;                 /* bit 0: we send; bit 1: the server does (-r); both: --bidir */
    int n;                         /* streams */
    int opening;                   /* the stream whose socket is being connected */
    int not_iperf2;                /* a TCP server answered the header with no CLIENTHDRACK */
    struct ttcp_iperf2_hdr hdr;
    unsigned char udp_template[TTCP_IPERF2_UDP_HDR_LEN];
    tt_socket socks[TTCP_STREAMS_MAX];
    int reported[TTCP_STREAMS_MAX]; /* UDP: the stream's server report came */
    struct tt_datagram first[TTCP_STREAMS_MAX]; /* -u -r: the server's first datagram */
    struct ttcp_iperf2_arrivals arrivals[TTCP_STREAMS_MAX]; /* UDP received: each stream's */
    struct ttcp_streams run;
    struct ttcp_streams_observer stream_obs;
};

/* UDP stream i of way: the run with iperf2's datagrams; sending, its end
 * and (sent alone) the server report into the stream's far-end figures;
 * receiving, up to the server's end (udp.c). The socket stays open. */
void ttcp_iperf2_udp_stream(struct iperf2 *t, int way, int i, const struct ttcp_observer *obs);
/* -u -r: stream i's request on s (the header in a datagram of sequence 1)
 * and the server's first datagram, kept in t->first[i] for the run; 0, or
 * a TT_E_* code with *op (the server refused, or sent nothing in time). */
int ttcp_iperf2_udp_request(struct iperf2 *t, int i, tt_socket s, enum ttcp_op *op);

/* The end of the datagrams we sent on s, as iperf -c -u ends its own (and
 * 2.1.8's server its -r / -d stream, a client of the client's listener):
 * buf (len bytes) goes with sequence -(sent + 1), then one more negative
 * each IPERF2_FIN_WAIT_MS, at most tries times, until the receiver's
 * report comes: 1 with *r, else 0. r NULL: one datagram, nothing awaited
 * (NOUDPFIN). Each is stamped at our clock + shift_ns (the receiver's). */
/* The engine's stamp reader (engine/run.h) of iperf2's datagrams, both ends':
 * ctx is the sender's struct ttcp_iperf2_arrivals (wire.c's reading: its
 * sequence, its send stamp on the sender's clock, its end). */
enum ttcp_stamp_seen ttcp_iperf2_stamp_read(void *ctx, const unsigned char *buf, size_t len,
                                            uint64_t *seq, int64_t *sent_ns);

int ttcp_iperf2_udp_end(tt_socket s, unsigned char *buf, size_t len, uint64_t sent,
                        int64_t shift_ns, int tries, struct ttcp_iperf2_report *r);

#endif
