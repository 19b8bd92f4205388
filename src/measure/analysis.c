/* --analyze's arithmetic (analysis.h). Every number comes from a fact the
 * OS gave: a field it did not give leaves its figure unknown, never 0. */
#include "measure/analysis.h"

#include <string.h>

double ttcp_rfc6349_max_tcp_bps(uint64_t link_bps, uint64_t mtu, uint64_t framing_bytes)
{
    if (mtu <= TTCP_RFC6349_HEADERS)
        return 0.0;
    /* frames per second = rate / ((MTU + framing) x 8), each carrying MTU - 40 */
    return (double)link_bps * (double)(mtu - TTCP_RFC6349_HEADERS) /
           (double)(mtu + framing_bytes);
}

uint64_t ttcp_advice_bytes(double need)
{
    uint64_t bytes;
    if (need >= (double)TTCP_ADVICE_MAX)
        return TTCP_ADVICE_MAX;
    bytes = need > 0.0 ? (uint64_t)need : 0u;
    if ((double)bytes < need)
        bytes++;
    bytes = (bytes + TTCP_ADVICE_ROUND - 1) / TTCP_ADVICE_ROUND * TTCP_ADVICE_ROUND;
    return bytes < TTCP_ADVICE_ROUND ? TTCP_ADVICE_ROUND : bytes;
}

static double share_of(uint64_t part_us, double span_us)
{
    double f = (double)part_us / span_us;
    return f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
}

/* The sender's time, split: the kernel counts the time it had data to send
 * or unacknowledged (busy) and, within it, the time the receiver's window
 * or the send buffer held it back; the rest of busy is the network's, and
 * the test's time outside busy the application's. Over the test's time,
 * or over busy where the connection was busy longer (it began before the
 * timer). */
static void split_time(const struct tt_tcp_info *t, int64_t span_ns, struct ttcp_analysis *a)
{
    double span_us = (double)span_ns / 1e3;
    uint64_t held = 0;
    if (!(t->have & TT_TCPI_BUSY))
        return;
    if ((double)t->busy_us > span_us)
        span_us = (double)t->busy_us;
    if (span_us <= 0.0)
        return;
    a->span_s = span_us / 1e6;
    if (t->have & TT_TCPI_RWND_LIMITED) {
        a->share[TTCP_LIMIT_RWND] = share_of(t->rwnd_limited_us, span_us);
        a->share_known |= 1u << TTCP_LIMIT_RWND;
        held += t->rwnd_limited_us;
    }
    if (t->have & TT_TCPI_SNDBUF_LIMITED) {
        a->share[TTCP_LIMIT_SNDBUF] = share_of(t->sndbuf_limited_us, span_us);
        a->share_known |= 1u << TTCP_LIMIT_SNDBUF;
        held += t->sndbuf_limited_us;
    }
    if (t->have & TT_TCPI_RWND_LIMITED) { /* (Windows: busy holds no send buffer's time) */
        a->share[TTCP_LIMIT_CWND] = share_of(t->busy_us > held ? t->busy_us - held : 0, span_us);
        a->share_known |= 1u << TTCP_LIMIT_CWND;
    }
    a->share[TTCP_LIMIT_APP] = share_of((uint64_t)(span_us - (double)t->busy_us), span_us);
    a->share_known |= 1u << TTCP_LIMIT_APP;
}

/* The window against the path: the baseline RTT, the BDP, and the -b that
 * would lift a window's limit (both ends', report/ says which applies). */
static void window_against_path(const struct ttcp_analysis_in *in, struct ttcp_analysis *a)
{
    const struct tt_tcp_info *t = &in->r->tcp_end;
    double in_flight;
    if (!(t->have & TT_TCPI_MIN_RTT) || t->min_rtt_us == 0)
        return;
    a->min_rtt_valid = 1;
    a->min_rtt_s = (double)t->min_rtt_us / 1e6;
    a->bdp_bytes = a->rate_bps / 8.0 * a->min_rtt_s;
    if (in->link_bps)
        a->link_bdp_bytes = (double)in->link_bps / 8.0 * a->min_rtt_s;
    if (!a->sender)
        return;
    /* with the link's rate, its BDP: a window that holds it already was not
     * too small (the receiver's reading held the sender back); without it,
     * twice what the window let through, so that the next test shows the
     * next limit */
    in_flight = a->bdp_bytes > (double)a->peer_window ? a->bdp_bytes : (double)a->peer_window;
    if (!in->link_bps)
        a->rwnd_advice = ttcp_advice_bytes(2.0 * in_flight);
    else if (a->link_bdp_bytes > (double)a->peer_window)
        a->rwnd_advice = ttcp_advice_bytes(a->link_bdp_bytes);
    a->sndbuf_advice = ttcp_advice_bytes(in->link_bps ? a->link_bdp_bytes : 2.0 * a->bdp_bytes);
}

/* The MTU: --mtu, else --pmtu's answer, else the socket's. */
static void choose_mtu(const struct ttcp_analysis_in *in, struct ttcp_analysis *a)
{
    const struct ttcp_result *r = in->r;
    if (in->mtu) {
        a->mtu = in->mtu;
        a->mtu_source = TTCP_MTU_GIVEN;
    } else if (r->pmtu.found && r->pmtu.mtu > 0) {
        a->mtu = (uint64_t)r->pmtu.mtu;
        a->mtu_source = TTCP_MTU_PROBED;
    } else if (r->path_mtu > 0) {
        a->mtu = (uint64_t)r->path_mtu;
        a->mtu_source = TTCP_MTU_SOCKET;
    }
}

static void rfc6349(const struct ttcp_analysis_in *in, struct ttcp_analysis *a)
{
    const struct tt_tcp_info *t = &in->r->tcp_end;
    choose_mtu(in, a);
    a->framing_bytes = in->framing_bytes;
    a->max_tcp_bps = ttcp_rfc6349_max_tcp_bps(in->link_bps, a->mtu, in->framing_bytes);
    if (in->link_bps && a->max_tcp_bps > 0.0 && in->r->bytes > 0) {
        a->rfc_rate_valid = 1;
        a->ideal_s = (double)in->r->bytes * 8.0 / a->max_tcp_bps;
        a->transfer_time_ratio = ttcp_real_seconds(in->r) / a->ideal_s;
    }
    if (a->sender && (t->have & TT_TCPI_BYTES_SENT) && (t->have & TT_TCPI_BYTES_RETRANS) &&
        t->bytes_sent > 0) {
        uint64_t good = t->bytes_sent > t->bytes_retrans ? t->bytes_sent - t->bytes_retrans : 0;
        a->efficiency_valid = 1;
        a->efficiency_percent = 100.0 * (double)good / (double)t->bytes_sent;
    }
    if (a->sender && a->min_rtt_valid && a->rtt_samples > 0) {
        a->buffer_delay_valid = 1;
        a->buffer_delay_percent = 100.0 * (a->mean_rtt_s - a->min_rtt_s) / a->min_rtt_s;
    }
}

/* The end's CPU over the figure's time: what it ran, what it waited on the
 * run queue, and what a CPU quota held it back. The last two may overlap
 * (the kernel's choice, platform.h): each is kept as the OS counted it. */
static void cpu_facts(const struct ttcp_result *r, struct ttcp_analysis *a)
{
    const struct tt_cpu *s = &r->cpu_start, *e = &r->cpu_end;
    double secs = ttcp_real_seconds(r);
    a->cpu_percent = 100.0 * ttcp_cpu_seconds(r) / secs;
    if (s->wait_given && e->wait_given && e->wait_ns >= s->wait_ns) {
        a->cpu_wait_valid = 1;
        a->cpu_wait_percent = 100.0 * (double)(e->wait_ns - s->wait_ns) / 1e9 / secs;
    }
    if (s->throttle_given && e->throttle_given && e->throttled_ns >= s->throttled_ns) {
        double held = 100.0 * (double)(e->throttled_ns - s->throttled_ns) / 1e9 / secs;
        a->throttle_valid = 1;
        a->throttle_percent = held > 100.0 ? 100.0 : held;
        a->quota_percent = e->quota_ppm > 0 ? (double)e->quota_ppm / 1e4 : 0.0;
    }
}

void ttcp_analyze(const struct ttcp_analysis_in *in, struct ttcp_analysis *a)
{
    const struct ttcp_result *r = in->r;
    memset(a, 0, sizeof *a);
    a->sender = in->sender;
    a->rate_bps = (double)r->bytes * 8.0 / ttcp_real_seconds(r);
    cpu_facts(r, a);
    a->sndbuf_bytes = r->sndbuf_bytes;
    a->rcvbuf_bytes = r->rcvbuf_bytes;
    a->rtt_samples = r->rtt_samples;
    if (r->rtt_samples > 0)
        a->mean_rtt_s = (double)r->rtt_sum_us / (double)r->rtt_samples / 1e6;
    a->tcp_valid = r->tcp_end_valid;
    if (r->tcp_end_valid) {
        a->have = r->tcp_end.have;
        a->peer_window = r->tcp_end.snd_wnd;
        a->cwnd = r->tcp_end.cwnd;
        a->window_bound = a->sender && a->peer_window > 0 && a->cwnd >= a->peer_window;
        a->delivery_rate_valid = (r->tcp_end.have & TT_TCPI_DELIVERY_RATE) != 0;
        a->delivery_rate_bps = (double)r->tcp_end.delivery_rate * 8.0;
        if (a->sender)
            split_time(&r->tcp_end, r->limits_span_ns, a);
        window_against_path(in, a);
    }
    rfc6349(in, a);
}
