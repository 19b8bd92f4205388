/* The control protocol's messages (docs/PROTOCOL.md): the magic, frame
 * lengths, every rule of a body, bounded numbers, and the builder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "measure/payload.h"
#include "proto/message.h"
#include "remote/wire.h"
#include "test_support.h"

static struct ttcp_message msg;
static char why[160];

static int parse(const char *body)
{
    why[0] = '\0';
    return ttcp_proto_parse((const unsigned char *)body, strlen(body), &msg, why, sizeof why);
}

/* The first bytes of every classic payload differ from the magic at once. */
static void magic_tells_classic_data_apart(void **state)
{
    static const unsigned char classic[] = " !\"#$%&'", zeros[8] = {0};
    const unsigned char *random = (const unsigned char *)TTCP_RANDOM_MAGIC;
    (void)state;
    assert_true(ttcp_proto_magic_prefix((const unsigned char *)TTCP_PROTO_MAGIC, 8));
    assert_true(ttcp_proto_magic_prefix((const unsigned char *)TTCP_PROTO_MAGIC, 3));
    assert_false(ttcp_proto_magic_prefix(classic, 1));
    assert_false(ttcp_proto_magic_prefix(zeros, 1));
    assert_false(ttcp_proto_magic_prefix(random, 1));
    assert_false(ttcp_proto_magic_prefix((const unsigned char *)"\xffTCTL\r\n\x1b", 8));
    assert_false(ttcp_proto_magic_prefix((const unsigned char *)TTCP_PROTO_MAGIC "x", 9));
}

static void frame_lengths_are_bounded(void **state)
{
    static const unsigned char zero[2] = {0, 0}, one[2] = {0, 1}, max[2] = {0x10, 0x00},
                               over[2] = {0x10, 0x01}, huge[2] = {0xff, 0xff};
    (void)state;
    assert_int_equal(ttcp_proto_frame_length(zero), -1);
    assert_int_equal(ttcp_proto_frame_length(one), 1);
    assert_int_equal(ttcp_proto_frame_length(max), 4096);
    assert_int_equal(ttcp_proto_frame_length(over), -1);
    assert_int_equal(ttcp_proto_frame_length(huge), -1);
}

static void a_good_body(void **state)
{
    uint64_t n;
    (void)state;
    assert_int_equal(parse("msg=test\nbuflen=8192\nprogram=ttcp 0.2.0\nempty=\n"), 0);
    assert_string_equal(ttcp_proto_type(&msg), "test");
    assert_string_equal(ttcp_proto_get(&msg, "program"), "ttcp 0.2.0");
    assert_string_equal(ttcp_proto_get(&msg, "empty"), "");
    assert_null(ttcp_proto_get(&msg, "nbuf"));
    assert_int_equal(ttcp_proto_get_u64(&msg, "buflen", 1, 1 << 28, &n, why, sizeof why), 0);
    assert_int_equal(n, 8192);
    assert_int_equal(ttcp_proto_get_u64(&msg, "buflen", 1, 4096, &n, why, sizeof why), -1);
    assert_non_null(strstr(why, "buflen: '8192' is out of range"));
    assert_int_equal(ttcp_proto_get_u64(&msg, "nbuf", 1, 10, &n, why, sizeof why), -1);
    assert_string_equal(why, "nbuf: missing");
    assert_int_equal(ttcp_proto_get_u64(&msg, "program", 0, 10, &n, why, sizeof why), -1);
}

/* Each rule, broken once: the frame is refused, with the rule it broke. */
static void every_rule_is_enforced(void **state)
{
    static const struct { const char *body, *needle; } bad[] = {
        {"msg=a", "does not end with a line end"},
        {"msg=a\n\n", "has no '='"},
        {"msg=a\nnoequals\n", "field 2 has no '='"},
        {"version=1\nmsg=a\n", "first field that is not msg="},
        {"msg=a\nk=1\nk=2\n", "the key 'k' twice"},
        {"msg=a\nKey=1\n", "a key with a byte that no key has (0x4b)"},
        {"msg=a\n1key=1\n", "(0x31)"},
        {"msg=a\n=1\n", "a key of 0 bytes"},
        {"msg=a\nabcdefghijklmnopqrstuvwxyzabcdefg=1\n", "a key of 33 bytes"},
        {"msg=a\nk=tab\there\n", "unprintable byte (0x09)"},
        {"msg=a\nk=\x7f\n", "(0x7f)"},
        {"msg=a\nk=\xc3\xa9\n", "(0xc3)"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (parse(bad[i].body) != -1 || strstr(why, bad[i].needle) == NULL)
            fail_msg("body %u: got '%s', want '%s'", (unsigned)i, why, bad[i].needle);
        assert_int_equal(msg.count, 0);
    }
}

static void sizes_are_capped(void **state)
{
    static char body[TTCP_PROTO_BODY_MAX + 64];
    size_t n = 0;
    int i;
    (void)state;
    n += (size_t)sprintf(body + n, "msg=a\nv=%0255d\n", 0); /* a value of 255: fine */
    assert_int_equal(parse(body), 0);
    n = (size_t)sprintf(body, "msg=a\nv=%0256d\n", 0);
    assert_int_equal(parse(body), -1);
    assert_non_null(strstr(why, "a value of 256 bytes"));
    n = (size_t)sprintf(body, "msg=a\n");
    for (i = 1; i < TTCP_PROTO_FIELDS_MAX; i++)
        n += (size_t)sprintf(body + n, "k%d=\n", i);
    assert_int_equal(parse(body), 0);
    assert_int_equal(msg.count, TTCP_PROTO_FIELDS_MAX);
    sprintf(body + n, "one_more=\n");
    assert_int_equal(parse(body), -1);
    assert_non_null(strstr(why, "more than 64 fields"));
    memset(body, 'a', TTCP_PROTO_BODY_MAX + 1);
    assert_int_equal(ttcp_proto_parse((const unsigned char *)body, TTCP_PROTO_BODY_MAX + 1, &msg,
                                      why, sizeof why), -1);
    assert_non_null(strstr(why, "a body of 4097 bytes"));
    assert_int_equal(ttcp_proto_parse((const unsigned char *)body, 0, &msg, why, sizeof why), -1);
}

/* What the builder writes, the parser reads back; what breaks a rule
 * fails the frame instead of being sent. */
static void builder_round_trip(void **state)
{
    struct ttcp_frame f;
    int len;
    (void)state;
    ttcp_frame_begin(&f, "hello");
    ttcp_frame_add_u64(&f, "version", 1);
    ttcp_frame_add(&f, "program", "ttcp 0.2.0");
    assert_int_equal(ttcp_frame_end(&f), 0);
    len = ttcp_proto_frame_length(f.bytes);
    assert_int_equal(len, (int)f.len - TTCP_PROTO_LENGTH_LEN);
    assert_memory_equal(f.bytes + 2, "msg=hello\nversion=1\nprogram=ttcp 0.2.0\n", (size_t)len);
    assert_int_equal(ttcp_proto_parse(f.bytes + 2, (size_t)len, &msg, why, sizeof why), 0);
    assert_string_equal(ttcp_proto_get(&msg, "version"), "1");
    ttcp_frame_begin(&f, "hello");
    ttcp_frame_add(&f, "Bad", "x");
    assert_int_equal(ttcp_frame_end(&f), -1);
    ttcp_frame_begin(&f, "hello");
    ttcp_frame_add(&f, "note", "two\nlines");
    assert_int_equal(ttcp_frame_end(&f), -1);
}

/* A client that asked for more than one plain stream is told when its
 * server's ready leaves it out (a server of before -P, -m, --traceroute). */
static void ready_tells_what_was_granted(void **state)
{
    static const char *const older = "msg=ready\ntoken=0123456789abcdef0123456789abcdef\n"
                                     "limit_ns=0\npace_bps=0\n";
    struct ttcp_options o;
    char token[TTCP_TOKEN_HEX + 1];
    (void)state;
    memset(&o, 0, sizeof o);
    o.streams = 1;
    assert_int_equal(parse(older), 0);
    assert_int_equal(ttcp_wire_read_ready(&msg, &o, token, why, sizeof why), 0);
    o.streams = 4;
    assert_int_equal(ttcp_wire_read_ready(&msg, &o, token, why, sizeof why), -1);
    assert_non_null(strstr(why, "it did not grant -P 4 (an older ttcp -S?)"));
    assert_int_equal(parse("msg=ready\ntoken=0123456789abcdef0123456789abcdef\nstreams=4\n"), 0);
    assert_int_equal(ttcp_wire_read_ready(&msg, &o, token, why, sizeof why), 0);
    o.streams = 1;
    o.traceroute = 1;
    assert_int_equal(parse(older), 0);
    assert_int_equal(ttcp_wire_read_ready(&msg, &o, token, why, sizeof why), -1);
    assert_non_null(strstr(why, "it does not trace back"));
    o.traceroute = 0;
    o.group = "239.255.80.1";
    assert_int_equal(ttcp_wire_read_ready(&msg, &o, token, why, sizeof why), -1);
    assert_non_null(strstr(why, "it does not send to multicast groups"));
}

/* An interval goes to the client with a UDP receiver's loss and jitter;
 * one without them (a server of before, or TCP) reads back as not valid. */
static void interval_carries_udp_figures(void **state)
{
    struct ttcp_interval in, back;
    struct ttcp_frame f;
    int stream, len;
    (void)state;
    memset(&in, 0, sizeof in);
    in.start_ns = 500000000;
    in.end_ns = 1000000000;
    in.bytes = 8192;
    in.udp_valid = 1;
    in.udp_datagrams = 90;
    in.udp_expected = 100;
    in.udp_lost = 10;
    in.udp_jitter_ns = 12345.0;
    ttcp_wire_interval(&f, 3, &in);
    assert_int_equal(ttcp_frame_end(&f), 0);
    len = ttcp_proto_frame_length(f.bytes);
    assert_int_equal(ttcp_proto_parse(f.bytes + 2, (size_t)len, &msg, why, sizeof why), 0);
    assert_int_equal(ttcp_wire_read_interval(&msg, &stream, &back, why, sizeof why), 0);
    assert_int_equal(stream, 3);
    assert_true(back.udp_valid);
    assert_int_equal(back.udp_datagrams, 90);
    assert_int_equal(back.udp_expected, 100);
    assert_int_equal(back.udp_lost, 10);
    assert_true(back.udp_jitter_ns == 12345.0);
    assert_false(back.tcp_valid);
    assert_int_equal(parse("msg=interval\nstream=0\nstart_ns=0\nend_ns=5\nbytes=1\n"), 0);
    assert_int_equal(ttcp_wire_read_interval(&msg, &stream, &back, why, sizeof why), 0);
    assert_false(back.udp_valid);
    /* more lost than expected is not a fact */
    assert_int_equal(parse("msg=interval\nstream=0\nstart_ns=0\nend_ns=5\nbytes=1\n"
                           "udp_expected=4\nudp_lost=5\n"), 0);
    assert_int_equal(ttcp_wire_read_interval(&msg, &stream, &back, why, sizeof why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(magic_tells_classic_data_apart),
        cmocka_unit_test(frame_lengths_are_bounded),
        cmocka_unit_test(a_good_body),
        cmocka_unit_test(every_rule_is_enforced),
        cmocka_unit_test(sizes_are_capped),
        cmocka_unit_test(builder_round_trip),
        cmocka_unit_test(ready_tells_what_was_granted),
        cmocka_unit_test(interval_carries_udp_figures),
    };
    return cmocka_run_group_tests_name("proto", tests, NULL, NULL);
}
