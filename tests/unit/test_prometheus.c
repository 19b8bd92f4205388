/* The probe exporter's text (report/report_prometheus.c): the exposition of
 * a TCP and a UDP probe, a failed one, the label's escapes, a cut buffer,
 * the exporter's counters; analyze=1's lines (the sender's limits, a share
 * the OS did not give left out), compression=1's and latency=1's (a phase
 * without an answered probe, the increase and the grade left out). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "report/report_prometheus.h"

#define MS 1000000ll

static void tcp_results(struct ttcp_result *tx, struct ttcp_result *rx)
{
    memset(tx, 0, sizeof *tx);
    memset(rx, 0, sizeof *rx);
    tx->started = rx->started = 1;
    tx->bytes = rx->bytes = 125000000;
    tx->real_ns = rx->real_ns = 1000 * MS;
    tx->cpu_end.sys_ns = 500 * MS; /* the transmitter: half a core */
    rx->cpu_end.user_ns = 250 * MS;
    tx->tcp_end_valid = 1;
    tx->tcp_end.retransmits = 3;
    tx->tcp_end.srtt_us = 1500;
}

static void has(const char *text, const char *line)
{
    if (strstr(text, line) == NULL)
        fail_msg("missing: %s\nin:\n%s", line, text);
}

static void tcp_probe_has_every_figure(void **state)
{
    struct ttcp_options o;
    struct ttcp_result tx, rx;
    struct ttcp_prom_probe p = {"10.0.0.1", &o, &tx, &rx, 1200 * MS, NULL, NULL, NULL};
    char buf[8192];
    (void)state;
    memset(&o, 0, sizeof o);
    tcp_results(&tx, &rx);
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "# HELP ttcp_up ");
    has(buf, "# TYPE ttcp_up gauge\nttcp_up{target=\"10.0.0.1\"} 1\n");
    has(buf, "\nttcp_sent_bytes{target=\"10.0.0.1\"} 125000000\n");
    has(buf, "\nttcp_received_bytes{target=\"10.0.0.1\"} 125000000\n");
    has(buf, "\nttcp_receiver_seconds{target=\"10.0.0.1\"} 1\n");
    has(buf, "\nttcp_bits_per_second{target=\"10.0.0.1\"} 1000000000\n");
    has(buf, "\nttcp_sender_cpu_ratio{target=\"10.0.0.1\"} 0.5\n");
    has(buf, "\nttcp_receiver_cpu_ratio{target=\"10.0.0.1\"} 0.25\n");
    has(buf, "\nttcp_tcp_retransmits{target=\"10.0.0.1\"} 3\n");
    has(buf, "\nttcp_tcp_rtt_seconds{target=\"10.0.0.1\"} 0.0015\n");
    has(buf, "\nttcp_probe_duration_seconds{target=\"10.0.0.1\"} 1.2\n");
    assert_null(strstr(buf, "udp"));
    assert_null(strstr(buf, "latency")); /* not asked */
}

static void udp_probe_has_loss_and_jitter(void **state)
{
    struct ttcp_options o;
    struct ttcp_result tx, rx;
    struct ttcp_prom_probe p = {"h", &o, &tx, &rx, 1000 * MS, NULL, NULL, NULL};
    char buf[8192];
    (void)state;
    memset(&o, 0, sizeof o);
    o.buflen = 1000;
    tcp_results(&tx, &rx);
    tx.tcp_end_valid = 0;
    tx.bytes = 200000; /* 200 datagrams sent */
    rx.bytes = 190000;
    rx.udp_stats_valid = 1;
    rx.udp.datagrams = 190;
    rx.udp.expected = 195;
    rx.udp.jitter_ns = 250000.0;
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "\nttcp_udp_sent_packets{target=\"h\"} 200\n");
    has(buf, "\nttcp_udp_lost_packets{target=\"h\"} 10\n");
    has(buf, "\nttcp_udp_jitter_seconds{target=\"h\"} 0.00025\n");
    assert_null(strstr(buf, "ttcp_tcp_"));
}

static void failed_probe_is_down_with_its_duration(void **state)
{
    struct ttcp_prom_probe p = {"h", NULL, NULL, NULL, 30 * MS, NULL, NULL, NULL};
    char buf[4096];
    (void)state;
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "\nttcp_up{target=\"h\"} 0\n");
    has(buf, "\nttcp_probe_duration_seconds{target=\"h\"} 0.03\n");
    assert_null(strstr(buf, "bytes"));
}

static void label_values_are_escaped(void **state)
{
    struct ttcp_prom_probe p = {"a\\b\"c\nd", NULL, NULL, NULL, 0, NULL, NULL, NULL};
    char buf[4096];
    (void)state;
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "\nttcp_up{target=\"a\\\\b\\\"c\\nd\"} 0\n");
}

static void a_short_buffer_is_cut_to_a_string(void **state)
{
    struct ttcp_prom_probe p = {"h", NULL, NULL, NULL, 0, NULL, NULL, NULL};
    char buf[16];
    size_t n;
    (void)state;
    memset(buf, 'x', sizeof buf);
    n = ttcp_prometheus_probe(&p, buf, sizeof buf);
    assert_true(n < sizeof buf);
    assert_int_equal(strlen(buf), n);
}

static void counters_are_totals(void **state)
{
    struct ttcp_prom_counters c = {5, 2, 1, 3, 4, 2500 * MS};
    char buf[4096];
    (void)state;
    ttcp_prometheus_counters(&c, buf, sizeof buf);
    has(buf, "# TYPE ttcp_exporter_probes_total counter\nttcp_exporter_probes_total 5\n");
    has(buf, "\nttcp_exporter_probe_failures_total 2\n");
    has(buf, "\nttcp_exporter_refused_total 1\n");
    has(buf, "\nttcp_exporter_bad_requests_total 3\n");
    has(buf, "\nttcp_exporter_busy_total 4\n");
    has(buf, "\nttcp_exporter_probe_seconds_total 2.5\n");
}

/* A sender whose OS gave every analysis fact: 1 s, busy 0.8 s of it, the
 * receiver's window 0.3 s and the send buffer 0.1 s within busy. */
static void analysis_results(struct ttcp_result *tx, struct ttcp_result *rx)
{
    tcp_results(tx, rx);
    tx->cpu_end.sys_ns = 900 * MS; /* 90 % of a core: cpu-bound */
    tx->limits_span_ns = 1000 * MS;
    tx->tcp_end.have = TT_TCPI_BUSY | TT_TCPI_RWND_LIMITED | TT_TCPI_SNDBUF_LIMITED |
                       TT_TCPI_MIN_RTT | TT_TCPI_BYTES_SENT | TT_TCPI_BYTES_RETRANS;
    tx->tcp_end.busy_us = 800000;
    tx->tcp_end.rwnd_limited_us = 300000;
    tx->tcp_end.sndbuf_limited_us = 100000;
    tx->tcp_end.min_rtt_us = 2500;
    tx->tcp_end.bytes_sent = 125004096;
    tx->tcp_end.bytes_retrans = 4096;
}

static void analyze_adds_the_senders_limits(void **state)
{
    struct ttcp_options o;
    struct ttcp_result tx, rx;
    struct ttcp_prom_probe p = {"h", &o, &tx, &rx, 1100 * MS, NULL, NULL, NULL};
    char buf[8192];
    (void)state;
    memset(&o, 0, sizeof o);
    o.analyze = 1;
    analysis_results(&tx, &rx);
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "\n# HELP ttcp_limited_seconds ");
    has(buf, "\n# TYPE ttcp_limited_seconds gauge\n"
             "ttcp_limited_seconds{target=\"h\",by=\"rwnd\"} 0.3\n"
             "ttcp_limited_seconds{target=\"h\",by=\"sndbuf\"} 0.1\n"
             "ttcp_limited_seconds{target=\"h\",by=\"cwnd\"} 0.4\n"
             "ttcp_limited_seconds{target=\"h\",by=\"app\"} 0.2\n");
    has(buf, "\n# TYPE ttcp_tcp_min_rtt_seconds gauge\n"
             "ttcp_tcp_min_rtt_seconds{target=\"h\"} 0.0025\n");
    has(buf, "\n# TYPE ttcp_tcp_sent_bytes gauge\nttcp_tcp_sent_bytes{target=\"h\"} 125004096\n");
    has(buf, "\n# TYPE ttcp_tcp_retransmitted_bytes gauge\n"
             "ttcp_tcp_retransmitted_bytes{target=\"h\"} 4096\n");
    has(buf, "\n# TYPE ttcp_cpu_bound gauge\n"
             "ttcp_cpu_bound{target=\"h\",end=\"sender\"} 1\n"
             "ttcp_cpu_bound{target=\"h\",end=\"receiver\"} 0\n");
    /* the family's HELP and TYPE once, its four samples after them */
    assert_null(strstr(strstr(buf, "# TYPE ttcp_limited_seconds") + 1,
                       "# TYPE ttcp_limited_seconds"));
    assert_null(strstr(buf, "compression"));
}

/* An OS that counts busy time but not the windows' (an older kernel): the
 * application's share alone, the others left out, never 0 by guess; no
 * baseline RTT, no byte counts. */
static void a_share_not_given_is_left_out(void **state)
{
    struct ttcp_options o;
    struct ttcp_result tx, rx;
    struct ttcp_prom_probe p = {"h", &o, &tx, &rx, 1100 * MS, NULL, NULL, NULL};
    char buf[8192];
    (void)state;
    memset(&o, 0, sizeof o);
    o.analyze = 1;
    analysis_results(&tx, &rx);
    tx.tcp_end.have = TT_TCPI_BUSY;
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "\n# TYPE ttcp_limited_seconds gauge\n"
             "ttcp_limited_seconds{target=\"h\",by=\"app\"} 0.2\n");
    assert_null(strstr(buf, "by=\"rwnd\""));
    assert_null(strstr(buf, "by=\"sndbuf\""));
    assert_null(strstr(buf, "by=\"cwnd\""));
    assert_null(strstr(buf, "ttcp_tcp_min_rtt_seconds"));
    assert_null(strstr(buf, "ttcp_tcp_sent_bytes"));
    assert_null(strstr(buf, "ttcp_tcp_retransmitted_bytes"));
    has(buf, "ttcp_cpu_bound{target=\"h\",end=\"sender\"} 1\n");
    /* no TCP statistics at all: no limits, the CPU still */
    tx.tcp_end_valid = 0;
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    assert_null(strstr(buf, "ttcp_limited_seconds"));
    has(buf, "ttcp_cpu_bound{target=\"h\",end=\"receiver\"} 0\n");
}

static void without_analyze_no_analysis_lines(void **state)
{
    struct ttcp_options o;
    struct ttcp_result tx, rx;
    struct ttcp_prom_probe p = {"h", &o, &tx, &rx, 1100 * MS, NULL, NULL, NULL};
    char buf[8192];
    (void)state;
    memset(&o, 0, sizeof o);
    analysis_results(&tx, &rx);
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    assert_null(strstr(buf, "ttcp_limited_seconds"));
    assert_null(strstr(buf, "ttcp_cpu_bound"));
    assert_null(strstr(buf, "ttcp_tcp_min_rtt_seconds"));
}

static void a_second_label_is_escaped_too(void **state)
{
    struct ttcp_options o;
    struct ttcp_result tx, rx;
    struct ttcp_prom_probe p = {"a\"b\\c\nd", &o, &tx, &rx, 1100 * MS, NULL, NULL, NULL};
    char buf[8192];
    (void)state;
    memset(&o, 0, sizeof o);
    o.analyze = 1;
    analysis_results(&tx, &rx);
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "\nttcp_limited_seconds{target=\"a\\\"b\\\\c\\nd\",by=\"app\"} 0.2\n");
}

static void compression_gives_both_rates_and_the_ratio(void **state)
{
    struct ttcp_options o;
    struct ttcp_result tx, rx;
    struct ttcp_compression c = {6e6, 1e6, 6.0, 10.0, TTCP_COMPRESSION_FOUND};
    struct ttcp_prom_probe p = {"h", &o, &tx, &rx, 2100 * MS, &c, NULL, NULL};
    char buf[8192];
    (void)state;
    memset(&o, 0, sizeof o);
    tcp_results(&tx, &rx);
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "\n# TYPE ttcp_compression_bits_per_second gauge\n"
             "ttcp_compression_bits_per_second{target=\"h\",pattern=\"classic\"} 6000000\n"
             "ttcp_compression_bits_per_second{target=\"h\",pattern=\"random\"} 1000000\n");
    has(buf, "\n# TYPE ttcp_compression_ratio gauge\nttcp_compression_ratio{target=\"h\"} 6\n");
    has(buf, "\n# TYPE ttcp_compression_cpu_ratio gauge\n"
             "ttcp_compression_cpu_ratio{target=\"h\"} 0.1\n");
    /* the random run did not complete: its rate and the ratio left out */
    c.random_bps = 0.0;
    c.ratio = 0.0;
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "pattern=\"classic\"} 6000000\n");
    assert_null(strstr(buf, "pattern=\"random\""));
    assert_null(strstr(buf, "ttcp_compression_ratio"));
    assert_null(strstr(buf, "ttcp_compression_cpu_ratio"));
}

/* n probes of a phase, the k-th (from 1) rtt first_ms + k * step_ms; lost:
 * that many of them (the first ones) never answered. */
static void probes(struct ttcp_latency *l, int phase, int n, int lost, double first_ms,
                   double step_ms)
{
    int k;
    l->source = TTCP_LATENCY_UDP_ECHO;
    l->period_ns = 100 * MS;
    for (k = 1; k <= n; k++)
        assert_int_equal(ttcp_latency_push(l, (phase ? k : k - n - 1) * 100 * MS,
                                           k <= lost ? -1
                                                     : (int64_t)((first_ms + k * step_ms) * MS),
                                           phase), 0);
}

static void latency_gives_quantiles_increase_and_grade(void **state)
{
    struct ttcp_options o;
    struct ttcp_result tx, rx;
    struct ttcp_latency l;
    struct ttcp_prom_probe p = {"h", &o, &tx, &rx, 3100 * MS, NULL, &l, NULL};
    char buf[8192];
    (void)state;
    memset(&o, 0, sizeof o);
    memset(&l, 0, sizeof l);
    tcp_results(&tx, &rx);
    probes(&l, TTCP_LATENCY_IDLE, 11, 1, 10, 0);      /* 10 answered of 11, 10 ms each */
    probes(&l, TTCP_LATENCY_LOADED, 10, 0, 0, 100);   /* 100, 200, ... 1000 ms */
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "\n# TYPE ttcp_latency_seconds summary\n"
             "ttcp_latency_seconds{target=\"h\",phase=\"idle\",quantile=\"0.5\"} 0.01\n"
             "ttcp_latency_seconds{target=\"h\",phase=\"idle\",quantile=\"0.9\"} 0.01\n"
             "ttcp_latency_seconds{target=\"h\",phase=\"idle\",quantile=\"0.99\"} 0.01\n"
             "ttcp_latency_seconds_sum{target=\"h\",phase=\"idle\"} 0.1\n"
             "ttcp_latency_seconds_count{target=\"h\",phase=\"idle\"} 10\n"
             "ttcp_latency_seconds{target=\"h\",phase=\"loaded\",quantile=\"0.5\"} 0.5\n"
             "ttcp_latency_seconds{target=\"h\",phase=\"loaded\",quantile=\"0.9\"} 0.9\n"
             "ttcp_latency_seconds{target=\"h\",phase=\"loaded\",quantile=\"0.99\"} 1\n"
             "ttcp_latency_seconds_sum{target=\"h\",phase=\"loaded\"} 5.5\n"
             "ttcp_latency_seconds_count{target=\"h\",phase=\"loaded\"} 10\n");
    has(buf, "\n# TYPE ttcp_latency_sent_probes gauge\n"
             "ttcp_latency_sent_probes{target=\"h\",phase=\"idle\"} 11\n"
             "ttcp_latency_sent_probes{target=\"h\",phase=\"loaded\"} 10\n");
    has(buf, "\n# TYPE ttcp_latency_lost_probes gauge\n"
             "ttcp_latency_lost_probes{target=\"h\",phase=\"idle\"} 1\n"
             "ttcp_latency_lost_probes{target=\"h\",phase=\"loaded\"} 0\n");
    has(buf, "\n# TYPE ttcp_latency_increase_seconds gauge\n"
             "ttcp_latency_increase_seconds{target=\"h\"} 0.49\n");
    has(buf, "# HELP ttcp_bufferbloat_grade The grade of the increase: 0 A+");
    has(buf, "\n# TYPE ttcp_bufferbloat_grade gauge\nttcp_bufferbloat_grade{target=\"h\"} 5\n");
    ttcp_latency_free(&l);
}

/* Idle probes none answered: no idle quantile (never 0), no increase, no
 * grade; the probes and the losses still counted. A failed test: none. */
static void a_phase_without_answers_is_left_out(void **state)
{
    struct ttcp_options o;
    struct ttcp_result tx, rx;
    struct ttcp_latency l;
    struct ttcp_prom_probe p = {"h", &o, &tx, &rx, 3100 * MS, NULL, &l, NULL};
    char buf[8192];
    (void)state;
    memset(&o, 0, sizeof o);
    memset(&l, 0, sizeof l);
    tcp_results(&tx, &rx);
    probes(&l, TTCP_LATENCY_IDLE, 5, 5, 10, 0);
    probes(&l, TTCP_LATENCY_LOADED, 4, 0, 20, 0);
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    assert_null(strstr(buf, "phase=\"idle\",quantile"));
    assert_null(strstr(buf, "ttcp_latency_seconds_count{target=\"h\",phase=\"idle\"}"));
    has(buf, "ttcp_latency_seconds{target=\"h\",phase=\"loaded\",quantile=\"0.5\"} 0.02\n");
    has(buf, "ttcp_latency_lost_probes{target=\"h\",phase=\"idle\"} 5\n");
    assert_null(strstr(buf, "ttcp_latency_increase_seconds"));
    assert_null(strstr(buf, "ttcp_bufferbloat_grade"));
    p.tx = p.rx = NULL; /* the test did not complete: ttcp_up 0 and the duration alone */
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    assert_null(strstr(buf, "latency"));
    ttcp_latency_free(&l);
}

/* web=1: the server's count of browser tests and its newest one's
 * figures, upload as the server counted it; a figure the test did not
 * give is left out, and a server that did not answer gives ttcp_web_up 0
 * alone. The lines come whether or not the test itself completed. */
static void web_gives_the_latest_browser_test(void **state)
{
    struct ttcp_web_record r;
    struct ttcp_prom_web w = {1, 23, &r};
    struct ttcp_prom_probe p = {"h", NULL, NULL, NULL, 0, NULL, NULL, &w};
    char buf[8192];
    (void)state;
    memset(&r, 0, sizeof r);
    r.seq = 23;
    r.age_ns = 2500 * MS;
    r.f.down_valid = 1;
    r.f.down_bps = 38600.0;
    r.f.up_valid = 1;
    r.f.up_bps = 31200.0;
    r.f.up_bytes = 117000;
    r.f.latency_valid = 1;
    r.f.idle_ms = 120.0;
    r.f.loaded_ms = 880.0;
    r.f.grade = TTCP_GRADE_D;
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "ttcp_up{target=\"h\"} 0\n");
    has(buf, "\n# TYPE ttcp_web_up gauge\nttcp_web_up{target=\"h\"} 1\n");
    has(buf, "\n# TYPE ttcp_web_tests_total counter\nttcp_web_tests_total{target=\"h\"} 23\n");
    has(buf, "\nttcp_web_age_seconds{target=\"h\"} 2.5\n");
    has(buf, "\nttcp_web_download_bits_per_second{target=\"h\"} 38600\n");
    has(buf, "\nttcp_web_upload_bits_per_second{target=\"h\"} 31200\n");
    has(buf, "\nttcp_web_upload_bytes{target=\"h\"} 117000\n");
    has(buf, "\nttcp_web_idle_latency_seconds{target=\"h\"} 0.12\n");
    has(buf, "\nttcp_web_loaded_latency_seconds{target=\"h\"} 0.88\n");
    has(buf, "\nttcp_web_bufferbloat_grade{target=\"h\"} 4\n");
    r.f.up_valid = 0; /* an upload the server did not time, no latency */
    r.f.latency_valid = 0;
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "\nttcp_web_download_bits_per_second{target=\"h\"} 38600\n");
    assert_null(strstr(buf, "ttcp_web_upload"));
    assert_null(strstr(buf, "latency"));
    assert_null(strstr(buf, "grade"));
    w.latest = NULL; /* none kept yet */
    w.tests = 0;
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "ttcp_web_tests_total{target=\"h\"} 0\n");
    assert_null(strstr(buf, "ttcp_web_age"));
    assert_null(strstr(buf, "ttcp_web_download"));
    w.answered = 0; /* an older server, or none */
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    has(buf, "ttcp_web_up{target=\"h\"} 0\n");
    assert_null(strstr(buf, "ttcp_web_tests_total"));
    p.web = NULL; /* not asked */
    ttcp_prometheus_probe(&p, buf, sizeof buf);
    assert_null(strstr(buf, "ttcp_web"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tcp_probe_has_every_figure),
        cmocka_unit_test(udp_probe_has_loss_and_jitter),
        cmocka_unit_test(failed_probe_is_down_with_its_duration),
        cmocka_unit_test(label_values_are_escaped),
        cmocka_unit_test(a_short_buffer_is_cut_to_a_string),
        cmocka_unit_test(counters_are_totals),
        cmocka_unit_test(analyze_adds_the_senders_limits),
        cmocka_unit_test(a_share_not_given_is_left_out),
        cmocka_unit_test(without_analyze_no_analysis_lines),
        cmocka_unit_test(a_second_label_is_escaped_too),
        cmocka_unit_test(compression_gives_both_rates_and_the_ratio),
        cmocka_unit_test(latency_gives_quantiles_increase_and_grade),
        cmocka_unit_test(a_phase_without_answers_is_left_out),
        cmocka_unit_test(web_gives_the_latest_browser_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
