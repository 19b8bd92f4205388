/* The UDP sides over the scripted platform: markers, ENOBUFS, the idle
 * timeout, truncation, a lost start marker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core_support.h"

static void transmitter_marker_sequence(void **state)
{
    int i;
    (void)state;
    assert_int_equal(run_core("-t -s -u -l 1024 -n 20 h"), 0);
    assert_int_equal(core_res.bytes, 20480);
    assert_int_equal(core_res.calls, 26); /* 1 + 20 + 1 + 4, as fixture t_udp2 */
    assert_int_equal(fake.datagrams, 26);
    assert_int_equal(fake.datagram_len[0], 4);
    for (i = 1; i <= 20; i++)
        assert_int_equal(fake.datagram_len[i], 1024);
    for (i = 21; i < 26; i++)
        assert_int_equal(fake.datagram_len[i], 4);
    assert_memory_equal(fake.sent, " !\"#", 4);
    assert_true(fake.sleep_calls >= 1); /* the pause before the trailing markers */
    assert_string_equal(core_events, "ttcp-t: socket\n");
}

static void transmitter_backs_off_on_enobufs(void **state)
{
    (void)state;
    fake_push(&fake.tx, 4);           /* start marker */
    fake_push(&fake.tx, TT_E_NOBUFS); /* the kernel's queue is full */
    assert_int_equal(run_core("-t -s -u -l 100 -n 3 h"), 0);
    assert_int_equal(core_res.bytes, 300);
    assert_int_equal(core_res.calls, 1 + 4 + 5); /* the retry counts, as in 1.12 */
    assert_true(fake.sleep_calls >= 2);
}

/* The connected socket hears earlier datagrams' ICMP errors as a failed
 * send: tried again, warned of once with the error's words, the test goes
 * on; a failure that lasts is the send's own, never announced as a report. */
static void transmitter_hears_icmp_and_goes_on(void **state)
{
    (void)state;
    fake_push(&fake.tx, 4);            /* start marker */
    fake_push(&fake.tx, TT_E_UNREACH); /* an earlier datagram: host prohibited */
    fake_push(&fake.tx, 100);
    fake_push(&fake.tx, TT_E_CONNREFUSED);
    assert_int_equal(run_core("-t -s -u -l 100 -n 3 h"), 0);
    assert_int_equal(core_res.bytes, 300);
    assert_int_equal(core_res.calls, 1 + 2 + 3 + 5);
    assert_non_null(strstr(core_events, "warning: the network reported earlier datagrams "
                                        "undeliverable (Network is unreachable)"));
    assert_non_null(strstr(core_events, "(port unreachable)"));
}

/* A burst of reports, each heard by the next try (a far end's replies
 * spaced like the datagrams): the test goes on, one warning, the first
 * report's words. */
static void transmitter_goes_on_through_a_burst_of_reports(void **state)
{
    int i;
    (void)state;
    fake_push(&fake.tx, 4);
    fake_push(&fake.tx, TT_E_CONNREFUSED);
    for (i = 0; i < 5; i++)
        fake_push(&fake.tx, TT_E_UNREACH);
    assert_int_equal(run_core("-t -s -u -l 100 -n 3 h"), 0);
    assert_int_equal(core_res.bytes, 300);
    assert_int_equal(core_res.calls, 1 + 6 + 3 + 5);
    assert_non_null(strstr(core_events, "(port unreachable)"));
    assert_null(strstr(core_events, "Network is unreachable"));
}

static void transmitter_fails_on_an_error_that_lasts(void **state)
{
    int i;
    (void)state;
    fake_push(&fake.tx, 4);
    for (i = 0; i < 17; i++)
        fake_push(&fake.tx, TT_E_MSGSIZE);
    assert_int_equal(run_core("-t -s -u -l 100 -n 3 h"), TT_E_MSGSIZE);
    assert_int_equal(core_res.failure.code, TT_E_MSGSIZE);
    assert_null(strstr(core_events, "warning"));
}

/* --dont-fragment: a datagram the path cannot carry whole fails the test at
 * once (not after the reports' retries), naming the MTU the system learnt
 * and the -l that fits. */
static void dont_fragment_names_the_path_mtu(void **state)
{
    char text[512];
    (void)state;
    fake.pmtu_path = 1280;
    fake_push(&fake.tx, 4);
    fake_push(&fake.tx, 1400);
    fake_push(&fake.tx, TT_E_MSGSIZE); /* the router's "fragmentation needed", heard */
    assert_int_equal(run_core("-t -s -u -l 1400 -n 3 --dont-fragment h"), TT_E_MSGSIZE);
    assert_int_equal(core_res.failure.op, TTCP_OP_DONTFRAG);
    assert_int_equal(core_res.failure.path_mtu, 1280);
    assert_int_equal(core_res.calls, 2);
    ttcp_report_failure(&core_opts, &core_res.failure, "", text, sizeof text);
    assert_non_null(strstr(text, "ttcp-t: --dont-fragment: a datagram of 1400 bytes does not fit "
                                 "the path whole: its MTU is 1280 bytes"));
    assert_non_null(strstr(text, "give -l 1252 or less\n"));
}

static void transmitter_non_sink_sends_full_datagrams(void **state)
{
    static unsigned char data[2500];
    (void)state;
    memset(data, 'x', sizeof data);
    fake.stdin_data = data;
    fake.stdin_len = sizeof data;
    fake.stdin_piece = 300;
    assert_int_equal(run_core("-t -u -l 1000 h"), 0);
    assert_int_equal(core_res.bytes, 2500);
    assert_int_equal(fake.datagram_len[1], 1000);
    assert_int_equal(fake.datagram_len[2], 1000);
    assert_int_equal(fake.datagram_len[3], 500);
    assert_int_equal(fake.datagram_len[4], 4);
}

static void transmitter_refuses_a_tail_that_looks_like_a_marker(void **state)
{
    static unsigned char data[1003];
    (void)state;
    fake.stdin_data = data;
    fake.stdin_len = sizeof data;
    assert_int_equal(run_core("-t -u -l 1000 h"), 0);
    assert_int_equal(core_res.bytes, 1000);
    assert_non_null(strstr(core_events, "warning: the last 3 bytes of input not sent"));
}

static void receiver_classic_sequence(void **state)
{
    (void)state;
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 1024);
    fake_push(&fake.rx, 1024);
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 4);
    assert_int_equal(run_core("-r -s -u"), 0);
    assert_int_equal(core_res.bytes, 2048);
    assert_int_equal(core_res.calls, 4); /* start + data + end; trailing markers unread */
    assert_false(core_res.idle_timeout);
}

static void receiver_idle_timeout_ends_a_stalled_test(void **state)
{
    (void)state;
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 100);
    fake_push(&fake.rx, 100);
    fake_push(&fake.rx, 100); /* then nothing: recvfrom times out */
    assert_int_equal(run_core("-r -s -u --idle-timeout 2"), 0);
    assert_true(core_res.idle_timeout);
    assert_int_equal(core_res.bytes, 300);
    assert_true(core_res.real_ns < 1000000000ll); /* ends at the last datagram, not after the wait */
    assert_non_null(strstr(core_events, "idle timeout"));
}

static void receiver_waits_forever_before_a_test(void **state)
{
    int i;
    (void)state;
    for (i = 0; i < 100; i++) /* 25 s of silence before anything arrives */
        fake_push(&fake.rx, TT_E_AGAIN);
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 500);
    fake_push(&fake.rx, 4);
    assert_int_equal(run_core("-r -s -u --idle-timeout 1"), 0);
    assert_false(core_res.idle_timeout);
    assert_int_equal(core_res.bytes, 500);
}

static void receiver_lost_start_marker(void **state)
{
    (void)state;
    fake_push(&fake.rx, 1024);
    fake_push(&fake.rx, 1024);
    fake_push(&fake.rx, 4);
    assert_int_equal(run_core("-r -s -u"), 0);
    assert_true(core_res.started);
    assert_int_equal(core_res.bytes, 2048);
}

static void receiver_reports_truncation(void **state)
{
    (void)state;
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 1025); /* the platform says: longer than the buffer */
    fake_push(&fake.rx, 4);
    assert_int_equal(run_core("-r -s -u -l 1024"), 0);
    assert_true(core_res.warnings & (1u << TTCP_WARN_TRUNCATED));
    assert_int_equal(core_res.bytes, 1024);
    assert_non_null(strstr(core_events, "warning: datagrams longer than -l"));
}

/* However the test ends, the truncation is reported: here the end marker
 * is lost and the idle timeout ends it. */
static void truncation_is_kept_when_the_idle_timeout_ends_it(void **state)
{
    (void)state;
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 1025);
    fake_push(&fake.rx, 1025); /* then nothing */
    assert_int_equal(run_core("-r -s -u -l 1024 --idle-timeout 1"), 0);
    assert_true(core_res.idle_timeout);
    assert_int_equal(core_res.warnings, (1u << TTCP_WARN_TRUNCATED) | (1u << TTCP_WARN_END_MARKER_LOST));
    assert_non_null(strstr(core_events, "warning: datagrams longer than -l"));
    assert_non_null(strstr(core_events, "warning: no data for 1.0 s (idle timeout)"));
}

static void receiver_non_sink_writes_data_not_markers(void **state)
{
    (void)state;
    fake_push(&fake.rx, 4);
    fake_push(&fake.rx, 10);
    fake_push(&fake.rx, 4);
    assert_int_equal(run_core("-r -u"), 0);
    assert_int_equal(fake.out_len, 10);
}

static void receiver_ctrl_c_before_any_datagram(void **state)
{
    (void)state;
    fake_push_interrupt(&fake.rx, TT_E_INTR);
    assert_int_equal(run_core("-r -s -u"), TT_E_INTR);
    assert_false(core_res.started);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(transmitter_marker_sequence, reset),
        cmocka_unit_test_setup(transmitter_backs_off_on_enobufs, reset),
        cmocka_unit_test_setup(transmitter_hears_icmp_and_goes_on, reset),
        cmocka_unit_test_setup(transmitter_goes_on_through_a_burst_of_reports, reset),
        cmocka_unit_test_setup(transmitter_fails_on_an_error_that_lasts, reset),
        cmocka_unit_test_setup(dont_fragment_names_the_path_mtu, reset),
        cmocka_unit_test_setup(transmitter_non_sink_sends_full_datagrams, reset),
        cmocka_unit_test_setup(transmitter_refuses_a_tail_that_looks_like_a_marker, reset),
        cmocka_unit_test_setup(receiver_classic_sequence, reset),
        cmocka_unit_test_setup(receiver_idle_timeout_ends_a_stalled_test, reset),
        cmocka_unit_test_setup(receiver_waits_forever_before_a_test, reset),
        cmocka_unit_test_setup(receiver_lost_start_marker, reset),
        cmocka_unit_test_setup(receiver_reports_truncation, reset),
        cmocka_unit_test_setup(truncation_is_kept_when_the_idle_timeout_ends_it, reset),
        cmocka_unit_test_setup(receiver_non_sink_writes_data_not_markers, reset),
        cmocka_unit_test_setup(receiver_ctrl_c_before_any_datagram, reset),
    };
    return cmocka_run_group_tests_name("core_udp", tests, NULL, NULL);
}
