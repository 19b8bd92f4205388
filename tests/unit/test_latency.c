/* --latency: the quantiles, the grade and the bins (measure/latency.c),
 * the probes' datagrams (remote/probe.c), the lines and the JSON object
 * (report/report_latency.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include <cjson/cJSON.h>

#include "measure/latency.h"
#include "remote/probe.h"
#include "remote/wire.h"
#include "report/json.h"
#include "report/report_latency.h"

#define MS 1000000ll

/* idle: n samples of idle_ms; loaded: m of loaded_ms, then one lost each */
static void fill(struct ttcp_latency *l, int n, double idle_ms, int m, double loaded_ms)
{
    int i;
    memset(l, 0, sizeof *l);
    l->source = TTCP_LATENCY_UDP_ECHO;
    l->period_ns = 100 * MS;
    for (i = 0; i < n; i++)
        ttcp_latency_push(l, -(n - i) * 100 * MS, (int64_t)(idle_ms * MS), TTCP_LATENCY_IDLE);
    ttcp_latency_push(l, -50 * MS, -1, TTCP_LATENCY_IDLE);
    for (i = 0; i < m; i++)
        ttcp_latency_push(l, i * 100 * MS, (int64_t)(loaded_ms * MS), TTCP_LATENCY_LOADED);
    ttcp_latency_push(l, m * 100 * MS, -1, TTCP_LATENCY_LOADED);
}

/* The grades' edges, as the bufferbloat tests give them. */
static void grades_at_their_edges(void **state)
{
    (void)state;
    assert_int_equal(ttcp_latency_grade(0), TTCP_GRADE_A_PLUS);
    assert_int_equal(ttcp_latency_grade(4.99), TTCP_GRADE_A_PLUS);
    assert_int_equal(ttcp_latency_grade(5), TTCP_GRADE_A);
    assert_int_equal(ttcp_latency_grade(29.9), TTCP_GRADE_A);
    assert_int_equal(ttcp_latency_grade(30), TTCP_GRADE_B);
    assert_int_equal(ttcp_latency_grade(60), TTCP_GRADE_C);
    assert_int_equal(ttcp_latency_grade(199.9), TTCP_GRADE_C);
    assert_int_equal(ttcp_latency_grade(200), TTCP_GRADE_D);
    assert_int_equal(ttcp_latency_grade(399), TTCP_GRADE_D);
    assert_int_equal(ttcp_latency_grade(400), TTCP_GRADE_F);
    assert_string_equal(ttcp_latency_grade_text(TTCP_GRADE_A_PLUS), "A+");
    assert_string_equal(ttcp_latency_grade_text(TTCP_GRADE_F), "F");
}

/* Nearest-rank quantiles of 1..100 ms; lost probes counted, not ranked. */
static void quantiles_nearest_rank(void **state)
{
    struct ttcp_latency l;
    struct ttcp_latency_summary s;
    int i;
    (void)state;
    memset(&l, 0, sizeof l);
    for (i = 100; i >= 1; i--) /* out of order: the summary sorts */
        ttcp_latency_push(&l, i * MS, i * MS, TTCP_LATENCY_LOADED);
    ttcp_latency_push(&l, 101 * MS, -1, TTCP_LATENCY_LOADED);
    ttcp_latency_summarise(&l, &s);
    assert_int_equal(s.loaded.probes, 101);
    assert_int_equal(s.loaded.answered, 100);
    assert_float_equal(s.loaded.median_ms, 50, 1e-9);
    assert_float_equal(s.loaded.p90_ms, 90, 1e-9);
    assert_float_equal(s.loaded.p99_ms, 99, 1e-9);
    assert_false(s.idle.valid);
    assert_false(s.increase_valid); /* no idle: no grade */
    ttcp_latency_free(&l);
}

/* A deep queue: +380 ms under load is D; a short one A+. */
static void increase_and_grade(void **state)
{
    struct ttcp_latency l;
    struct ttcp_latency_summary s;
    (void)state;
    fill(&l, 20, 20, 50, 400);
    ttcp_latency_summarise(&l, &s);
    assert_int_equal(s.idle.probes, 21);
    assert_int_equal(s.idle.answered, 20);
    assert_float_equal(s.increase_ms, 380, 1e-6);
    assert_int_equal(s.grade, TTCP_GRADE_D);
    ttcp_latency_free(&l);
    fill(&l, 20, 20, 50, 18); /* loaded below idle: the increase is negative, the grade A+ */
    ttcp_latency_summarise(&l, &s);
    assert_true(s.increase_ms < 0);
    assert_int_equal(s.grade, TTCP_GRADE_A_PLUS);
    ttcp_latency_free(&l);
}

static int bins_seen;
static struct ttcp_latency_bin bins[16];
static void keep_bin(void *ctx, const struct ttcp_latency_bin *b)
{
    (void)ctx;
    if (bins_seen < 16)
        bins[bins_seen] = *b;
    bins_seen++;
}

/* Bins of a second: idle ones before 0 (floor, not truncation), loaded after. */
static void bins_by_phase_and_second(void **state)
{
    struct ttcp_latency l;
    (void)state;
    fill(&l, 15, 10, 25, 100); /* idle -1.5 .. -0.05 s, loaded 0 .. 2.5 s */
    bins_seen = 0;
    ttcp_latency_bins(&l, 1000 * MS, keep_bin, NULL);
    assert_int_equal(bins_seen, 5);
    assert_int_equal(bins[0].start_ns, -2000 * MS);
    assert_int_equal(bins[0].phase, TTCP_LATENCY_IDLE);
    assert_int_equal(bins[0].probes, 5);   /* -1.5 .. -1.1 */
    assert_int_equal(bins[1].start_ns, -1000 * MS);
    assert_int_equal(bins[1].probes, 11);  /* -1.0 .. -0.1, and the lost one at -0.05 */
    assert_int_equal(bins[1].answered, 10);
    assert_int_equal(bins[2].phase, TTCP_LATENCY_LOADED);
    assert_int_equal(bins[2].probes, 10);
    assert_float_equal(bins[2].median_ms, 100, 1e-9);
    assert_int_equal(bins[4].probes, 6);   /* 2.0 .. 2.4, and the lost one at 2.5 */
    assert_int_equal(bins[4].answered, 5);
    ttcp_latency_free(&l);
}

/* A probe's bytes both ways; anything else is no probe. */
static void probe_datagrams(void **state)
{
    unsigned char p[TTCP_PROBE_LEN], hello[600];
    uint32_t seq;
    int64_t sent;
    char token[TTCP_TOKEN_HEX + 1] = "0123456789abcdef0123456789abcdef", got[TTCP_TOKEN_HEX + 1];
    struct ttcp_message m;
    char why[160];
    size_t n;
    (void)state;
    ttcp_probe_build(p, 0x01020304u, 123456789012345ll);
    assert_true(ttcp_probe_echoable(p, sizeof p));
    assert_int_equal(ttcp_probe_read(p, sizeof p, &seq, &sent), 0);
    assert_int_equal(seq, 0x01020304u);
    assert_int_equal(sent, 123456789012345ll);
    assert_false(ttcp_probe_echoable(p, sizeof p - 1)); /* a length of its own only */
    assert_int_equal(ttcp_probe_read(p, sizeof p + 1, &seq, &sent), -1);
    p[0] ^= 1;
    assert_false(ttcp_probe_echoable(p, sizeof p));
    n = ttcp_probe_hello(token, hello, sizeof hello);
    assert_true(n > TTCP_PROTO_MAGIC_LEN);
    assert_true(ttcp_proto_is_magic(hello, n));
    assert_int_equal(ttcp_proto_parse(hello + TTCP_PROTO_MAGIC_LEN + TTCP_PROTO_LENGTH_LEN,
                                      n - TTCP_PROTO_MAGIC_LEN - TTCP_PROTO_LENGTH_LEN, &m, why,
                                      sizeof why), 0);
    assert_int_equal(ttcp_probe_read_hello(&m, got), 1);
    assert_string_equal(got, token);
    assert_int_equal(ttcp_probe_hello(token, hello, 20), 0); /* no room: nothing */
}

/* The lines and the object say the same figures. */
static void lines_and_json(void **state)
{
    struct ttcp_latency l;
    struct ttcp_json j;
    char text[1024];
    cJSON *doc, *lat;
    (void)state;
    fill(&l, 20, 20, 50, 400);
    ttcp_report_latency("-C", &l, text, sizeof text);
    assert_non_null(strstr(text, "ttcp-C: latency idle: 20.00 ms median, 20.00 ms p90, "
                                 "20.00 ms p99 (21 probes, 1 lost)\n"));
    assert_non_null(strstr(text, "ttcp-C: latency: +380.00 ms under load: bufferbloat "
                                 "grade D"));
    ttcp_json_init(&j);
    ttcp_json_object(&j, NULL);
    ttcp_json_latency(&j, &l, 1000 * MS);
    ttcp_json_end(&j);
    doc = cJSON_ParseWithLength(j.buf, j.len);
    assert_non_null(doc);
    lat = cJSON_GetObjectItem(doc, "latency");
    assert_string_equal(cJSON_GetObjectItem(lat, "source")->valuestring, "udp_echo");
    assert_string_equal(cJSON_GetObjectItem(lat, "grade")->valuestring, "D");
    assert_float_equal(cJSON_GetObjectItem(lat, "increase_ms")->valuedouble, 380, 1e-6);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(lat, "loaded"), "lost")->valueint,
                     1);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(lat, "intervals")), 8); /* 2 idle, 6 loaded */
    cJSON_Delete(doc);
    ttcp_json_free(&j);
    ttcp_latency_free(&l);
    memset(&l, 0, sizeof l); /* the classic pair on an OS that gives no RTT */
    l.source = TTCP_LATENCY_TCP_INFO;
    ttcp_report_latency("-t", &l, text, sizeof text);
    assert_non_null(strstr(text, "ttcp-t: latency idle (the handshake's RTT): the OS gave no "
                                 "RTT\n"));
    assert_non_null(strstr(text, "no grade"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grades_at_their_edges),
        cmocka_unit_test(quantiles_nearest_rank),
        cmocka_unit_test(increase_and_grade),
        cmocka_unit_test(bins_by_phase_and_second),
        cmocka_unit_test(probe_datagrams),
        cmocka_unit_test(lines_and_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
