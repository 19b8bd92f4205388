/* ttcp -C --iperf3 host: a test against a real `iperf3 -s` (its protocol:
 * wire.h), filling the outcome ttcp's own conversation fills, so the
 * client's lines, the server's (tagged ttcp-r(iperf3):), the summary,
 * --json and --plot print unchanged. The row in cli/peers.c plugs these
 * in (remote/peer.h's signatures). */
#ifndef TTCP_PEERS_IPERF3_H
#define TTCP_PEERS_IPERF3_H

#include "remote/peer.h"

/* What iperf3's parameters cannot carry, refused in one line: 0 or -1. */
int ttcp_iperf3_check(const struct ttcp_options *o, char *why, size_t why_len);

/* The whole test: 0, or -1 with out->problem (busy: TTCP_CLIENT_BUSY,
 * SERVER_ERROR: TTCP_CLIENT_REFUSED, both with why). deadline: every wait
 * for the server ends by it (tt_now_ns(); 0: none). */
int ttcp_iperf3_test(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                     struct ttcp_client_outcome *out, int64_t deadline);

/* ttcp -S: one iperf3 client's test (serve.c), from its control
 * connection's cookie to IPERF_DONE, its streams on the engine, their
 * lines through the server's observer. */
void ttcp_iperf3_serve(struct ttcp_peer_serving *s);
/* A client turned away before its test: ACCESS_DENIED, iperf3's "the
 * server is busy" (busy 0: --key-file, which iperf3 cannot prove). */
void ttcp_iperf3_refuse(tt_socket s, int busy);

#endif
