/* -i: interval boundaries on the clock, whatever the buffers do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "measure/interval.h"
#include "test_support.h"

#define MS 1000000ll

static void intervals_on_the_clock(void **state)
{
    struct ttcp_intervals iv = {0};
    (void)state;
    ttcp_intervals_start(&iv, 500 * MS, 1000 * MS);
    assert_int_equal(ttcp_intervals_tick(&iv, 1100 * MS, 100), 0);
    assert_int_equal(ttcp_intervals_tick(&iv, 1400 * MS, 300), 0);
    assert_int_equal(ttcp_intervals_tick(&iv, 1600 * MS, 450), 1); /* crossed 1.5 s */
    assert_int_equal(iv.list[0].start_ns, 0);
    assert_int_equal(iv.list[0].end_ns, 500 * MS);
    assert_int_equal(iv.list[0].bytes, 300); /* counted before the boundary */
    assert_int_equal(ttcp_intervals_tick(&iv, 3100 * MS, 500), 3); /* two quiet intervals */
    assert_int_equal(iv.list[1].bytes, 150);
    assert_int_equal(iv.list[2].bytes, 0);
    assert_int_equal(iv.list[3].bytes, 0);
    assert_int_equal(iv.list[3].end_ns, 2000 * MS);
    assert_int_equal(ttcp_intervals_finish(&iv, 3250 * MS, 520), 1); /* the partial one */
    assert_int_equal(iv.list[4].start_ns, 2000 * MS);
    assert_int_equal(iv.list[4].end_ns, 2250 * MS);
    assert_int_equal(iv.list[4].bytes, 70);
    assert_int_equal(iv.count, 5);
    ttcp_intervals_free(&iv);
}

/* A UDP receiver's statistics at each boundary: each interval gets what
 * arrived in it, the loss it saw, and the jitter as it stood. */
static void udp_figures_per_interval(void **state)
{
    struct ttcp_intervals iv = {0};
    struct ttcp_udp_stats st;
    (void)state;
    memset(&st, 0, sizeof st);
    ttcp_intervals_start(&iv, 500 * MS, 0);
    st.datagrams = 95;
    st.expected = 100;
    st.jitter_ns = 2000.0;
    ttcp_intervals_udp(&iv, ttcp_intervals_tick(&iv, 600 * MS, 1000), &st);
    assert_int_equal(iv.count, 1);
    assert_true(iv.list[0].udp_valid);
    assert_int_equal(iv.list[0].udp_datagrams, 95);
    assert_int_equal(iv.list[0].udp_lost, 5);
    assert_true(iv.list[0].udp_jitter_ns == 2000.0);
    /* two boundaries at once: the first takes it all, as with bytes */
    st.datagrams = 200; /* a late one of the first interval among them */
    st.expected = 204;
    ttcp_intervals_udp(&iv, ttcp_intervals_tick(&iv, 1600 * MS, 2000), &st);
    assert_int_equal(iv.count, 3);
    assert_int_equal(iv.list[1].udp_datagrams, 105);
    assert_int_equal(iv.list[1].udp_expected, 104);
    assert_int_equal(iv.list[1].udp_lost, 0); /* more arrived than were new: none */
    assert_int_equal(iv.list[2].udp_datagrams, 0);
    assert_int_equal(iv.list[2].udp_expected, 0);
    assert_true(iv.list[2].udp_valid);
    /* a new test starts from nothing */
    ttcp_intervals_start(&iv, 500 * MS, 0);
    ttcp_intervals_udp(&iv, ttcp_intervals_tick(&iv, 600 * MS, 10), &st);
    assert_int_equal(iv.list[0].udp_datagrams, 200);
    ttcp_intervals_free(&iv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(intervals_on_the_clock),
        cmocka_unit_test(udp_figures_per_interval),
    };
    return cmocka_run_group_tests_name("interval", tests, NULL, NULL);
}
