/* ttcp -C --nuttcp host: a test against a real nuttcp server (nuttcp -S),
 * its row in cli/peers.c (remote/peer.h's signatures). The messages are
 * wire.h's; the control connection's lines are ctl.c's; the test is
 * test.c's. */
#ifndef TTCP_PEERS_NUTTCP_H
#define TTCP_PEERS_NUTTCP_H

#include "remote/peer.h"

/* What nuttcp's parameter line cannot carry: 0, or -1 with why. */
int ttcp_nuttcp_check(const struct ttcp_options *o, char *why, size_t why_len);

/* The test: control on -p's port (5000 unless typed), data on the ports
 * after it (-p + 1, one a stream); fills out as ttcp's own client does,
 * the server's figures from its result lines. 0, or -1 with out->problem. */
int ttcp_nuttcp_test(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                     struct ttcp_client_outcome *out, int64_t deadline);

/* -S: a nuttcp client's test (`nuttcp host`, `nuttcp -r host`), from its
 * HELO on, on the slot's thread (serve.c). */
void ttcp_nuttcp_serve(struct ttcp_peer_serving *s);
/* -S: a nuttcp client turned away (busy, or a key it cannot carry), in
 * words its client prints: our HELO, then KO, the reason, KO. */
void ttcp_nuttcp_refuse(tt_socket s, int busy);

#endif
