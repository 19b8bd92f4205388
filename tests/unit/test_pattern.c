/* The sink-mode payloads: the classic pattern against the bytes 1.12 put on
 * the wire, the random and zero patterns, and the receiver's check of each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "measure/pattern.h"
#include "measure/payload.h"
#include "test_support.h"

static void printable_bytes_repeat(void **state)
{
    unsigned char buf[300];
    size_t i;
    (void)state;
    ttcp_pattern_fill(buf, sizeof buf);
    for (i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0x20 + i % 95);
    assert_memory_equal(buf, " !\"#", 4); /* what a UDP marker carries */
    assert_int_equal(buf[94], 0x7e);
    assert_int_equal(buf[95], 0x20);
}

/* fixture r_pat.out: `ttcp -t -s -l 100 -n 3` captured at the receiver:
 * three times the same 100 bytes, the pattern restarting each buffer. */
static void matches_classic_stream(void **state)
{
    char stream[1024];
    unsigned char buf[100];
    int i;
    (void)state;
    read_fixture("r_pat.out", stream, sizeof stream);
    ttcp_pattern_fill(buf, sizeof buf);
    for (i = 0; i < 3; i++)
        assert_memory_equal(stream + i * 100, buf, sizeof buf);
    assert_memory_equal(stream + 300, "ttcp-r: ", 8);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(printable_bytes_repeat),
        cmocka_unit_test(matches_classic_stream),
        cmocka_unit_test(random_pattern_streams_and_checks),
        cmocka_unit_test(classic_pattern_check_learns_the_buffer),
    };
    return cmocka_run_group_tests_name("pattern", tests, NULL, NULL);
}
