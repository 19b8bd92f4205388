/* --latency: a test's echo of its client's probes (echo.c). */
#ifndef TTCP_SERVER_ECHO_H
#define TTCP_SERVER_ECHO_H

#include <stdint.h>

#include "ttcp/platform.h"

struct ttcp_echo {
    tt_socket sock;        /* TT_NO_SOCKET: none */
    int64_t window_ns;     /* the current second's start */
    uint32_t in_window;    /* echoes in it, up to TTCP_PROBE_ECHO_PER_S */
    uint64_t echoed, refused;
};

void ttcp_echo_init(struct ttcp_echo *e, tt_socket s);
/* Echoes what comes for ns (returns early on Ctrl+C or a socket's failure). */
void ttcp_echo_for(struct ttcp_echo *e, int64_t ns);
void ttcp_echo_close(struct ttcp_echo *e);
#endif
