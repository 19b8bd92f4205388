/* --traceroute over the fake platform: hops in order until the destination
 * answers, silent hops as "*", the time limit; and the lines, pure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "engine/trace.h"
#include "report/report_trace.h"
#include "fake_platform.h"
#include "test_support.h"

static struct ttcp_options opts;
static char lines[4096]; /* what the printer would print, hop by hop */

static void record(void *ctx, const struct ttcp_trace *t, const struct ttcp_hop *h)
{
    size_t used = strlen(lines);
    (void)ctx;
    if (h == NULL)
        ttcp_report_trace_start("-t", opts.host, t, lines + used, sizeof lines - used);
    else
        ttcp_report_hop("-t", h, lines + used, sizeof lines - used);
}

static int trace(const char *line, struct ttcp_trace *t)
{
    static char copy[256];
    char *argv[16], why[256];
    int argc;
    snprintf(copy, sizeof copy, "%s", line);
    argc = split_args(copy, argv, 16);
    assert_int_equal(ttcp_options_parse(&opts, argc, argv, 0, why, sizeof why), 0);
    lines[0] = '\0';
    return ttcp_trace(&opts, record, NULL, t);
}

static void hops_until_the_destination(void **state)
{
    struct ttcp_trace t;
    char end[128];
    (void)state;
    fake_reset();
    fake.trace_hops = 3;
    assert_int_equal(trace("--traceroute h", &t), 0);
    assert_int_equal(t.count, 3);
    assert_true(t.reached);
    assert_false(t.cut_short);
    assert_int_equal(fake.probes, 9);
    assert_string_equal(lines, "ttcp-t: traceroute to h (192.0.2.1), at most 30 hops, 3 probes each\n"
                               "ttcp-t:  1  192.0.2.1  0.250 ms  0.250 ms  0.250 ms\n"
                               "ttcp-t:  2  192.0.2.2  0.500 ms  0.500 ms  0.500 ms\n"
                               "ttcp-t:  3  192.0.2.3  0.750 ms  0.750 ms  0.750 ms\n");
    assert_int_equal(ttcp_report_trace_end("-t", &t, end, sizeof end), 0);
}

static void a_silent_hop_is_stars(void **state)
{
    struct ttcp_trace t;
    (void)state;
    fake_reset();
    fake.trace_hops = 2;
    fake.trace_silent = 1;
    assert_int_equal(trace("-t -s --traceroute h", &t), 0);
    assert_int_equal(t.count, 2);
    assert_int_equal(t.hops[0].answered, 0);
    assert_non_null(strstr(lines, "ttcp-t:  1  *  *  *  *\n"));
    assert_non_null(strstr(lines, "ttcp-t:  2  192.0.2.2  0.500 ms"));
}

static void names_when_found(void **state)
{
    struct ttcp_trace t;
    (void)state;
    fake_reset();
    fake.trace_hops = 2;
    fake.trace_names = 1;
    assert_int_equal(trace("--traceroute h", &t), 0);
    assert_string_equal(t.hops[1].name, "hop2.example");
    assert_non_null(strstr(lines, "ttcp-t:  2  hop2.example (192.0.2.2)  0.500 ms"));
}

static void the_whole_trace_is_bounded(void **state)
{
    struct ttcp_trace t;
    char end[128];
    (void)state;
    fake_reset();
    fake.trace_hops = 30;
    fake.trace_silent = -1; /* nobody answers: 3 s a hop on the fake clock */
    assert_int_equal(trace("--traceroute h", &t), 0);
    assert_true(t.cut_short);
    assert_false(t.reached);
    assert_int_equal(t.count, 10); /* 30 s */
    ttcp_report_trace_end("-t", &t, end, sizeof end);
    assert_string_equal(end, "ttcp-t: traceroute: cut short after 10 hops (the 30 s limit)\n");
}

static void refusals(void **state)
{
    static const char *const bad[] = {"-r --traceroute h", "--traceroute", "-S --traceroute",
                                      "-t --traceroute --json h", "-t -u --traceroute 239.1.1.1"};
    char copy[128], *argv[16], why[256];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int argc;
        snprintf(copy, sizeof copy, "%s", bad[i]);
        argc = split_args(copy, argv, 16);
        if (ttcp_options_parse(&opts, argc, argv, 0, why, sizeof why) == 0)
            fail_msg("'%s' was taken", bad[i]);
        if (strstr(why, "traceroute") == NULL)
            fail_msg("'%s': '%s' does not name --traceroute", bad[i], why);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hops_until_the_destination),
        cmocka_unit_test(a_silent_hop_is_stars),
        cmocka_unit_test(names_when_found),
        cmocka_unit_test(the_whole_trace_is_bounded),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
