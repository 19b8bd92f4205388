/* iperf3's messages (src/peers/iperf3/wire.h): the states, the cookie, the
 * length field, parameters and results both ways (round trips), and the
 * refusals a server and a client make of what a peer sends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "measure/udpstat.h"
#include "peers/iperf3/wire.h"

static char why[256];

static void states_and_cookie(void **state)
{
    unsigned char random[36], b[TTCP_IPERF3_COOKIE_LEN];
    enum ttcp_iperf3_state st;
    char cookie[TTCP_IPERF3_COOKIE_LEN];
    int i;
    (void)state;
    assert_int_equal(ttcp_iperf3_state_byte(TTCP_IPERF3_ACCESS_DENIED), 0xff);
    assert_int_equal(ttcp_iperf3_state_byte(TTCP_IPERF3_SERVER_ERROR), 0xfe);
    assert_true(ttcp_iperf3_state_known(0xfe, &st));
    assert_int_equal(st, TTCP_IPERF3_SERVER_ERROR);
    assert_true(ttcp_iperf3_state_known(16, &st));
    assert_string_equal(ttcp_iperf3_state_name(st), "IPERF_DONE");
    assert_false(ttcp_iperf3_state_known(3, &st));
    assert_false(ttcp_iperf3_state_known(200, &st));
    for (i = 0; i < 36; i++)
        random[i] = (unsigned char)(i * 37 + 5);
    ttcp_iperf3_cookie_make(random, cookie);
    assert_int_equal(strlen(cookie), 36);
    memcpy(b, cookie, sizeof b);
    assert_true(ttcp_iperf3_cookie_valid(b));
    b[3] = 'A';
    assert_false(ttcp_iperf3_cookie_valid(b));
    memcpy(b, cookie, sizeof b);
    b[36] = 'a';
    assert_false(ttcp_iperf3_cookie_valid(b));
    assert_int_equal(ttcp_iperf3_stream_id(0), 1);
    assert_int_equal(ttcp_iperf3_stream_id(1), 3);
    assert_int_equal(ttcp_iperf3_stream_id(2), 4);
}

static void lengths_and_errors(void **state)
{
    unsigned char b[8];
    uint32_t len;
    int32_t ie, e;
    (void)state;
    ttcp_iperf3_length_put(300, b);
    assert_memory_equal(b, "\0\0\x01\x2c", 4);
    assert_int_equal(ttcp_iperf3_length_get(b, 8192, &len), 0);
    assert_int_equal(len, 300);
    assert_int_equal(ttcp_iperf3_length_get(b, 299, &len), -1);
    ttcp_iperf3_length_put(0, b);
    assert_int_equal(ttcp_iperf3_length_get(b, 8192, &len), -1);
    memcpy(b, "\xff\xff\xff\xff", 4);
    assert_int_equal(ttcp_iperf3_length_get(b, TTCP_IPERF3_RESULTS_MAX, &len), -1);
    ttcp_iperf3_error_put(118, -3, b);
    ttcp_iperf3_error_get(b, &ie, &e);
    assert_int_equal(ie, 118);
    assert_int_equal(e, -3);
    assert_true(ttcp_iperf3_udp_reply_ok((const unsigned char *)"6789", 4));
    assert_true(ttcp_iperf3_udp_reply_ok((const unsigned char *)"\xb1\x68\xde\x3a", 4));
    assert_false(ttcp_iperf3_udp_reply_ok((const unsigned char *)"6788", 4));
    assert_false(ttcp_iperf3_udp_reply_ok((const unsigned char *)"6789", 3));
}

static struct ttcp_iperf3_params last;

static int refused(const char *json)
{
    int rc = ttcp_iperf3_params_parse(json, strlen(json), &last, why, sizeof why);
    if (rc != TTCP_IPERF3_OK)
        assert_true(strlen(why) > 0);
    return rc;
}

static void params_round_trip(void **state)
{
    struct ttcp_iperf3_params p, q;
    char buf[TTCP_IPERF3_PARAMS_MAX + 8];
    size_t len;
    (void)state;
    memset(&p, 0, sizeof p);
    p.udp = 1;
    p.time_s = 7;
    p.parallel = 3;
    p.bidirectional = 1;
    p.len = 1400;
    p.bandwidth = 10000000;
    p.window = 262144;
    p.omit_s = 2;
    p.tos = 0x20;
    p.udp_counters_64bit = 1;
    p.get_server_output = 1;
    strcpy(p.client_version, "ttcp 0.1.0");
    strcpy(p.title, "lab");
    assert_int_equal(ttcp_iperf3_params_build(&p, buf, sizeof buf, &len), 0);
    assert_int_equal(len, strlen(buf));
    assert_int_equal(ttcp_iperf3_params_parse(buf, len, &q, why, sizeof why), TTCP_IPERF3_OK);
    assert_memory_equal(&p, &q, sizeof p);
    /* TCP, with iperf3's default block when len is left out */
    assert_int_equal(refused("{\"tcp\":true,\"time\":10,\"nodelay\":true,\"unknown\":[1,2]}"),
                     TTCP_IPERF3_OK);
    q = last;
    assert_false(q.udp);
    assert_int_equal(q.len, 131072);
    assert_int_equal(q.parallel, 1);
    assert_true(q.nodelay);
}

static void params_refused(void **state)
{
    (void)state;
    assert_int_equal(refused("{\"tcp\":true,\"parallel\":129}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"parallel\":0}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"len\":1048577}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"udp\":true,\"len\":15}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"udp\":true,\"len\":65508}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"time\":86401}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"omit\":601}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"time\":1.5}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"time\":\"10\"}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"time\":-1}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"TOS\":256}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"udp\":true}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"sctp\":true}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"time\":10}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"reverse\":true,\"bidirectional\":true}"),
                     TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"congestion\":\"a\\u0001b\"}"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("[1]"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true"), TTCP_IPERF3_BAD);
    assert_int_equal(refused("{\"tcp\":true,\"authtoken\":\"x\"}"), TTCP_IPERF3_AUTH);
}

static void results_round_trip(void **state)
{
    struct ttcp_iperf3_results *r = calloc(2, sizeof *r);
    char *buf = malloc(TTCP_IPERF3_RESULTS_MAX + 8);
    size_t len;
    (void)state;
    assert_non_null(r);
    r[0].cpu_total = 12.5;
    r[0].cpu_user = 2.25;
    r[0].cpu_system = 10.25;
    r[0].sender_has_retransmits = 1;
    strcpy(r[0].congestion_used, "cubic");
    r[0].n = 2;
    r[0].streams[0] = (struct ttcp_iperf3_stream_result){1, 123456789012ull, 7, 0.0, 0, 0, 0,
                                                         0, 0.0, 10.000123};
    r[0].streams[1] = (struct ttcp_iperf3_stream_result){3, 4096, -1, 0.000125, 5, 1, 1000,
                                                         2, 0.0, 9.5};
    r[0].server_output_text = "Accepted connection\n";
    r[0].server_output_json = "{\"end\":{}}";
    assert_int_equal(ttcp_iperf3_results_build(&r[0], buf, TTCP_IPERF3_RESULTS_MAX + 8, &len), 0);
    assert_int_equal(ttcp_iperf3_results_parse(buf, len, &r[1], why, sizeof why), 0);
    assert_int_equal(r[1].n, 2);
    assert_memory_equal(r[0].streams, r[1].streams, 2 * sizeof r[0].streams[0]);
    assert_true(r[1].cpu_total == 12.5 && r[1].cpu_system == 10.25);
    assert_int_equal(r[1].sender_has_retransmits, 1);
    assert_string_equal(r[1].congestion_used, "cubic");
    assert_string_equal(r[1].server_output_text, "Accepted connection\n");
    assert_non_null(ttcp_iperf3_results_stream(&r[1], 3));
    assert_null(ttcp_iperf3_results_stream(&r[1], 2));
    ttcp_iperf3_results_release(&r[1]);
    free(buf);
    free(r);
}

static int results_refused(const char *json)
{
    static struct ttcp_iperf3_results r;
    int rc = ttcp_iperf3_results_parse(json, strlen(json), &r, why, sizeof why);
    ttcp_iperf3_results_release(&r);
    return rc;
}

#define S(extra) "{\"cpu_util_total\":1,\"streams\":[{\"id\":1,\"bytes\":5,\"retransmits\":-1," \
                 "\"jitter\":0,\"errors\":0,\"packets\":0" extra "}]}"

static void results_refused_and_bounded(void **state)
{
    (void)state;
    assert_int_equal(results_refused(S("")), TTCP_IPERF3_OK);
    assert_int_equal(results_refused("{\"streams\":[{\"id\":1,\"bytes\":5}]}"), TTCP_IPERF3_BAD);
    assert_int_equal(results_refused("{\"cpu_util_total\":1}"), TTCP_IPERF3_BAD);
    assert_int_equal(results_refused(S(",\"end_time\":-1")), TTCP_IPERF3_BAD);
    assert_int_equal(results_refused(S(",\"bytes\":1e300")), TTCP_IPERF3_OK); /* first wins */
    assert_int_equal(results_refused("{\"cpu_util_total\":-5,\"streams\":[]}"), TTCP_IPERF3_BAD);
    assert_int_equal(results_refused("{\"streams\":[{\"id\":1,\"bytes\":-5,\"retransmits\":0,"
                                     "\"jitter\":0,\"errors\":0,\"packets\":0}]}"),
                     TTCP_IPERF3_BAD);
    assert_int_equal(results_refused("{\"streams\":[{\"id\":1,\"bytes\":1,\"retransmits\":0,"
                                     "\"jitter\":0,\"errors\":0,\"packets\":0},{\"id\":1,"
                                     "\"bytes\":1,\"retransmits\":0,\"jitter\":0,\"errors\":0,"
                                     "\"packets\":0}]}"),
                     TTCP_IPERF3_BAD);
    assert_int_equal(results_refused("{\"streams\":7}"), TTCP_IPERF3_BAD);
    assert_int_equal(results_refused("nonsense"), TTCP_IPERF3_BAD);
}

static void udp_header_both_sizes(void **state)
{
    struct ttcp_udp_iperf3 h = {1700000000u, 999999u, 0x123456789ull}, g;
    unsigned char b[16];
    (void)state;
    assert_int_equal(ttcp_udp_iperf3_write(b, sizeof b, &h, 1), 16);
    assert_memory_equal(b, "\x65\x53\xf1\x00\x00\x0f\x42\x3f\x00\x00\x00\x01\x23\x45\x67\x89",
                        16);
    assert_int_equal(ttcp_udp_iperf3_read(b, 16, 1, &g), 1);
    assert_true(g.sec == h.sec && g.usec == h.usec && g.count == h.count);
    h.count = 77;
    assert_int_equal(ttcp_udp_iperf3_write(b, sizeof b, &h, 0), 12);
    assert_int_equal(ttcp_udp_iperf3_read(b, 12, 0, &g), 1);
    assert_int_equal(g.count, 77);
    assert_int_equal(ttcp_udp_iperf3_read(b, 11, 0, &g), 0);
    assert_int_equal(ttcp_udp_iperf3_write(b, 11, &h, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(states_and_cookie),
        cmocka_unit_test(lengths_and_errors),
        cmocka_unit_test(params_round_trip),
        cmocka_unit_test(params_refused),
        cmocka_unit_test(results_round_trip),
        cmocka_unit_test(results_refused_and_bounded),
        cmocka_unit_test(udp_header_both_sizes),
    };
    return cmocka_run_group_tests_name("iperf3_wire", tests, NULL, NULL);
}
