/* UDP: the marker protocol of 1.12 on both sides. The transmitter sends a
 * start marker, the data, an end marker, then four more end markers after a
 * short pause; the receiver never hangs once a test has begun. */
#include "udp.h"

#include <stdio.h>

#include "session.h"

#define ENOBUFS_BACKOFF_NS 18000000ll  /* 1.12's select() back-off: 18 ms */
#define TRAILING_PAUSE_NS 100000000ll  /* lets a busy receiver drain first */
#define RECV_POLL_MS 250               /* how often the receiver looks at Ctrl+C */
#define TRAILING_QUIET_NS 1000000000ll /* -c: markers this soon after an end are trailing */

/* The first 4 bytes of the classic pattern, as 1.12's markers carry. */
static const unsigned char marker[TTCP_UDP_MARKER_MAX] = {' ', '!', '"', '#'};

enum ttcp_udp_action ttcp_udp_step(enum ttcp_udp_state *state, size_t datagram_len)
{
    int is_marker = datagram_len <= TTCP_UDP_MARKER_MAX;
    switch (*state) {
    case TTCP_UDP_WAITING:
        *state = TTCP_UDP_RUNNING;
        return is_marker ? TTCP_UDP_START : TTCP_UDP_START_DATA;
    case TTCP_UDP_RUNNING:
        if (!is_marker)
            return TTCP_UDP_DATA;
        *state = TTCP_UDP_DONE;
        return TTCP_UDP_END;
    case TTCP_UDP_DONE:
    default:
        return TTCP_UDP_IGNORE;
    }
}

/* One datagram; ENOBUFS backs off and retries, each try an I/O call. */
static int send_datagram(struct ttcp_session *s, const void *p, size_t len)
{
    for (;;) {
        int64_t n = tt_sendto(s->sock, p, len, &s->dest);
        if (n >= 0 || n == TT_E_NOBUFS)
            s->res->calls++;
        if (n >= 0)
            return 0;
        if (n == TT_E_NOBUFS)
            tt_sleep_ns(ENOBUFS_BACKOFF_NS);
        else if (n == TT_E_INTR && tt_interrupted())
            return TT_E_INTR;
        else if (n != TT_E_INTR)
            return ttcp_fail(s, (int)n, "IO");
    }
}

/* Reads stdin until the buffer is full or EOF, so datagrams are full size. */
static int64_t fill_from_stdin(struct ttcp_session *s)
{
    size_t got = 0;
    while (got < s->buf.len) {
        int64_t n = tt_stdin_read(s->buf.data + got, s->buf.len - got);
        if (n == TT_E_INTR && !tt_interrupted())
            continue;
        if (n < 0)
            return got > 0 ? (int64_t)got : n;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (int64_t)got;
}

/* The next datagram's length: the whole buffer in sink mode, else what
 * stdin gave; 0 when there is nothing more to send. */
static int64_t next_datagram(struct ttcp_session *s, uint64_t sent)
{
    int64_t n;
    if (s->opts->sinkmode)
        return ttcp_keep_sending(s, sent) ? (int64_t)s->buf.len : 0;
    n = fill_from_stdin(s);
    if (n < 0)
        return ttcp_fail(s, (int)n, "read");
    if (n > 0 && n <= TTCP_UDP_MARKER_MAX) {
        char why[96];
        snprintf(why, sizeof why, "the last %d bytes of input not sent: so short a datagram "
                 "is an end marker", (int)n);
        ttcp_emit(s, TTCP_EV_WARNING, why);
        return 0;
    }
    return n;
}

/* In sink mode ttcp's header leads each data datagram (unless the user
 * wants plain 1.12 datagrams), so a ttcp receiver can tell loss, order and
 * jitter; the random pattern is made per datagram from its own seed, so
 * each datagram can be checked alone. */
static int with_header(const struct ttcp_session *s)
{
    return s->opts->sinkmode && !s->opts->no_udp_stats && s->buf.len >= TTCP_UDP_HEADER;
}

static void stamp_datagram(struct ttcp_session *s)
{
    struct ttcp_udp_header h;
    h.pattern = (uint8_t)s->opts->pattern;
    h.seq = s->udp_seq++;
    h.seed = s->res->seed + h.seq;
    h.sent_ns = tt_now_ns();
    ttcp_udp_header_write(s->buf.data, &h);
    if (s->opts->pattern == TTCP_PAYLOAD_RANDOM) {
        struct ttcp_prng g;
        ttcp_prng_seed(&g, h.seed);
        ttcp_prng_fill(&g, s->buf.data + TTCP_UDP_HEADER, s->buf.len - TTCP_UDP_HEADER);
    }
}

int ttcp_udp_transmit(struct ttcp_session *s)
{
    uint64_t sent;
    int64_t len = 0;
    int rc, i;

    ttcp_timer_start(s);
    rc = send_datagram(s, marker, sizeof marker);
    for (sent = 0; rc == 0 && !tt_interrupted(); sent++) {
        len = next_datagram(s, sent);
        if (len <= 0)
            break;
        if (s->opts->pace_bps)
            ttcp_pace(s, (uint64_t)len);
        if (with_header(s))
            stamp_datagram(s);
        else if (s->opts->pattern == TTCP_PAYLOAD_RANDOM)
            ttcp_prng_fill(&s->prng, s->buf.data, s->buf.len);
        rc = send_datagram(s, s->buf.data, (size_t)len);
        if (rc == 0)
            s->res->bytes += (uint64_t)len;
        if (s->clocked)
            ttcp_tick(s);
    }
    if (len < 0)
        rc = (int)len;
    if (rc == 0 || rc == TT_E_INTR)
        rc = send_datagram(s, marker, sizeof marker);
    ttcp_timer_stop(s);
    s->res->interrupted = tt_interrupted() != 0;
    if (rc == 0 || rc == TT_E_INTR) {
        tt_sleep_ns(TRAILING_PAUSE_NS);
        for (i = 0; i < TTCP_UDP_TRAILING_MARKERS; i++)
            send_datagram(s, marker, sizeof marker);
    }
    return rc == TT_E_INTR ? 0 : rc;
}

/* Ends a test that went quiet: the figures cover the time up to the last
 * datagram, and a warning says why the end marker was not needed. */
static void end_by_idle_timeout(struct ttcp_session *s, int64_t last_ns)
{
    char why[128];
    snprintf(why, sizeof why, "no data for %.1f s (idle timeout), end marker lost; "
             "figures end at the last datagram", (double)s->opts->idle_timeout_ns / 1e9);
    s->res->idle_timeout = 1;
    ttcp_emit(s, TTCP_EV_WARNING, why);
    ttcp_timer_stop_at(s, last_ns);
}

/* What a datagram with ttcp's header tells: its place in the sequence,
 * its transit time, and (--verify) whether its bytes arrived intact. */
static void read_header(struct ttcp_session *s, size_t n, int64_t arrived_ns)
{
    struct ttcp_udp_header h;
    struct ttcp_result *r = s->res;
    if (!ttcp_udp_header_read(s->buf.data, n, &h))
        return;
    r->udp_stats_valid = 1;
    ttcp_udp_stats_add(&r->udp, h.seq, h.sent_ns, arrived_ns);
    if (s->opts->verify && h.pattern <= TTCP_PAYLOAD_ZEROS) {
        uint64_t bad = ttcp_payload_check((enum ttcp_payload)h.pattern, h.seed, TTCP_UDP_HEADER,
                                          s->buf.data + TTCP_UDP_HEADER, n - TTCP_UDP_HEADER);
        r->verify.kind = h.pattern;
        if (bad != 0 && r->verify.corrupted == 0)
            r->verify.first_bad = r->verify.offset;
        r->verify.corrupted += bad;
        r->verify.offset += n - TTCP_UDP_HEADER;
    }
}

/* Counts (and in non-sink mode writes out) one data datagram. */
static int take_data(struct ttcp_session *s, int64_t n, int64_t arrived_ns)
{
    if ((uint64_t)n > s->buf.len) { /* the platform reports a longer datagram */
        s->res->truncated = 1;
        n = (int64_t)s->buf.len;
    }
    s->res->bytes += (uint64_t)n;
    if (s->opts->sinkmode)
        read_header(s, (size_t)n, arrived_ns);
    if (!s->opts->sinkmode) {
        int64_t w = tt_stdout_write(s->buf.data, (size_t)n);
        if (w < 0)
            return ttcp_fail(s, (int)w, "write");
    }
    return 0;
}

int ttcp_udp_receive(struct ttcp_session *s)
{
    enum ttcp_udp_state state = TTCP_UDP_WAITING;
    int64_t last_ns = 0;
    int rc = 0;

    tt_setopt(s->sock, TT_OPT_RCVTIMEO_MS, RECV_POLL_MS);
    while (rc == 0 && state != TTCP_UDP_DONE && !tt_interrupted()) {
        int64_t n = tt_recvfrom(s->sock, s->buf.data, s->buf.len, NULL);
        if (n == TT_E_AGAIN || n == TT_E_INTR) {
            if (tt_interrupted())
                break;
            if (state == TTCP_UDP_RUNNING &&
                tt_now_ns() - last_ns >= s->opts->idle_timeout_ns) {
                end_by_idle_timeout(s, last_ns);
                return 0;
            }
            continue;
        }
        if (n < 0)
            return ttcp_fail(s, (int)n, "IO");
        if (n <= TTCP_UDP_MARKER_MAX && state == TTCP_UDP_WAITING &&
            s->quiet_until_ns != 0 && tt_now_ns() < s->quiet_until_ns)
            continue; /* the last test's trailing end markers */
        s->res->calls++;
        switch (ttcp_udp_step(&state, (size_t)n)) {
        case TTCP_UDP_START:
            ttcp_timer_start(s);
            last_ns = s->start_ns;
            break;
        case TTCP_UDP_START_DATA:
            ttcp_timer_start(s);
            /* fall through */
        case TTCP_UDP_DATA:
            last_ns = tt_now_ns();
            rc = take_data(s, n, last_ns);
            if (s->clocked)
                ttcp_tick(s);
            break;
        default:
            break;
        }
    }
    s->res->interrupted = tt_interrupted() != 0;
    if (!s->res->started)
        return s->res->interrupted ? ttcp_fail(s, TT_E_INTR, "recvfrom") : rc;
    ttcp_timer_stop(s);
    s->quiet_until_ns = tt_now_ns() + TRAILING_QUIET_NS;
    if (s->res->truncated)
        ttcp_emit(s, TTCP_EV_WARNING, "datagrams longer than -l were cut short; "
                  "bytes counted are what -l let in");
    return rc;
}
