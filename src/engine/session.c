/* The helpers every phase shares: events and failures, the timed phase,
 * the clock-driven parts of the loops (interval reports -i, a duration
 * --time, pacing -R; the clock is read in the loops only when one of them
 * asks for it), sending a whole buffer, and the TCP statistics. */
#include "engine/session.h"

#include <string.h>

#define PAUSE_SLICE_NS 100000000ll /* the longest sleep between two looks at Ctrl+C */

/* --analyze on a TCP sender: its RTT is read as the data goes (Buffer
 * Delay's mean); a receiver's own RTT says nothing of the data's path. */
static int samples_rtt(const struct ttcp_options *o)
{
    return o->analyze && o->transmit && !o->udp;
}

/* --latency in the classic pair: the transmitter's own connection's RTT
 * (a client's probes are client/probe.c's). */
static int samples_latency(const struct ttcp_options *o)
{
    return o->latency && o->transmit && !o->udp && o->mode == TTCP_MODE_CLASSIC;
}

/* One --latency sample of the smoothed RTT (none when the OS gives none). */
static void sample_latency(struct ttcp_session *s, int phase)
{
    struct tt_tcp_info ti;
    struct ttcp_latency *l = &s->res->latency;
    l->source = TTCP_LATENCY_TCP_INFO;
    l->period_ns = s->opts->latency_interval_ns;
    if (tt_tcp_info(s->sock, &ti) == 0 && ti.srtt_us > 0)
        ttcp_latency_push(l, s->now_ns - s->start_ns, (int64_t)ti.srtt_us * 1000, phase);
}

static void notify(const struct ttcp_session *s, enum ttcp_event_kind kind,
                   enum ttcp_warning w, const struct ttcp_interval *in)
{
    struct ttcp_event ev;
    ev.kind = kind;
    ev.warning = w;
    ev.interval = in;
    ev.opts = s->opts;
    if (s->obs != NULL && s->obs->event != NULL)
        s->obs->event(s->obs->ctx, &ev, s->res);
}

int ttcp_stopping(const struct ttcp_session *s)
{
    return tt_interrupted() ||
           (s->obs != NULL && s->obs->stop != NULL && s->obs->stop(s->obs->ctx));
}

void ttcp_emit(const struct ttcp_session *s, enum ttcp_event_kind kind)
{
    notify(s, kind, TTCP_WARN_COUNT, NULL);
}

int ttcp_claimed(const struct ttcp_session *s, const struct tt_datagram *d)
{
    return s->obs != NULL && s->obs->claim != NULL && s->obs->claim(s->obs->ctx, d);
}

void ttcp_warn(struct ttcp_session *s, enum ttcp_warning w)
{
    uint32_t bit = 1u << w;
    if (s->res->warnings & bit)
        return;
    s->res->warnings |= bit;
    notify(s, TTCP_EV_WARNING, w, NULL);
}

int ttcp_fail(struct ttcp_session *s, int code, enum ttcp_op op)
{
    s->res->failure.native = tt_last_error();
    s->res->failure.code = code;
    s->res->failure.op = op;
    return code;
}

static void emit_intervals(struct ttcp_session *s, size_t closed)
{
    struct ttcp_intervals *iv = &s->res->intervals;
    size_t i;
    /* a UDP receiver's loss and jitter so far, for the intervals' share */
    if (s->opts->udp && s->res->udp_stats_valid)
        ttcp_intervals_udp(iv, closed, &s->res->udp);
    for (i = iv->count - closed; i < iv->count; i++) {
        struct ttcp_interval *in = &iv->list[i];
        if (!s->opts->udp && s->sock != TT_NO_SOCKET)
            in->tcp_valid = tt_tcp_info(s->sock, &in->tcp) == 0;
        notify(s, TTCP_EV_INTERVAL, TTCP_WARN_COUNT, in);
    }
}

/* --omit: its end is passed. The bytes counted at earlier clock reads are
 * the omitted part's, as in the intervals, so the two add up. */
static void pass_omit(struct ttcp_session *s)
{
    s->omit.passed = 1;
    s->omit.bytes = s->bytes_at_tick;
    s->omit.calls = s->calls_at_tick;
    ttcp_cpu_now(s, &s->omit.cpu);
    s->omit.udp = s->udp_at_tick;
}

/* One reading of the smoothed RTT into the result's sum (0: none yet). */
static void sample_rtt(struct ttcp_session *s)
{
    struct tt_tcp_info ti;
    if (tt_tcp_info(s->sock, &ti) == 0 && ti.srtt_us > 0) {
        s->res->rtt_sum_us += ti.srtt_us;
        s->res->rtt_samples++;
    }
}

void ttcp_tick(struct ttcp_session *s)
{
    s->now_ns = tt_now_ns();
    if (samples_rtt(s->opts) && s->sock != TT_NO_SOCKET &&
        s->now_ns - s->rtt_sampled_ns >= TTCP_RTT_SAMPLE_NS) {
        s->rtt_sampled_ns = s->now_ns;
        sample_rtt(s);
    }
    if (samples_latency(s->opts) && s->sock != TT_NO_SOCKET &&
        s->now_ns - s->latency_sampled_ns >= s->opts->latency_interval_ns) {
        s->latency_sampled_ns = s->now_ns;
        sample_latency(s, TTCP_LATENCY_LOADED);
    }
    if (s->omit.end_ns != 0 && !s->omit.passed && s->now_ns >= s->omit.end_ns)
        pass_omit(s);
    if (s->opts->interval_ns)
        emit_intervals(s, ttcp_intervals_tick(&s->res->intervals, s->now_ns, s->res->bytes));
    s->bytes_at_tick = s->res->bytes;
    s->calls_at_tick = s->res->calls;
    if (s->omit.end_ns != 0 && !s->omit.passed && s->res->udp_stats_valid)
        s->udp_at_tick = s->res->udp; /* (only until then: a copy per read costs) */
}

static void unmark_omitted(struct ttcp_intervals *iv)
{
    size_t i;
    for (i = 0; i < iv->count; i++)
        iv->list[i].omitted = 0;
}

/* --omit, at the end: the figures become those of the rest of the test. A
 * test that ended within the part to omit keeps all of it, and says so. */
static void leave_out_omitted(struct ttcp_session *s, const struct ttcp_moment *end)
{
    struct ttcp_result *r = s->res;
    int64_t omit_end = s->omit.end_ns;
    s->omit.end_ns = 0; /* once: the timer may be stopped again */
    if (!s->omit.passed || end->ns <= omit_end) {
        ttcp_warn(s, TTCP_WARN_OMIT_LONGER);
        unmark_omitted(&s->res->intervals); /* all of it is in the figures */
        return;
    }
    r->omitted = 1;
    r->omitted_ns = omit_end - s->start_ns;
    r->omitted_bytes = s->omit.bytes;
    r->bytes -= s->omit.bytes;
    r->calls -= s->omit.calls;
    r->real_ns = end->ns - omit_end;
    r->cpu_start = s->omit.cpu;
    if (r->udp_stats_valid) {
        r->udp.datagrams -= s->omit.udp.datagrams;
        r->udp.expected -= s->omit.udp.expected;
        r->udp.duplicates -= s->omit.udp.duplicates;
        r->udp.out_of_order -= s->omit.udp.out_of_order;
    }
}

/* Sleeps in slices that look at Ctrl+C: at a slow -R one buffer's wait can
 * last minutes, and a sleep is not cut short by the signal. */
static void pause_ns(int64_t ns)
{
    while (ns > 0 && !tt_interrupted()) {
        int64_t step = ns < PAUSE_SLICE_NS ? ns : PAUSE_SLICE_NS;
        tt_sleep_ns(step);
        ns -= step;
    }
}

void ttcp_pace(struct ttcp_session *s, uint64_t len)
{
    int64_t wait = ttcp_pacer_wait(&s->pacer, len, tt_now_ns());
    if (wait > ttcp_pacer_slack(&s->pacer))
        pause_ns(wait);
}

int ttcp_pace_more(struct ttcp_session *s, uint64_t len)
{
    if (ttcp_pacer_ahead(&s->pacer, tt_now_ns()) > ttcp_pacer_slack(&s->pacer))
        return 0;
    ttcp_pacer_wait(&s->pacer, len, tt_now_ns());
    return 1;
}

void ttcp_pace_finish(struct ttcp_session *s)
{
    int64_t wait;
    if (!s->opts->pace_bps || tt_interrupted())
        return;
    wait = ttcp_pacer_wait(&s->pacer, 0, tt_now_ns());
    pause_ns(wait);
}

int ttcp_keep_sending(const struct ttcp_session *s, uint64_t sent)
{
    const struct ttcp_options *o = s->opts;
    if (ttcp_stopping(s)) /* Ctrl+C, or the observer's stop (iperf3's TEST_END) */
        return 0;
    if (o->continuous)
        return 1;
    if (o->limit_ns && s->now_ns - s->start_ns >= o->limit_ns)
        return 0;
    return o->duration_ns ? s->now_ns < s->end_ns : sent < o->nbuf;
}

int ttcp_over_limit(struct ttcp_session *s)
{
    if (!s->opts->limit_ns || s->now_ns - s->start_ns < s->opts->limit_ns)
        return 0;
    ttcp_warn(s, TTCP_WARN_TIME_LIMIT);
    return 1;
}

int ttcp_clocked(const struct ttcp_options *o)
{
    return o->interval_ns || o->duration_ns || o->pace_bps || o->limit_ns || o->omit_ns ||
           samples_rtt(o) || samples_latency(o);
}

void ttcp_timer_start(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    s->res->started = 1;
    ttcp_cpu_now(s, &s->res->cpu_start);
    s->start_ns = tt_now_ns();
    s->res->start_ns = s->start_ns;
    s->now_ns = s->start_ns;
    s->clocked = ttcp_clocked(o);
    s->rtt_sampled_ns = s->start_ns;
    s->latency_sampled_ns = s->start_ns;
    if (samples_latency(o) && s->sock != TT_NO_SOCKET)
        sample_latency(s, TTCP_LATENCY_IDLE); /* before any data: the handshake's */
    memset(&s->omit, 0, sizeof s->omit);
    s->bytes_at_tick = s->res->bytes;
    s->calls_at_tick = s->res->calls;
    s->udp_at_tick = s->res->udp;
    if (o->omit_ns)
        s->omit.end_ns = s->start_ns + o->omit_ns;
    if (o->interval_ns)
        ttcp_intervals_start(&s->res->intervals, o->interval_ns, s->start_ns);
    if (o->interval_ns && o->omit_ns)
        ttcp_intervals_omit(&s->res->intervals, s->omit.end_ns);
    if (o->duration_ns)
        s->end_ns = s->start_ns + o->duration_ns;
    if (o->pace_bps)
        ttcp_pacer_start(&s->pacer, o->pace_bps, o->pace_burst, o->buflen, s->start_ns);
}

void ttcp_cpu_now(const struct ttcp_session *s, struct tt_cpu *out)
{
    if (s->opts->thread_cpu)
        tt_thread_cpu_times(out);
    else
        tt_cpu_times(out);
}

void ttcp_moment_now(const struct ttcp_session *s, struct ttcp_moment *m)
{
    ttcp_cpu_now(s, &m->cpu);
    m->ns = tt_now_ns();
}

void ttcp_timer_stop_at(struct ttcp_session *s, const struct ttcp_moment *end)
{
    s->res->real_ns = end->ns - s->start_ns;
    s->res->cpu_end = end->cpu;
    if (s->opts->interval_ns)
        emit_intervals(s, ttcp_intervals_finish(&s->res->intervals, end->ns, s->res->bytes));
    if (s->omit.end_ns != 0)
        leave_out_omitted(s, end);
}

void ttcp_timer_stop(struct ttcp_session *s)
{
    struct ttcp_moment now;
    ttcp_moment_now(s, &now);
    ttcp_timer_stop_at(s, &now);
}

int ttcp_send_all(struct ttcp_session *s, const unsigned char *p, size_t len,
                  uint64_t *bytes, uint64_t *calls)
{
    if (len == 0)
        return 0;
    for (;;) {
        int64_t n = tt_send(s->sock, p, len);
        if (n < 0) {
            if (n == TT_E_INTR && !tt_interrupted())
                continue;
            if (n == TT_E_INTR)
                return (int)n;
            return ttcp_fail(s, (int)n, TTCP_OP_IO);
        }
        if (calls != NULL)
            (*calls)++;
        *bytes += (uint64_t)n;
        p += n;
        len -= (size_t)n;
        if (len == 0)
            return 0;
        /* The rest of a part-sent buffer is a new send: after Ctrl+C it
         * would wait as ever, for a receiver that may never read again. */
        if (tt_interrupted())
            return TT_E_INTR;
    }
}

/* --analyze: beside tcp_end, the time its limits count over, the last RTT
 * sample, the path MTU and the buffers the socket had. */
static void capture_analysis_facts(struct ttcp_session *s)
{
    struct ttcp_result *r = s->res;
    int v = 0;
    r->analysis_taken = 1;
    r->limits_span_ns = r->real_ns + (r->omitted ? r->omitted_ns : 0);
    if (samples_rtt(s->opts))
        sample_rtt(s);
    r->path_mtu = tt_getopt(s->sock, TT_OPT_PATH_MTU, &v) == 0 && v > 0 ? v : 0;
    r->sndbuf_bytes = tt_getopt(s->sock, TT_OPT_SNDBUF, &v) == 0 && v > 0 ? v : 0;
    r->rcvbuf_bytes = tt_getopt(s->sock, TT_OPT_RCVBUF, &v) == 0 && v > 0 ? v : 0;
}

void ttcp_capture_tcp_info(struct ttcp_session *s, int at_end)
{
    const struct ttcp_options *o = s->opts;
    struct ttcp_result *r = s->res;
    if (o->udp || s->sock == TT_NO_SOCKET)
        return;
    /* at the end always: a client's summary shows retransmits and RTT; the
     * report shows them only when asked */
    if (at_end) {
        r->tcp_end_asked = o->tcp_info || ttcp_options_extended(o);
        r->tcp_end_valid = tt_tcp_info(s->sock, &r->tcp_end) == 0;
        if (o->analyze)
            capture_analysis_facts(s);
        if (samples_latency(o) && r->started) { /* the last, so a test shorter than the
                                                   * interval has one loaded sample */
            s->now_ns = tt_now_ns();
            sample_latency(s, TTCP_LATENCY_LOADED);
        }
    }
    if (!at_end && (o->verbose || o->dialog || o->tcp_info))
        r->tcp_connect_valid = tt_tcp_info(s->sock, &r->tcp_connect) == 0;
}

void ttcp_after_read(struct ttcp_session *s)
{
    if (s->rearm_quickack)
        tt_setopt(s->sock, TT_OPT_QUICKACK, 1);
}
