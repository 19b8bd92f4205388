/* The Prometheus text exposition of a probe: every metric with its # HELP
 * and # TYPE, labelled by target; those a test did not measure (TCP
 * statistics of a UDP test, say) are left out rather than given as 0. */
#include "report/report_prometheus.h"

#include "base/text.h"
#include "measure/analysis.h"
#include "measure/result.h"
#include "report/report_analysis.h"
#include "report/report_server.h"

/* A label value's escapes: backslash, double quote and line feed. */
static void add_label(struct ttcp_text *t, const char *value)
{
    for (; *value; value++) {
        if (*value == '\\')
            ttcp_text_add(t, "\\\\");
        else if (*value == '"')
            ttcp_text_add(t, "\\\"");
        else if (*value == '\n')
            ttcp_text_add(t, "\\n");
        else
            ttcp_text_add(t, "%c", *value);
    }
}

/* Whole numbers (bytes, packets) in full, others to 9 significant digits. */
static void add_value(struct ttcp_text *t, double v)
{
    if (v > -9e15 && v < 9e15 && (double)(long long)v == v)
        ttcp_text_add(t, "%lld\n", (long long)v);
    else
        ttcp_text_add(t, "%.9g\n", v);
}

static void head(struct ttcp_text *t, const char *name, const char *type, const char *help)
{
    ttcp_text_add(t, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One sample of a family whose # HELP and # TYPE came before: labelled by
 * target and, where key is not NULL, by key="label" too. */
static void sample(struct ttcp_text *t, const char *target, const char *name, const char *key,
                   const char *label, double value)
{
    ttcp_text_add(t, "%s{target=\"", name);
    add_label(t, target);
    if (key != NULL) {
        ttcp_text_add(t, "\",%s=\"", key);
        add_label(t, label);
    }
    ttcp_text_add(t, "\"} ");
    add_value(t, value);
}

static void gauge(struct ttcp_text *t, const char *target, const char *name, const char *help,
                  double value)
{
    head(t, name, "gauge", help);
    sample(t, target, name, NULL, NULL, value);
}

/* --analyze: the sender's time split by what held it back, each share the
 * OS counted (one it did not is left out, not given as 0), in seconds. */
static void limited_seconds(struct ttcp_text *t, const char *target, const struct ttcp_analysis *a)
{
    static const char name[] = "ttcp_limited_seconds";
    int l;
    if (a->share_known == 0)
        return;
    head(t, name, "gauge",
         "The sender's seconds held back by the receiver's window (rwnd), its send buffer "
         "(sndbuf), the network (cwnd) or the application (app).");
    for (l = 0; l < TTCP_LIMIT_COUNT; l++)
        if ((a->share_known >> l) & 1u)
            sample(t, target, name, "by", ttcp_limit_code((enum ttcp_limit)l),
                   a->share[l] * a->span_s);
}

/* --analyze: the sender's TCP facts (the transmitter's tcp_info; each only
 * where the OS gave it) and whether either end was CPU-bound. */
static void analysis(struct ttcp_text *t, const struct ttcp_prom_probe *p)
{
    const struct tt_tcp_info *ti = &p->tx->tcp_end;
    struct ttcp_analysis a;
    struct ttcp_analysis_in in;
    in.r = p->tx;
    in.sender = 1;
    in.link_bps = p->o->link_bps;
    in.mtu = p->o->mtu;
    in.framing_bytes = p->o->framing_bytes;
    ttcp_analyze(&in, &a);
    limited_seconds(t, p->target, &a);
    if (a.min_rtt_valid)
        gauge(t, p->target, "ttcp_tcp_min_rtt_seconds",
              "The smallest round-trip time the transmitter's connection saw, in seconds.",
              a.min_rtt_s);
    if (a.tcp_valid && (a.have & TT_TCPI_BYTES_SENT))
        gauge(t, p->target, "ttcp_tcp_sent_bytes",
              "Bytes the transmitter's TCP sent, retransmissions included.",
              (double)ti->bytes_sent);
    if (a.tcp_valid && (a.have & TT_TCPI_BYTES_RETRANS))
        gauge(t, p->target, "ttcp_tcp_retransmitted_bytes",
              "Bytes the transmitter's TCP sent again.", (double)ti->bytes_retrans);
    head(t, "ttcp_cpu_bound", "gauge",
         "1 when that end used most of a core over the test (the figure measures the host).");
    sample(t, p->target, "ttcp_cpu_bound", "end", "sender",
           ttcp_report_cpu_percent(p->tx) >= TTCP_CPU_BOUND_PERCENT ? 1.0 : 0.0);
    sample(t, p->target, "ttcp_cpu_bound", "end", "receiver",
           ttcp_report_cpu_percent(p->rx) >= TTCP_CPU_BOUND_PERCENT ? 1.0 : 0.0);
}

/* compression=1: both runs' rates and their ratio, each where it is known. */
static void compression(struct ttcp_text *t, const char *target, const struct ttcp_compression *c)
{
    static const char name[] = "ttcp_compression_bits_per_second";
    if (c->classic_bps > 0.0 || c->random_bps > 0.0)
        head(t, name, "gauge",
             "The receiver's goodput of the classic pattern's run and of the random one's.");
    if (c->classic_bps > 0.0)
        sample(t, target, name, "pattern", "classic", c->classic_bps);
    if (c->random_bps > 0.0)
        sample(t, target, name, "pattern", "random", c->random_bps);
    if (c->ratio <= 0.0)
        return;
    gauge(t, target, "ttcp_compression_ratio",
          "The classic pattern's rate over the random one's (above 1.1: the path compresses).",
          c->ratio);
    /* the random pattern costs a sender more per byte: a busy end makes a
     * ratio above 1.1 with no compressor anywhere (measure/compression.h) */
    gauge(t, target, "ttcp_compression_cpu_ratio",
          "The busiest end's CPU time over real time in either run (above 0.5 the ratio "
          "says nothing).", c->cpu_percent / 100.0);
}

/* A sample labelled by phase and quantile (the target first, as ever). */
static void quantile(struct ttcp_text *t, const char *target, const char *phase, const char *q,
                     double ms)
{
    ttcp_text_add(t, "ttcp_latency_seconds{target=\"");
    add_label(t, target);
    ttcp_text_add(t, "\",phase=\"%s\",quantile=\"%s\"} ", phase, q);
    add_value(t, ms / 1e3);
}

/* The answered round trips of a phase, added up, in seconds. */
static double phase_sum(const struct ttcp_latency *l, int phase)
{
    double ns = 0.0;
    uint32_t i;
    for (i = 0; i < l->count; i++)
        if (l->list[i].phase == phase && l->list[i].rtt_ns >= 0)
            ns += (double)l->list[i].rtt_ns;
    return ns / 1e9;
}

/* A summary of the phase's answered round trips: its quantiles, their
 * sum and count (this probe's test alone, as every figure here). */
static void latency_summary(struct ttcp_text *t, const char *target, const struct ttcp_latency *l,
                            int phase, const struct ttcp_latency_quantiles *q)
{
    const char *name = phase == TTCP_LATENCY_IDLE ? "idle" : "loaded";
    quantile(t, target, name, "0.5", q->median_ms);
    quantile(t, target, name, "0.9", q->p90_ms);
    quantile(t, target, name, "0.99", q->p99_ms);
    sample(t, target, "ttcp_latency_seconds_sum", "phase", name, phase_sum(l, phase));
    sample(t, target, "ttcp_latency_seconds_count", "phase", name, (double)q->answered);
}

/* latency=1: each phase's summary where a probe of it was answered (a
 * phase with none has no sample, never 0), the probes and the lost ones;
 * the increase and the grade when both medians are known. */
static void latency(struct ttcp_text *t, const char *target, const struct ttcp_latency *l)
{
    const struct ttcp_latency_quantiles *ph[2];
    static const char *const phase[2] = {"idle", "loaded"};
    struct ttcp_latency_summary s;
    int i;
    ttcp_latency_summarise(l, &s);
    ph[0] = &s.idle;
    ph[1] = &s.loaded;
    if (s.idle.valid || s.loaded.valid)
        head(t, "ttcp_latency_seconds", "summary",
             "Round trips of the latency probes (UDP datagrams the server echoes), before the "
             "data (idle) and while it flows (loaded): nearest-rank quantiles, in seconds; sum "
             "and count of this probe's answered ones.");
    for (i = 0; i < 2; i++)
        if (ph[i]->valid)
            latency_summary(t, target, l, i, ph[i]); /* i: the phase (latency.h) */
    head(t, "ttcp_latency_sent_probes", "gauge", "Latency probes sent, idle and loaded.");
    for (i = 0; i < 2; i++)
        sample(t, target, "ttcp_latency_sent_probes", "phase", phase[i], (double)ph[i]->probes);
    head(t, "ttcp_latency_lost_probes", "gauge",
         "Latency probes with no echo (lost, or too late), idle and loaded.");
    for (i = 0; i < 2; i++)
        sample(t, target, "ttcp_latency_lost_probes", "phase", phase[i],
               (double)(ph[i]->probes - ph[i]->answered));
    if (!s.increase_valid)
        return;
    gauge(t, target, "ttcp_latency_increase_seconds",
          "The loaded median round trip less the idle one, in seconds (below 0: no increase).",
          s.increase_ms / 1e3);
    gauge(t, target, "ttcp_bufferbloat_grade",
          "The grade of the increase: 0 A+ (under 5 ms), 1 A (30 ms), 2 B (60 ms), 3 C (200 ms), "
          "4 D (400 ms), 5 F.", (double)s.grade);
}

/* web=1: whether the server answered, how many browser tests it has seen,
 * and the newest one's figures, each only where the test gave it. */
static void web(struct ttcp_text *t, const char *target, const struct ttcp_prom_web *w)
{
    const struct ttcp_web_figures *f;
    gauge(t, target, "ttcp_web_up",
          "1 when the server told its browser tests (ttcp -S --web), else 0.",
          w->answered ? 1.0 : 0.0);
    if (!w->answered)
        return;
    head(t, "ttcp_web_tests_total", "counter", "Browser tests the server has seen since it started.");
    sample(t, target, "ttcp_web_tests_total", NULL, NULL, (double)w->tests);
    if (w->latest == NULL)
        return;
    f = &w->latest->f;
    gauge(t, target, "ttcp_web_age_seconds", "How long ago the latest browser test ended, in seconds.",
          (double)w->latest->age_ns / 1e9);
    if (f->down_valid)
        gauge(t, target, "ttcp_web_download_bits_per_second",
              "The latest browser test's download, as the page counted it, bits per second.",
              f->down_bps);
    if (f->up_valid) {
        gauge(t, target, "ttcp_web_upload_bits_per_second",
              "The latest browser test's upload, as the server counted it, bits per second.",
              f->up_bps);
        gauge(t, target, "ttcp_web_upload_bytes",
              "Upload bytes the server received in the latest browser test.",
              (double)f->up_bytes);
    }
    if (!f->latency_valid)
        return;
    gauge(t, target, "ttcp_web_idle_latency_seconds",
          "The latest browser test's median round trip before the load, in seconds.",
          f->idle_ms / 1e3);
    gauge(t, target, "ttcp_web_loaded_latency_seconds",
          "The latest browser test's median round trip under load, in seconds.",
          f->loaded_ms / 1e3);
    gauge(t, target, "ttcp_web_bufferbloat_grade",
          "The latest browser test's grade, as ttcp_bufferbloat_grade: 0 A+ ... 5 F.",
          (double)f->grade);
}

static void figures(struct ttcp_text *t, const struct ttcp_prom_probe *p)
{
    const struct ttcp_result *tx = p->tx, *rx = p->rx;
    double secs = ttcp_real_seconds(rx);
    gauge(t, p->target, "ttcp_sent_bytes", "Payload bytes the transmitter sent.",
          (double)tx->bytes);
    gauge(t, p->target, "ttcp_received_bytes", "Payload bytes the receiver received.",
          (double)rx->bytes);
    gauge(t, p->target, "ttcp_receiver_seconds", "The receiver's timed phase, in seconds.", secs);
    gauge(t, p->target, "ttcp_bits_per_second", "The receiver's goodput, bits per second.",
          (double)rx->bytes * 8.0 / secs);
    gauge(t, p->target, "ttcp_sender_cpu_ratio",
          "The transmitter's CPU time over its real time (1 = one core).",
          ttcp_report_cpu_percent(tx) / 100.0);
    gauge(t, p->target, "ttcp_receiver_cpu_ratio",
          "The receiver's CPU time over its real time (1 = one core).",
          ttcp_report_cpu_percent(rx) / 100.0);
    if (rx->udp_stats_valid) {
        uint64_t sent = ttcp_report_udp_sent(p->o, tx, rx);
        gauge(t, p->target, "ttcp_udp_sent_packets", "UDP datagrams the transmitter sent.",
              (double)sent);
        gauge(t, p->target, "ttcp_udp_lost_packets", "UDP datagrams the receiver never saw.",
              (double)(sent > rx->udp.datagrams ? sent - rx->udp.datagrams : 0));
        gauge(t, p->target, "ttcp_udp_jitter_seconds",
              "The receiver's RFC 3550 jitter, in seconds.", rx->udp.jitter_ns / 1e9);
    } else if (tx->tcp_end_valid) {
        gauge(t, p->target, "ttcp_tcp_retransmits",
              "Segments the transmitter sent again during the test.",
              (double)tx->tcp_end.retransmits);
        gauge(t, p->target, "ttcp_tcp_rtt_seconds",
              "The transmitter's smoothed round-trip time at the end, in seconds.",
              tx->tcp_end.srtt_us / 1e6);
    }
}

size_t ttcp_prometheus_probe(const struct ttcp_prom_probe *p, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    int up = p->tx != NULL && p->rx != NULL;
    if (len > 0)
        buf[0] = '\0';
    gauge(&t, p->target, "ttcp_up", "1 when the test against the target completed, else 0.",
          up ? 1.0 : 0.0);
    if (up)
        figures(&t, p);
    if (up && p->o->analyze && !p->o->udp)
        analysis(&t, p);
    if (up && p->compression != NULL)
        compression(&t, p->target, p->compression);
    if (up && p->latency != NULL && p->latency->source != TTCP_LATENCY_NONE)
        latency(&t, p->target, p->latency);
    if (p->web != NULL)
        web(&t, p->target, p->web);
    gauge(&t, p->target, "ttcp_probe_duration_seconds", "How long the probe took, in seconds.",
          (double)p->duration_ns / 1e9);
    return t.used;
}

static void counter(struct ttcp_text *t, const char *name, const char *help, double value)
{
    head(t, name, "counter", help);
    ttcp_text_add(t, "%s ", name);
    add_value(t, value);
}

size_t ttcp_prometheus_counters(const struct ttcp_prom_counters *c, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    if (len > 0)
        buf[0] = '\0';
    counter(&t, "ttcp_exporter_probes_total", "Probes run (a test was attempted).",
            (double)c->probes);
    counter(&t, "ttcp_exporter_probe_failures_total", "Probes whose test did not complete.",
            (double)c->failures);
    counter(&t, "ttcp_exporter_probe_seconds_total", "Time spent in probes, in seconds.",
            (double)c->duration_ns / 1e9);
    counter(&t, "ttcp_exporter_refused_total", "Probes refused: target not allowed (403).",
            (double)c->refused);
    counter(&t, "ttcp_exporter_bad_requests_total", "Requests refused as malformed (400).",
            (double)c->bad_requests);
    counter(&t, "ttcp_exporter_busy_total", "Probes refused as busy (503).", (double)c->busy);
    return t.used;
}
