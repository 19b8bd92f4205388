/* The receiver's marker state machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "engine/udp.h"

static void classic_sequence(void **state)
{
    enum ttcp_udp_state st = TTCP_UDP_WAITING;
    (void)state;
    assert_int_equal(ttcp_udp_step(&st, 4), TTCP_UDP_START);
    assert_int_equal(ttcp_udp_step(&st, 1024), TTCP_UDP_DATA);
    assert_int_equal(ttcp_udp_step(&st, 5), TTCP_UDP_DATA); /* 5 bytes is data */
    assert_int_equal(ttcp_udp_step(&st, 4), TTCP_UDP_END);
    assert_int_equal(st, TTCP_UDP_DONE);
    assert_int_equal(ttcp_udp_step(&st, 4), TTCP_UDP_IGNORE); /* the 4 trailing markers */
    assert_int_equal(ttcp_udp_step(&st, 1024), TTCP_UDP_IGNORE);
}

static void any_short_datagram_is_a_marker(void **state)
{
    size_t len;
    (void)state;
    for (len = 0; len <= 4; len++) {
        enum ttcp_udp_state st = TTCP_UDP_WAITING;
        assert_int_equal(ttcp_udp_step(&st, len), TTCP_UDP_START);
        assert_int_equal(ttcp_udp_step(&st, len), TTCP_UDP_END);
    }
}

static void lost_start_marker(void **state)
{
    enum ttcp_udp_state st = TTCP_UDP_WAITING;
    (void)state;
    assert_int_equal(ttcp_udp_step(&st, 1024), TTCP_UDP_START_DATA);
    assert_int_equal(ttcp_udp_step(&st, 1024), TTCP_UDP_DATA);
    assert_int_equal(ttcp_udp_step(&st, 4), TTCP_UDP_END);
}

static void late_receiver_sees_only_trailing_markers(void **state)
{
    enum ttcp_udp_state st = TTCP_UDP_WAITING;
    (void)state;
    assert_int_equal(ttcp_udp_step(&st, 4), TTCP_UDP_START);
    assert_int_equal(ttcp_udp_step(&st, 4), TTCP_UDP_END); /* ends, never hangs */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(classic_sequence),
        cmocka_unit_test(any_short_datagram_is_a_marker),
        cmocka_unit_test(lost_start_marker),
        cmocka_unit_test(late_receiver_sees_only_trailing_markers),
    };
    return cmocka_run_group_tests_name("udp_markers", tests, NULL, NULL);
}
