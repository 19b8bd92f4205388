/* --latency's words and JSON (report_latency.h). */
#include "report/report_latency.h"

#include "base/text.h"
#include "config/options.h"

int64_t ttcp_latency_bin_width(const struct ttcp_options *o)
{
    return o->interval_ns && !o->quiet_intervals ? o->interval_ns : 1000000000ll;
}

const char *ttcp_latency_grade_text(enum ttcp_latency_grade g)
{
    static const char *const names[] = {"A+", "A", "B", "C", "D", "F"};
    return (unsigned)g < sizeof names / sizeof names[0] ? names[g] : "?";
}

const char *ttcp_latency_source_code(enum ttcp_latency_source s)
{
    return s == TTCP_LATENCY_UDP_ECHO ? "udp_echo" : s == TTCP_LATENCY_TCP_INFO ? "tcp_info"
                                                                                 : "none";
}

/* One phase's line: its median and tail, or that nothing answered. */
static void phase_line(struct ttcp_text *t, const char *tag, const char *phase,
                       const struct ttcp_latency_quantiles *q, int echoed)
{
    uint32_t lost = q->probes - q->answered;
    if (!q->valid) {
        ttcp_text_add(t, "ttcp%s: latency %s: %s\n", tag, phase,
                      !echoed ? "the OS gave no RTT" : q->probes ? "no probe answered"
                                                                 : "no probe sent");
        return;
    }
    ttcp_text_add(t, "ttcp%s: latency %s: %.2f ms median, %.2f ms p90, %.2f ms p99", tag,
                  phase, q->median_ms, q->p90_ms, q->p99_ms);
    if (echoed)
        ttcp_text_add(t, " (%u probe%s, %u lost)\n", (unsigned)q->probes,
                      q->probes == 1 ? "" : "s", (unsigned)lost);
    else
        ttcp_text_add(t, " (%u sample%s)\n", (unsigned)q->answered, q->answered == 1 ? "" : "s");
}

size_t ttcp_report_latency(const char *tag, const struct ttcp_latency *l, char *buf, size_t len)
{
    struct ttcp_latency_summary s;
    struct ttcp_text t = {buf, len, 0};
    int echoed = l->source == TTCP_LATENCY_UDP_ECHO;
    ttcp_latency_summarise(l, &s);
    phase_line(&t, tag, echoed ? "idle" : "idle (the handshake's RTT)", &s.idle, echoed);
    phase_line(&t, tag, echoed ? "loaded" : "loaded (the connection's smoothed RTT)", &s.loaded,
               echoed);
    if (s.increase_valid)
        ttcp_text_add(&t, "ttcp%s: latency: %+.2f ms under load: bufferbloat grade %s (%s "
                      "every %.3g s)\n", tag, s.increase_ms > -0.005 && s.increase_ms < 0.005
                      ? 0.0 : s.increase_ms, ttcp_latency_grade_text(s.grade),
                      echoed ? "UDP probes the server echoed" : "TCP_INFO's RTT read",
                      (double)l->period_ns / 1e9);
    else
        ttcp_text_add(&t, "ttcp%s: latency: no grade: it needs an idle round trip and %d "
                      "loaded ones\n", tag, TTCP_LATENCY_GRADE_LOADED);
    return t.used;
}

static void quantiles_object(struct ttcp_json *j, const char *key,
                             const struct ttcp_latency_quantiles *q)
{
    ttcp_json_object(j, key);
    ttcp_json_u64(j, "probes", q->probes);
    ttcp_json_u64(j, "answered", q->answered);
    ttcp_json_u64(j, "lost", q->probes - q->answered);
    if (q->valid) {
        ttcp_json_double(j, "median_ms", q->median_ms);
        ttcp_json_double(j, "p90_ms", q->p90_ms);
        ttcp_json_double(j, "p99_ms", q->p99_ms);
    } else {
        ttcp_json_null(j, "median_ms");
        ttcp_json_null(j, "p90_ms");
        ttcp_json_null(j, "p99_ms");
    }
    ttcp_json_end(j);
}

static void bin_object(void *ctx, const struct ttcp_latency_bin *b)
{
    struct ttcp_json *j = ctx;
    ttcp_json_object(j, NULL);
    ttcp_json_double(j, "start", (double)b->start_ns / 1e9);
    ttcp_json_double(j, "end", (double)b->end_ns / 1e9);
    ttcp_json_string(j, "phase", b->phase == TTCP_LATENCY_IDLE ? "idle" : "loaded");
    ttcp_json_u64(j, "probes", b->probes);
    ttcp_json_u64(j, "answered", b->answered);
    if (b->answered) {
        ttcp_json_double(j, "median_ms", b->median_ms);
        ttcp_json_double(j, "max_ms", b->max_ms);
    } else {
        ttcp_json_null(j, "median_ms");
        ttcp_json_null(j, "max_ms");
    }
    ttcp_json_end(j);
}

void ttcp_json_latency(struct ttcp_json *j, const struct ttcp_latency *l, int64_t width_ns)
{
    struct ttcp_latency_summary s;
    ttcp_latency_summarise(l, &s);
    ttcp_json_object(j, "latency");
    ttcp_json_string(j, "source", ttcp_latency_source_code(l->source));
    ttcp_json_double(j, "probe_interval", (double)l->period_ns / 1e9);
    quantiles_object(j, "idle", &s.idle);
    quantiles_object(j, "loaded", &s.loaded);
    if (s.increase_valid) {
        ttcp_json_double(j, "increase_ms", s.increase_ms);
        ttcp_json_string(j, "grade", ttcp_latency_grade_text(s.grade));
    } else {
        ttcp_json_null(j, "increase_ms");
        ttcp_json_null(j, "grade");
    }
    ttcp_json_u64(j, "samples_not_kept", l->not_kept);
    ttcp_json_array(j, "intervals");
    ttcp_latency_bins(l, width_ns, bin_object, j);
    ttcp_json_end(j);
    ttcp_json_end(j);
}
