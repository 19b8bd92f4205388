/* The TCP transmitter: nbuf pattern buffers (or stdin) to the network, then
 * a half close and a bounded wait for the receiver's close, so the figure
 * covers delivery and not just the last write (docs/COMPAT.md, "The
 * transmitter waits for the receiver's close"). What the receiver sends back
 * meanwhile (IOS's half close) is counted. */
#include <string.h>

#include "engine/phases.h"
#include "engine/run.h" /* TTCP_RUN_TELL_SENT */

#define CLOSE_POLL_MS 200
#define SENT_POLL_MS 10 /* TTCP_RUN_TELL_SENT: how soon the last acknowledgement is seen */

/* --pattern random: the stream is the preamble (magic and seed), then the
 * seeded generator's bytes, made afresh for every buffer; a buffer shorter
 * than the preamble carries part of it. */
static void next_random_buffer(struct ttcp_session *s, uint64_t *preamble_sent)
{
    unsigned char head[TTCP_RANDOM_PREAMBLE];
    size_t skip = 0;
    if (*preamble_sent < sizeof head) {
        ttcp_random_preamble(head, s->res->seed);
        skip = sizeof head - (size_t)*preamble_sent;
        if (skip > s->buf.len)
            skip = s->buf.len;
        memcpy(s->buf.data, head + *preamble_sent, skip);
        *preamble_sent += skip;
    }
    ttcp_prng_fill(&s->prng, s->buf.data + skip, s->buf.len - skip);
}

/* -n buffers, --time seconds, or with -c until Ctrl+C or until the receiver
 * goes away. */
static int send_pattern(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    uint64_t i, preamble_sent = 0;
    for (i = 0; ttcp_keep_sending(s, i); i++) {
        int rc;
        if (o->pace_bps)
            ttcp_pace(s, s->buf.len);
        if (o->pattern == TTCP_PAYLOAD_RANDOM)
            next_random_buffer(s, &preamble_sent);
        rc = ttcp_send_all(s, s->buf.data, s->buf.len, &s->res->bytes, &s->res->calls);
        if (rc != 0)
            return rc;
        if (s->clocked)
            ttcp_tick(s);
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
            return ttcp_fail(s, (int)n, TTCP_OP_READ);
        if (s->opts->pace_bps)
            ttcp_pace(s, (uint64_t)n);
        rc = ttcp_send_all(s, s->buf.data, (size_t)n, &s->res->bytes, &s->res->calls);
        if (rc != 0)
            return rc;
        if (s->clocked)
            ttcp_tick(s);
    }
    return 0;
}

/* Reads one piece the receiver sent back; returns 0 when the wait is over
 * (EOF, a reset), 1 to go on. */
static int take_back(struct ttcp_session *s, struct ttcp_moment *first_back)
{
    size_t len = (size_t)ttcp_options_back_buflen(s->opts);
    int64_t n = tt_recv(s->sock, s->buf.data, len);
    if (n == TT_E_INTR)
        return 1;
    if (n < 0) {
        /* a reset, not a close: the receiver let data go unread (a crash, a
         * kill), so none of it is known to have been delivered */
        ttcp_warn(s, TTCP_WARN_RESET_AT_END);
        (void)ttcp_fail(s, (int)n, TTCP_OP_IO);
        s->res->delivery = TTCP_DELIVERY_NOT_CONFIRMED;
    } else if (n == 0) {
        s->res->delivery = TTCP_DELIVERY_CONFIRMED;
    }
    if (n <= 0)
        return 0;
    ttcp_after_read(s);
    s->res->back_done = 1;
    s->res->delivery = TTCP_DELIVERY_CONFIRMED; /* it read our data to answer */
    if (first_back->ns == 0)
        ttcp_moment_now(s, first_back);
    s->res->back_bytes += (uint64_t)n;
    return 1;
}

/* TTCP_RUN_TELL_SENT: once every byte sent is acknowledged (or the OS
 * cannot tell), the caller hears it, once. */
static void tell_sent(struct ttcp_session *s, int *told)
{
    if (*told || !(s->run_flags & TTCP_RUN_TELL_SENT) || tt_unacked_bytes(s->sock) > 0)
        return;
    *told = 1;
    ttcp_emit(s, TTCP_EV_SENT);
}

/* The receiver neither closed nor reset within --idle-timeout: bytes it
 * never acknowledged (a closed window: it stopped reading) are not known
 * to have arrived, which fails the test; all acknowledged, its host had
 * them. Where the OS cannot tell, nothing is claimed either way. */
static void unacked_at_idle(struct ttcp_session *s, int64_t unacked)
{
    if (unacked > 0) {
        s->res->delivery = TTCP_DELIVERY_NOT_CONFIRMED;
        s->res->unacked_at_end = (uint64_t)unacked;
        ttcp_warn(s, TTCP_WARN_UNACKED);
        (void)ttcp_fail(s, TT_E_AGAIN, TTCP_OP_IO);
        s->res->failure.native = 0; /* no system call failed: the peer went quiet */
    } else if (unacked == 0) {
        s->res->delivery = TTCP_DELIVERY_ACKNOWLEDGED;
    }
}

/* After our FIN, waits until the receiver closes. Bounded: gives up when
 * nothing has moved (bytes in flight, bytes back) for the idle timeout.
 * The forward figure ends at the first byte back (the receiver had
 * everything), at the close, or at the last progress: *end gets that
 * moment, with the CPU time read then, so the CPU share covers the figure. */
static void wait_for_receiver_close(struct ttcp_session *s, struct ttcp_moment *end)
{
    struct ttcp_moment first_back = {0}, progress;
    int64_t unacked = tt_unacked_bytes(s->sock);
    int told = 0;

    ttcp_moment_now(s, &progress);
    end->ns = 0;
    while (!tt_interrupted() && end->ns == 0) {
        int rc;
        tell_sent(s, &told);
        rc = tt_wait_readable(s->sock, told || !(s->run_flags & TTCP_RUN_TELL_SENT)
                                           ? CLOSE_POLL_MS : SENT_POLL_MS);
        uint64_t before = s->res->back_bytes;
        if ((rc > 0 && !take_back(s, &first_back)) || (rc < 0 && rc != TT_E_INTR)) {
            ttcp_moment_now(s, end);
        } else if (s->res->back_bytes != before || tt_unacked_bytes(s->sock) != unacked) {
            unacked = tt_unacked_bytes(s->sock);
            ttcp_moment_now(s, &progress);
        } else if (tt_now_ns() - progress.ns >= s->opts->idle_timeout_ns) {
            s->res->idle_timeout = 1;
            ttcp_warn(s, TTCP_WARN_NO_CLOSE);
            *end = progress;
            unacked_at_idle(s, unacked);
        }
    }
    if (end->ns == 0)
        ttcp_moment_now(s, end);
    if (first_back.ns != 0) {
        s->res->back_ns = end->ns - first_back.ns;
        *end = first_back;
    }
}

/* TTCP_RUN_SHARED_SOCKET: after our FIN, until every byte is acknowledged
 * (or the OS cannot tell), without a read: the other way's stream reads. */
static void wait_acknowledged(struct ttcp_session *s, struct ttcp_moment *end)
{
    struct ttcp_moment progress;
    int64_t unacked = tt_unacked_bytes(s->sock), now;
    ttcp_moment_now(s, &progress);
    while (unacked > 0 && !tt_interrupted()) {
        tt_sleep_ns(SENT_POLL_MS * 1000000ll);
        now = tt_unacked_bytes(s->sock);
        if (now != unacked) {
            unacked = now;
            ttcp_moment_now(s, &progress);
        } else if (tt_now_ns() - progress.ns >= s->opts->idle_timeout_ns) {
            s->res->idle_timeout = 1;
            *end = progress;
            unacked_at_idle(s, unacked);
            return;
        }
    }
    if (unacked == 0)
        s->res->delivery = TTCP_DELIVERY_ACKNOWLEDGED;
    ttcp_moment_now(s, end);
}

/* With -c, the receiver going away is how a continuous test ends. */
static int peer_left(const struct ttcp_session *s, int rc)
{
    return s->opts->continuous && (rc == TT_E_PIPE || rc == TT_E_CONNRESET);
}

/* The observer stopped the test (iperf3's TEST_END): no close comes to
 * wait for, and a send its stop woke (the socket shut down) is its end. */
static int stopped_by_observer(const struct ttcp_session *s)
{
    return !tt_interrupted() && ttcp_stopping(s);
}

int ttcp_tcp_transmit(struct ttcp_session *s)
{
    int rc, stopped;

    ttcp_timer_start(s);
    rc = s->opts->sinkmode ? send_pattern(s) : send_stdin(s);
    stopped = stopped_by_observer(s);
    ttcp_over_limit(s);
    if (rc == 0 && !stopped)
        ttcp_pace_finish(s);
    if (peer_left(s, rc) || (stopped && rc != 0)) {
        s->res->failure.code = 0;
        rc = 0;
        ttcp_timer_stop(s);
    } else if (rc == 0 && !stopped && !tt_interrupted() && tt_shutdown_send(s->sock) == 0) {
        struct ttcp_moment end;
        s->res->back_done = s->opts->half_close; /* reading back is the half close */
        if (s->run_flags & TTCP_RUN_SHARED_SOCKET)
            wait_acknowledged(s, &end);
        else
            wait_for_receiver_close(s, &end);
        ttcp_timer_stop_at(s, &end);
        if (!tt_interrupted())
            rc = s->res->failure.code; /* a reset, or data never acknowledged */
    } else {
        ttcp_timer_stop(s);
        if (rc == 0 && !stopped && !tt_interrupted()) { /* shutdown failed: reset before our FIN */
            ttcp_warn(s, TTCP_WARN_RESET_BEFORE_FIN);
            rc = ttcp_fail(s, TT_E_CONNRESET, TTCP_OP_IO);
            s->res->failure.native = 0; /* (the shutdown's own error says less) */
            s->res->delivery = TTCP_DELIVERY_NOT_CONFIRMED;
        }
    }
    s->res->interrupted = tt_interrupted() != 0;
    ttcp_capture_tcp_info(s, 1);
    return rc == TT_E_INTR ? 0 : rc;
}
