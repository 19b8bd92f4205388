/* Bounded number parsing: sizes, counts, seconds, SI bit rates. */
#include <setjmp.h>
#include <string.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "base/parse.h"
#include "test_support.h"

static void integers_and_suffixes(void **state)
{
    uint64_t v;
    char why[128];
    (void)state;
    assert_int_equal(ttcp_parse_u64("42", TTCP_SUFFIX_NONE, 1, 100, &v, why, sizeof why), 0);
    assert_int_equal(v, 42);
    assert_int_equal(ttcp_parse_u64("+7", TTCP_SUFFIX_NONE, 1, 100, &v, why, sizeof why), 0);
    assert_int_equal(v, 7);
    assert_int_equal(ttcp_parse_u64("4k", TTCP_SUFFIX_BINARY, 1, 1u << 30, &v, why, sizeof why), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(ttcp_parse_u64("2M", TTCP_SUFFIX_BINARY, 1, 1u << 30, &v, why, sizeof why), 0);
    assert_int_equal(v, 2097152);
    assert_int_equal(ttcp_parse_u64("1g", TTCP_SUFFIX_BINARY, 1, 1u << 30, &v, why, sizeof why), 0);
    assert_int_equal(v, 1073741824);
    assert_int_equal(ttcp_parse_u64("18446744073709551615", TTCP_SUFFIX_NONE, 0, UINT64_MAX, &v, why,
                                    sizeof why), 0);
    assert_true(v == UINT64_MAX);
}

static void rejects(void **state)
{
    static const struct { const char *text; enum ttcp_suffix sfx; const char *needle; } bad[] = {
        {"", TTCP_SUFFIX_NONE, "missing"},
        {"-1", TTCP_SUFFIX_NONE, "negative"},
        {"abc", TTCP_SUFFIX_NONE, "not a number"},
        {"4k", TTCP_SUFFIX_NONE, "not a number"},
        {"4kb", TTCP_SUFFIX_BINARY, "not a number"},
        {"4 ", TTCP_SUFFIX_NONE, "not a number"},
        {"18446744073709551616", TTCP_SUFFIX_NONE, "too large"},
        {"17179869184g", TTCP_SUFFIX_BINARY, "too large"},
        {"101", TTCP_SUFFIX_NONE, "out of range (1 to 100)"},
        {"0", TTCP_SUFFIX_NONE, "out of range"},
    };
    uint64_t v = 99;
    char why[128];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ttcp_parse_u64(bad[i].text, bad[i].sfx, 1, 100, &v, why, sizeof why), -1);
        if (strstr(why, bad[i].needle) == NULL)
            fail_msg("'%s': '%s' lacks '%s'", bad[i].text, why, bad[i].needle);
    }
    assert_int_equal(v, 99); /* untouched on failure */
}

static void seconds(void **state)
{
    int64_t ns;
    char why[128];
    (void)state;
    assert_int_equal(ttcp_parse_seconds("1.5", 1, 10000000000ll, &ns, why, sizeof why), 0);
    assert_int_equal(ns, 1500000000ll);
    assert_int_equal(ttcp_parse_seconds(".25", 1, 10000000000ll, &ns, why, sizeof why), 0);
    assert_int_equal(ns, 250000000ll);
    assert_int_equal(ttcp_parse_seconds("2.0000000019", 1, 10000000000ll, &ns, why, sizeof why), 0);
    assert_int_equal(ns, 2000000001ll); /* past nanoseconds is dropped */
    assert_int_equal(ttcp_parse_seconds("11", 1, 10000000000ll, &ns, why, sizeof why), -1);
    assert_int_equal(ttcp_parse_seconds("-1", 1, 10000000000ll, &ns, why, sizeof why), -1);
    assert_int_equal(ttcp_parse_seconds("1.2.3", 1, 10000000000ll, &ns, why, sizeof why), -1);
    assert_int_equal(ttcp_parse_seconds(".", 1, 10000000000ll, &ns, why, sizeof why), -1);
    assert_int_equal(ttcp_parse_seconds("99999999999999999999", 1, 10000000000ll, &ns, why, sizeof why), -1);
}

static void rates_parse_with_si_suffixes(void **state)
{
    static const struct { const char *text; uint64_t bps; } good[] = {
        {"45333", 45333}, {"56k", 56000}, {"45.333k", 45333}, {"100m", 100000000},
        {"100M", 100000000}, {"1g", 1000000000}, {"2.5G", 2500000000ull}, {"0.5k", 500},
    };
    static const char *const bad[] = {"", "-5", "k", "5x", "5kk", "1.2.3", "99999999999999999999"};
    uint64_t v;
    char why[128];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_int_equal(ttcp_parse_rate(good[i].text, 1, UINT64_MAX, &v, why, sizeof why), 0);
        assert_int_equal(v, good[i].bps);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(ttcp_parse_rate(bad[i], 1, UINT64_MAX, &v, why, sizeof why), -1);
    assert_int_equal(ttcp_parse_rate("50", 100, 1000, &v, why, sizeof why), -1);
    assert_non_null(strstr(why, "out of range"));
}

/* --dscp: names of RFC 4594's code points in any case, numbers 0-63, into
 * the TOS byte (the code point's six bits above the two ECN bits). */
static void dscp_names_and_numbers(void **state)
{
    static const struct { const char *text; uint64_t tos; } good[] = {
        {"ef", 0xb8}, {"EF", 0xb8}, {"af11", 0x28}, {"AF43", 0x98}, {"cs0", 0}, {"cs7", 0xe0},
        {"va", 0xb0}, {"le", 0x04}, {"be", 0}, {"default", 0}, {"46", 0xb8}, {"63", 0xfc},
    };
    static const char *const bad[] = {"64", "af14", "af51", "cs8", "e", "efx", "", "-1"};
    char why[160];
    uint64_t tos;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_int_equal(ttcp_parse_dscp(good[i].text, &tos, why, sizeof why), 0);
        assert_int_equal(tos, good[i].tos);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ttcp_parse_dscp(bad[i], &tos, why, sizeof why), -1);
        assert_non_null(strstr(why, "is not a DSCP"));
    }
}

/* --tos: decimal, 0x hex, 0 octal, a byte at most. */
static void tos_as_iperf3_reads_it(void **state)
{
    static const struct { const char *text; uint64_t tos; } good[] = {
        {"0", 0}, {"184", 184}, {"0xb8", 0xb8}, {"0XB8", 0xb8}, {"0270", 0xb8}, {"255", 255},
    };
    static const char *const bad[] = {"256", "0x100", "", "0x", "09", "1e2", "-1", "0xfffffffffff"};
    char why[160];
    uint64_t tos;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_int_equal(ttcp_parse_tos(good[i].text, &tos, why, sizeof why), 0);
        assert_int_equal(tos, good[i].tos);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(ttcp_parse_tos(bad[i], &tos, why, sizeof why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(integers_and_suffixes),
        cmocka_unit_test(rejects),
        cmocka_unit_test(seconds),
        cmocka_unit_test(rates_parse_with_si_suffixes),
        cmocka_unit_test(dscp_names_and_numbers),
        cmocka_unit_test(tos_as_iperf3_reads_it),
    };
    return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
