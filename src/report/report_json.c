/* The JSON document. Rates are in bits per second, times in seconds, sizes
 * in bytes, whatever -f says; docs/ttcp.1 lists every member. */
#include "report/report_json.h"

#include "report/report.h"
#include "report/report_analysis.h"
#include "report/report_latency.h"
#include "report/report_extra.h"
#include "report/report_server.h"

static const char *protocol(const struct ttcp_options *o)
{
    return o->udp ? "udp" : "tcp";
}

void ttcp_json_options(struct ttcp_json *j, const struct ttcp_options *o)
{
    ttcp_json_object(j, "options");
    ttcp_json_string(j, "protocol", protocol(o));
    if (o->host != NULL)
        ttcp_json_string(j, "host", o->host);
    ttcp_json_u64(j, "port", o->port);
    ttcp_json_u64(j, "buflen", o->buflen);
    ttcp_json_u64(j, "nbuf", o->nbuf);
    ttcp_json_u64(j, "align", o->bufalign);
    ttcp_json_u64(j, "offset", o->bufoffset);
    ttcp_json_u64(j, "sockbufsize", o->sockbufsize);
    ttcp_json_bool(j, "sink", o->sinkmode);
    ttcp_json_string(j, "pattern", ttcp_payload_name(o->pattern));
    ttcp_json_double(j, "interval_seconds", (double)o->interval_ns / 1e9);
    ttcp_json_double(j, "time_seconds", (double)o->duration_ns / 1e9);
    ttcp_json_u64(j, "pace_bits_per_second", o->pace_bps);
    ttcp_json_u64(j, "link_bits_per_second", o->link_bps);
    ttcp_json_bool(j, "nodelay", o->nodelay);
    ttcp_json_bool(j, "continuous", o->continuous);
    ttcp_json_bool(j, "half_close", o->half_close);
    ttcp_json_bool(j, "verify", o->verify);
    ttcp_json_u64(j, "streams", o->streams);
    if (o->target != NULL) { /* -C host1 host2: host1 ran the test to the target */
        ttcp_json_object(j, "third_party");
        ttcp_json_string(j, "target", o->target_host);
        ttcp_json_u64(j, "target_port", o->target_port);
        ttcp_json_end(j);
    }
    if (o->group != NULL) {
        ttcp_json_object(j, "multicast");
        ttcp_json_string(j, "group", o->group);
        if (o->transmit)
            ttcp_json_u64(j, "ttl", o->mcast_ttl ? o->mcast_ttl : 1);
        if (o->source != NULL)
            ttcp_json_string(j, "source", o->source);
        if (o->interface != NULL)
            ttcp_json_string(j, "interface", o->interface);
        ttcp_json_end(j);
    }
    ttcp_json_end(j);
}

void ttcp_json_begin(struct ttcp_json *j, const struct ttcp_options *o, const char *version)
{
    ttcp_json_object(j, NULL);
    ttcp_json_string(j, "schema", TTCP_JSON_SCHEMA);
    ttcp_json_string(j, "version", version);
    if (o->title != NULL)
        ttcp_json_string(j, "title", o->title);
    if (o->mode == TTCP_MODE_CLIENT)
        ttcp_json_string(j, "side", "client");
    else
        ttcp_json_string(j, "side", o->transmit ? "transmit" : "receive");
    ttcp_json_options(j, o);
    ttcp_json_array(j, "tests");
}

static void tcp_object(struct ttcp_json *j, const char *key, const struct tt_tcp_info *i)
{
    ttcp_json_object(j, key);
    ttcp_json_u64(j, "mss", i->mss);
    ttcp_json_u64(j, "send_window", i->snd_wnd);
    ttcp_json_u64(j, "receive_window", i->rcv_wnd);
    ttcp_json_u64(j, "cwnd", i->cwnd);
    ttcp_json_double(j, "srtt_ms", i->srtt_us / 1000.0);
    ttcp_json_double(j, "rttvar_ms", i->rttvar_us / 1000.0);
    ttcp_json_u64(j, "retransmits", i->retransmits);
    ttcp_json_end(j);
}

/* A UDP receiver's interval: its share of the datagrams, the jitter then. */
static void udp_interval(struct ttcp_json *j, const struct ttcp_interval *in)
{
    ttcp_json_object(j, "udp");
    ttcp_json_u64(j, "datagrams", in->udp_datagrams);
    ttcp_json_u64(j, "expected", in->udp_expected);
    ttcp_json_u64(j, "lost", in->udp_lost);
    ttcp_json_double(j, "lost_percent", in->udp_expected > 0
                         ? 100.0 * (double)in->udp_lost / (double)in->udp_expected : 0.0);
    ttcp_json_double(j, "jitter_ms", in->udp_jitter_ns / 1e6);
    ttcp_json_end(j);
}

void ttcp_json_interval_members(struct ttcp_json *j, const struct ttcp_interval *in)
{
    double secs = (double)(in->end_ns - in->start_ns) / 1e9;
    ttcp_json_double(j, "start", (double)in->start_ns / 1e9);
    ttcp_json_double(j, "end", (double)in->end_ns / 1e9);
    ttcp_json_u64(j, "bytes", in->bytes);
    ttcp_json_double(j, "bits_per_second", secs > 0 ? (double)in->bytes * 8.0 / secs : 0.0);
    if (in->omitted)
        ttcp_json_bool(j, "omitted", 1);
    if (in->tcp_valid)
        tcp_object(j, "tcp", &in->tcp);
    if (in->udp_valid)
        udp_interval(j, in);
}

static void intervals_array(struct ttcp_json *j, const struct ttcp_result *r)
{
    size_t i;
    ttcp_json_array(j, "intervals");
    for (i = 0; i < r->intervals.count; i++) {
        ttcp_json_object(j, NULL);
        ttcp_json_interval_members(j, &r->intervals.list[i]);
        ttcp_json_end(j);
    }
    ttcp_json_end(j);
}

static void cpu_object(struct ttcp_json *j, const struct ttcp_result *r)
{
    double cpu = ttcp_cpu_seconds(r);
    ttcp_json_object(j, "cpu");
    ttcp_json_double(j, "user_seconds", (double)(r->cpu_end.user_ns - r->cpu_start.user_ns) / 1e9);
    ttcp_json_double(j, "system_seconds", (double)(r->cpu_end.sys_ns - r->cpu_start.sys_ns) / 1e9);
    ttcp_json_double(j, "percent", ttcp_cpu_percent(r));
    if (r->bytes > 0)
        ttcp_json_double(j, "seconds_per_gb", cpu / ((double)r->bytes / 1e9));
    else
        ttcp_json_null(j, "seconds_per_gb");
    ttcp_json_end(j);
}

static void udp_object(struct ttcp_json *j, const struct ttcp_result *r)
{
    const struct ttcp_udp_stats *u = &r->udp;
    ttcp_json_object(j, "udp");
    ttcp_json_u64(j, "datagrams", u->datagrams);
    ttcp_json_u64(j, "expected", u->expected);
    ttcp_json_u64(j, "lost", ttcp_udp_stats_lost(u));
    ttcp_json_u64(j, "duplicates", u->duplicates);
    ttcp_json_u64(j, "out_of_order", u->out_of_order);
    ttcp_json_double(j, "jitter_ms", u->jitter_ns / 1e6);
    ttcp_json_end(j);
}

static void verify_object(struct ttcp_json *j, const struct ttcp_result *r)
{
    const struct ttcp_verifier *v = &r->verify;
    ttcp_json_object(j, "verify");
    ttcp_json_string(j, "pattern",
                     v->kind < 0 ? "unknown" : ttcp_payload_name((enum ttcp_payload)v->kind));
    ttcp_json_u64(j, "checked_bytes", v->offset);
    ttcp_json_u64(j, "corrupted_bytes", v->corrupted);
    if (v->corrupted)
        ttcp_json_u64(j, "first_corrupted_byte", v->first_bad);
    ttcp_json_u64(j, "unchecked_bytes", v->unchecked);
    ttcp_json_end(j);
}

/* The same warnings the text printed, as stable codes and the same words. */
static void warnings_array(struct ttcp_json *j, const struct ttcp_options *o,
                           const struct ttcp_result *r)
{
    char text[256];
    int w;
    ttcp_json_array(j, "warnings");
    for (w = 0; w < TTCP_WARN_COUNT; w++) {
        if (!((r->warnings >> w) & 1u))
            continue;
        ttcp_report_warning_text(o, (enum ttcp_warning)w, r, text, sizeof text);
        ttcp_json_object(j, NULL);
        ttcp_json_string(j, "code", ttcp_report_warning_code((enum ttcp_warning)w));
        ttcp_json_string(j, "message", text);
        ttcp_json_end(j);
    }
    ttcp_json_end(j);
}

/* A test's members, inside its object. */
/* The marks the socket read back (--tos, --dscp) and the congestion control
 * the connection used (Linux), whether or not --congestion chose it. */
static void marks_members(struct ttcp_json *j, const struct ttcp_result *r)
{
    if ((r->marks_asked & TTCP_MARK_TOS) && r->tos_valid) {
        ttcp_json_u64(j, "tos", (uint64_t)r->tos);
        ttcp_json_u64(j, "dscp", (uint64_t)r->tos >> 2);
    } else if (r->marks_asked & TTCP_MARK_TOS) {
        ttcp_json_null(j, "tos");
    }
    if (r->congestion_valid)
        ttcp_json_string(j, "congestion", r->congestion);
    if (r->fq_rate_valid) /* --fq-rate, as the kernel holds it */
        ttcp_json_u64(j, "fq_rate_bits_per_second", r->fq_rate_bps);
}

/* --pmtu: the path MTU found before the test, and how. */
static void pmtu_object(struct ttcp_json *j, const struct ttcp_pmtu *p)
{
    ttcp_json_object(j, "pmtu");
    ttcp_json_u64(j, "mtu", (uint64_t)p->mtu);
    ttcp_json_u64(j, "route_mtu", (uint64_t)p->top);
    ttcp_json_u64(j, "probes", (uint64_t)p->probes);
    ttcp_json_double(j, "milliseconds", (double)p->elapsed_ns / 1e6);
    ttcp_json_bool(j, "exact", p->exact);
    ttcp_json_bool(j, "confirmed", p->confirmed);
    ttcp_json_end(j);
}

/* A TCP transmitter's wait for the receiver's close: what it learnt. */
static void delivery_member(struct ttcp_json *j, const struct ttcp_result *r)
{
    static const char *const words[] = {
        [TTCP_DELIVERY_CONFIRMED] = "confirmed",
        [TTCP_DELIVERY_ACKNOWLEDGED] = "acknowledged",
        [TTCP_DELIVERY_NOT_CONFIRMED] = "not_confirmed",
    };
    if (r->delivery != TTCP_DELIVERY_UNKNOWN)
        ttcp_json_string(j, "delivery", words[r->delivery]);
}

/* A number the analysis knows, or null. */
static void known_double(struct ttcp_json *j, const char *key, int known, double value)
{
    if (known)
        ttcp_json_double(j, key, value);
    else
        ttcp_json_null(j, key);
}

static void known_u64(struct ttcp_json *j, const char *key, int known, uint64_t value)
{
    if (known)
        ttcp_json_u64(j, key, value);
    else
        ttcp_json_null(j, key);
}

/* --analyze: the sender's time split; null where it is not known here. */
static void limits_object(struct ttcp_json *j, const struct ttcp_analysis *a)
{
    enum ttcp_limit by = ttcp_analysis_limited_by(a);
    int l;
    if (a->share_known == 0) {
        ttcp_json_null(j, "limits");
        ttcp_json_null(j, "limited_by");
        return;
    }
    ttcp_json_object(j, "limits");
    ttcp_json_double(j, "seconds", a->span_s);
    for (l = 0; l < TTCP_LIMIT_COUNT; l++)
        known_double(j, ttcp_limit_code((enum ttcp_limit)l), (a->share_known >> l) & 1u,
                     a->share[l]);
    ttcp_json_end(j);
    if (by == TTCP_LIMIT_COUNT)
        ttcp_json_null(j, "limited_by");
    else
        ttcp_json_string(j, "limited_by", ttcp_limit_code(by));
}

/* The -b that would lift the window's limit, at the end that must set it. */
static void advice_object(struct ttcp_json *j, const struct ttcp_analysis *a)
{
    enum ttcp_limit by = ttcp_analysis_limited_by(a);
    if ((by != TTCP_LIMIT_RWND && by != TTCP_LIMIT_SNDBUF) || !a->min_rtt_valid ||
        (by == TTCP_LIMIT_RWND && a->rwnd_advice == 0)) {
        ttcp_json_null(j, "advice");
        return;
    }
    ttcp_json_object(j, "advice");
    ttcp_json_string(j, "side", by == TTCP_LIMIT_RWND ? "receiver" : "transmitter");
    ttcp_json_u64(j, "sockbufsize", by == TTCP_LIMIT_RWND ? a->rwnd_advice : a->sndbuf_advice);
    ttcp_json_end(j);
}

static void rfc6349_object(struct ttcp_json *j, const struct ttcp_options *o,
                           const struct ttcp_analysis *a)
{
    ttcp_json_object(j, "rfc6349");
    known_u64(j, "mtu", a->mtu_source != TTCP_MTU_NONE, a->mtu);
    ttcp_json_string(j, "mtu_source", ttcp_mtu_source_code(a->mtu_source));
    ttcp_json_u64(j, "framing_bytes", a->framing_bytes);
    known_double(j, "max_tcp_bits_per_second", a->rfc_rate_valid, a->max_tcp_bps);
    known_double(j, "ideal_seconds", a->rfc_rate_valid, a->ideal_s);
    known_double(j, "transfer_time_ratio", a->rfc_rate_valid, a->transfer_time_ratio);
    known_double(j, "link_percent", o->link_bps != 0,
                 o->link_bps ? 100.0 * a->rate_bps / (double)o->link_bps : 0.0);
    known_double(j, "tcp_percent", a->rfc_rate_valid,
                 a->rfc_rate_valid ? 100.0 * a->rate_bps / a->max_tcp_bps : 0.0);
    known_double(j, "efficiency_percent", a->efficiency_valid, a->efficiency_percent);
    known_double(j, "buffer_delay_percent", a->buffer_delay_valid, a->buffer_delay_percent);
    ttcp_json_end(j);
}

/* The TCP statistics the analysis wanted and the OS did not give. */
static void missing_array(struct ttcp_json *j, const struct ttcp_analysis *a)
{
    unsigned bit;
    ttcp_json_array(j, "missing");
    if (!a->tcp_valid)
        ttcp_json_string(j, NULL, "tcp_info");
    for (bit = 1; bit <= TT_TCPI_ALL; bit <<= 1)
        if (!(a->have & bit))
            ttcp_json_string(j, NULL, ttcp_tcpi_field_code(bit));
    ttcp_json_end(j);
}

static void analysis_object(struct ttcp_json *j, const struct ttcp_options *o,
                            const struct ttcp_result *r)
{
    struct ttcp_analysis a;
    unsigned found;
    int f;
    if (!r->analysis_taken) { /* a far end whose protocol carries no facts */
        ttcp_json_object(j, "analysis");
        ttcp_json_string(j, "role", o->transmit ? "sender" : "receiver");
        ttcp_json_bool(j, "known", 0);
        ttcp_json_end(j);
        return;
    }
    ttcp_analysis_of(o, r, &a);
    found = ttcp_analysis_findings(&a);
    ttcp_json_object(j, "analysis");
    ttcp_json_string(j, "role", a.sender ? "sender" : "receiver");
    ttcp_json_bool(j, "known", 1);
    ttcp_json_array(j, "findings");
    for (f = 0; f < TTCP_FINDING_COUNT; f++)
        if ((found >> f) & 1u)
            ttcp_json_string(j, NULL, ttcp_finding_code((enum ttcp_finding)f));
    ttcp_json_end(j);
    missing_array(j, &a);
    limits_object(j, &a);
    advice_object(j, &a);
    ttcp_json_double(j, "rate_bits_per_second", a.rate_bps);
    known_double(j, "delivery_rate_bits_per_second", a.delivery_rate_valid, a.delivery_rate_bps);
    known_double(j, "min_rtt_ms", a.min_rtt_valid, a.min_rtt_s * 1e3);
    known_double(j, "bdp_bytes", a.min_rtt_valid, a.bdp_bytes);
    known_double(j, "link_bdp_bytes", a.link_bdp_bytes > 0.0, a.link_bdp_bytes);
    known_double(j, "mean_rtt_ms", a.rtt_samples > 0, a.mean_rtt_s * 1e3);
    ttcp_json_u64(j, "rtt_samples", a.rtt_samples);
    if (a.sender && a.tcp_valid) {
        ttcp_json_u64(j, "receiver_window", a.peer_window);
        ttcp_json_u64(j, "cwnd", a.cwnd);
        ttcp_json_bool(j, "window_bound", a.window_bound);
    }
    known_u64(j, "sndbuf", a.sndbuf_bytes > 0, (uint64_t)a.sndbuf_bytes);
    known_u64(j, "rcvbuf", a.rcvbuf_bytes > 0, (uint64_t)a.rcvbuf_bytes);
    ttcp_json_double(j, "cpu_percent", a.cpu_percent);
    known_double(j, "cpu_wait_percent", a.cpu_wait_valid, a.cpu_wait_percent);
    known_double(j, "cpu_throttled_percent", a.throttle_valid, a.throttle_percent);
    known_double(j, "cpu_quota_percent", a.throttle_valid && a.quota_percent > 0.0,
                 a.quota_percent);
    rfc6349_object(j, o, &a);
    ttcp_json_end(j);
}

/* Which stream, and its two ends' addresses where they are known. */
static void ends_members(struct ttcp_json *j, const struct ttcp_options *o,
                         const struct ttcp_result *r)
{
    char text[80];
    if (o->stream_number > 0) /* one of -P's streams */
        ttcp_json_u64(j, "stream", (uint64_t)o->stream_number);
    if (r->peer_valid) {
        ttcp_json_string(j, "peer", tt_addr_text(&r->peer, text, sizeof text));
        ttcp_json_u64(j, "peer_port", tt_addr_port(&r->peer));
    }
    if (r->local_valid) { /* where --bind and --cport show */
        ttcp_json_string(j, "local", tt_addr_text(&r->local, text, sizeof text));
        ttcp_json_u64(j, "local_port", tt_addr_port(&r->local));
    }
}

static void test_members(struct ttcp_json *j, const struct ttcp_options *o,
                         const struct ttcp_result *r)
{
    double secs = ttcp_real_seconds(r);
    ends_members(j, o, r);
    ttcp_json_u64(j, "bytes", r->bytes);
    ttcp_json_double(j, "seconds", secs);
    ttcp_json_double(j, "bits_per_second", (double)r->bytes * 8.0 / secs);
    ttcp_json_u64(j, "io_calls", r->calls);
    if (r->omitted) { /* --omit: measured, and not in the figures above */
        ttcp_json_object(j, "omitted");
        ttcp_json_double(j, "seconds", (double)r->omitted_ns / 1e9);
        ttcp_json_u64(j, "bytes", r->omitted_bytes);
        ttcp_json_end(j);
    }
    ttcp_json_bool(j, "interrupted", r->interrupted);
    ttcp_json_bool(j, "idle_timeout", r->idle_timeout);
    delivery_member(j, r);
    ttcp_json_bool(j, "truncated", (r->warnings >> TTCP_WARN_TRUNCATED) & 1u);
    cpu_object(j, r);
    if (o->link_bps)
        ttcp_json_double(j, "link_efficiency_percent",
                         100.0 * (double)r->bytes * 8.0 / secs / (double)o->link_bps);
    if (o->interval_ns)
        intervals_array(j, r);
    if (r->tcp_end_valid)
        tcp_object(j, "tcp", &r->tcp_end);
    else if (r->tcp_end_asked)
        ttcp_json_null(j, "tcp");
    if (r->udp_stats_valid)
        udp_object(j, r);
    marks_members(j, r);
    if (r->pmtu.found)
        pmtu_object(j, &r->pmtu);
    if (r->verify_done)
        verify_object(j, r);
    if (r->back_done) {
        ttcp_json_object(j, "half_close");
        ttcp_json_u64(j, "bytes", r->back_bytes);
        ttcp_json_double(j, "seconds", (double)r->back_ns / 1e9);
        ttcp_json_end(j);
    }
    if (r->seed_used)
        ttcp_json_u64(j, "seed", r->seed);
    if (r->mcast_ttl > 0) /* the hop limit as the sender's socket reported it */
        ttcp_json_u64(j, "multicast_ttl", (uint64_t)r->mcast_ttl);
    if (o->analyze && !o->udp)
        analysis_object(j, o, r);
    if (r->latency.source != TTCP_LATENCY_NONE)
        ttcp_json_latency(j, &r->latency, ttcp_latency_bin_width(o));
    warnings_array(j, o, r);
}

void ttcp_json_test(struct ttcp_json *j, const struct ttcp_options *o,
                    const struct ttcp_result *r)
{
    ttcp_json_object(j, NULL);
    test_members(j, o, r);
    ttcp_json_end(j);
}

void ttcp_json_test_streams(struct ttcp_json *j, const struct ttcp_options *o,
                            const char *direction, const struct ttcp_result *total,
                            const struct ttcp_options *part_opts,
                            const struct ttcp_result *parts, int n)
{
    int i;
    ttcp_json_object(j, NULL);
    if (direction != NULL) {
        ttcp_json_string(j, "direction", direction);
        ttcp_json_string(j, "side", o->transmit ? "transmit" : "receive");
    }
    test_members(j, o, total);
    ttcp_json_array(j, "streams");
    for (i = 0; i < n; i++) {
        ttcp_json_object(j, NULL);
        ttcp_json_u64(j, "port", part_opts[i].port);
        test_members(j, &part_opts[i], &parts[i]);
        ttcp_json_end(j);
    }
    ttcp_json_end(j);
    ttcp_json_end(j);
}

void ttcp_json_stream_test(struct ttcp_json *j, const struct ttcp_options *o,
                           const char *direction, const struct ttcp_result *r)
{
    ttcp_json_object(j, NULL);
    ttcp_json_string(j, "direction", direction);
    ttcp_json_string(j, "side", o->transmit ? "transmit" : "receive");
    test_members(j, o, r);
    ttcp_json_end(j);
}

void ttcp_json_next_array(struct ttcp_json *j, const char *key)
{
    ttcp_json_end(j);
    ttcp_json_array(j, key);
}

void ttcp_json_summary(struct ttcp_json *j, const struct ttcp_options *o, const char *direction,
                       const struct ttcp_result *tx, const struct ttcp_result *rx)
{
    double secs = ttcp_real_seconds(rx);
    ttcp_json_object(j, NULL);
    ttcp_json_string(j, "direction", direction);
    ttcp_json_u64(j, "bytes", rx->bytes);
    ttcp_json_double(j, "seconds", secs);
    ttcp_json_double(j, "bits_per_second", (double)rx->bytes * 8.0 / secs);
    ttcp_json_double(j, "transmitter_cpu_percent", ttcp_report_cpu_percent(tx));
    ttcp_json_double(j, "receiver_cpu_percent", ttcp_report_cpu_percent(rx));
    if (rx->udp_stats_valid) {
        uint64_t sent = ttcp_report_udp_sent(o, tx, rx);
        ttcp_json_u64(j, "datagrams_sent", sent);
        ttcp_json_u64(j, "datagrams_lost", sent > rx->udp.datagrams ? sent - rx->udp.datagrams : 0);
        ttcp_json_double(j, "jitter_ms", rx->udp.jitter_ns / 1e6);
    } else if (tx->tcp_end_valid) {
        ttcp_json_u64(j, "retransmits", tx->tcp_end.retransmits);
        ttcp_json_double(j, "rtt_ms", tx->tcp_end.srtt_us / 1000.0);
    }
    ttcp_json_end(j);
}

void ttcp_json_finish(struct ttcp_json *j, const struct ttcp_failure *failure,
                      const char *message)
{
    while (j->depth > 1) /* tests (or the last list), unless a caller closed it */
        ttcp_json_end(j);
    if (failure == NULL || failure->code == 0) {
        ttcp_json_null(j, "error");
    } else {
        ttcp_json_object(j, "error");
        ttcp_json_string(j, "operation", ttcp_report_op_name(failure->op));
        ttcp_json_string(j, "message", message);
        ttcp_json_i64(j, "native_code", failure->native);
        ttcp_json_end(j);
    }
    ttcp_json_end(j);
}
