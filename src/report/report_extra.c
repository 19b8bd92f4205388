/* The lines beyond 1.12's, from the result. */
#include "report/report_extra.h"

#include "base/rate.h"

double ttcp_cpu_percent(const struct ttcp_result *r)
{
    return 100.0 * ttcp_cpu_seconds(r) / ttcp_real_seconds(r);
}

size_t ttcp_report_interval(const struct ttcp_options *o, const struct ttcp_interval *in,
                            char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    double secs = (double)(in->end_ns - in->start_ns) / 1e9;
    char rate[64];

    ttcp_text_add(&t, "ttcp%s: %7.2f-%7.2f sec %12llu bytes%s = %s%s", ttcp_options_side(o),
                  (double)in->start_ns / 1e9, (double)in->end_ns / 1e9,
                  (unsigned long long)in->bytes, o->transmit ? " written" : "",
                  ttcp_unit_format(o->unit, secs > 0 ? (double)in->bytes / secs : 0.0, rate,
                                   sizeof rate),
                  ttcp_unit_per_sec(o->unit));
    if (in->tcp_valid)
        ttcp_text_add(&t, "  retransmits %llu, cwnd %u, srtt %.3f ms",
                      (unsigned long long)in->tcp.retransmits, in->tcp.cwnd,
                      in->tcp.srtt_us / 1000.0);
    if (in->omitted) /* --omit: not in the figures */
        ttcp_text_add(&t, "  (omitted)");
    ttcp_text_add(&t, "\n");
    return t.used;
}

static void cpu_line(const struct ttcp_options *o, const struct ttcp_result *r,
                     struct ttcp_text *t)
{
    double cpu = ttcp_cpu_seconds(r), gb = (double)r->bytes / 1e9;
    ttcp_text_add(t, "ttcp%s: cpu: %.1f %% of the elapsed time, ", ttcp_options_side(o),
                  ttcp_cpu_percent(r));
    if (gb > 0.0)
        ttcp_text_add(t, "%.3f CPU seconds per GB\n", cpu / gb);
    else
        ttcp_text_add(t, "no data moved\n");
}

/* The Cisco note's sum, done for the user: measured kbps over the nominal. */
static void link_line(const struct ttcp_options *o, const struct ttcp_result *r,
                      struct ttcp_text *t)
{
    double bps = (double)r->bytes * 8.0 / ttcp_real_seconds(r);
    char got[48], nominal[48];
    ttcp_text_add(t, "ttcp%s: link: %s of %s nominal, efficiency %.1f %%\n",
                  ttcp_options_side(o), ttcp_unit_format_bps(bps, got, sizeof got),
                  ttcp_unit_format_bps((double)o->link_bps, nominal, sizeof nominal),
                  100.0 * bps / (double)o->link_bps);
}

static void udp_line(const struct ttcp_options *o, const struct ttcp_result *r,
                     struct ttcp_text *t)
{
    const struct ttcp_udp_stats *u = &r->udp;
    uint64_t lost = ttcp_udp_stats_lost(u);
    ttcp_text_add(t, "ttcp%s: udp: %llu datagrams, %llu lost (%.2f %%), %llu duplicate, "
                  "%llu out of order, jitter %.3f ms\n", ttcp_options_side(o),
                  (unsigned long long)u->datagrams, (unsigned long long)lost,
                  u->expected ? 100.0 * (double)lost / (double)u->expected : 0.0,
                  (unsigned long long)u->duplicates, (unsigned long long)u->out_of_order,
                  u->jitter_ns / 1e6);
}

static void verify_line(const struct ttcp_options *o, const struct ttcp_result *r,
                        struct ttcp_text *t)
{
    const struct ttcp_verifier *v = &r->verify;
    const char *kind = v->kind < 0 ? "unknown" : ttcp_payload_name((enum ttcp_payload)v->kind);
    ttcp_text_add(t, "ttcp%s: verify: %s pattern, %llu bytes checked, %llu corrupted",
                  ttcp_options_side(o), kind, (unsigned long long)v->offset,
                  (unsigned long long)v->corrupted);
    if (v->corrupted != 0)
        ttcp_text_add(t, " (the first at byte %llu)", (unsigned long long)v->first_bad);
    if (r->udp_stats_valid)
        ttcp_text_add(t, ", %llu datagrams missing",
                      (unsigned long long)ttcp_udp_stats_lost(&r->udp));
    if (v->unchecked != 0)
        ttcp_text_add(t, ", %llu bytes of no known pattern left unchecked",
                      (unsigned long long)v->unchecked);
    ttcp_text_add(t, "\n");
}

void ttcp_report_extras(const struct ttcp_options *o, const struct ttcp_result *r,
                        struct ttcp_text *t)
{
    cpu_line(o, r, t);
    if (r->omitted)
        ttcp_text_add(t, "ttcp%s: omitted: the first %.2f s, %llu bytes, not in the figures\n",
                      ttcp_options_side(o), (double)r->omitted_ns / 1e9,
                      (unsigned long long)r->omitted_bytes);
    if (o->link_bps)
        link_line(o, r, t);
    if (r->udp_stats_valid)
        udp_line(o, r, t);
    if (r->verify_done)
        verify_line(o, r, t);
    if (r->seed_used)
        ttcp_text_add(t, "ttcp%s: pattern: random, seed %llu\n", ttcp_options_side(o),
                      (unsigned long long)r->seed);
}
