/* The UDP receiver: the marker state machine over what arrives, in batches
 * where the OS allows; an idle timeout once a test has begun, so a lost end
 * marker never hangs it; ttcp's header, when present, for loss, order,
 * jitter and the payload check. */
#include <string.h>

#include "engine/phases.h"
#include "engine/run.h" /* TTCP_RUN_TELL_BYTES */
#include "engine/udp.h"
#include "measure/pattern.h"

#define RECV_POLL_MS 250               /* how often the receiver looks at Ctrl+C */
#define TRAILING_QUIET_NS 2000000000ll /* -c: how long the last sender's markers are trailing */
#define GATHER_NS 50000ll              /* the wait that lets a batch gather */
#define GATHER_AFTER_NS 1000000000ll   /* never in a test's first second */
#define GATHER_RATE 50000.0            /* datagrams a second: below it, each is read as it comes */
#define GATHER_SLEPT_NS 150000.0       /* what the wait may really last (the OS's timer slack) */
#define DATAGRAM_OVERHEAD 768.0        /* what a queued datagram costs beyond its bytes (Linux) */

/* Ends a test that went quiet: the figures cover the time up to the last
 * datagram, and a warning says why the end marker was not needed. */
static void end_by_idle_timeout(struct ttcp_session *s, int64_t last_ns)
{
    struct ttcp_moment end;
    s->res->idle_timeout = 1;
    ttcp_warn(s, TTCP_WARN_END_MARKER_LOST);
    /* the CPU time is read now: reading it at every datagram would cost
     * more than the idle wait's few wake-ups it adds */
    ttcp_moment_now(s, &end);
    end.ns = last_ns;
    ttcp_timer_stop_at(s, &end);
}

/* --verify on a datagram without ttcp's header (a classic sender, or
 * --no-udp-stats): its first byte tells the classic pattern or zeros;
 * anything else is counted as unchecked, never as a pass. */
static void check_plain(struct ttcp_session *s, const struct tt_datagram *d, size_t n)
{
    struct ttcp_verifier *v = &s->res->verify;
    enum ttcp_payload kind = d->buf[0] == 0 ? TTCP_PAYLOAD_ZEROS : TTCP_PAYLOAD_CLASSIC;
    uint64_t bad;
    if (d->buf[0] != 0 && d->buf[0] != ttcp_pattern_byte(0)) {
        v->unchecked += n;
        return;
    }
    bad = ttcp_payload_check(kind, 0, 0, d->buf, n);
    v->kind = (int)kind;
    if (bad != 0 && v->corrupted == 0)
        v->first_bad = v->offset;
    v->corrupted += bad;
    v->offset += n;
}

/* Another tool's header, as its stamp reads it: the sequence and the
 * sending moment, and whether it is the tool's end of the test. */
static void read_stamp(struct ttcp_session *s, const struct tt_datagram *d, size_t n)
{
    uint64_t seq = 0;
    int64_t sent_ns = 0;
    enum ttcp_stamp_seen seen = s->stamp->read(s->stamp->ctx, d->buf, n, &seq, &sent_ns);
    if (seen == TTCP_STAMP_NONE)
        return;
    s->res->udp_stats_valid = 1;
    ttcp_udp_stats_add(&s->res->udp, seq, sent_ns, d->arrived_ns);
    if (seen == TTCP_STAMP_END)
        s->stamp_ended = 1;
}

/* What a datagram with ttcp's header tells: its place in the sequence,
 * its transit time, and (--verify) whether its bytes arrived intact. */
static void read_header(struct ttcp_session *s, const struct tt_datagram *d, size_t n)
{
    struct ttcp_udp_header h;
    struct ttcp_result *r = s->res;
    struct ttcp_udp_iperf3 i3;
    if (s->stamp != NULL && s->stamp->read != NULL) { /* another tool's (run.h) */
        read_stamp(s, d, n);
        return;
    }
    if (s->opts->udp_iperf3) { /* iperf3's: its count from 1, its sending moment */
        if (ttcp_udp_iperf3_read(d->buf, n, s->opts->udp_iperf3 == TTCP_UDP_IPERF3_64, &i3) &&
            i3.count > 0) {
            r->udp_stats_valid = 1;
            ttcp_udp_stats_add(&r->udp, i3.count - 1,
                               (int64_t)i3.sec * 1000000000 + (int64_t)i3.usec * 1000,
                               d->arrived_ns);
        }
        return;
    }
    if (!ttcp_udp_header_read(d->buf, n, &h)) {
        if (s->opts->verify)
            check_plain(s, d, n);
        return;
    }
    r->udp_stats_valid = 1;
    ttcp_udp_stats_add(&r->udp, h.seq, h.sent_ns, d->arrived_ns);
    if (s->opts->verify && h.pattern <= TTCP_PAYLOAD_ZEROS) {
        uint64_t bad = ttcp_payload_check((enum ttcp_payload)h.pattern, h.seed, TTCP_UDP_HEADER,
                                          d->buf + TTCP_UDP_HEADER, n - TTCP_UDP_HEADER);
        r->verify.kind = h.pattern;
        if (bad != 0 && r->verify.corrupted == 0)
            r->verify.first_bad = r->verify.offset;
        r->verify.corrupted += bad;
        r->verify.offset += n - TTCP_UDP_HEADER;
    }
}

/* nuttcp's datagram: its byte count at offset 24 says which one it is
 * (count / length - 1), so loss and order are counted as ttcp's header's
 * sequence is; it carries no send time, so no jitter is told. */
static void read_nuttcp_count(struct ttcp_session *s, const struct tt_datagram *d, size_t n)
{
    uint64_t count = ttcp_nuttcp_count_read(d->buf, n, &s->nuttcp_order);
    if (count < n || count % n != 0 || count / n > 4 * s->res->calls + 1024)
        return; /* not a count of datagrams of this length (6.1.2's server sends none) */
    s->res->udp_stats_valid = 1;
    ttcp_udp_stats_add(&s->res->udp, count / n - 1, d->arrived_ns, d->arrived_ns);
}

/* Counts (and in non-sink mode writes out) one data datagram. */
static int take_data(struct ttcp_session *s, const struct tt_datagram *d)
{
    size_t n = d->len;
    if (n > s->buf.len) { /* the platform reports a longer datagram */
        ttcp_warn(s, TTCP_WARN_TRUNCATED);
        n = s->buf.len;
    }
    s->res->bytes += n;
    if (s->run_flags & TTCP_RUN_TELL_BYTES)
        ttcp_emit(s, TTCP_EV_BYTES);
    if (s->opts->sinkmode && s->opts->udp_dialect == TTCP_UDP_NUTTCP) {
        read_nuttcp_count(s, d, n);
        return 0;
    }
    if (s->opts->sinkmode) {
        read_header(s, d, n);
        return 0;
    }
    if (tt_stdout_write(d->buf, n) < 0)
        return ttcp_fail(s, TT_E_IO, TTCP_OP_WRITE);
    return 0;
}

struct rx {
    enum ttcp_udp_state state;
    int64_t last_ns; /* monotonic: the last data (idle timeout, the figures' end) */
    struct tt_addr sender; /* whose datagram began this test */
    int64_t waiting_since_ns; /* when the wait for the start began */
    int queue;             /* the receive queue the OS granted, bytes (0: unknown) */
};

static int same_sender(const struct tt_addr *a, const struct tt_addr *b)
{
    return a->len != 0 && a->len == b->len && memcmp(a->storage.bytes, b->storage.bytes, a->len) == 0;
}

/* -c: the end markers the last test's sender repeats after its end (from
 * its address and port, soon after), before the next test or during it; a
 * marker from anyone else starts or ends a test, however soon. */
static int trailing_marker(const struct ttcp_session *s, const struct rx *x,
                           const struct tt_datagram *d, int64_t now)
{
    return d->len <= TTCP_UDP_MARKER_MAX && now < s->quiet_until_ns &&
           same_sender(&d->from, &s->last_sender) &&
           (x->state == TTCP_UDP_WAITING || !same_sender(&d->from, &x->sender));
}

/* Feeds one datagram to the state machine. */
static int take(struct ttcp_session *s, struct rx *x, const struct tt_datagram *d, int64_t now)
{
    int rc;
    if (trailing_marker(s, x, d, now))
        return 0;
    if (ttcp_claimed(s, d))
        return 0;
    if (x->state == TTCP_UDP_WAITING)
        x->sender = d->from;
    s->res->calls++;
    switch (s->opts->udp_dialect == TTCP_UDP_NUTTCP ? ttcp_nuttcp_step(&x->state, d->buf, d->len)
                                                    : ttcp_udp_step(&x->state, d->len)) {
    case TTCP_UDP_START:
        if (s->res->started && s->res->bytes > 0)
            return 0; /* nuttcp's BOD1 after data came: the timer runs on */
        ttcp_timer_start(s);
        x->last_ns = s->start_ns;
        return 0;
    case TTCP_UDP_START_DATA:
        ttcp_timer_start(s);
        /* fall through */
    case TTCP_UDP_DATA:
        /* now was read before the batch; a timer started inside it is later */
        x->last_ns = now > s->start_ns ? now : s->start_ns;
        rc = take_data(s, d);
        if (s->stamp_ended)
            x->state = TTCP_UDP_DONE; /* the tool's end, counted */
        return rc;
    default:
        return 0;
    }
}

/* Interrupt moderation, as a network card does it: at a high datagram rate,
 * a receiver that blocks as soon as the queue is empty must be woken for
 * nearly every datagram, and the wake-up is paid by whoever delivers it (on
 * loopback the sender's CPU, which runs the receive path): 15 to 20 % of
 * the 64-byte rate (issue 15). After a batch of several datagrams that
 * emptied the queue, a 50 us wait (up to 150 us with the OS's timer slack)
 * lets the next batch gather instead, as long as what arrives meanwhile
 * fills at most a quarter of the queue, so the wait never causes loss. Each
 * arrival keeps the kernel's own stamp, so jitter is as exact as before;
 * the end marker may be read one wait late, which once a second has passed
 * moves the figure's end by at most 0.015 %. Where the OS hands one
 * datagram per call (no batches to gather) it never waits. */
static void gather(const struct ttcp_session *s, const struct rx *x, int got, int room, int64_t now)
{
    double ran = (double)(now - s->start_ns), per_s, each;
    if (got < 2 || got >= room || x->state != TTCP_UDP_RUNNING || ran < GATHER_AFTER_NS ||
        s->res->calls == 0)
        return;
    per_s = (double)s->res->calls * 1e9 / ran;
    each = (double)s->res->bytes / (double)s->res->calls + DATAGRAM_OVERHEAD;
    if (per_s < GATHER_RATE || per_s * each * GATHER_SLEPT_NS / 1e9 > x->queue / 4.0)
        return;
    tt_sleep_ns(GATHER_NS);
}

/* One batch (or one datagram); 1 to go on, 0 when the test ended by the
 * idle timeout, negative on failure. */
static int receive_some(struct ttcp_session *s, struct rx *x)
{
    struct tt_datagram d[TT_BATCH_MAX];
    int count = s->batch ? s->batch_slots : 1, i, n, rc = 0;
    int64_t now;

    for (i = 0; i < count; i++)
        d[i].buf = s->batch ? s->batch + (size_t)i * s->batch_stride : s->buf.data;
    n = tt_recvfrom_batch(s->sock, d, count, s->buf.len);
    now = tt_now_ns();
    if (n == TT_E_AGAIN || n == TT_E_INTR) {
        if (x->state == TTCP_UDP_RUNNING && now - x->last_ns >= s->opts->idle_timeout_ns) {
            end_by_idle_timeout(s, x->last_ns);
            return 0;
        }
        if (x->state == TTCP_UDP_WAITING && s->opts->start_timeout_ns &&
            now - x->waiting_since_ns >= s->opts->start_timeout_ns)
            return ttcp_fail(s, TT_E_TIMEDOUT, TTCP_OP_RECVFROM); /* the sender never began */
        return 1;
    }
    if (n < 0)
        return ttcp_fail(s, n, TTCP_OP_IO);
    for (i = 0; i < n && rc == 0 && x->state != TTCP_UDP_DONE; i++)
        rc = take(s, x, &d[i], now);
    if (rc == 0)
        gather(s, x, n, count, now);
    if (rc == 0 && s->clocked && s->res->started) {
        ttcp_tick(s);
        if (x->state == TTCP_UDP_RUNNING && ttcp_over_limit(s))
            x->state = TTCP_UDP_DONE; /* a server's --max-time: the figures so far */
    }
    return rc < 0 ? rc : 1;
}

/* The stamp's datagrams that came before the socket was the test's (their
 * arrival stamps kept for jitter; the idle timeout counts from now, on
 * the monotonic clock): 1 to go on, negative on failure. */
static int take_prior(struct ttcp_session *s, struct rx *x)
{
    int64_t now = tt_now_ns();
    int i, rc = 0;
    if (s->stamp == NULL)
        return 1;
    for (i = 0; i < s->stamp->prior_count && rc == 0 && x->state != TTCP_UDP_DONE; i++)
        rc = take(s, x, &s->stamp->prior[i], now);
    return rc < 0 ? rc : 1;
}

int ttcp_udp_receive(struct ttcp_session *s)
{
    struct rx x;
    int rc = 1;

    memset(&x, 0, sizeof x);
    x.state = TTCP_UDP_WAITING;
    x.waiting_since_ns = tt_now_ns();
    ttcp_verify_start(&s->res->verify, TTCP_PAYLOAD_AUTO, 0, 0);
    s->res->verify_done = s->opts->verify;
    tt_setopt(s->sock, TT_OPT_RCVTIMEO_MS, RECV_POLL_MS);
    tt_setopt(s->sock, TT_OPT_TIMESTAMPS, 1); /* for jitter; without it, the clock at return */
    if (tt_getopt(s->sock, TT_OPT_RCVBUF, &x.queue) != 0)
        x.queue = 0;
    rc = take_prior(s, &x);
    while (rc > 0 && x.state != TTCP_UDP_DONE && !ttcp_stopping(s))
        rc = receive_some(s, &x);
    if (rc == 0 && s->res->idle_timeout)
        return 0;
    s->res->interrupted = tt_interrupted() != 0;
    if (!s->res->started)
        return s->res->interrupted ? ttcp_fail(s, TT_E_INTR, TTCP_OP_RECVFROM) : (rc < 0 ? rc : 0);
    if ((s->opts->udp_iperf3 || (s->stamp != NULL && s->stamp->read != NULL)) && x.last_ns > 0) {
        /* no end marker: the last datagram (or the tool's end) ends it */
        struct ttcp_moment end;
        ttcp_moment_now(s, &end);
        end.ns = x.last_ns;
        ttcp_timer_stop_at(s, &end);
    } else {
        ttcp_timer_stop(s);
    }
    s->quiet_until_ns = tt_now_ns() + TRAILING_QUIET_NS;
    s->last_sender = x.sender;
    return rc < 0 ? rc : 0;
}
