/* ttcp -C --iperf2 host: a test against iperf2's server (`iperf -s`,
 * 2.1.8), as one row of cli/peers.c's table plugs it in (remote/peer.h's
 * signatures). TCP: we send (the client header first, as iperf -c does),
 * or with -r the server sends on the same connection (iperf2's -R), or
 * with --bidir both at once on it (iperf2's --full-duplex); -P n: n
 * connections, numThreads n. UDP: we send iperf2's datagrams, end them
 * with the negative sequence numbers and read the server report; -r, the
 * server sends them on our socket after our request; --bidir, both on
 * it. iperf2's server reports back only UDP it received alone: every
 * other way's far-end figures are not known (theirs_valid 0,
 * theirs_unknown 1). The first connection (or -u -r's request) tries
 * each address of the host in turn (remote/dial.h).
 * Its server end: ttcp -S takes an `iperf -c` on the shared port (serve.c),
 * and an `iperf -c -u` on the shared UDP port (serve_udp.c). */
#ifndef TTCP_PEERS_IPERF2_H
#define TTCP_PEERS_IPERF2_H

#include <stddef.h>
#include <stdint.h>

#include "config/options.h"
#include "remote/outcome.h"
#include "remote/peer.h"

/* What iperf2's protocol cannot carry: 0, or -1 with a one-line reason. */
int ttcp_iperf2_check(const struct ttcp_options *o, char *why, size_t why_len);

/* The test; 0, or -1 with out->problem. */
int ttcp_iperf2_test(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                     struct ttcp_client_outcome *out, int64_t deadline);

/* -S: the shared port's first bytes: iperf2's client header? (wire.c; YES, NO,
 * or MORE: at most TTCP_IPERF2_HDR_MAX bytes are needed.) */
enum ttcp_peer_verdict ttcp_iperf2_recognise(const unsigned char *b, size_t n);

/* -S: one `iperf -c` connection, on its slot's thread (serve.c). */
void ttcp_iperf2_serve(struct ttcp_peer_serving *s);

/* -S: a datagram on the shared UDP port: an `iperf -c -u` client's (START),
 * a late end of one (END), or not iperf2's (NO) (serve_udp.c). */
enum ttcp_peer_udp_verdict ttcp_iperf2_recognise_udp(const unsigned char *b, size_t n);
/* -S: one `iperf -c -u` sender, on its slot's thread (serve_udp.c). */
void ttcp_iperf2_serve_udp(struct ttcp_peer_serving *s);

#endif
