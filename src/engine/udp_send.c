/* The UDP transmitter: start marker, data, end marker, a short pause, four
 * more end markers. In sink mode ttcp's header leads each data datagram
 * (unless the user wants plain 1.12 datagrams), so a ttcp receiver can tell
 * loss, order and jitter; without pacing, datagrams leave in batches of
 * TT_BATCH_MAX per system call where the OS allows. */
#include <string.h>

#include "engine/phases.h"
#include "engine/run.h" /* TTCP_RUN_TELL_SENT */
#include "engine/udp.h"

#define ENOBUFS_BACKOFF_NS 18000000ll /* 1.12's select() back-off: 18 ms */
#define TRAILING_PAUSE_NS 100000000ll /* lets a busy receiver drain first */
#define TTCP_IPERF3_HEADER_MAX 16     /* iperf3's header with 64-bit counts */

/* Failures in a row a connected socket's send may take for ICMP reports of
 * earlier datagrams before one is its own. Each report is consumed by the
 * call that hears it, so a run of them needs a report arriving between every
 * two calls a microsecond apart: real ICMP is rate-limited far below that. */
#define REPORTS_IN_A_ROW_MAX 16

/* A connected socket hears an ICMP error about an earlier datagram (port
 * unreachable, a firewall's "prohibited", fragmentation needed) as the
 * failure of a later send, which 1.12's unconnected sendto() never saw.
 * Warned of once a send after it went, so a failure of the send's own is
 * never announced as a report first. */
static void heard_icmp(struct ttcp_session *s, int code, int native)
{
    if (code == TT_E_CONNREFUSED || code == TT_E_CONNRESET) {
        ttcp_warn(s, TTCP_WARN_PORT_UNREACHABLE);
        return;
    }
    if (!(s->res->warnings & (1u << TTCP_WARN_ICMP))) {
        s->res->icmp_code = code;
        s->res->icmp_native = native;
    }
    ttcp_warn(s, TTCP_WARN_ICMP);
}

/* --dont-fragment: a datagram larger than the path MTU, here or on the way
 * (a router's "fragmentation needed" heard as a later send's failure, then
 * the system's own refusal): the test fails, naming the MTU the OS learnt,
 * instead of losing every datagram. */
static int too_big(struct ttcp_session *s)
{
    int rc = ttcp_fail(s, TT_E_MSGSIZE, TTCP_OP_DONTFRAG), mtu = 0;
    if (tt_getopt(s->sock, TT_OPT_PATH_MTU, &mtu) == 0 && mtu > 0)
        s->res->failure.path_mtu = mtu;
    return rc;
}

/* Sends datagrams; ENOBUFS backs off and tries again, each try an I/O call
 * as 1.12 counts it. On a connected socket a failed call sent nothing and is
 * first taken for an earlier datagram's ICMP report: counted, and the send
 * tried again, up to REPORTS_IN_A_ROW_MAX times; the last failure is the
 * send's own. After the end, a failed marker only means the receiver has
 * finished: it counts as sent, as 1.12's would have been. Returns how many
 * went, or a negative code. */
static int send_some(struct ttcp_session *s, const struct tt_datagram *d, int count, int after_end)
{
    int reports = 0, report = 0, report_native = 0;
    for (;;) {
        int n = tt_sendto_batch(s->sock, d, count, s->dest.len ? &s->dest : NULL);
        if (n > 0) {
            s->res->calls += (uint64_t)n;
            if (reports > 0)
                heard_icmp(s, report, report_native);
            return n;
        }
        if (n == TT_E_NOBUFS) {
            s->res->calls++;
            tt_sleep_ns(ENOBUFS_BACKOFF_NS);
        } else if (n == TT_E_MSGSIZE && s->opts->dont_fragment) {
            return too_big(s);
        } else if (n != TT_E_INTR && s->dest.len == 0 && after_end) {
            s->res->calls++;
            return 1;
        } else if (n != TT_E_INTR && s->dest.len == 0 && reports < REPORTS_IN_A_ROW_MAX) {
            s->res->calls++;
            if (reports++ == 0) { /* the first report is the one warned of */
                report = n;
                report_native = tt_last_error();
            }
        } else if (n == TT_E_INTR && tt_interrupted()) {
            return TT_E_INTR;
        } else if (n != TT_E_INTR) {
            return ttcp_fail(s, n, TTCP_OP_IO);
        }
    }
}

static int send_marker_bytes(struct ttcp_session *s, const unsigned char *bytes, int after_end)
{
    struct tt_datagram d;
    int n;
    if (s->opts->udp_iperf3)
        return 0; /* iperf3's test begins and ends on its control connection */
    memset(&d, 0, sizeof d);
    d.buf = (unsigned char *)bytes;
    d.len = TTCP_UDP_MARKER_MAX;
    n = send_some(s, &d, 1, after_end);
    return n < 0 ? n : 0;
}

static int send_marker(struct ttcp_session *s, int after_end)
{
    return send_marker_bytes(s, ttcp_udp_marker, after_end);
}

/* nuttcp's k-th start or end marker ("BOD1", "EOD3"). */
static int send_nuttcp_marker(struct ttcp_session *s, int begin, int k, int after_end)
{
    unsigned char m[TTCP_UDP_MARKER_MAX];
    ttcp_nuttcp_marker(begin, k, m);
    return send_marker_bytes(s, m, after_end);
}

static int with_header(const struct ttcp_session *s)
{
    if (s->opts->udp_iperf3)
        return s->buf.len >= TTCP_IPERF3_HEADER_MAX;
    return s->opts->sinkmode && s->opts->udp_dialect == TTCP_UDP_TTCP && !s->opts->no_udp_stats &&
           s->buf.len >= TTCP_UDP_HEADER;
}

/* The header, and for the random pattern the bytes after it, made from
 * this datagram's own seed so each datagram can be checked alone. */
static void stamp(struct ttcp_session *s, unsigned char *buf, uint64_t seq, int64_t now)
{
    struct ttcp_udp_header h;
    if (s->opts->udp_iperf3) { /* iperf3's: the moment as seconds and microseconds, from 1 */
        struct ttcp_udp_iperf3 i3;
        i3.sec = (uint32_t)(now / 1000000000);
        i3.usec = (uint32_t)(now % 1000000000 / 1000);
        i3.count = seq + 1;
        ttcp_udp_iperf3_write(buf, s->buf.len, &i3, s->opts->udp_iperf3 == TTCP_UDP_IPERF3_64);
        return;
    }
    h.pattern = (uint8_t)s->opts->pattern;
    h.seq = seq;
    h.seed = s->res->seed + seq;
    h.sent_ns = now;
    ttcp_udp_header_write(buf, &h);
    if (s->opts->pattern == TTCP_PAYLOAD_RANDOM) {
        struct ttcp_prng g;
        ttcp_prng_seed(&g, h.seed);
        ttcp_prng_fill(&g, buf + TTCP_UDP_HEADER, s->buf.len - TTCP_UDP_HEADER);
    }
}

/* Makes datagram buf ready to go (header or fresh random bytes). */
static void prepare(struct ttcp_session *s, unsigned char *buf, uint64_t seq, int64_t now)
{
    if (s->opts->sinkmode && s->stamp != NULL)
        s->stamp->write(s->stamp->ctx, buf, s->buf.len, seq, now);
    else if (with_header(s))
        stamp(s, buf, seq, now);
    else if (s->opts->pattern == TTCP_PAYLOAD_RANDOM)
        ttcp_prng_fill(&s->prng, buf, s->buf.len);
    if (s->opts->udp_dialect == TTCP_UDP_NUTTCP) /* the bytes sent, this one's too */
        ttcp_nuttcp_count_write(buf, s->buf.len, (seq + 1) * (uint64_t)s->buf.len);
}

/* How many datagrams the next batch holds: what is left to send, at most a
 * batch; paced, what is due now (after sleeping for the first). */
static int batch_size(struct ttcp_session *s, uint64_t sent)
{
    uint64_t left = s->opts->duration_ns || s->opts->continuous ? TT_BATCH_MAX
                                                                 : s->opts->nbuf - sent;
    int most = left < (uint64_t)s->batch_slots ? (int)left : s->batch_slots, count = 1;
    if (!s->opts->pace_bps)
        return most;
    ttcp_pace(s, s->buf.len);
    while (count < most && ttcp_pace_more(s, s->buf.len))
        count++;
    return count;
}

/* Sink mode: a batch of datagrams per call. */
static int send_batch(struct ttcp_session *s, uint64_t sent)
{
    struct tt_datagram d[TT_BATCH_MAX];
    int count = batch_size(s, sent), i, n;
    int64_t now = tt_now_ns();

    for (i = 0; i < count; i++) {
        d[i].buf = s->batch + (size_t)i * s->batch_stride;
        d[i].len = s->buf.len;
        prepare(s, d[i].buf, s->udp_seq + (uint64_t)i, now);
    }
    n = send_some(s, d, count, 0);
    if (n > 0) {
        s->udp_seq += (uint64_t)n; /* the unsent ones are stamped again next time */
        s->res->bytes += (uint64_t)n * s->buf.len;
    }
    return n;
}

/* Reads stdin until the buffer is full or EOF, so datagrams are full size. */
static int64_t fill_from_stdin(struct ttcp_session *s)
{
    size_t got = 0;
    while (got < s->buf.len && !tt_interrupted()) {
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

/* The next single datagram's length: the whole buffer in sink mode, else
 * what stdin gave; 0 when there is nothing more to send. */
static int64_t next_datagram(struct ttcp_session *s, uint64_t sent)
{
    int64_t n;
    if (s->opts->sinkmode)
        return ttcp_keep_sending(s, sent) ? (int64_t)s->buf.len : 0;
    n = fill_from_stdin(s);
    if (n < 0)
        return ttcp_fail(s, (int)n, TTCP_OP_READ);
    if (n > 0 && n <= TTCP_UDP_MARKER_MAX) {
        s->res->unsent_tail = (uint64_t)n;
        ttcp_warn(s, TTCP_WARN_INPUT_TAIL);
        return 0;
    }
    return n;
}

/* One datagram at a time: from stdin, or where no batch could be had. */
static int send_one(struct ttcp_session *s, uint64_t sent)
{
    struct tt_datagram d;
    int64_t len = next_datagram(s, sent);
    int n;
    if (len <= 0)
        return (int)len;
    if (s->opts->pace_bps)
        ttcp_pace(s, (uint64_t)len);
    prepare(s, s->buf.data, s->udp_seq, tt_now_ns());
    d.buf = s->buf.data;
    d.len = (size_t)len;
    n = send_some(s, &d, 1, 0);
    if (n > 0) {
        s->udp_seq++;
        s->res->bytes += (uint64_t)len;
    }
    return n;
}

static int send_data(struct ttcp_session *s)
{
    uint64_t sent = 0;
    for (;;) {
        int n;
        if (s->batch != NULL)
            n = ttcp_keep_sending(s, sent) ? send_batch(s, sent) : 0;
        else
            n = send_one(s, sent);
        if (n <= 0)
            return n;
        sent += (uint64_t)n;
        if (s->clocked)
            ttcp_tick(s);
        if (tt_interrupted())
            return 0;
    }
}

/* nuttcp's receiver: "BOD0", "BOD1" a quarter of a second later (the
 * timer starts after it, as nuttcp's receiver restarts its own at each),
 * the data, "EOD0"; then "EOD1" to "EOD4" half a second apart. */
static int nuttcp_transmit(struct ttcp_session *s)
{
    int rc = send_nuttcp_marker(s, 1, 0, 0), k;
    if (rc == 0) {
        tt_sleep_ns(TTCP_NUTTCP_BOD_GAP_NS);
        rc = send_nuttcp_marker(s, 1, 1, 0);
    }
    ttcp_timer_start(s);
    if (rc == 0)
        rc = send_data(s);
    if (rc == 0)
        ttcp_pace_finish(s);
    if (rc == 0 || rc == TT_E_INTR)
        rc = send_nuttcp_marker(s, 0, 0, 0);
    ttcp_timer_stop(s);
    s->res->interrupted = tt_interrupted() != 0;
    for (k = 1; (rc == 0 || rc == TT_E_INTR) && k < TTCP_NUTTCP_EOD_COUNT; k++) {
        tt_sleep_ns(TTCP_NUTTCP_EOD_GAP_NS);
        send_nuttcp_marker(s, 0, k, 1);
    }
    return rc == TT_E_INTR ? 0 : rc;
}

int ttcp_udp_transmit(struct ttcp_session *s)
{
    int rc, i;

    if (s->opts->udp_dialect == TTCP_UDP_NUTTCP)
        return nuttcp_transmit(s);
    ttcp_timer_start(s);
    if (s->opts->sinkmode && s->stamp != NULL) { /* another tool's: its own ends */
        rc = send_data(s);
        ttcp_pace_finish(s);
        ttcp_timer_stop(s);
        s->res->interrupted = tt_interrupted() != 0;
        return rc == TT_E_INTR ? 0 : rc;
    }
    rc = send_marker(s, 0);
    if (rc == 0)
        rc = send_data(s);
    if (rc == 0)
        ttcp_pace_finish(s);
    if (rc == 0 || rc == TT_E_INTR)
        rc = send_marker(s, 0);
    ttcp_timer_stop(s);
    s->res->interrupted = tt_interrupted() != 0;
    if (s->run_flags & TTCP_RUN_TELL_SENT)
        ttcp_emit(s, TTCP_EV_SENT);
    if ((rc == 0 || rc == TT_E_INTR) && !s->opts->udp_iperf3) {
        tt_sleep_ns(TRAILING_PAUSE_NS);
        for (i = 0; i < TTCP_UDP_TRAILING_MARKERS; i++)
            send_marker(s, 1);
    }
    return rc == TT_E_INTR ? 0 : rc;
}
