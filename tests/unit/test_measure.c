/* The arithmetic of the measurement extensions: SI units and rates,
 * the pacing schedule, interval boundaries, UDP statistics, the payload
 * patterns and their check, JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "measure/interval.h"
#include "report/json.h"
#include "measure/pace.h"
#include "config/parse.h"
#include "measure/pattern.h"
#include "measure/payload.h"
#include "test_support.h"
#include "measure/udpstat.h"
#include "measure/units.h"

#define MS 1000000ll

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

/* 1000-byte buffers at 8 Mbit/s: one every millisecond. */
static void pacing_follows_the_schedule(void **state)
{
    struct ttcp_pacer p;
    int64_t now = 5000 * MS;
    int k;
    (void)state;
    ttcp_pacer_start(&p, 8000000, 1, 1000, now);
    assert_int_equal(ttcp_pacer_wait(&p, 1000, now), 0); /* the first goes at once */
    assert_int_equal(ttcp_pacer_wait(&p, 1000, now), 1 * MS);
    now += 1 * MS;
    assert_int_equal(ttcp_pacer_wait(&p, 1000, now), 1 * MS);
    /* a sender that slept too long catches up by at most `burst` buffers */
    now += 10 * MS;
    for (k = 0; k < 2; k++)
        assert_int_equal(ttcp_pacer_wait(&p, 1000, now), 0);
    assert_true(ttcp_pacer_wait(&p, 1000, now) > 0);
}

static void pacing_average_rate_is_exact(void **state)
{
    struct ttcp_pacer p;
    int64_t now = 0;
    uint64_t sent = 0;
    (void)state;
    /* 1472-byte datagrams at 20 Mbit/s; the sleeps overshoot by 60 us */
    ttcp_pacer_start(&p, 20000000, 0, 1472, now);
    while (now < 2000 * MS) {
        int64_t wait = ttcp_pacer_wait(&p, 1472, now);
        if (wait > 0)
            now += wait + 60000;
        sent += 1472;
    }
    /* within 0.5 % of 20 Mbit/s over 2 s */
    assert_true(sent * 8 > 19900000ull * 2 && sent * 8 < 20100000ull * 2);
}

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

static void udp_header_round_trip(void **state)
{
    unsigned char buf[TTCP_UDP_HEADER + 10];
    struct ttcp_udp_header h = {2, 123456789012ull, -5, 42}, back;
    (void)state;
    ttcp_udp_header_write(buf, &h);
    assert_memory_equal(buf, "tTcU", 4);
    assert_int_equal(ttcp_udp_header_read(buf, sizeof buf, &back), 1);
    assert_int_equal(back.seq, h.seq);
    assert_int_equal(back.sent_ns, -5);
    assert_int_equal(back.seed, 42);
    assert_int_equal(back.pattern, 2);
    assert_int_equal(ttcp_udp_header_read(buf, TTCP_UDP_HEADER - 1, &back), 0);
    buf[4] = 99; /* a version it does not know */
    assert_int_equal(ttcp_udp_header_read(buf, sizeof buf, &back), 0);
    memcpy(buf, " !\"#$%&'()", 10); /* a classic datagram */
    assert_int_equal(ttcp_udp_header_read(buf, sizeof buf, &back), 0);
}

static void udp_loss_duplicates_order(void **state)
{
    struct ttcp_udp_stats st = {0};
    static const uint64_t seqs[] = {0, 1, 3, 2, 2, 5, 6, 6};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof seqs / sizeof seqs[0]; i++)
        ttcp_udp_stats_add(&st, seqs[i], 0, 1000);
    assert_int_equal(st.expected, 7);
    assert_int_equal(st.datagrams, 6);   /* 0 1 2 3 5 6 */
    assert_int_equal(st.duplicates, 2);  /* the second 2 and 6 */
    assert_int_equal(st.out_of_order, 1);/* 2 after 3 */
    assert_int_equal(ttcp_udp_stats_lost(&st), 1); /* 4 */
    /* far beyond the window: the window starts afresh, nothing is miscounted */
    ttcp_udp_stats_add(&st, 100000, 0, 1000);
    ttcp_udp_stats_add(&st, 100000, 0, 1000);
    assert_int_equal(st.duplicates, 3);
}

/* RFC 3550: J += (|D| - J) / 16, D the change in transit time. */
static void udp_jitter(void **state)
{
    struct ttcp_udp_stats st = {0};
    (void)state;
    ttcp_udp_stats_add(&st, 0, 0, 1000 * MS);        /* transit 1000 ms (clock offset) */
    ttcp_udp_stats_add(&st, 1, 10 * MS, 1010 * MS);  /* same transit: D = 0 */
    assert_true(st.jitter_ns == 0.0);
    ttcp_udp_stats_add(&st, 2, 20 * MS, 1036 * MS);  /* D = 16 ms: J = 1 ms */
    assert_true(st.jitter_ns > 0.999 * MS && st.jitter_ns < 1.001 * MS);
    ttcp_udp_stats_add(&st, 3, 30 * MS, 1030 * MS);  /* D = -16 ms: J = 1 + 15/16 ms */
    assert_true(st.jitter_ns > 1.9374 * MS && st.jitter_ns < 1.9376 * MS);
}

static void random_pattern_streams_and_checks(void **state)
{
    unsigned char a[1000], b[1000], head[TTCP_RANDOM_PREAMBLE];
    struct ttcp_prng g1, g2;
    struct ttcp_verifier v;
    uint64_t seed;
    size_t i, same = 0;
    (void)state;
    ttcp_prng_seed(&g1, 7);
    ttcp_prng_seed(&g2, 7);
    ttcp_prng_fill(&g1, a, sizeof a);
    for (i = 0; i < sizeof b; i += 333) /* however the calls cut it */
        ttcp_prng_fill(&g2, b + i, sizeof b - i < 333 ? sizeof b - i : 333);
    assert_memory_equal(a, b, sizeof a);
    ttcp_prng_fill(&g1, b, sizeof b); /* never a repeated block */
    for (i = 0; i < sizeof a; i++)
        same += a[i] == b[i];
    assert_true(same < 20);
    /* a receiver learns the seed from the preamble */
    ttcp_random_preamble(head, 99);
    assert_int_equal(ttcp_random_preamble_read(head, sizeof head, &seed), 1);
    assert_int_equal(seed, 99);
    ttcp_verify_start(&v, TTCP_PAYLOAD_AUTO, 0, 0);
    ttcp_verify_bytes(&v, head, 5);
    ttcp_verify_bytes(&v, head + 5, sizeof head - 5);
    ttcp_prng_seed(&g1, 99);
    ttcp_prng_fill(&g1, a, sizeof a);
    a[500] ^= 1; /* one damaged byte */
    ttcp_verify_bytes(&v, a, 300);
    ttcp_verify_bytes(&v, a + 300, sizeof a - 300);
    assert_int_equal(v.kind, TTCP_PAYLOAD_RANDOM);
    assert_int_equal(v.corrupted, 1);
    assert_int_equal(v.first_bad, TTCP_RANDOM_PREAMBLE + 500);
}

/* The classic stream restarts every sender buffer; the verifier learns its
 * length from the first restart. */
static void classic_pattern_check_learns_the_buffer(void **state)
{
    unsigned char stream[3 * 1000];
    struct ttcp_verifier v;
    (void)state;
    ttcp_pattern_fill(stream, 1000);
    memcpy(stream + 1000, stream, 1000);
    memcpy(stream + 2000, stream, 1000);
    ttcp_verify_start(&v, TTCP_PAYLOAD_AUTO, 0, 0);
    ttcp_verify_bytes(&v, stream, 1500);
    ttcp_verify_bytes(&v, stream + 1500, 1500);
    assert_int_equal(v.kind, TTCP_PAYLOAD_CLASSIC);
    assert_int_equal(v.classic_len, 1000);
    assert_int_equal(v.corrupted, 0);
    stream[2500] = 'X';
    ttcp_verify_start(&v, TTCP_PAYLOAD_AUTO, 0, 0);
    ttcp_verify_bytes(&v, stream, sizeof stream);
    assert_int_equal(v.corrupted, 1);
    assert_int_equal(v.first_bad, 2500);
    /* a datagram's payload after ttcp's header */
    assert_int_equal(ttcp_payload_check(TTCP_PAYLOAD_CLASSIC, 0, 32, stream + 32, 968), 0);
    assert_int_equal(ttcp_payload_check(TTCP_PAYLOAD_ZEROS, 0, 0, stream, 10), 10);
}

static void json_is_well_formed_and_escaped(void **state)
{
    struct ttcp_json j;
    (void)state;
    ttcp_json_init(&j);
    ttcp_json_object(&j, NULL);
    ttcp_json_string(&j, "host", "a\"b\\c\n\x01");
    ttcp_json_double(&j, "nan", 0.0 / 0.0);
    ttcp_json_double(&j, "rate", 1.5);
    ttcp_json_array(&j, "list");
    ttcp_json_u64(&j, NULL, 1);
    ttcp_json_object(&j, NULL);
    ttcp_json_bool(&j, "ok", 1);
    ttcp_json_end(&j);
    ttcp_json_i64(&j, NULL, -2);
    ttcp_json_end(&j);
    ttcp_json_null(&j, "error");
    ttcp_json_end(&j);
    assert_false(j.failed);
    assert_string_equal(j.buf, "{\"host\":\"a\\\"b\\\\c\\u000a\\u0001\",\"nan\":null,\"rate\":1.5,"
                               "\"list\":[1,{\"ok\":true},-2],\"error\":null}");
    ttcp_json_end(&j); /* one end too many is noticed */
    assert_true(j.failed);
    ttcp_json_free(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(si_units_and_the_cisco_note),
        cmocka_unit_test(rates_parse_with_si_suffixes),
        cmocka_unit_test(pacing_follows_the_schedule),
        cmocka_unit_test(pacing_average_rate_is_exact),
        cmocka_unit_test(intervals_on_the_clock),
        cmocka_unit_test(udp_header_round_trip),
        cmocka_unit_test(udp_loss_duplicates_order),
        cmocka_unit_test(udp_jitter),
        cmocka_unit_test(random_pattern_streams_and_checks),
        cmocka_unit_test(classic_pattern_check_learns_the_buffer),
        cmocka_unit_test(json_is_well_formed_and_escaped),
    };
    return cmocka_run_group_tests_name("measure", tests, NULL, NULL);
}
