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

/* A command line's options (the words stay in a static copy: options
 * point into them). */
static int options_of(struct ttcp_options *o, const char *line)
{
    static char copy[256];
    char *argv[32];
    int argc;
    snprintf(copy, sizeof copy, "%s", line);
    argc = split_args(copy, argv, 32);
    return ttcp_options_parse(o, argc, argv, 0, why, sizeof why);
}

/* Reads a built frame back into msg. */
static int reparse(struct ttcp_frame *f)
{
    int len = ttcp_proto_frame_length(f->bytes);
    return ttcp_proto_parse(f->bytes + 2, (size_t)len, &msg, why, sizeof why);
}

/* -C host1 host2: a request of its own type (a server of before it
 * answers "expected test"), with the target and its port; a server reads
 * them within bounds, and a `test` may carry none. */
static void a_third_party_request_names_its_target(void **state)
{
    struct ttcp_options client, server;
    struct ttcp_grant g;
    struct ttcp_frame f;
    static const char *const bad[] = {
        "msg=test\ndirection=send\nprotocol=tcp\nbuflen=8\nnbuf=1\ntarget=h\ntarget_port=1\n",
        "msg=third_party\ndirection=send\nprotocol=tcp\nbuflen=8\nnbuf=1\ntarget_port=1\n",
        "msg=third_party\ndirection=send\nprotocol=tcp\nbuflen=8\nnbuf=1\ntarget=a/b\n"
        "target_port=1\n",
        "msg=third_party\ndirection=send\nprotocol=tcp\nbuflen=8\nnbuf=1\ntarget=h\n",
        "msg=third_party\ndirection=send\nprotocol=tcp\nbuflen=8\nnbuf=1\ntarget=h\n"
        "target_port=65536\n",
        "msg=third_party\ndirection=receive\nprotocol=udp\nbuflen=8\nnbuf=1\ntarget=h\n"
        "target_port=9\ngroup=239.1.1.1\n",
    };
    size_t i;
    (void)state;
    memset(&server, 0, sizeof server);
    server.port = 5001;
    server.idle_timeout_ns = TTCP_DEFAULT_IDLE_NS;
    assert_int_equal(options_of(&client, "-C -r -n 5 -P 2 host1 10.1.2.3:5009"), 0);
    ttcp_wire_test(&f, &client);
    assert_int_equal(ttcp_frame_end(&f), 0);
    assert_int_equal(reparse(&f), 0);
    assert_string_equal(ttcp_proto_type(&msg), "third_party");
    assert_int_equal(ttcp_wire_read_test(&msg, &server, &g, why, sizeof why), 0);
    assert_string_equal(g.target, "10.1.2.3");
    assert_int_equal(g.target_port, 5009);
    assert_int_equal(g.direction, TTCP_DIR_RECEIVE);
    assert_int_equal(g.opts.streams, 2);
    server.max_streams = 1; /* the server's limits hold for a third party's test too */
    assert_int_equal(ttcp_wire_read_test(&msg, &server, &g, why, sizeof why), -1);
    assert_non_null(strstr(why, "--max-streams"));
    assert_int_equal(options_of(&client, "-C -n 5 host1"), 0);
    ttcp_wire_test(&f, &client); /* a test of the server's own carries no target */
    assert_int_equal(reparse(&f), 0);
    assert_string_equal(ttcp_proto_type(&msg), "test");
    assert_null(ttcp_proto_get(&msg, "target"));
    server.max_streams = 0;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(parse(bad[i]), 0);
        if (ttcp_wire_read_test(&msg, &server, &g, why, sizeof why) != -1)
            fail_msg("taken: %s", bad[i]);
        assert_non_null(strstr(why, "target"));
    }
}

/* host1's answers: where it runs the test (numeric addresses only), how
 * its own conversation went (the words kept one printable line), and
 * whose end an interval or result is. */
static void a_third_partys_answers_read_back(void **state)
{
    struct ttcp_grant g;
    struct ttcp_third t = {"10.200.172.1", 5002, "10.200.170.1"}, back;
    struct ttcp_options o;
    struct ttcp_failure fail = {TT_E_CONNREFUSED, 0, TTCP_OP_CONNECT, 0}, fb;
    struct ttcp_frame f;
    char text[256];
    int problem, far;
    (void)state;
    memset(&g, 0, sizeof g);
    memset(&o, 0, sizeof o);
    g.opts.limit_ns = 5000000000ll;
    g.opts.pace_bps = 1000000;
    g.opts.streams = o.streams = 2;
    ttcp_wire_third_ready(&f, &g, &t);
    assert_int_equal(reparse(&f), 0);
    assert_int_equal(ttcp_wire_read_third_ready(&msg, &o, &back, why, sizeof why), 0);
    assert_string_equal(back.target, "10.200.172.1");
    assert_string_equal(back.client, "10.200.170.1");
    assert_int_equal(back.target_port, 5002);
    assert_int_equal(o.limit_ns, 5000000000ll);
    assert_int_equal(o.pace_bps, 1000000);
    o.streams = 3; /* not what was asked: refused */
    assert_int_equal(ttcp_wire_read_third_ready(&msg, &o, &back, why, sizeof why), -1);
    assert_int_equal(parse("msg=third_party_ready\ntarget=host2\ntarget_port=1\nclient=::1\n"
                           "limit_ns=0\npace_bps=0\nstreams=1\n"), 0);
    assert_int_equal(ttcp_wire_read_third_ready(&msg, &o, &back, why, sizeof why), -1);
    assert_string_equal(why, "target: not a numeric address");
    ttcp_wire_third_done(&f, 2, &fail, "two\nlines");
    assert_int_equal(reparse(&f), 0);
    assert_int_equal(ttcp_wire_read_third_done(&msg, &problem, &fb, text, sizeof text, why,
                                               sizeof why), 0);
    assert_int_equal(problem, 2);
    assert_int_equal(fb.code, TT_E_CONNREFUSED);
    assert_int_equal(fb.op, TTCP_OP_CONNECT);
    assert_null(strchr(text, '\n'));
    assert_int_equal(parse("msg=third_party_done\nproblem=10\n"), 0);
    assert_int_equal(ttcp_wire_read_third_done(&msg, &problem, &fb, text, sizeof text, why,
                                               sizeof why), -1);
    ttcp_frame_begin(&f, "interval");
    ttcp_wire_add_at(&f, 1);
    assert_int_equal(reparse(&f), 0);
    assert_int_equal(ttcp_wire_read_at(&msg, &far, why, sizeof why), 0);
    assert_int_equal(far, 1);
    assert_int_equal(parse("msg=result\nat=both\n"), 0);
    assert_int_equal(ttcp_wire_read_at(&msg, &far, why, sizeof why), -1);
}

/* A leg's own limit (host1's --max-time) stays when host2 grants a longer
 * one, or none; a shorter one of host2's wins. */
static void ready_keeps_the_shorter_limit(void **state)
{
    struct ttcp_options o;
    char token[TTCP_TOKEN_HEX + 1];
    (void)state;
    memset(&o, 0, sizeof o);
    o.streams = 1;
    o.limit_ns = 2000000000ll;
    assert_int_equal(parse("msg=ready\ntoken=0123456789abcdef0123456789abcdef\nlimit_ns=0\n"), 0);
    assert_int_equal(ttcp_wire_read_ready(&msg, &o, token, why, sizeof why), 0);
    assert_int_equal(o.limit_ns, 2000000000ll);
    assert_int_equal(parse("msg=ready\ntoken=0123456789abcdef0123456789abcdef\n"
                           "limit_ns=1000000000\n"), 0);
    assert_int_equal(ttcp_wire_read_ready(&msg, &o, token, why, sizeof why), 0);
    assert_int_equal(o.limit_ns, 1000000000ll);
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
        cmocka_unit_test(a_third_party_request_names_its_target),
        cmocka_unit_test(a_third_partys_answers_read_back),
        cmocka_unit_test(ready_keeps_the_shorter_limit),
    };
    return cmocka_run_group_tests_name("proto", tests, NULL, NULL);
}
