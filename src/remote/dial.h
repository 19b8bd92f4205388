/* A client end's way to its server: every address the host name resolves
 * to, in the resolver's order, until one takes (ttcp's own -C and the
 * other tools' client ends alike). A name that gives ::1 first reaches a
 * server bound to 127.0.0.1 alone on the next try, as the classic
 * transmitter's connect does. */
#ifndef TTCP_REMOTE_DIAL_H
#define TTCP_REMOTE_DIAL_H

#include <stdint.h>

#include "measure/result.h"
#include "ttcp/platform.h"

/* What the caller does with a new socket of a's family: its options, its
 * local address, the connect and any opening the protocol makes before it
 * knows it has its server. 0, or a TT_E_* code with *op the step that
 * failed (the socket is closed and the next address tried). */
typedef int (*ttcp_dial_step)(void *ctx, tt_socket s, const struct tt_addr *a,
                              enum ttcp_op *op);

struct ttcp_dialled {
    tt_socket sock;        /* connected (TT_NO_SOCKET when none took) */
    struct tt_addr server; /* the address that took */
    int tried;             /* addresses tried */
    enum ttcp_op op;       /* the last failure's step (HOSTNAME: the name) */
};

/* Resolves host (port, family, udp as tt_resolve) and runs step on a new
 * socket for each address in turn; Ctrl+C ends the turn. 0 with out->sock
 * and out->server; or the last failure's code (TT_E_INTR at Ctrl+C) with
 * out->op. */
int ttcp_dial(const char *host, uint16_t port, int family, int udp, ttcp_dial_step step,
              void *ctx, struct ttcp_dialled *out);

#endif
