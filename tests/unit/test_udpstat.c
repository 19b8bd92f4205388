/* ttcp's UDP sequence header (docs/UDP-HEADER.md) and what it tells:
 * loss, duplicates, order, jitter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "measure/udpstat.h"
#include "test_support.h"

#define MS 1000000ll

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(udp_header_round_trip),
        cmocka_unit_test(udp_loss_duplicates_order),
        cmocka_unit_test(udp_jitter),
    };
    return cmocka_run_group_tests_name("udpstat", tests, NULL, NULL);
}
