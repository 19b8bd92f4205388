/* The TCP sides over the scripted platform: short reads and writes,
 * resets mid-stream, EINTR, EOF, Ctrl+C, and the classic counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core_support.h"

static void receiver_counts_short_reads_and_eof(void **state)
{
    (void)state;
    fake_push(&fake.rx, 100);
    fake_push(&fake.rx, 8192);
    fake_push(&fake.rx, 1);
    fake_push(&fake.rx, 5000);
    assert_int_equal(run_core("-r -s"), 0);
    assert_int_equal(core_res.bytes, 13293);
    assert_int_equal(core_res.calls, 5); /* 4 reads + the EOF read, as 1.12 counts */
    assert_true(core_res.started);
    assert_true(core_res.real_ns > 0);
    assert_string_equal(core_events, "ttcp-r: socket\nttcp-r: accept from 192.0.2.1\n");
}

static void receiver_retries_eintr(void **state)
{
    (void)state;
    fake_push(&fake.rx, 8192);
    fake_push(&fake.rx, TT_E_INTR); /* a signal that is not Ctrl+C */
    fake_push(&fake.rx, 8192);
    assert_int_equal(run_core("-r -s"), 0);
    assert_int_equal(core_res.bytes, 16384);
    assert_int_equal(core_res.calls, 3);
    assert_false(core_res.interrupted);
}

static void receiver_reset_keeps_partial_figures(void **state)
{
    (void)state;
    fake_push(&fake.rx, 8192);
    fake_push(&fake.rx, 8192);
    fake_push(&fake.rx, TT_E_CONNRESET);
    assert_int_equal(run_core("-r -s"), TT_E_CONNRESET);
    assert_int_equal(core_res.failure.op, TTCP_OP_IO);
    assert_int_equal(core_res.failure.native, -TT_E_CONNRESET);
    assert_int_equal(core_res.bytes, 16384);
    assert_true(core_res.started);
}

static void receiver_ctrl_c_ends_with_figures(void **state)
{
    (void)state;
    fake_push(&fake.rx, 4096);
    fake_push_interrupt(&fake.rx, TT_E_INTR);
    assert_int_equal(run_core("-r -s"), 0);
    assert_true(core_res.interrupted);
    assert_int_equal(core_res.bytes, 4096);
}

static void receiver_full_blocks_for_tar(void **state)
{
    (void)state;
    fake_push(&fake.rx, 100);
    fake_push(&fake.rx, 924);
    fake_push(&fake.rx, 1024);
    fake_push(&fake.rx, 10);
    assert_int_equal(run_core("-r -B -l 1024"), 0); /* non-sink: to stdout */
    assert_int_equal(core_res.bytes, 2058);
    assert_int_equal(core_res.calls, 6); /* EOF is read twice, as 1.12's mread() does */
    assert_int_equal(fake.out_write_count, 3);
    assert_int_equal(fake.out_writes[0], 1024);
    assert_int_equal(fake.out_writes[1], 1024);
    assert_int_equal(fake.out_writes[2], 10); /* the tail at EOF */
    assert_int_equal(fake.out_len, 2058);
}

static void receiver_non_sink_copies_every_byte(void **state)
{
    (void)state;
    fake_push(&fake.rx, 3);
    fake_push(&fake.rx, 7);
    assert_int_equal(run_core("-r"), 0);
    assert_int_equal(fake.out_len, 10);
    /* the fake's bytes restart at each recv: 1, 8, 15 then 1, 8, ... */
    assert_int_equal(fake.out[0], 1);
    assert_int_equal(fake.out[2], 15);
    assert_int_equal(fake.out[3], 1);
    assert_int_equal(fake.out[9], 43);
}

static void receiver_touch_reads_bytes(void **state)
{
    (void)state;
    fake_push(&fake.rx, 3);
    assert_int_equal(run_core("-r -s -T"), 0);
    assert_int_equal(core_res.touch_sum, 1 + 8 + 15);
}

/* A sink receiver with nothing to do between reads asks to be woken for a
 * full buffer only; with intervals to close, or data to copy out, it takes
 * what is there. */
static void sink_receiver_waits_for_full_buffers(void **state)
{
    (void)state;
    fake_push(&fake.rx, 1000);
    assert_int_equal(run_core("-r -s -l 64k"), 0);
    assert_int_equal(fake.rcvlowat_set, 65536);
}

static void receiver_takes_what_is_there_when_it_must(void **state)
{
    struct ttcp_observer obs = {record_event, NULL, NULL, NULL};
    (void)state;
    /* a connection a server handed over: its idle timeout must see a stall at once */
    fake_push(&fake.rx, 1000);
    assert_int_equal(run_core("-r -s -l 64k"), 0); /* (sets core_opts) */
    fake_reset();
    fake_push(&fake.rx, 1000);
    assert_int_equal(ttcp_run_on(&core_opts, &obs, &core_res, 3, NULL, TTCP_RUN_ACCEPTED), 0);
    assert_int_equal(fake.rcvlowat_set, 0);
    ttcp_result_release(&core_res);
    fake_reset();
    fake_push(&fake.rx, 1000);
    assert_int_equal(run_core("-r -s -l 64k -i 1"), 0);
    assert_int_equal(fake.rcvlowat_set, 0);
    ttcp_result_release(&core_res);
    fake_reset();
    fake_push(&fake.rx, 1000);
    assert_int_equal(run_core("-r -l 64k"), 0);
    assert_int_equal(fake.rcvlowat_set, 0);
    ttcp_result_release(&core_res);
    fake_reset();
    /* one of -P's streams: its thread sees Ctrl+C only between reads */
    fake_push(&fake.rx, 1000);
    assert_int_equal(run_core("-r -s -l 64k -P 2"), 0);
    assert_int_equal(fake.rcvlowat_set, 0);
}

static void transmitter_completes_short_writes(void **state)
{
    (void)state;
    fake_push(&fake.tx, 100);
    fake_push(&fake.tx, 8092);
    fake_push(&fake.tx, 8192);
    fake_push(&fake.tx, 5000);
    assert_int_equal(run_core("-t -s -n 3 h"), 0);
    assert_int_equal(core_res.bytes, 24576);
    assert_int_equal(core_res.calls, 5);
    assert_int_equal(fake.sent_len, 24576);
    assert_memory_equal(fake.sent, " !\"#", 4);
    assert_memory_equal(fake.sent + 8192, " !\"#", 4); /* the pattern restarts each buffer */
    assert_string_equal(core_events, "ttcp-t: socket\nttcp-t: connect\n");
    assert_true(core_ready);
}

static void transmitter_half_closes_before_the_timer_stops(void **state)
{
    (void)state;
    fake.eof_delay_ns = 5000000000ll; /* the receiver takes 5 s to drain and close */
    assert_int_equal(run_core("-t -s -n 10 h"), 0);
    assert_int_equal(fake.shutdown_calls, 1);
    assert_int_equal(core_res.calls, 10); /* the wait for the close is not an I/O call */
    assert_true(core_res.real_ns >= 5000000000ll); /* the figure covers delivery */
    assert_false(core_res.idle_timeout);
}

static void transmitter_gives_up_on_a_silent_receiver(void **state)
{
    (void)state;
    fake.peer_never_closes = 1;
    assert_int_equal(run_core("-t -s -n 10 --idle-timeout 3 h"), 0);
    assert_true(core_res.idle_timeout);
    assert_true(core_res.real_ns < 1000000000ll); /* ends at the last progress, not after 3 s */
    assert_non_null(strstr(core_events, "warning: the receiver did not close (idle timeout)"));
}

static void transmitter_peer_vanishes(void **state)
{
    (void)state;
    fake_push(&fake.tx, 8192);
    fake_push(&fake.tx, TT_E_PIPE);
    assert_int_equal(run_core("-t -s -n 10 h"), TT_E_PIPE);
    assert_int_equal(core_res.failure.op, TTCP_OP_IO);
    assert_int_equal(core_res.bytes, 8192);
    assert_true(core_res.started);
    assert_int_equal(fake.shutdown_calls, 0);
}

static void transmitter_ctrl_c(void **state)
{
    (void)state;
    fake_push(&fake.tx, 8192);
    fake_push_interrupt(&fake.tx, 8192);
    assert_int_equal(run_core("-t -s -n 1000 h"), 0);
    assert_true(core_res.interrupted);
    assert_int_equal(core_res.bytes, 16384);
    assert_int_equal(fake.shutdown_calls, 0); /* no wait for the peer after Ctrl+C */
}

static void transmitter_sends_stdin_exactly(void **state)
{
    static unsigned char data[20000];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i * 31 + (i >> 8));
    fake.stdin_data = data;
    fake.stdin_len = sizeof data;
    fake.stdin_piece = 3000; /* a pipe's pieces */
    fake_push(&fake.tx, 1000); /* one short write */
    assert_int_equal(run_core("-t h"), 0);
    assert_int_equal(core_res.bytes, sizeof data);
    assert_int_equal(fake.sent_len, sizeof data);
    assert_memory_equal(fake.sent, data, sizeof data);
}

static void connect_refused(void **state)
{
    (void)state;
    fake.connect_rc = TT_E_CONNREFUSED;
    assert_int_equal(run_core("-t -s h"), TT_E_CONNREFUSED);
    assert_int_equal(core_res.failure.op, TTCP_OP_CONNECT);
    assert_false(core_res.started);
}

static void unresolvable_and_port_in_use(void **state)
{
    (void)state;
    fake.resolve_rc = TT_E_NOHOST;
    assert_int_equal(run_core("-t -s h"), TT_E_NOHOST);
    assert_int_equal(core_res.failure.op, TTCP_OP_HOSTNAME);
    assert_false(core_ready); /* as 1.12: no header for a host that does not resolve */
    fake_reset();
    fake.bind_rc = TT_E_ADDRINUSE;
    assert_int_equal(run_core("-r -s"), TT_E_ADDRINUSE);
    assert_int_equal(core_res.failure.op, TTCP_OP_BIND);
}

static void ctrl_c_while_waiting_for_a_connection(void **state)
{
    (void)state;
    fake.interrupted = 1;
    assert_int_equal(run_core("-r -s"), TT_E_INTR);
    assert_false(core_res.started);
}

static void buffer_honours_alignment(void **state)
{
    (void)state;
    assert_int_equal(run_core("-r -s -A 4096 -O 100"), 0);
    assert_int_equal(core_res.buffer_address % 4096, 100);
    fake_reset();
    assert_int_equal(run_core("-r -s -A 0"), 0);
    assert_true(core_res.buffer_address != 0);
}

/* TTCP_RUN_SHARED_SOCKET (iperf2's --full-duplex): after its FIN the
 * transmitter reads nothing, the other way's bytes being another
 * stream's, and ends when its bytes are acknowledged; the socket stays. */
static void shared_socket_transmitter_reads_nothing(void **state)
{
    struct ttcp_observer obs = {record_event, NULL, NULL, NULL};
    (void)state;
    assert_int_equal(run_core("-t -s -n 4 h"), 0); /* (sets core_opts) */
    fake_reset();
    fake_push(&fake.rx, 5000); /* the server's bytes the other way: not ours to read */
    assert_int_equal(ttcp_run_on(&core_opts, &obs, &core_res, 3, NULL,
                                 TTCP_RUN_KEEP_SOCKET | TTCP_RUN_SHARED_SOCKET), 0);
    assert_int_equal(core_res.bytes, 4 * 8192);
    assert_int_equal(fake.rx.next, 0);
    assert_int_equal(fake.shutdown_calls, 1);
    assert_int_equal(fake.close_calls, 0);
    assert_int_equal(core_res.delivery, TTCP_DELIVERY_ACKNOWLEDGED);
    assert_int_equal(core_res.back_bytes, 0);
    ttcp_result_release(&core_res);
    fake_reset();
    fake_push(&fake.rx, 5000); /* without the flag the same bytes are read as sent back */
    assert_int_equal(ttcp_run_on(&core_opts, &obs, &core_res, 3, NULL, 0), 0);
    assert_int_equal(fake.rx.next, 1);
    assert_int_equal(core_res.back_bytes, 5000);
}

/* A CPU quota's hold, read with the CPU at the figure's start and end. */
static void transmitter_reads_a_quotas_hold(void **state)
{
    int64_t held;
    (void)state;
    fake.eof_delay_ns = 2000000000ll; /* 2 s to the receiver's close */
    fake.throttle_given = 1;
    fake.throttle_per_mille = 750;
    fake.quota_ppm = 200000;
    assert_int_equal(run_core("-t -s -n 10 h"), 0);
    assert_true(core_res.cpu_start.throttle_given && core_res.cpu_end.throttle_given);
    assert_int_equal(core_res.cpu_end.quota_ppm, 200000);
    held = core_res.cpu_end.throttled_ns - core_res.cpu_start.throttled_ns;
    assert_true(core_res.real_ns >= 2000000000ll);
    /* three quarters of the figure's time, to the fake clock's millisecond ticks */
    assert_true(held >= core_res.real_ns / 4 * 3 - 5000000 &&
                held <= core_res.real_ns / 4 * 3 + 5000000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(receiver_counts_short_reads_and_eof, reset),
        cmocka_unit_test_setup(receiver_retries_eintr, reset),
        cmocka_unit_test_setup(receiver_reset_keeps_partial_figures, reset),
        cmocka_unit_test_setup(receiver_ctrl_c_ends_with_figures, reset),
        cmocka_unit_test_setup(receiver_full_blocks_for_tar, reset),
        cmocka_unit_test_setup(receiver_non_sink_copies_every_byte, reset),
        cmocka_unit_test_setup(receiver_touch_reads_bytes, reset),
        cmocka_unit_test_setup(sink_receiver_waits_for_full_buffers, reset),
        cmocka_unit_test_setup(receiver_takes_what_is_there_when_it_must, reset),
        cmocka_unit_test_setup(transmitter_completes_short_writes, reset),
        cmocka_unit_test_setup(transmitter_half_closes_before_the_timer_stops, reset),
        cmocka_unit_test_setup(transmitter_gives_up_on_a_silent_receiver, reset),
        cmocka_unit_test_setup(transmitter_peer_vanishes, reset),
        cmocka_unit_test_setup(transmitter_ctrl_c, reset),
        cmocka_unit_test_setup(transmitter_sends_stdin_exactly, reset),
        cmocka_unit_test_setup(connect_refused, reset),
        cmocka_unit_test_setup(unresolvable_and_port_in_use, reset),
        cmocka_unit_test_setup(ctrl_c_while_waiting_for_a_connection, reset),
        cmocka_unit_test_setup(buffer_honours_alignment, reset),
        cmocka_unit_test_setup(shared_socket_transmitter_reads_nothing, reset),
        cmocka_unit_test_setup(transmitter_reads_a_quotas_hold, reset),
    };
    return cmocka_run_group_tests_name("core_tcp", tests, NULL, NULL);
}
