/* nuttcp's control connection: text lines, each read bounded in size
 * (TTCP_NUTTCP_LINE_MAX) and in time. Internal to peers/nuttcp/. */
#ifndef TTCP_PEERS_NUTTCP_CTL_H
#define TTCP_PEERS_NUTTCP_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "peers/nuttcp/wire.h"
#include "ttcp/platform.h"

struct nuttcp_ctl {
    tt_socket s;
    char buf[TTCP_NUTTCP_LINE_MAX];
    size_t have;
};

/* Sends all of text; 0 or a TT_E_* code. */
int nuttcp_ctl_send(struct nuttcp_ctl *c, const char *text, size_t len);
/* The next line, its '\n' taken off, into line (cap >= TTCP_NUTTCP_LINE_MAX):
 * 1, 0 at the end of the connection (nothing left), or a negative code:
 * TT_E_TIMEDOUT at end_ns, TT_E_INVAL for a line too long. */
int nuttcp_ctl_line(struct nuttcp_ctl *c, char *line, size_t cap, int64_t end_ns);
/* A TCP connect that gives up at end_ns; 0 or a TT_E_* code. */
int nuttcp_connect_by(tt_socket s, const struct tt_addr *a, int64_t end_ns);

#endif
