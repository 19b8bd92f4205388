/* The rusage line, computed as 1.12's prusage() does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "report/rusage.h"
#include "test_support.h"

#define MS 1000000ll
#define S 1000000000ll

static const char *line(int64_t user, int64_t sys, int64_t real, struct tt_cpu *end)
{
    static char buf[160];
    struct tt_cpu start;
    memset(&start, 0, sizeof start);
    end->user_ns = user;
    end->sys_ns = sys;
    return ttcp_rusage_format(&start, end, real, buf, sizeof buf);
}

/* fixture t_long.out: 3.15 s, 0.0 user, 2.1 sys, 70 %. */
static void long_run_fixture(void **state)
{
    struct tt_cpu end = {0};
    (void)state;
    end.maxrss_kib = 918;
    end.minflt = 2;
    end.nvcsw = 7945;
    end.nivcsw = 12833;
    assert_string_equal(line(50 * MS, 2170 * MS, 3150 * MS, &end),
                        "0.0user 2.1sys 0:03real 70% 0i+0d 918maxrss 0+2pf 7945+12833csw");
}

static void tenths_truncate_and_elapsed_formats(void **state)
{
    struct tt_cpu end = {0};
    (void)state;
    assert_string_equal(line(1999 * MS, 0, 65 * S, &end),
                        "1.9user 0.0sys 1:05real 3% 0i+0d 0maxrss 0+0pf 0+0csw");
    assert_string_equal(line(0, 0, 3723 * S, &end),
                        "0.0user 0.0sys 1:02:03real 0% 0i+0d 0maxrss 0+0pf 0+0csw");
    assert_string_equal(line(5 * MS, 0, 0, &end), /* no elapsed centiseconds: divide by 1 */
                        "0.0user 0.0sys 0:00real 0% 0i+0d 0maxrss 0+0pf 0+0csw");
}

static void deltas_not_totals(void **state)
{
    struct tt_cpu start = {0}, end = {0};
    char buf[160];
    (void)state;
    start.minflt = 100;
    end.minflt = 103;
    start.majflt = 1;
    end.majflt = 2;
    start.nvcsw = 10;
    end.nvcsw = 15;
    start.ixrss = 0;
    end.ixrss = 400;   /* integral sizes divide by CPU centiseconds */
    end.user_ns = 200 * MS;
    end.maxrss_kib = 2048; /* absolute, in KiB */
    ttcp_rusage_format(&start, &end, S, buf, sizeof buf);
    assert_string_equal(buf, "0.2user 0.0sys 0:01real 20% 20i+0d 2048maxrss 1+3pf 5+0csw");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_run_fixture),
        cmocka_unit_test(tenths_truncate_and_elapsed_formats),
        cmocka_unit_test(deltas_not_totals),
    };
    return cmocka_run_group_tests_name("rusage", tests, NULL, NULL);
}
