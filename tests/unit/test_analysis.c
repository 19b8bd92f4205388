/* --analyze: the arithmetic (measure/analysis.c) against hand-computed
 * values, the findings and their words (report/report_analysis.c), the JSON
 * object, the fields an OS did not give, and -P's sum of the facts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "config/options.h"
#include "measure/analysis.h"
#include "measure/sum.h"
#include "report/json.h"
#include "report/report_analysis.h"
#include "report/report_json.h"

#define S 1000000000ll

/* cmocka's float check holds 7 digits: these are doubles. */
static void near(double got, double want, double eps, int line)
{
    if (!(got - want <= eps && want - got <= eps)) {
        fprintf(stderr, "line %d: %.12g, expected %.12g (within %g)\n", line, got, want, eps);
        fail();
    }
}
#define assert_near(got, want, eps) near((got), (want), (eps), __LINE__)

/* A sender's end of a test on Linux: 10 s of data, every field given. */
static void linux_sender(struct ttcp_result *r)
{
    memset(r, 0, sizeof *r);
    r->started = 1;
    r->bytes = 3276800;            /* over 10 s: 2,621,440 bit/s = 327,680 bytes/s */
    r->real_ns = 10 * S;
    r->limits_span_ns = 12 * S;    /* (with a 2 s --omit) */
    r->analysis_taken = 1;
    r->tcp_end_valid = 1;
    r->tcp_end.snd_wnd = 16384;
    r->tcp_end.cwnd = 12000;       /* below the window: the network bounds what is in flight */
    r->tcp_end.min_rtt_us = 50000; /* BDP: 327,680 x 0.05 = 16,384 bytes */
    r->tcp_end.busy_us = 10000000;
    r->tcp_end.rwnd_limited_us = 6000000;
    r->tcp_end.sndbuf_limited_us = 1000000;
    r->tcp_end.bytes_sent = 102000;
    r->tcp_end.bytes_retrans = 2000;
    r->tcp_end.delivery_rate = 400000;
    r->tcp_end.have = TT_TCPI_ALL;
    r->sndbuf_bytes = 87040;
    r->rcvbuf_bytes = 131072;
}

static void analyze(const struct ttcp_result *r, int sender, uint64_t link, uint64_t mtu,
                    uint64_t framing, struct ttcp_analysis *a)
{
    struct ttcp_analysis_in in = {r, sender, link, mtu, framing};
    ttcp_analyze(&in, a);
}

static void shares_split_the_senders_time(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&r);
    analyze(&r, 1, 0, 0, 38, &a);
    assert_int_equal(a.share_known, 0xfu);
    assert_near(a.span_s, 12.0, 1e-9);
    assert_near(a.share[TTCP_LIMIT_RWND], 6.0 / 12.0, 1e-9);
    assert_near(a.share[TTCP_LIMIT_SNDBUF], 1.0 / 12.0, 1e-9);
    assert_near(a.share[TTCP_LIMIT_CWND], 3.0 / 12.0, 1e-9);  /* busy - rwnd - sndbuf */
    assert_near(a.share[TTCP_LIMIT_APP], 2.0 / 12.0, 1e-9);   /* span - busy */
    assert_int_equal(ttcp_analysis_limited_by(&a), TTCP_LIMIT_RWND);
    assert_int_equal(ttcp_analysis_findings(&a), 1u << TTCP_FINDING_RWND);
    /* below the half, nothing limited the test */
    r.tcp_end.rwnd_limited_us = 5000000;
    analyze(&r, 1, 0, 0, 38, &a);
    assert_near(a.share[TTCP_LIMIT_RWND], 5.0 / 12.0, 1e-9);
    assert_int_equal(ttcp_analysis_limited_by(&a), TTCP_LIMIT_COUNT);
    assert_int_equal(ttcp_analysis_findings(&a), 0);
}

/* A congestion window grown to the receiver's window: the network's time
 * (Linux counts it busy where both windows are full) was the window's too. */
static void a_window_bound_sender(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    char buf[2048];
    struct ttcp_text t = {buf, sizeof buf, 0};
    struct ttcp_options o;
    (void)state;
    linux_sender(&r);
    r.tcp_end.rwnd_limited_us = 3000000;  /* 3 of 12 s as the kernel counts */
    r.tcp_end.sndbuf_limited_us = 0;       /* network 7 of 12 s */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_false(a.window_bound);
    assert_int_equal(ttcp_analysis_limited_by(&a), TTCP_LIMIT_CWND);
    r.tcp_end.cwnd = 16384;                /* as large as the receiver's window */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_true(a.window_bound);
    assert_int_equal(ttcp_analysis_limited_by(&a), TTCP_LIMIT_RWND);
    assert_near(ttcp_analysis_limit_share(&a, TTCP_LIMIT_RWND), 10.0 / 12.0, 1e-9);
    assert_near(a.share[TTCP_LIMIT_RWND], 3.0 / 12.0, 1e-9); /* the kernel's own, as it was */
    assert_int_equal(ttcp_analysis_findings(&a), 1u << TTCP_FINDING_RWND);
    memset(&o, 0, sizeof o);
    o.transmit = 1;
    o.framing_bytes = 38;
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "limited by the receiver's window 83.3 % of the time: it offered "
                                "16384 bytes (the congestion window, 16384, had reached it: the "
                                "network's 58.3 % was the window's too); set -b 32k"));
    /* a receiver is never window-bound */
    analyze(&r, 0, 0, 0, 38, &a);
    assert_false(a.window_bound);
}

/* A connection busy longer than the timer (it began before it): the shares
 * are of the busy time and still add up to 1. */
static void busy_longer_than_the_test_is_the_span(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    int l;
    double total = 0.0;
    (void)state;
    linux_sender(&r);
    r.limits_span_ns = 8 * S;
    analyze(&r, 1, 0, 0, 38, &a);
    assert_near(a.span_s, 10.0, 1e-9);
    assert_near(a.share[TTCP_LIMIT_APP], 0.0, 1e-12);
    for (l = 0; l < TTCP_LIMIT_COUNT; l++) {
        assert_true(a.share[l] >= 0.0 && a.share[l] <= 1.0);
        total += a.share[l];
    }
    assert_near(total, 1.0, 1e-9);
}

/* An old kernel, Wine, Windows' version 1: what was not given stays
 * unknown, never 0. */
static void missing_fields_stay_unknown(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&r);
    r.tcp_end.have = TT_TCPI_BUSY | TT_TCPI_RWND_LIMITED; /* Windows: no send buffer's time */
    r.tcp_end.busy_us = 9000000;
    r.tcp_end.sndbuf_limited_us = 0;
    analyze(&r, 1, 100000000, 1500, 38, &a);
    assert_int_equal(a.share_known, (1u << TTCP_LIMIT_RWND) | (1u << TTCP_LIMIT_CWND) |
                                        (1u << TTCP_LIMIT_APP));
    assert_near(a.share[TTCP_LIMIT_CWND], 3.0 / 12.0, 1e-9);
    assert_false(a.min_rtt_valid);
    assert_int_equal(a.rwnd_advice, 0);
    assert_false(a.efficiency_valid);
    assert_false(a.buffer_delay_valid);
    assert_false(a.delivery_rate_valid);
    assert_true(a.rfc_rate_valid); /* the link and the MTU need no TCP statistics */
    r.tcp_end.have = 0; /* a kernel before the chronographs */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_int_equal(a.share_known, 0);
    r.tcp_end_valid = 0; /* no TCP statistics at all */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_false(a.tcp_valid);
    assert_int_equal(a.share_known, 0);
    assert_int_equal(ttcp_analysis_findings(&a), 0);
}

static void a_receiver_knows_no_sender_limits(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&r);
    analyze(&r, 0, 0, 0, 38, &a);
    assert_int_equal(a.share_known, 0);
    assert_false(a.efficiency_valid);
    assert_int_equal(a.rwnd_advice, 0);
}

static void bdp_and_the_b_advice(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&r);
    analyze(&r, 1, 0, 0, 38, &a);
    assert_true(a.min_rtt_valid);
    assert_near(a.rate_bps, 2621440.0, 1e-6);
    assert_near(a.bdp_bytes, 16384.0, 1e-6);
    assert_int_equal(a.rwnd_advice, 32768);  /* twice the window (= the BDP) it reached */
    assert_int_equal(a.sndbuf_advice, 32768);
    /* the link's BDP at 100 Mbit/s: 12.5e6 x 0.05 = 625,000, up to whole KiB: 611 KiB */
    analyze(&r, 1, 100000000, 0, 38, &a);
    assert_near(a.link_bdp_bytes, 625000.0, 1e-6);
    assert_int_equal(a.rwnd_advice, 611 * 1024);
    assert_true(a.rwnd_advice >= a.bdp_bytes && a.rwnd_advice >= a.link_bdp_bytes);
    /* a window that already holds the link's BDP was not too small */
    r.tcp_end.snd_wnd = 1u << 20;
    analyze(&r, 1, 100000000, 0, 38, &a);
    assert_int_equal(a.rwnd_advice, 0);
}

static void advice_rounds_up_to_kib_within_the_bound(void **state)
{
    (void)state;
    assert_int_equal(ttcp_advice_bytes(0.0), 1024);
    assert_int_equal(ttcp_advice_bytes(1.0), 1024);
    assert_int_equal(ttcp_advice_bytes(1024.0), 1024);
    assert_int_equal(ttcp_advice_bytes(1024.5), 2048);
    assert_int_equal(ttcp_advice_bytes(1e12), 1u << 30);
}

/* RFC 6349's own examples (section 3.3): 100 Mbit/s Ethernet at MTU 1500
 * carries 94.9 Mbit/s of TCP; a T3 (44.21 Mbit/s) with PPP's 8 bytes
 * 42.8 Mbit/s. */
static void rfc6349_max_throughput(void **state)
{
    (void)state;
    assert_near(ttcp_rfc6349_max_tcp_bps(100000000, 1500, TTCP_FRAMING_ETHERNET),
                       100e6 * 1460.0 / 1538.0, 1e-3);
    assert_near(ttcp_rfc6349_max_tcp_bps(100000000, 1500, TTCP_FRAMING_ETHERNET) / 1e6,
                       94.93, 0.005);
    assert_near(ttcp_rfc6349_max_tcp_bps(44210000, 1500, TTCP_FRAMING_PPP) / 1e6, 42.80,
                       0.005);
    assert_near(ttcp_rfc6349_max_tcp_bps(1000, 40, 0), 0.0, 0.0); /* no payload */
}

/* Transfer Time Ratio 12 s / 8 s = 1.5; Efficiency (102000 - 2000) /
 * 102000 = 98.04 %; Buffer Delay (32 - 25) / 25 = 28 %: the RFC's figures. */
static void rfc6349_ratios(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&r);
    r.bytes = 1460000;              /* at 1.46 Mbit/s of TCP: 8 s ideal */
    r.real_ns = 12 * S;
    r.tcp_end.min_rtt_us = 25000;
    r.rtt_sum_us = 4 * 32000;
    r.rtt_samples = 4;
    analyze(&r, 1, 1500000, 1500, 0, &a); /* 1.5 Mbit/s x 1460 / 1500 = 1.46 Mbit/s */
    assert_true(a.rfc_rate_valid);
    assert_int_equal(a.mtu_source, TTCP_MTU_GIVEN);
    assert_near(a.max_tcp_bps, 1460000.0, 1e-6);
    assert_near(a.ideal_s, 8.0, 1e-9);
    assert_near(a.transfer_time_ratio, 1.5, 1e-9);
    assert_true(a.efficiency_valid);
    assert_near(a.efficiency_percent, 100.0 * 100000.0 / 102000.0, 1e-9);
    assert_true(a.buffer_delay_valid);
    assert_near(a.mean_rtt_s, 0.032, 1e-12);
    assert_near(a.buffer_delay_percent, 28.0, 1e-9);
    r.rtt_samples = 0; /* no sample: no Buffer Delay */
    analyze(&r, 1, 1500000, 1500, 0, &a);
    assert_false(a.buffer_delay_valid);
}

/* --mtu, else --pmtu's answer, else the socket's, else none. */
static void mtu_sources(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&r);
    analyze(&r, 1, 1000000, 0, 38, &a);
    assert_int_equal(a.mtu_source, TTCP_MTU_NONE);
    assert_false(a.rfc_rate_valid);
    r.path_mtu = 1500;
    analyze(&r, 1, 1000000, 0, 38, &a);
    assert_int_equal(a.mtu_source, TTCP_MTU_SOCKET);
    assert_int_equal(a.mtu, 1500);
    r.pmtu.found = 1;
    r.pmtu.mtu = 1280;
    analyze(&r, 1, 1000000, 0, 38, &a);
    assert_int_equal(a.mtu_source, TTCP_MTU_PROBED);
    assert_int_equal(a.mtu, 1280);
    analyze(&r, 1, 1000000, 576, 38, &a);
    assert_int_equal(a.mtu_source, TTCP_MTU_GIVEN);
    assert_int_equal(a.mtu, 576);
}

static void cpu_bound_end(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&r);
    r.tcp_end.rwnd_limited_us = 0;
    r.cpu_end.sys_ns = 8 * S;       /* 8 of 10 s */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_near(a.cpu_percent, 80.0, 1e-9);
    /* (the network held it 9 of 12 s: a finding of its own) */
    assert_int_equal(ttcp_analysis_findings(&a),
                     (1u << TTCP_FINDING_CPU_BOUND) | (1u << TTCP_FINDING_NETWORK));
    r.cpu_end.sys_ns = 7 * S;
    analyze(&r, 1, 0, 0, 38, &a);
    assert_int_equal(ttcp_analysis_findings(&a), 1u << TTCP_FINDING_NETWORK);
}

/* A sender that used little CPU but waited to run most of the time (a busy
 * host; on Linux 6.18 a quota's throttled time too): still CPU-bound.
 * Where the OS gives no wait, only the CPU time counts. */
static void waited_to_run_end(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&r);
    r.tcp_end.rwnd_limited_us = 0;
    r.cpu_end.sys_ns = 2 * S;       /* ran 2 of 10 s */
    r.cpu_start.wait_ns = 1 * S;
    r.cpu_end.wait_ns = 7 * S;      /* waited 6 of 10 s */
    r.cpu_start.wait_given = r.cpu_end.wait_given = 1;
    analyze(&r, 1, 0, 0, 38, &a);
    assert_near(a.cpu_percent, 20.0, 1e-9);
    assert_int_equal(a.cpu_wait_valid, 1);
    assert_near(a.cpu_wait_percent, 60.0, 1e-9);
    assert_near(ttcp_analysis_cpu_wanted(&a), 80.0, 1e-9);
    assert_true(ttcp_analysis_findings(&a) & (1u << TTCP_FINDING_CPU_BOUND));
    r.cpu_end.wait_ns = 6 * S;      /* 2 + 5 of 10 s: below 75 % */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_false(ttcp_analysis_findings(&a) & (1u << TTCP_FINDING_CPU_BOUND));
    r.cpu_end.wait_ns = 7 * S;
    r.cpu_end.wait_given = 0;       /* not given: no wait counted, none guessed */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_int_equal(a.cpu_wait_valid, 0);
    assert_false(ttcp_analysis_findings(&a) & (1u << TTCP_FINDING_CPU_BOUND));
}

/* A sender held to a fifth of a core by a CPU quota (a cgroup's cpu.max):
 * the throttled time counts with the CPU time towards CPU-bound, and the
 * quota is named (cpu_quota) when it held the end back at least 10 % of
 * the test, bound or not. Where the OS gives no throttle, none counts. */
static void quota_held_end(void **state)
{
    struct ttcp_result r;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&r);
    r.tcp_end.rwnd_limited_us = 0;
    r.cpu_end.sys_ns = 2 * S;            /* ran 2 of 10 s */
    r.cpu_start.throttled_ns = 1 * S;
    r.cpu_end.throttled_ns = 8 * S;      /* held back 7 of 10 s */
    r.cpu_start.throttle_given = r.cpu_end.throttle_given = 1;
    r.cpu_end.quota_ppm = 200000;        /* 20 % of a core */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_int_equal(a.throttle_valid, 1);
    assert_near(a.throttle_percent, 70.0, 1e-9);
    assert_near(a.quota_percent, 20.0, 1e-9);
    assert_int_equal(a.cpu_wait_valid, 0);
    assert_near(ttcp_analysis_cpu_wanted(&a), 90.0, 1e-9);
    assert_int_equal(ttcp_analysis_findings(&a) &
                     ((1u << TTCP_FINDING_CPU_BOUND) | (1u << TTCP_FINDING_CPU_QUOTA)),
                     (1u << TTCP_FINDING_CPU_BOUND) | (1u << TTCP_FINDING_CPU_QUOTA));
    r.cpu_start.wait_ns = 0;             /* with a wait: the three add up */
    r.cpu_end.wait_ns = 1 * S / 2;
    r.cpu_start.wait_given = r.cpu_end.wait_given = 1;
    analyze(&r, 1, 0, 0, 38, &a);
    assert_near(ttcp_analysis_cpu_wanted(&a), 95.0, 1e-9);
    r.cpu_end.wait_given = 0;
    r.cpu_end.throttled_ns = 5 * S + S / 2; /* 2 + 4.5 of 10 s: below 75 % */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_near(a.throttle_percent, 45.0, 1e-9);
    assert_false(ttcp_analysis_findings(&a) & (1u << TTCP_FINDING_CPU_BOUND));
    assert_true(ttcp_analysis_findings(&a) & (1u << TTCP_FINDING_CPU_QUOTA));
    r.cpu_end.throttled_ns = 1 * S + 999 * (S / 1000); /* held 9.99 %: not named */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_false(ttcp_analysis_findings(&a) & (1u << TTCP_FINDING_CPU_QUOTA));
    r.cpu_end.sys_ns = 8 * S;            /* bound by its own CPU, the quota 5 %: not named */
    r.cpu_end.throttled_ns = 1 * S + S / 2;
    analyze(&r, 1, 0, 0, 38, &a);
    assert_near(a.throttle_percent, 5.0, 1e-9);
    assert_true(ttcp_analysis_findings(&a) & (1u << TTCP_FINDING_CPU_BOUND));
    assert_false(ttcp_analysis_findings(&a) & (1u << TTCP_FINDING_CPU_QUOTA));
    r.cpu_end.sys_ns = 2 * S;            /* a group busy on several cores: at most all of it */
    r.cpu_end.throttled_ns = 26 * S;
    analyze(&r, 1, 0, 0, 38, &a);
    assert_near(a.throttle_percent, 100.0, 1e-9);
    r.cpu_end.quota_ppm = 0;             /* the quota not known: the hold still counts */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_near(a.quota_percent, 0.0, 1e-9);
    assert_true(ttcp_analysis_findings(&a) & (1u << TTCP_FINDING_CPU_QUOTA));
    r.cpu_start.throttle_given = 0;      /* not given at the start: none counted or guessed */
    analyze(&r, 1, 0, 0, 38, &a);
    assert_int_equal(a.throttle_valid, 0);
    assert_int_equal(ttcp_analysis_findings(&a) &
                     ((1u << TTCP_FINDING_CPU_BOUND) | (1u << TTCP_FINDING_CPU_QUOTA)), 0);
    r.cpu_start.throttle_given = 1;      /* a count that went back (another group): not used */
    r.cpu_end.throttled_ns = 0;
    analyze(&r, 1, 0, 0, 38, &a);
    assert_int_equal(a.throttle_valid, 0);
}

static void framing_names_and_bytes(void **state)
{
    uint64_t b = 0;
    char why[160];
    (void)state;
    assert_int_equal(ttcp_parse_framing("ethernet", &b, why, sizeof why), 0);
    assert_int_equal(b, 38);
    assert_int_equal(ttcp_parse_framing("PPP", &b, why, sizeof why), 0);
    assert_int_equal(b, 8);
    assert_int_equal(ttcp_parse_framing("12", &b, why, sizeof why), 0);
    assert_int_equal(b, 12);
    assert_int_equal(ttcp_parse_framing("1001", &b, why, sizeof why), -1);
    assert_non_null(strstr(why, "not a framing"));
    assert_int_equal(ttcp_parse_framing("atm", &b, why, sizeof why), -1);
}

static void options_for(struct ttcp_options *o, int transmit)
{
    memset(o, 0, sizeof *o);
    o->transmit = transmit;
    o->analyze = 1;
    o->framing_bytes = TTCP_FRAMING_ETHERNET;
    o->unit = TTCP_UNIT_KBYTE;
}

static void the_words_carry_the_numbers(void **state)
{
    struct ttcp_options o;
    struct ttcp_result r;
    char buf[4096];
    struct ttcp_text t = {buf, sizeof buf, 0};
    (void)state;
    options_for(&o, 1);
    linux_sender(&r);
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "ttcp-t: analysis: sender's time (12.00 s): receiver's window "
                                "50.0 %, send buffer 8.3 %, network 25.0 %, application 16.7 %\n"));
    assert_non_null(strstr(buf, "limited by the receiver's window 50.0 % of the time: it offered "
                                "16384 bytes; set -b 32k (32768 bytes) or more on the receiver"));
    assert_non_null(strstr(buf, "baseline RTT 50.000 ms, BDP 16384 bytes"));
    assert_non_null(strstr(buf, "TCP efficiency 98.04 % (2000 of 102000 bytes sent again)"));
    assert_null(strstr(buf, "rfc6349: the path MTU")); /* no --link-rate: no rate line */
    assert_non_null(strstr(buf, "ttcp-t: analysis: cpu: this end used 0.0 % of a core: not the "
                                "limit\n"));
    r.cpu_end.sys_ns = 2 * S;       /* a busy host: ran 2 s, waited 6 s of 10 */
    r.cpu_end.wait_ns = 6 * S;
    r.cpu_start.wait_given = r.cpu_end.wait_given = 1;
    t.used = 0;
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "ttcp-t: analysis: cpu-bound: this end used 20.0 % of a core and "
                                "waited 60.0 % of the time for one over the test: the figure "
                                "measures this host, not the link\n"));
    r.cpu_end.wait_ns = 0;          /* a quota of 20 % held it back 7.8 s of 10 */
    r.cpu_end.throttled_ns = 7800 * (S / 1000);
    r.cpu_start.throttle_given = r.cpu_end.throttle_given = 1;
    r.cpu_end.quota_ppm = 200000;
    t.used = 0;
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "ttcp-t: analysis: cpu-bound: the transmitter was held back by a "
                                "CPU quota (20.0 % of a core) 78.0 % of the time; it used 20.0 % "
                                "of a core over the test: the figure measures this host, not the "
                                "link\n"));
    options_for(&o, 0);             /* the same at a receiver names the receiver */
    t.used = 0;
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "ttcp-r: analysis: cpu-bound: the receiver was held back by a "
                                "CPU quota (20.0 % of a core) 78.0 % of the time;"));
    options_for(&o, 1);
    r.cpu_end.throttled_ns = 2 * S; /* held back a little: said, not the limit */
    r.cpu_end.sys_ns = 1 * S;
    t.used = 0;
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "ttcp-t: analysis: cpu: the transmitter was held back by a CPU "
                                "quota (20.0 % of a core) 20.0 % of the time; it used 10.0 % of a "
                                "core: the quota held the figure down\n"));
    r.cpu_end.throttled_ns = S / 2;  /* held back less than 10 %: said, not the limit */
    t.used = 0;
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "ttcp-t: analysis: cpu: this end used 10.0 % of a core and was "
                                "held back by a CPU quota (20.0 % of a core) 5.0 % of the time: "
                                "not the limit\n"));
    r.cpu_end.sys_ns = 0;
    r.cpu_end.wait_ns = 0;
    r.cpu_end.throttled_ns = 0;
    o.link_bps = 100000000;
    t.used = 0;
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "the path MTU is not known: give --mtu"));
    /* the OS gave none of it: said so, never guessed */
    r.tcp_end.have = 0;
    t.used = 0;
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "sender's time: not known (this system does not count"));
    assert_null(strstr(buf, "limited by"));
    assert_non_null(strstr(buf, "baseline RTT not given by this system"));
    assert_non_null(strstr(buf, "TCP efficiency not known"));
    options_for(&o, 0); /* the receiver */
    t.used = 0;
    ttcp_report_analysis(&o, &r, &t);
    assert_non_null(strstr(buf, "ttcp-r: analysis: sender's time: counted at the sending end"));
    assert_null(strstr(buf, "TCP efficiency"));
    r.analysis_taken = 0; /* a far end whose protocol carried no facts: one line */
    t.used = 0;
    ttcp_report_analysis(&o, &r, &t);
    assert_string_equal(buf, "ttcp-r: analysis: not known: the far end sent no TCP statistics\n");
}

static void json_object_has_codes_and_numbers(void **state)
{
    struct ttcp_options o;
    struct ttcp_result r;
    struct ttcp_json j;
    const char *doc;
    (void)state;
    options_for(&o, 1);
    linux_sender(&r);
    ttcp_json_init(&j);
    ttcp_json_test(&j, &o, &r);
    doc = j.buf;
    assert_non_null(strstr(doc, "\"analysis\":{\"role\":\"sender\",\"known\":true,"
                                "\"findings\":[\"rwnd_limited\"]"));
    assert_non_null(strstr(doc, "\"missing\":[]"));
    assert_non_null(strstr(doc, "\"limited_by\":\"rwnd\""));
    assert_non_null(strstr(doc, "\"advice\":{\"side\":\"receiver\",\"sockbufsize\":32768}"));
    assert_non_null(strstr(doc, "\"efficiency_percent\":98.0392"));
    assert_non_null(strstr(doc, "\"buffer_delay_percent\":null"));
    assert_non_null(strstr(doc, "\"cpu_wait_percent\":null,\"cpu_throttled_percent\":null,"
                                "\"cpu_quota_percent\":null")); /* not given */
    ttcp_json_free(&j);
    r.cpu_start.throttle_given = r.cpu_end.throttle_given = 1; /* given, no quota */
    ttcp_json_init(&j);
    ttcp_json_test(&j, &o, &r);
    assert_non_null(strstr(j.buf, "\"cpu_throttled_percent\":0,\"cpu_quota_percent\":null"));
    ttcp_json_free(&j);
    r.cpu_end.user_ns = 2 * S;     /* ran 2 s and held back 7 s by a 20 % quota */
    r.cpu_end.throttled_ns = 7 * S;
    r.cpu_end.quota_ppm = 200000;
    ttcp_json_init(&j);
    ttcp_json_test(&j, &o, &r);
    assert_non_null(strstr(j.buf, "\"findings\":[\"rwnd_limited\",\"cpu_bound\",\"cpu_quota\"]"));
    assert_non_null(strstr(j.buf, "\"cpu_throttled_percent\":70,\"cpu_quota_percent\":20"));
    ttcp_json_free(&j);
    memset(&r.cpu_start, 0, sizeof r.cpu_start);
    memset(&r.cpu_end, 0, sizeof r.cpu_end);
    r.cpu_end.user_ns = 2 * S;     /* ran 2 s and waited 6 s of the 10: cpu_bound */
    r.cpu_end.wait_ns = 6 * S;
    r.cpu_start.wait_given = r.cpu_end.wait_given = 1;
    ttcp_json_init(&j);
    ttcp_json_test(&j, &o, &r);
    doc = j.buf;
    assert_non_null(strstr(doc, "\"findings\":[\"rwnd_limited\",\"cpu_bound\"]"));
    assert_non_null(strstr(doc, "\"cpu_percent\":20,\"cpu_wait_percent\":60"));
    ttcp_json_free(&j);
    r.cpu_end.user_ns = r.cpu_end.wait_ns = 0;
    r.tcp_end.have = TT_TCPI_ALL & ~TT_TCPI_SNDBUF_LIMITED & ~TT_TCPI_DELIVERY_RATE;
    ttcp_json_init(&j);
    ttcp_json_test(&j, &o, &r);
    doc = j.buf;
    assert_non_null(strstr(doc, "\"missing\":[\"delivery_rate\",\"sndbuf_limited\"]"));
    assert_non_null(strstr(doc, "\"sndbuf\":null"));
    ttcp_json_free(&j);
}

/* -P: limits add up over the streams' time, the baseline RTT is the least,
 * a field is known only where every stream gave it. */
static void streams_sum_their_facts(void **state)
{
    struct ttcp_result parts[2], sum;
    struct ttcp_analysis a;
    (void)state;
    linux_sender(&parts[0]);
    linux_sender(&parts[1]);
    parts[1].tcp_end.min_rtt_us = 40000;
    parts[1].tcp_end.rwnd_limited_us = 0;
    parts[1].tcp_end.have &= ~TT_TCPI_BYTES_RETRANS;
    parts[1].rtt_samples = 3;
    parts[1].rtt_sum_us = 150000;
    parts[1].path_mtu = 1400;
    parts[0].path_mtu = 1500;
    ttcp_result_sum(&sum, parts, 2);
    assert_true(sum.analysis_taken);
    assert_int_equal(sum.limits_span_ns, 24 * S);
    assert_int_equal(sum.tcp_end.busy_us, 20000000);
    assert_int_equal(sum.tcp_end.rwnd_limited_us, 6000000);
    assert_int_equal(sum.tcp_end.min_rtt_us, 40000);
    assert_int_equal(sum.tcp_end.have, TT_TCPI_ALL & ~TT_TCPI_BYTES_RETRANS);
    assert_int_equal(sum.rtt_samples, 3);
    assert_int_equal(sum.path_mtu, 1400);
    analyze(&sum, 1, 0, 0, 38, &a);
    assert_near(a.share[TTCP_LIMIT_RWND], 6.0 / 24.0, 1e-9);
    assert_false(a.efficiency_valid);
}

/* -P's threads: CPU and waits add up; a quota holds their group, which each
 * stream read, so the longest hold counts, and the tightest quota. */
static void streams_share_one_quota(void **state)
{
    struct ttcp_result parts[2], sum;
    int i;
    (void)state;
    for (i = 0; i < 2; i++) {
        linux_sender(&parts[i]);
        parts[i].cpu_start.throttle_given = parts[i].cpu_end.throttle_given = 1;
        parts[i].cpu_start.wait_given = parts[i].cpu_end.wait_given = 1;
        parts[i].cpu_start.throttled_ns = 1 * S;
        parts[i].cpu_end.wait_ns = 1 * S;
    }
    parts[0].cpu_end.throttled_ns = 4 * S; /* 3 s */
    parts[1].cpu_end.throttled_ns = 6 * S; /* 5 s */
    parts[0].cpu_end.quota_ppm = 500000;
    parts[1].cpu_end.quota_ppm = 250000;
    ttcp_result_sum(&sum, parts, 2);
    ttcp_result_sum_cpu(&sum, parts, 2);
    assert_true(sum.cpu_start.throttle_given && sum.cpu_end.throttle_given);
    assert_int_equal(sum.cpu_end.throttled_ns - sum.cpu_start.throttled_ns, 5 * S);
    assert_int_equal(sum.cpu_end.quota_ppm, 250000);
    assert_true(sum.cpu_start.wait_given && sum.cpu_end.wait_given);
    assert_int_equal(sum.cpu_end.wait_ns - sum.cpu_start.wait_ns, 2 * S);
    parts[1].cpu_end.throttle_given = 0; /* one stream's not given: the sum's not given */
    ttcp_result_sum_cpu(&sum, parts, 2);
    assert_false(sum.cpu_start.throttle_given && sum.cpu_end.throttle_given);
    parts[0].started = parts[1].started = 0; /* no stream ran: nothing given */
    ttcp_result_sum_cpu(&sum, parts, 2);
    assert_false(sum.cpu_end.wait_given);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shares_split_the_senders_time),
        cmocka_unit_test(a_window_bound_sender),
        cmocka_unit_test(busy_longer_than_the_test_is_the_span),
        cmocka_unit_test(missing_fields_stay_unknown),
        cmocka_unit_test(a_receiver_knows_no_sender_limits),
        cmocka_unit_test(bdp_and_the_b_advice),
        cmocka_unit_test(advice_rounds_up_to_kib_within_the_bound),
        cmocka_unit_test(rfc6349_max_throughput),
        cmocka_unit_test(rfc6349_ratios),
        cmocka_unit_test(mtu_sources),
        cmocka_unit_test(cpu_bound_end),
        cmocka_unit_test(waited_to_run_end),
        cmocka_unit_test(quota_held_end),
        cmocka_unit_test(framing_names_and_bytes),
        cmocka_unit_test(the_words_carry_the_numbers),
        cmocka_unit_test(json_object_has_codes_and_numbers),
        cmocka_unit_test(streams_sum_their_facts),
        cmocka_unit_test(streams_share_one_quota),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
