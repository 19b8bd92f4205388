/* The sink-mode payload, against the bytes classic 1.12 put on the wire. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "measure/pattern.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(printable_bytes_repeat),
        cmocka_unit_test(matches_classic_stream),
    };
    return cmocka_run_group_tests_name("pattern", tests, NULL, NULL);
}
