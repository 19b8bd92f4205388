/* --latency's far end: a test's echo socket (on the shared UDP port,
 * connected to the client's probe socket, so the kernel hands it that
 * socket's datagrams alone) sends every probe back as it came, bounded
 * in rate; control.c serves it while the test waits for its data and,
 * beside the streams, while they run. */
#include "server/echo.h"

#include "remote/probe.h"

#define ECHO_WINDOW_NS 1000000000ll

void ttcp_echo_init(struct ttcp_echo *e, tt_socket s)
{
    e->sock = s;
    e->window_ns = 0;
    e->in_window = 0;
    e->echoed = e->refused = 0;
}

/* One datagram waiting on the socket: echoed if it is a probe and the
 * second's allowance is not spent. */
static void echo_one(struct ttcp_echo *e)
{
    unsigned char buf[TTCP_PROBE_LEN + 1];
    int64_t n = tt_recv(e->sock, buf, sizeof buf), now;
    if (n <= 0 || !ttcp_probe_echoable(buf, (size_t)n))
        return; /* a late hello, or anything else: not answered */
    now = tt_now_ns();
    if (now - e->window_ns >= ECHO_WINDOW_NS) {
        e->window_ns = now;
        e->in_window = 0;
    }
    if (e->in_window >= TTCP_PROBE_ECHO_PER_S) {
        e->refused++;
        return;
    }
    e->in_window++;
    if (tt_send(e->sock, buf, (size_t)n) == n)
        e->echoed++;
}

void ttcp_echo_for(struct ttcp_echo *e, int64_t ns)
{
    int64_t end = tt_now_ns() + ns;
    for (;;) {
        int64_t left = end - tt_now_ns();
        int rc;
        if (left <= 0 || tt_interrupted())
            return;
        rc = tt_wait_readable(e->sock, (int)(left / 1000000) + 1);
        if (rc > 0)
            echo_one(e);
        else if (rc < 0 && rc != TT_E_INTR)
            return;
    }
}

void ttcp_echo_close(struct ttcp_echo *e)
{
    if (e->sock != TT_NO_SOCKET)
        tt_close(e->sock);
    e->sock = TT_NO_SOCKET;
}
