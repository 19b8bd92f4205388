/* The TCP transmitter: nbuf pattern buffers (or stdin) to the network, then
 * a half close and a bounded wait for the receiver's close, so the figure
 * covers delivery and not just the last write (design.md §4). */
#include "session.h"

#define CLOSE_POLL_MS 200

/* Sends all of len bytes; every call counts, as 1.12's numCalls does. */
static int send_all(struct ttcp_session *s, const unsigned char *p, size_t len)
{
    struct ttcp_result *r = s->res;
    while (len > 0) {
        int64_t n = tt_send(s->sock, p, len);
        if (n < 0) {
            if (n == TT_E_INTR && !tt_interrupted())
                continue;
            if (n == TT_E_INTR)
                return (int)n;
            return ttcp_fail(s, (int)n, "IO");
        }
        r->calls++;
        r->bytes += (uint64_t)n;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int send_pattern(struct ttcp_session *s)
{
    uint64_t i;
    for (i = 0; i < s->opts->nbuf && !tt_interrupted(); i++) {
        int rc = send_all(s, s->buf.data, s->buf.len);
        if (rc != 0)
            return rc;
    }
    return 0;
}

static int send_stdin(struct ttcp_session *s)
{
    while (!tt_interrupted()) {
        int64_t n = tt_stdin_read(s->buf.data, s->buf.len);
        int rc;
        if (n == 0)
            return 0;
        if (n == TT_E_INTR)
            continue;
        if (n < 0)
            return ttcp_fail(s, (int)n, "read");
        rc = send_all(s, s->buf.data, (size_t)n);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* After our FIN, waits until the receiver closes. Bounded: gives up when
 * the unacknowledged byte count has not moved for the idle timeout. Returns
 * when the figure ends: now, or at the last progress after a timeout. */
static int64_t wait_for_receiver_close(struct ttcp_session *s)
{
    unsigned char sink[512];
    int64_t idle_since = tt_now_ns(), unacked = tt_unacked_bytes(s->sock);

    while (!tt_interrupted()) {
        int rc = tt_wait_readable(s->sock, CLOSE_POLL_MS);
        if (rc > 0) {
            int64_t n = tt_recv(s->sock, sink, sizeof sink);
            if (n == 0)
                break; /* the receiver has everything and closed */
            if (n < 0 && n != TT_E_INTR) {
                ttcp_emit(s, TTCP_EV_WARNING, "the receiver reset the connection at the end");
                break;
            }
            continue; /* a classic peer sends nothing; anything else is ignored */
        }
        if (rc < 0 && rc != TT_E_INTR)
            break;
        if (tt_unacked_bytes(s->sock) != unacked) {
            unacked = tt_unacked_bytes(s->sock);
            idle_since = tt_now_ns();
        } else if (tt_now_ns() - idle_since >= s->opts->idle_timeout_ns) {
            s->res->idle_timeout = 1;
            ttcp_emit(s, TTCP_EV_WARNING, "the receiver did not close (idle timeout); "
                      "figures end at the last progress");
            return idle_since;
        }
    }
    return tt_now_ns();
}

int ttcp_tcp_transmit(struct ttcp_session *s)
{
    int rc;

    ttcp_timer_start(s);
    rc = s->opts->sinkmode ? send_pattern(s) : send_stdin(s);
    if (rc == 0 && !tt_interrupted() && tt_shutdown_send(s->sock) == 0)
        ttcp_timer_stop_at(s, wait_for_receiver_close(s));
    else
        ttcp_timer_stop(s);
    s->res->interrupted = tt_interrupted() != 0;
    return rc == TT_E_INTR ? 0 : rc;
}
