/* The TCP receiver: read to EOF, discarding (-s) or copying to stdout;
 * with --half-close, then send -n buffers back before closing. */
#include "engine/phases.h"
#include "engine/run.h" /* TTCP_RUN_TELL_BYTES */
#include "measure/pattern.h"

/* One 1.12 read: a single recv, or with -B (mread) recvs until a full
 * buffer or EOF. Each recv is one I/O call. Returns bytes, 0 at EOF, or a
 * negative code. */
static int64_t read_block(struct ttcp_session *s)
{
    size_t want = s->buf.len, got = 0;
    for (;;) {
        int64_t n = s->discard ? tt_recv_discard(s->sock, s->buf.data + got, want - got)
                               : tt_recv(s->sock, s->buf.data + got, want - got);
        if (n == TT_E_UNSUPPORTED && s->discard) {
            s->discard = 0;
            ttcp_warn(s, TTCP_WARN_DISCARD);
            continue;
        }
        if (n == TT_E_INTR && !tt_interrupted())
            continue; /* a signal that is not Ctrl+C */
        if (n < 0)
            return got > 0 ? (int64_t)got : n;
        s->res->calls++;
        ttcp_after_read(s);
        got += (size_t)n;
        if (n == 0 || !s->opts->fullblocks || got == want || tt_interrupted())
            return (int64_t)got;
    }
}

/* -T: look at every byte, as 1.12 does to show cache effects. */
static uint64_t touch(const unsigned char *p, int64_t n)
{
    uint64_t sum = 0;
    int64_t i;
    for (i = 0; i < n; i++)
        sum += p[i];
    return sum;
}

/* IOS's tcp half close, receiving side: the transmitter's FIN came, the
 * connection still carries data the other way. */
static int send_back(struct ttcp_session *s)
{
    size_t len = (size_t)ttcp_options_back_buflen(s->opts);
    int64_t start = tt_now_ns();
    uint64_t i;
    int rc = 0;

    s->res->back_done = 1;
    ttcp_pattern_fill(s->buf.data, len);
    for (i = 0; i < s->opts->nbuf && rc == 0 && !tt_interrupted(); i++) {
        /* a server's --max-time and --max-rate hold for what goes back too */
        if (s->opts->limit_ns && tt_now_ns() - start >= s->opts->limit_ns)
            break;
        if (s->opts->pace_bps)
            ttcp_pace(s, len);
        rc = ttcp_send_all(s, s->buf.data, len, &s->res->back_bytes, NULL);
    }
    s->res->back_ns = tt_now_ns() - start;
    if (rc == TT_E_PIPE || rc == TT_E_CONNRESET) {
        /* a classic transmitter closes both ways: nothing can go back */
        s->res->failure.code = 0;
        ttcp_warn(s, TTCP_WARN_HALF_CLOSE_REFUSED);
        return 0;
    }
    return rc == TT_E_INTR ? 0 : rc;
}

/* In sink mode with nothing to do between reads (no intervals, no limits),
 * the kernel need not wake the receiver for less than a buffer: fewer
 * wake-ups, and on loopback fewer cross-CPU wake-ups charged to the sender
 * (issue 15's profile). The bytes and the end (EOF wakes at once) are the
 * same; only the count of I/O calls drops to about bytes / -l, as with -B.
 * Not when reading for stdout: typed data must show at once. Not for a
 * server's or a client's connection either: their receive timeout (the
 * idle timeout) would first wait out a partial buffer, and a stall would
 * be seen only after twice the timeout. Not for -P's streams: they read on
 * threads that Ctrl+C does not interrupt, and look at it between reads, so
 * a slow sender would keep them past Ctrl+C until a whole buffer came. */
static void wake_for_full_buffers(struct ttcp_session *s)
{
    if (!s->handed && s->opts->streams <= 1 && s->opts->sinkmode && !ttcp_clocked(s->opts) &&
        s->buf.len > 1)
        (void)tt_setopt(s->sock, TT_OPT_RCVLOWAT, (int)s->buf.len); /* a hint only */
}

/* What one read brought: counted, checked, written out. 0 to go on, 1 at
 * a server's limit, or a failure's code. */
static int take_block(struct ttcp_session *s, int64_t n, int64_t *last_ns)
{
    struct ttcp_result *r = s->res;
    r->bytes += (uint64_t)n;
    if (s->obs != NULL && s->obs->stop != NULL) /* a stop's figures end at the last read */
        *last_ns = tt_now_ns();
    if (s->run_flags & TTCP_RUN_TELL_BYTES)
        ttcp_emit(s, TTCP_EV_BYTES);
    if (s->opts->touch)
        r->touch_sum += touch(s->buf.data, n);
    if (s->opts->verify)
        ttcp_verify_bytes(&r->verify, s->buf.data, (size_t)n);
    if (s->clocked)
        ttcp_tick(s);
    if (s->opts->pace_bps) /* a server's --max-rate: reading slower slows the sender */
        ttcp_pace(s, (uint64_t)n);
    if (ttcp_over_limit(s))
        return 1;
    if (!s->opts->sinkmode) {
        int64_t w = tt_stdout_write(s->buf.data, (size_t)n);
        if (w < 0)
            return ttcp_fail(s, (int)w, TTCP_OP_WRITE);
    }
    return 0;
}

/* The figures end now; when the observer stopped the test (iperf3's
 * TEST_END, the socket then shut down to wake the read), at the last read. */
static void stop_timer(struct ttcp_session *s, int64_t last_ns)
{
    struct ttcp_moment end;
    if (last_ns == 0 || tt_interrupted() || !ttcp_stopping(s)) {
        ttcp_timer_stop(s);
        return;
    }
    ttcp_moment_now(s, &end);
    end.ns = last_ns;
    ttcp_timer_stop_at(s, &end);
}

int ttcp_tcp_receive(struct ttcp_session *s)
{
    struct ttcp_result *r = s->res;
    int64_t last_ns = 0;
    int rc = 0;

    s->discard = s->opts->discard;
    wake_for_full_buffers(s);
    ttcp_timer_start(s);
    /* the classic pattern's buffer length is learnt from the stream */
    ttcp_verify_start(&r->verify, TTCP_PAYLOAD_AUTO, 0, s->opts->seed);
    r->verify_done = s->opts->verify;
    while (!ttcp_stopping(s)) { /* Ctrl+C, or the observer's stop (an iperf3 test's end) */
        int64_t n = read_block(s);
        if (n == 0)
            break;
        if (n < 0) {
            if (n != TT_E_INTR && !ttcp_stopping(s)) /* a stop that woke the read is no failure */
                rc = ttcp_fail(s, (int)n, TTCP_OP_IO);
            break;
        }
        rc = take_block(s, n, &last_ns);
        if (rc != 0) {
            rc = rc > 0 ? 0 : rc;
            break;
        }
    }
    stop_timer(s, last_ns);
    r->interrupted = tt_interrupted() != 0;
    if (rc == 0 && !r->interrupted && s->opts->half_close)
        rc = send_back(s);
    ttcp_capture_tcp_info(s, 1);
    /* Close at once: the transmitter's figure ends when it sees our close
     * (unless the caller keeps the socket: ttcp_run_on's TTCP_RUN_KEEP_SOCKET). */
    if (!(s->run_flags & TTCP_RUN_KEEP_SOCKET)) {
        tt_close(s->sock);
        s->sock = TT_NO_SOCKET;
    }
    return rc;
}
