/* -i: interval boundaries on the clock, whatever the buffers do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(intervals_on_the_clock),
    };
    return cmocka_run_group_tests_name("interval", tests, NULL, NULL);
}
