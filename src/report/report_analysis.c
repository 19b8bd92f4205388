/* --analyze's findings: thresholds and words (report_analysis.h). */
#include "report/report_analysis.h"

#include "base/rate.h"

void ttcp_analysis_of(const struct ttcp_options *o, const struct ttcp_result *r,
                      struct ttcp_analysis *a)
{
    struct ttcp_analysis_in in;
    in.r = r;
    in.sender = o->transmit;
    in.link_bps = o->link_bps;
    in.mtu = o->mtu;
    in.framing_bytes = o->framing_bytes;
    ttcp_analyze(&in, a);
}

static int known(const struct ttcp_analysis *a, enum ttcp_limit l)
{
    return (a->share_known >> l) & 1u;
}

double ttcp_analysis_limit_share(const struct ttcp_analysis *a, enum ttcp_limit l)
{
    if (l == TTCP_LIMIT_RWND && a->window_bound && known(a, TTCP_LIMIT_CWND))
        return a->share[TTCP_LIMIT_RWND] + a->share[TTCP_LIMIT_CWND];
    return known(a, l) ? a->share[l] : 0.0;
}

enum ttcp_limit ttcp_analysis_limited_by(const struct ttcp_analysis *a)
{
    int l;
    if (a->span_s < TTCP_LIMITS_MIN_SECONDS)
        return TTCP_LIMIT_COUNT;
    /* (at most one share can pass a half; the window's, counted with the
     * network's, first) */
    for (l = 0; l < TTCP_LIMIT_COUNT; l++)
        if (known(a, (enum ttcp_limit)l) &&
            ttcp_analysis_limit_share(a, (enum ttcp_limit)l) >= TTCP_LIMITED_SHARE)
            return (enum ttcp_limit)l;
    return TTCP_LIMIT_COUNT;
}

double ttcp_analysis_cpu_wanted(const struct ttcp_analysis *a)
{
    return a->cpu_percent + (a->cpu_wait_valid ? a->cpu_wait_percent : 0.0) +
           (a->throttle_valid ? a->throttle_percent : 0.0);
}

int ttcp_analysis_cpu_bound(const struct ttcp_analysis *a)
{
    return ttcp_analysis_cpu_wanted(a) >= TTCP_CPU_BOUND_PERCENT;
}

int ttcp_analysis_quota_held(const struct ttcp_analysis *a)
{
    return a->throttle_valid && a->throttle_percent >= TTCP_QUOTA_HELD_PERCENT;
}

unsigned ttcp_analysis_findings(const struct ttcp_analysis *a)
{
    static const enum ttcp_finding by_limit[TTCP_LIMIT_COUNT] = {
        TTCP_FINDING_RWND, TTCP_FINDING_SNDBUF, TTCP_FINDING_NETWORK, TTCP_FINDING_APP};
    enum ttcp_limit l = ttcp_analysis_limited_by(a);
    unsigned found = 0;
    if (l != TTCP_LIMIT_COUNT)
        found |= 1u << by_limit[l];
    if (ttcp_analysis_cpu_bound(a))
        found |= 1u << TTCP_FINDING_CPU_BOUND;
    if (ttcp_analysis_quota_held(a))
        found |= 1u << TTCP_FINDING_CPU_QUOTA;
    return found;
}

const char *ttcp_finding_code(enum ttcp_finding f)
{
    static const char *const codes[TTCP_FINDING_COUNT] = {
        "rwnd_limited", "sndbuf_limited", "network_limited", "application_limited",
        "cpu_bound", "cpu_quota"};
    return f < TTCP_FINDING_COUNT ? codes[f] : "";
}

const char *ttcp_limit_code(enum ttcp_limit l)
{
    static const char *const codes[TTCP_LIMIT_COUNT] = {"rwnd", "sndbuf", "cwnd", "app"};
    return l < TTCP_LIMIT_COUNT ? codes[l] : "";
}

const char *ttcp_mtu_source_code(enum ttcp_mtu_source s)
{
    static const char *const codes[] = {"none", "given", "probed", "socket"};
    return codes[s];
}

const char *ttcp_tcpi_field_code(unsigned bit)
{
    switch (bit) {
    case TT_TCPI_MIN_RTT: return "min_rtt";
    case TT_TCPI_DELIVERY_RATE: return "delivery_rate";
    case TT_TCPI_BUSY: return "busy_time";
    case TT_TCPI_RWND_LIMITED: return "rwnd_limited";
    case TT_TCPI_SNDBUF_LIMITED: return "sndbuf_limited";
    case TT_TCPI_BYTES_SENT: return "bytes_sent";
    case TT_TCPI_BYTES_RETRANS: return "bytes_retrans";
    default: return "";
    }
}

/* A -b value as one would type it: whole MiB or KiB. */
static const char *sockbuf_text(uint64_t bytes, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    if (bytes % (1u << 20) == 0)
        ttcp_text_add(&t, "%llum", (unsigned long long)(bytes >> 20));
    else
        ttcp_text_add(&t, "%lluk", (unsigned long long)((bytes + 1023) >> 10));
    return buf;
}

static void share_part(struct ttcp_text *t, const struct ttcp_analysis *a, enum ttcp_limit l,
                       const char *name, const char *sep)
{
    if ((a->share_known >> l) & 1u)
        ttcp_text_add(t, "%s%s %.1f %%", sep, name, 100.0 * a->share[l]);
    else
        ttcp_text_add(t, "%s%s not given by this system", sep, name);
}

/* The sender's time, split; or why it is not known here. */
static void shares_line(const char *side, const struct ttcp_analysis *a, struct ttcp_text *t)
{
    ttcp_text_add(t, "ttcp%s: analysis: sender's time", side);
    if (!a->sender)
        ttcp_text_add(t, ": counted at the sending end, not at this one\n");
    else if (!a->tcp_valid)
        ttcp_text_add(t, ": not known (this system gives no TCP statistics)\n");
    else if (a->share_known == 0)
        ttcp_text_add(t, ": not known (this system does not count the time each limit held "
                      "the sender back)\n");
    else {
        ttcp_text_add(t, " (%.2f s):", a->span_s);
        share_part(t, a, TTCP_LIMIT_RWND, "receiver's window", " ");
        share_part(t, a, TTCP_LIMIT_SNDBUF, "send buffer", ", ");
        share_part(t, a, TTCP_LIMIT_CWND, "network", ", ");
        share_part(t, a, TTCP_LIMIT_APP, "application", ", ");
        ttcp_text_add(t, "%s\n", a->span_s < TTCP_LIMITS_MIN_SECONDS
                                     ? " (too short to tell: the system counts these in ticks "
                                       "of milliseconds)" : "");
    }
}

/* What to set, when a window was the limit; the BDP it answers. */
static void advice_part(const struct ttcp_analysis *a, uint64_t advice, const char *where,
                        struct ttcp_text *t)
{
    char b[32];
    if (!a->min_rtt_valid) {
        ttcp_text_add(t, "; the baseline RTT is not given by this system: no -b advice\n");
        return;
    }
    if (advice == 0) {
        ttcp_text_add(t, "; that window holds the link's BDP (%.0f bytes): the receiver's "
                      "reading (its CPU, its application) held the sender back, not -b\n",
                      a->link_bdp_bytes);
        return;
    }
    ttcp_text_add(t, "; set -b %s (%llu bytes) or more on the %s (%s)\n",
                  sockbuf_text(advice, b, sizeof b), (unsigned long long)advice, where,
                  a->link_bdp_bytes > 0.0 ? "the link's BDP at --link-rate"
                                          : "twice the BDP it reached; --link-rate gives the "
                                            "link's");
}

static void limited_line(const char *side, const struct ttcp_analysis *a,
                         const struct ttcp_result *r, struct ttcp_text *t)
{
    enum ttcp_limit l = ttcp_analysis_limited_by(a);
    if (l == TTCP_LIMIT_COUNT)
        return;
    ttcp_text_add(t, "ttcp%s: analysis: ", side);
    switch (l) {
    case TTCP_LIMIT_RWND:
        ttcp_text_add(t, "limited by the receiver's window %.1f %% of the time: it offered "
                      "%u bytes", 100.0 * ttcp_analysis_limit_share(a, l), a->peer_window);
        if (a->window_bound && a->share[TTCP_LIMIT_CWND] > 0.0)
            ttcp_text_add(t, " (the congestion window, %u, had reached it: the network's %.1f "
                          "%% was the window's too)", a->cwnd,
                          100.0 * a->share[TTCP_LIMIT_CWND]);
        advice_part(a, a->rwnd_advice, "receiver", t);
        return;
    case TTCP_LIMIT_SNDBUF:
        ttcp_text_add(t, "limited by its own send buffer %.1f %% of the time: %d bytes",
                      100.0 * a->share[l], a->sndbuf_bytes);
        advice_part(a, a->sndbuf_advice, "transmitter", t);
        return;
    case TTCP_LIMIT_CWND:
        ttcp_text_add(t, "limited by the network %.1f %% of the time: congestion window %u "
                      "bytes at the end, %llu retransmits\n", 100.0 * a->share[l], a->cwnd,
                      (unsigned long long)r->tcp_end.retransmits);
        return;
    default:
        ttcp_text_add(t, "limited by the application %.1f %% of the time: it had nothing to "
                      "send (pacing, a slow source, the wait for the receiver's close)\n",
                      100.0 * a->share[l]);
        return;
    }
}

/* The window against the path: baseline RTT, rate, BDP, the buffers. */
static void path_line(const char *side, const struct ttcp_analysis *a, struct ttcp_text *t)
{
    char rate[48];
    ttcp_text_add(t, "ttcp%s: analysis: path: rate %s", side,
                  ttcp_unit_format_bps(a->rate_bps, rate, sizeof rate));
    if (a->min_rtt_valid)
        ttcp_text_add(t, ", baseline RTT %.3f ms, BDP %.0f bytes", a->min_rtt_s * 1e3,
                      a->bdp_bytes);
    else
        ttcp_text_add(t, ", baseline RTT not given %s", a->sender ? "by this system"
                                                                   : "at the receiving end");
    if (a->link_bdp_bytes > 0.0)
        ttcp_text_add(t, " (at --link-rate %.0f bytes)", a->link_bdp_bytes);
    if (a->sender && a->tcp_valid)
        ttcp_text_add(t, "; receiver's window %u, cwnd %u", a->peer_window, a->cwnd);
    if (a->sender && a->sndbuf_bytes > 0)
        ttcp_text_add(t, "%ssend buffer %d", a->tcp_valid ? ", " : "; ", a->sndbuf_bytes);
    if (!a->sender && a->rcvbuf_bytes > 0)
        ttcp_text_add(t, "; receive buffer %d", a->rcvbuf_bytes);
    ttcp_text_add(t, "\n");
}

/* A CPU quota's hold: its size where known. */
static void quota_part(const struct ttcp_analysis *a, struct ttcp_text *t)
{
    ttcp_text_add(t, "held back by a CPU quota");
    if (a->quota_percent > 0.0)
        ttcp_text_add(t, " (%.1f %% of a core)", a->quota_percent);
    ttcp_text_add(t, " %.1f %% of the time", a->throttle_percent);
}

static void cpu_line(const char *side, const struct ttcp_analysis *a, struct ttcp_text *t)
{
    int bound = ttcp_analysis_cpu_bound(a), quota = ttcp_analysis_quota_held(a);
    ttcp_text_add(t, "ttcp%s: analysis: %s: ", side, bound ? "cpu-bound" : "cpu");
    if (quota) { /* the quota first: it made the end what it was */
        ttcp_text_add(t, "the %s was ", a->sender ? "transmitter" : "receiver");
        quota_part(a, t);
        ttcp_text_add(t, "; it used %.1f %% of a core", a->cpu_percent);
    } else {
        ttcp_text_add(t, "this end used %.1f %% of a core", a->cpu_percent);
    }
    /* (time it waited to run: a busy host; on some kernels, 6.18 among
     * them, a quota's throttled time as well) */
    if (a->cpu_wait_valid && a->cpu_wait_percent >= 0.05)
        ttcp_text_add(t, " and waited %.1f %% of the time for one", a->cpu_wait_percent);
    if (!quota && a->throttle_valid && a->throttle_percent >= 0.05) {
        ttcp_text_add(t, " and was ");
        quota_part(a, t);
    }
    if (bound)
        ttcp_text_add(t, " over the test: the figure measures this host, not the link\n");
    else if (quota)
        ttcp_text_add(t, ": the quota held the figure down\n");
    else
        ttcp_text_add(t, ": not the limit\n");
}

/* RFC 6349's throughput figures: they need the link's rate and an MTU. */
static void rfc_rate_line(const char *side, const struct ttcp_options *o,
                          const struct ttcp_analysis *a, struct ttcp_text *t)
{
    char max[48];
    if (!o->link_bps)
        return;
    if (!a->rfc_rate_valid) {
        ttcp_text_add(t, "ttcp%s: analysis: rfc6349: the path MTU is not known: give --mtu\n",
                      side);
        return;
    }
    ttcp_text_add(t, "ttcp%s: analysis: rfc6349: %.1f %% of nominal, %.1f %% of what TCP can "
                  "carry at this rate and framing (%s at MTU %llu (%s), %llu bytes a frame); "
                  "transfer time ratio %.3f (%.3f s ideal)\n", side,
                  100.0 * a->rate_bps / (double)o->link_bps, 100.0 * a->rate_bps / a->max_tcp_bps,
                  ttcp_unit_format_bps(a->max_tcp_bps, max, sizeof max),
                  (unsigned long long)a->mtu, ttcp_mtu_source_code(a->mtu_source),
                  (unsigned long long)a->framing_bytes, a->transfer_time_ratio, a->ideal_s);
}

/* TCP Efficiency and Buffer Delay: a sender's counts. */
static void rfc_sender_line(const char *side, const struct ttcp_analysis *a,
                            const struct ttcp_result *r, struct ttcp_text *t)
{
    if (!a->sender)
        return;
    ttcp_text_add(t, "ttcp%s: analysis: rfc6349: TCP efficiency ", side);
    if (a->efficiency_valid)
        ttcp_text_add(t, "%.2f %% (%llu of %llu bytes sent again)", a->efficiency_percent,
                      (unsigned long long)r->tcp_end.bytes_retrans,
                      (unsigned long long)r->tcp_end.bytes_sent);
    else
        ttcp_text_add(t, "not known (bytes sent and retransmitted not given by this system)");
    if (a->buffer_delay_valid)
        ttcp_text_add(t, ", buffer delay %.1f %% (mean RTT %.3f ms over %u samples, baseline "
                      "%.3f ms)\n", a->buffer_delay_percent, a->mean_rtt_s * 1e3,
                      (unsigned)a->rtt_samples, a->min_rtt_s * 1e3);
    else
        ttcp_text_add(t, ", buffer delay not known (%s)\n",
                      a->min_rtt_valid ? "no RTT sample" : "no baseline RTT from this system");
}

void ttcp_report_analysis(const struct ttcp_options *o, const struct ttcp_result *r,
                          struct ttcp_text *t)
{
    const char *side = ttcp_options_side(o);
    struct ttcp_analysis a;
    if (!r->analysis_taken) { /* a far end whose protocol carries no facts (iperf3, nuttcp) */
        ttcp_text_add(t, "ttcp%s: analysis: not known: the far end sent no TCP statistics\n",
                      side);
        return;
    }
    ttcp_analysis_of(o, r, &a);
    shares_line(side, &a, t);
    limited_line(side, &a, r, t);
    path_line(side, &a, t);
    cpu_line(side, &a, t);
    rfc_rate_line(side, o, &a, t);
    rfc_sender_line(side, &a, r, t);
}
