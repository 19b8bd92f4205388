/* -P: the streams' results and intervals added up (measure/sum.c), and the
 * streams run side by side over the fake platform (engine/parallel.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "engine/parallel.h"
#include "engine/streams.h"
#include "measure/sum.h"
#include "fake_platform.h"
#include "test_support.h"

#define MS 1000000ll

static void sum_adds_streams_and_spans_their_time(void **state)
{
    struct ttcp_result parts[3], sum;
    (void)state;
    memset(parts, 0, sizeof parts);
    parts[0].started = 1;
    parts[0].bytes = 1000;
    parts[0].calls = 10;
    parts[0].start_ns = 100 * MS;
    parts[0].real_ns = 900 * MS;      /* ends at 1000 ms */
    parts[0].tcp_end_valid = 1;
    parts[0].tcp_end.retransmits = 2;
    parts[0].tcp_end.srtt_us = 100;
    parts[1].started = 1;
    parts[1].bytes = 3000;
    parts[1].calls = 30;
    parts[1].start_ns = 50 * MS;
    parts[1].real_ns = 1150 * MS;     /* ends at 1200 ms: the last */
    parts[1].tcp_end_valid = 1;
    parts[1].tcp_end.retransmits = 5;
    parts[1].tcp_end.srtt_us = 300;
    parts[1].warnings = 1u << TTCP_WARN_NO_CLOSE;
    parts[2].failure.code = TT_E_CONNREFUSED; /* refused: never started */
    parts[2].failure.op = TTCP_OP_CONNECT;
    ttcp_result_sum(&sum, parts, 3);
    assert_true(sum.started);
    assert_int_equal(sum.bytes, 4000);
    assert_int_equal(sum.calls, 40);
    assert_int_equal(sum.start_ns, 50 * MS);
    assert_int_equal(sum.real_ns, 1150 * MS); /* first start to last end */
    assert_true(sum.tcp_end_valid);
    assert_int_equal(sum.tcp_end.retransmits, 7);
    assert_int_equal(sum.tcp_end.srtt_us, 200); /* the mean of the two that had it */
    assert_int_equal(sum.warnings, 1u << TTCP_WARN_NO_CLOSE);
    assert_int_equal(sum.failure.code, TT_E_CONNREFUSED);
    assert_int_equal(sum.failure.op, TTCP_OP_CONNECT);
}

static void sum_of_udp_streams(void **state)
{
    struct ttcp_result parts[2], sum;
    (void)state;
    memset(parts, 0, sizeof parts);
    parts[0].udp_stats_valid = parts[1].udp_stats_valid = 1;
    parts[0].udp.datagrams = 90;
    parts[0].udp.expected = 100;
    parts[0].udp.jitter_ns = 1000.0;
    parts[1].udp.datagrams = 50;
    parts[1].udp.expected = 50;
    parts[1].udp.duplicates = 1;
    parts[1].udp.jitter_ns = 3000.0;
    ttcp_result_sum(&sum, parts, 2);
    assert_false(sum.started); /* neither began */
    assert_true(sum.udp_stats_valid);
    assert_int_equal(sum.udp.datagrams, 140);
    assert_int_equal(sum.udp.expected, 150);
    assert_int_equal(sum.udp.duplicates, 1);
    assert_true(sum.udp.jitter_ns > 1999.0 && sum.udp.jitter_ns < 2001.0);
}

static struct ttcp_interval interval(int64_t start_ns, int64_t end_ns, uint64_t bytes)
{
    struct ttcp_interval in;
    memset(&in, 0, sizeof in);
    in.start_ns = start_ns;
    in.end_ns = end_ns;
    in.bytes = bytes;
    return in;
}

static void interval_totals_wait_for_every_stream(void **state)
{
    struct ttcp_interval_sum s;
    struct ttcp_interval a = interval(0, 500 * MS, 100), b = interval(0, 500 * MS, 50);
    struct ttcp_interval a2 = interval(500 * MS, 1000 * MS, 7);
    struct ttcp_interval b_last = interval(500 * MS, 620 * MS, 3);
    const struct ttcp_interval *t;
    (void)state;
    assert_int_equal(ttcp_interval_sum_init(&s, 2), 0);
    ttcp_interval_sum_add(&s, 0, &a);
    assert_null(ttcp_interval_sum_next(&s)); /* stream 2 has not closed its first */
    ttcp_interval_sum_add(&s, 0, &a2);
    ttcp_interval_sum_add(&s, 1, &b);
    t = ttcp_interval_sum_next(&s);
    assert_non_null(t);
    assert_int_equal(t->bytes, 150);
    assert_int_equal(t->end_ns, 500 * MS);
    assert_null(ttcp_interval_sum_next(&s)); /* stream 2's second is still open */
    ttcp_interval_sum_add(&s, 1, &b_last);
    ttcp_interval_sum_end(&s, 1);
    t = ttcp_interval_sum_next(&s);
    assert_non_null(t);
    assert_int_equal(t->bytes, 10);
    assert_int_equal(t->start_ns, 500 * MS);
    assert_int_equal(t->end_ns, 1000 * MS);
    assert_null(ttcp_interval_sum_next(&s)); /* stream 1 goes on */
    ttcp_interval_sum_end(&s, 0);
    assert_null(ttcp_interval_sum_next(&s)); /* nothing more was closed */
    ttcp_interval_sum_free(&s);
}

/* UDP receivers' intervals: counts add up, the jitter is their mean, and
 * a stream without the figures leaves them as they are. */
static void interval_totals_add_udp_figures(void **state)
{
    struct ttcp_interval_sum s;
    struct ttcp_interval a = interval(0, 500 * MS, 100), b = interval(0, 500 * MS, 50);
    struct ttcp_interval c = interval(0, 500 * MS, 10);
    const struct ttcp_interval *t;
    (void)state;
    a.udp_valid = b.udp_valid = 1;
    a.udp_datagrams = 9;
    a.udp_expected = 10;
    a.udp_lost = 1;
    a.udp_jitter_ns = 1000.0;
    b.udp_datagrams = 20;
    b.udp_expected = 20;
    b.udp_jitter_ns = 3000.0;
    assert_int_equal(ttcp_interval_sum_init(&s, 3), 0);
    ttcp_interval_sum_add(&s, 0, &a);
    ttcp_interval_sum_add(&s, 1, &b);
    ttcp_interval_sum_add(&s, 2, &c);
    t = ttcp_interval_sum_next(&s);
    assert_non_null(t);
    assert_int_equal(t->udp_valid, 2);
    assert_int_equal(t->udp_datagrams, 29);
    assert_int_equal(t->udp_expected, 30);
    assert_int_equal(t->udp_lost, 1);
    assert_true(t->udp_jitter_ns > 1999.0 && t->udp_jitter_ns < 2001.0);
    ttcp_interval_sum_free(&s);
}

/* What the group observer passed on: each FIGURES event's options. */
static const struct ttcp_options *figures_opts[8];
static uint64_t figures_bytes[8];
static int figures;

static void record(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    (void)ctx;
    if (ev->kind == TTCP_EV_FIGURES && figures < 8) {
        figures_opts[figures] = ev->opts;
        figures_bytes[figures++] = res->bytes;
    }
}

static void streams_run_side_by_side(void **state)
{
    struct ttcp_options o;
    struct ttcp_observer obs = {record, NULL, NULL, NULL};
    struct ttcp_parallel par;
    char line[] = "-t -s -P 2 -n 3 --cpu 0,5 -p 6000 192.0.2.1", *argv[16], why[256];
    int argc = split_args(line, argv, 16);
    (void)state;
    fake_reset();
    fake.cpus = 2; /* CPU 5 is not there */
    figures = 0;
    assert_int_equal(ttcp_options_parse(&o, argc, argv, 0, why, sizeof why), 0);
    assert_int_equal(ttcp_run_parallel(&o, &obs, &par), 0);
    assert_int_equal(fake.threads_started, 2);
    assert_int_equal(par.n, 2);
    assert_int_equal(par.opts[0].port, 6000);
    assert_int_equal(par.opts[1].port, 6001);
    assert_string_equal(ttcp_options_side(&par.opts[1]), "-t[2]");
    assert_int_equal(par.results[0].bytes, 3 * 8192);
    assert_int_equal(par.results[1].bytes, 3 * 8192);
    assert_int_equal(par.results[0].warnings & (1u << TTCP_WARN_CPU_PIN), 0);
    assert_int_equal(par.results[1].warnings, 1u << TTCP_WARN_CPU_PIN);
    assert_int_equal(fake.pinned_cpu, 5); /* stream 2 asked for the list's second CPU */
    assert_int_equal(par.total.bytes, 6 * 8192);
    assert_int_equal(par.total.calls, 6);
    /* each stream's figures with its own options, then the total's with the test's */
    assert_int_equal(figures, 3);
    assert_ptr_equal(figures_opts[0], &par.opts[0]);
    assert_ptr_equal(figures_opts[1], &par.opts[1]);
    assert_ptr_equal(figures_opts[2], &o);
    assert_int_equal(figures_bytes[2], 6 * 8192);
    ttcp_parallel_release(&par);
}

static void the_total_rate_is_shared(void **state)
{
    struct ttcp_options o, s;
    char line[] = "-t -s -P 3 -R 30m 192.0.2.1", *argv[16], why[256];
    int argc = split_args(line, argv, 16);
    (void)state;
    assert_int_equal(ttcp_options_parse(&o, argc, argv, 0, why, sizeof why), 0);
    ttcp_stream_options(&o, 2, (int)o.streams, &s);
    assert_int_equal(s.pace_bps, 10000000);
    assert_int_equal(s.stream_number, 3);
    assert_int_equal(s.streams, 1);
    assert_true(s.thread_cpu);
    assert_int_equal(s.pin_cpu, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sum_adds_streams_and_spans_their_time),
        cmocka_unit_test(sum_of_udp_streams),
        cmocka_unit_test(interval_totals_wait_for_every_stream),
        cmocka_unit_test(interval_totals_add_udp_figures),
        cmocka_unit_test(streams_run_side_by_side),
        cmocka_unit_test(the_total_rate_is_shared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
