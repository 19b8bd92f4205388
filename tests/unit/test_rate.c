/* -f units: every classic letter against the figures 1.12 printed, and the
 * SI bit rates links are rated in. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "base/rate.h"
#include "test_support.h"

/* For each fixture: the rate line's value and unit must follow from its
 * bytes and the time implied by its I/O-calls line (calls / calls/sec). */
static void each_letter_matches_the_fixture(void **state)
{
    static const struct { char letter; const char *unit; } letters[] = {
        {'k', "Kbit"}, {'K', "KB"}, {'m', "Mbit"}, {'M', "MB"},
        {'g', "Gbit"}, {'G', "GB"},
    }; /* 1.12's -f b and -f x meant K; now they are usage errors (test_options) */
    const char *sides = "tr";
    size_t i, j;
    (void)state;
    for (i = 0; i < sizeof letters / sizeof letters[0]; i++) {
        for (j = 0; j < 2; j++) {
            char name[32], text[1024], want_unit[16], got[64], got_unit[16];
            unsigned long long bytes, calls;
            double printed, cps, got_value, realt;
            snprintf(name, sizeof name, "%c_f%c.out", sides[j], letters[i].letter);
            read_fixture(name, text, sizeof text);
            assert_non_null(strstr(text, "+++"));
            assert_int_equal(sscanf(strstr(text, "\nttcp-") + 1,
                                    "ttcp-%*c: %llu bytes in %*f real seconds = %lf %15[A-Za-z]/sec",
                                    &bytes, &printed, want_unit), 3);
            assert_int_equal(sscanf(strstr(text, "I/O calls") - 0, "I/O calls, msec/call = %*f, calls/sec = %lf",
                                    &cps), 1);
            assert_int_equal(sscanf(strstr(strstr(text, "real seconds"), "\nttcp-") + 1,
                                    "ttcp-%*c: %llu I/O", &calls), 1);
            realt = (double)calls / cps;
            char key[2] = {letters[i].letter, '\0'};
            ttcp_unit_format((enum ttcp_unit)ttcp_unit_parse(key), (double)bytes / realt, got,
                             sizeof got);
            assert_int_equal(sscanf(got, "%lf %15s", &got_value, got_unit), 2);
            assert_string_equal(got_unit, letters[i].unit);
            assert_string_equal(want_unit, letters[i].unit);
            /* calls/sec carries 8+ significant digits: agree to 1e-6 */
            if (fabs(got_value - printed) > printed * 1e-6)
                fail_msg("%s: got %s, printed %.2f", name, got, printed);
        }
    }
}

/* The Cisco note's ttcpw figures: 409600 bytes in 84.94 s. */
static void cisco_note_example(void **state)
{
    char got[64];
    (void)state;
    assert_string_equal(ttcp_unit_format(TTCP_UNIT_KBYTE, 409600 / 84.94, got, sizeof got), "4.71 KB");
    assert_string_equal(ttcp_unit_format(TTCP_UNIT_KBIT, 409600 / 84.94, got, sizeof got), "37.67 Kbit");
}

static void bases_are_1024(void **state)
{
    char got[64];
    (void)state;
    assert_string_equal(ttcp_unit_format(TTCP_UNIT_MBYTE, 1048576.0, got, sizeof got), "1.00 MB");
    assert_string_equal(ttcp_unit_format(TTCP_UNIT_MBIT, 131072.0, got, sizeof got), "1.00 Mbit");
    assert_string_equal(ttcp_unit_format(TTCP_UNIT_GBIT, 134217728.0, got, sizeof got), "1.00 Gbit");
    assert_string_equal(ttcp_unit_format(TTCP_UNIT_GBYTE, 1073741824.0, got, sizeof got), "1.00 GB");
    /* 1.12 read the first letter and made anything unknown K: now a mistake */
    assert_int_equal(ttcp_unit_parse("mega"), -1);
    assert_int_equal(ttcp_unit_parse("Mbit"), -1);
    assert_int_equal(ttcp_unit_parse("x"), -1);
    assert_int_equal(ttcp_unit_parse(""), -1);
    assert_int_equal(ttcp_unit_parse("M"), TTCP_UNIT_MBYTE);
}

static void si_units_and_the_cisco_note(void **state)
{
    char buf[64];
    (void)state;
    /* 409600 bytes in 84.94 s "is 38.577 kbps" (Cisco, computed by hand) */
    assert_int_equal(ttcp_unit_parse("kbps"), TTCP_UNIT_KBPS);
    assert_int_equal(ttcp_unit_parse("Mbps"), TTCP_UNIT_MBPS);
    assert_int_equal(ttcp_unit_parse("GBPS"), TTCP_UNIT_GBPS);
    assert_int_equal(ttcp_unit_parse("bps"), TTCP_UNIT_BPS);
    assert_int_equal(ttcp_unit_parse("kb"), -1); /* neither a word nor a letter */
    assert_string_equal(ttcp_unit_format(TTCP_UNIT_KBPS, 409600 / 84.94, buf, sizeof buf),
                        "38.577 kbps");
    assert_string_equal(ttcp_unit_per_sec(TTCP_UNIT_KBPS), "");
    assert_string_equal(ttcp_unit_per_sec(TTCP_UNIT_KBIT), "/sec");
    assert_string_equal(ttcp_unit_format(TTCP_UNIT_MBPS, 2500000.0, buf, sizeof buf), "20.000 Mbps");
    assert_string_equal(ttcp_unit_format_bps(45333.0, buf, sizeof buf), "45.333 kbps");
    assert_string_equal(ttcp_unit_format_bps(999.0, buf, sizeof buf), "999.000 bps");
    assert_string_equal(ttcp_unit_format_bps(1e9, buf, sizeof buf), "1.000 Gbps");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_letter_matches_the_fixture),
        cmocka_unit_test(cisco_note_example),
        cmocka_unit_test(bases_are_1024),
        cmocka_unit_test(si_units_and_the_cisco_note),
    };
    return cmocka_run_group_tests_name("units", tests, NULL, NULL);
}
