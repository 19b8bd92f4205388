/* IOS and PCATTCP habits over the scripted platform: half close both ways,
 * -c continuous on each side, TCP statistics, the IOS connect line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core_support.h"
#include "report/report_extra.h"

static void transmitter_counts_what_comes_back(void **state)
{
    (void)state;
    fake_push(&fake.rx, 3000); /* read while waiting for the close */
    fake_push(&fake.rx, 5000);
    fake_push(&fake.rx, 0);
    assert_int_equal(run_core("-t -s -n 4 --half-close h"), 0);
    assert_int_equal(core_res.bytes, 32768);
    assert_int_equal(core_res.back_bytes, 8000);
    assert_int_equal(core_res.calls, 4); /* the way back is not in 1.12's count */
    assert_int_equal(fake.shutdown_calls, 1);
}

/* The figure ends at the first byte back; the CPU time is read at that
 * moment too, not after the way back (the fake's CPU time is a quarter of
 * its clock: a CPU share over the figure's own interval is 25 %). */
static void cpu_share_covers_the_figure_only(void **state)
{
    (void)state;
    fake.eof_delay_ns = 10000000000ll; /* the way back lasts 10 s */
    fake_push(&fake.rx, 3000);
    fake_push(&fake.rx, 0);
    assert_int_equal(run_core("-t -s -n 4 --half-close h"), 0);
    assert_true(core_res.real_ns < 1000000000ll);
    assert_true(ttcp_cpu_percent(&core_res) > 20.0 && ttcp_cpu_percent(&core_res) < 30.0);
}

static void receiver_sends_back_after_eof(void **state)
{
    (void)state;
    fake_push(&fake.rx, 8192);
    assert_int_equal(run_core("-r -s --half-close -n 3 -l 1000"), 0);
    assert_int_equal(core_res.bytes, 8192);
    assert_int_equal(core_res.back_bytes, 3000);
    assert_int_equal(fake.sent_len, 3000);
    assert_memory_equal(fake.sent, " !\"#", 4); /* the pattern, not what was received */
}

static void half_close_receiver_and_a_classic_transmitter(void **state)
{
    (void)state;
    fake_push(&fake.rx, 8192);
    fake_push(&fake.tx, TT_E_PIPE); /* a classic transmitter closed both ways */
    assert_int_equal(run_core("-r -s --half-close -n 3"), 0);
    assert_int_equal(core_res.bytes, 8192);
    assert_int_equal(core_res.back_bytes, 0);
    assert_int_equal(core_res.failure.code, 0);
    assert_non_null(strstr(core_events, "warning: half close: the transmitter closed both ways"));
}

static void receiver_stops_on_ctrl_c_while_data_flows(void **state)
{
    int i;
    (void)state;
    fake_push(&fake.rx, 8192);
    fake_push_interrupt(&fake.rx, 8192); /* Ctrl+C, and no EINTR: data keeps coming */
    for (i = 0; i < 50; i++)
        fake_push(&fake.rx, 8192);
    assert_int_equal(run_core("-r -s"), 0);
    assert_true(core_res.interrupted);
    assert_int_equal(core_res.bytes, 16384);
}

static void continuous_tcp_receiver_takes_test_after_test(void **state)
{
    (void)state;
    fake.max_accepts = 3;
    fake_push(&fake.rx, 8192);
    fake_push(&fake.rx, 0);
    fake_push(&fake.rx, 100);
    fake_push(&fake.rx, 0);
    fake_push(&fake.rx, TT_E_CONNRESET); /* the third one fails: the next still comes */
    assert_int_equal(run_core("-r -s -c"), 0); /* Ctrl+C between tests: success */
    assert_int_equal(core_figures, 3);
    assert_int_equal(core_failed, 1);
    assert_int_equal(core_res.test_number, 4);
}

static void continuous_udp_receiver_skips_trailing_markers(void **state)
{
    int i;
    (void)state;
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 1024);
    fake_push(&fake.rx, 4); /* end of test 1 */
    for (i = 0; i < 4; i++)
        fake_push(&fake.rx, 4); /* its trailing markers: not a test */
    for (i = 0; i < 5; i++)
        fake_push(&fake.rx, TT_E_AGAIN); /* 1.25 s of quiet */
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 512);
    fake_push(&fake.rx, 4); /* end of test 2 */
    fake_push_interrupt(&fake.rx, TT_E_INTR);
    assert_int_equal(run_core("-r -s -u -c"), 0);
    assert_int_equal(core_figures, 2);
    assert_int_equal(core_failed, 0);
}

/* A second test that starts at once: its start marker (from another
 * sender) counts, the first sender's late trailing markers do not. */
static void continuous_udp_receiver_tells_markers_by_sender(void **state)
{
    int i;
    (void)state;
    fake_push_from(&fake.rx, 4, 1);
    fake_push_from(&fake.rx, 1024, 1);
    fake_push_from(&fake.rx, 4, 1); /* end of test 1 */
    fake_push_from(&fake.rx, 4, 2); /* test 2 starts at once */
    for (i = 0; i < 4; i++)
        fake_push_from(&fake.rx, 4, 1); /* test 1's trailing markers, late */
    fake_push_from(&fake.rx, 512, 2);
    fake_push_from(&fake.rx, 4, 2); /* end of test 2 */
    fake_push_interrupt(&fake.rx, TT_E_INTR);
    assert_int_equal(run_core("-r -s -u -c"), 0);
    assert_int_equal(core_figures, 2);
    assert_int_equal(core_figure_bytes[0], 1024);
    assert_int_equal(core_figure_calls[0], 3);
    assert_int_equal(core_figure_bytes[1], 512);
    assert_int_equal(core_figure_calls[1], 3); /* its start marker, its datagram, its end marker */
}

static void continuous_transmitter_ends_when_the_receiver_leaves(void **state)
{
    (void)state;
    fake_push(&fake.tx, 8192);
    fake_push(&fake.tx, 8192);
    fake_push(&fake.tx, 8192);
    fake_push(&fake.tx, TT_E_PIPE);
    assert_int_equal(run_core("-t -s -c -n 1 h"), 0); /* -c ignores -n */
    assert_int_equal(core_res.bytes, 24576);
    assert_int_equal(core_res.failure.code, 0);
    assert_int_equal(core_figures, 1);
}

static void ios_connect_line_and_tcp_info(void **state)
{
    (void)state;
    assert_int_equal(run_core("-t -s -n 1 -v --tcp-info h"), 0);
    assert_string_equal(core_events, "ttcp-t: socket\n"
                                     "ttcp-t: connect (mss 1460, sndwnd 4128, rcvwnd 4128)\n");
    assert_true(core_res.tcp_end_valid);
    assert_int_equal(core_res.tcp_end.srtt_us, 2500);
    fake_reset();
    assert_int_equal(run_core("-r -s -v"), 0);
    assert_string_equal(core_events, "ttcp-r: socket\n"
                                     "ttcp-r: accept from 192.0.2.1 (mss 1460, sndwnd 4128, rcvwnd 4128)\n");
    assert_false(core_res.tcp_end_asked); /* read for a client's summary; shown only with --tcp-info */
}

/* Several intervals closing at one clock read are each reported once. */
static void every_interval_is_reported(void **state)
{
    int i;
    (void)state;
    fake.clock_tick_ns = 300000000; /* each clock read: 0.3 s later */
    fake_push(&fake.rx, 1000);
    fake_push(&fake.rx, 1000);
    fake_push(&fake.rx, 1000);
    assert_int_equal(run_core("-r -s -i 0.2"), 0);
    assert_true(core_res.intervals.count >= 4);
    assert_int_equal(core_interval_events, (int)core_res.intervals.count);
    for (i = 0; i < core_interval_events; i++)
        assert_int_equal(core_intervals[i], i);
    ttcp_result_release(&core_res);
}

/* A buffer shorter than the random pattern's 16-byte preamble carries part
 * of it: the stream still verifies. */
static void random_preamble_spans_small_buffers(void **state)
{
    struct ttcp_verifier v;
    (void)state;
    assert_int_equal(run_core("-t -s -n 10 -l 7 --pattern random h"), 0);
    assert_int_equal(fake.sent_len, 70);
    ttcp_verify_start(&v, TTCP_PAYLOAD_AUTO, 0, 0);
    ttcp_verify_bytes(&v, fake.sent, fake.sent_len);
    assert_int_equal(v.kind, TTCP_PAYLOAD_RANDOM);
    assert_int_equal(v.corrupted, 0);
    assert_int_equal(v.seed, core_res.seed);
}

/* UDP --verify without ttcp's header: never reported as a pass. */
static void udp_verify_without_header(void **state)
{
    (void)state;
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 1024); /* the fake's bytes: no known pattern */
    fake_push(&fake.rx, 4);
    assert_int_equal(run_core("-r -s -u --verify"), 0);
    assert_int_equal(core_res.verify.unchecked, 1024);
    assert_int_equal(core_res.verify.offset, 0);
    assert_int_equal(core_res.verify.kind, TTCP_PAYLOAD_AUTO);
}

static void window_and_delayed_ack(void **state)
{
    (void)state;
    fake_push(&fake.rx, 100);
    fake_push(&fake.rx, 100);
    assert_int_equal(run_core("-r -s --rcvwnd 64k --no-delayed-ack"), 0);
    assert_int_equal(fake.rcvbuf_set, 65536);
    assert_int_equal(fake.quickack_calls, 1 + 3); /* at accept, then after each read */
}

/* Where the OS keeps the setting (Windows), no system call per read. */
static void delayed_ack_set_once_where_the_os_keeps_it(void **state)
{
    (void)state;
    fake.quickack_sticky = 1;
    fake_push(&fake.rx, 100);
    fake_push(&fake.rx, 100);
    fake_push(&fake.rx, 100);
    assert_int_equal(run_core("-r -s --no-delayed-ack"), 0);
    assert_int_equal(fake.quickack_calls, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(transmitter_counts_what_comes_back, reset),
        cmocka_unit_test_setup(cpu_share_covers_the_figure_only, reset),
        cmocka_unit_test_setup(receiver_sends_back_after_eof, reset),
        cmocka_unit_test_setup(half_close_receiver_and_a_classic_transmitter, reset),
        cmocka_unit_test_setup(receiver_stops_on_ctrl_c_while_data_flows, reset),
        cmocka_unit_test_setup(continuous_tcp_receiver_takes_test_after_test, reset),
        cmocka_unit_test_setup(continuous_udp_receiver_skips_trailing_markers, reset),
        cmocka_unit_test_setup(continuous_udp_receiver_tells_markers_by_sender, reset),
        cmocka_unit_test_setup(continuous_transmitter_ends_when_the_receiver_leaves, reset),
        cmocka_unit_test_setup(delayed_ack_set_once_where_the_os_keeps_it, reset),
        cmocka_unit_test_setup(ios_connect_line_and_tcp_info, reset),
        cmocka_unit_test_setup(window_and_delayed_ack, reset),
        cmocka_unit_test_setup(every_interval_is_reported, reset),
        cmocka_unit_test_setup(random_preamble_spans_small_buffers, reset),
        cmocka_unit_test_setup(udp_verify_without_header, reset),
    };
    return cmocka_run_group_tests_name("core_ios", tests, NULL, NULL);
}
