/* --compression: the two rates' ratio and its threshold (measure/compression.c),
 * and their words and JSON (report/report_compression.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include <cjson/cJSON.h>

#include "config/options.h"
#include "measure/compression.h"
#include "report/report_compression.h"

#define SEC 1000000000ll

static struct ttcp_compression judged(uint64_t classic_bytes, int64_t classic_ns,
                                      uint64_t random_bytes, int64_t random_ns)
{
    struct ttcp_compression_run classic = {1, classic_bytes, classic_ns, 2.0};
    struct ttcp_compression_run random = {1, random_bytes, random_ns, 3.0};
    struct ttcp_compression c;
    ttcp_compression_judge(&c, &classic, &random);
    return c;
}

/* A modem's 6:1: the rates, the ratio, the finding. */
static void ratio_of_the_two_rates(void **state)
{
    struct ttcp_compression c = judged(6000000, 2 * SEC, 1000000, 2 * SEC);
    (void)state;
    assert_float_equal(c.classic_bps, 24e6, 1e-3);
    assert_float_equal(c.random_bps, 4e6, 1e-3);
    assert_float_equal(c.ratio, 6.0, 1e-9);
    assert_int_equal(c.finding, TTCP_COMPRESSION_FOUND);
    /* the same bytes in different times: the rates, not the bytes, are compared */
    c = judged(1000000, 1 * SEC, 1000000, 4 * SEC);
    assert_float_equal(c.ratio, 4.0, 1e-9);
    assert_int_equal(c.finding, TTCP_COMPRESSION_FOUND);
}

/* Above 1.1 says the path compresses; 1.1 itself, equal rates and a random
 * run faster than the classic one do not. */
static void threshold_is_above_one_point_one(void **state)
{
    struct ttcp_compression c;
    (void)state;
    c = judged(1100000, SEC, 1000000, SEC);
    assert_float_equal(c.ratio, 1.1, 1e-12);
    assert_int_equal(c.finding, TTCP_COMPRESSION_NONE);
    c = judged(1100200, SEC, 1000000, SEC);
    assert_int_equal(c.finding, TTCP_COMPRESSION_FOUND);
    c = judged(1000000, SEC, 1000000, SEC);
    assert_int_equal(c.finding, TTCP_COMPRESSION_NONE);
    c = judged(500000, SEC, 1000000, SEC);
    assert_float_equal(c.ratio, 0.5, 1e-12);
    assert_int_equal(c.finding, TTCP_COMPRESSION_NONE);
}

/* A ratio above 1.1 with an end busier than half a CPU in either run says
 * nothing: the hosts may have set the rates (the random pattern costs the
 * sender more). At or below 1.1 a busy end changes nothing. */
static void a_busy_end_is_no_finding(void **state)
{
    struct ttcp_compression_run classic = {1, 6000000, SEC, 10.0}, random = {1, 1000000, SEC, 50.0};
    struct ttcp_compression c;
    (void)state;
    ttcp_compression_judge(&c, &classic, &random);
    assert_int_equal(c.finding, TTCP_COMPRESSION_FOUND); /* 50 % itself is not more than half */
    assert_float_equal(c.cpu_percent, 50.0, 1e-12);
    random.cpu_percent = 50.5;
    ttcp_compression_judge(&c, &classic, &random);
    assert_int_equal(c.finding, TTCP_COMPRESSION_HOST_BOUND);
    assert_float_equal(c.ratio, 6.0, 1e-9); /* the ratio still given */
    random.cpu_percent = 1.0;
    classic.cpu_percent = 97.0; /* either run's */
    ttcp_compression_judge(&c, &classic, &random);
    assert_int_equal(c.finding, TTCP_COMPRESSION_HOST_BOUND);
    assert_float_equal(c.cpu_percent, 97.0, 1e-12);
    random.bytes = 5900000; /* ratio 1.02: nothing to say, busy or not */
    ttcp_compression_judge(&c, &classic, &random);
    assert_int_equal(c.finding, TTCP_COMPRESSION_NONE);
}

/* A run that did not complete, moved nothing or took no time: no ratio. */
static void no_ratio_without_both_figures(void **state)
{
    struct ttcp_compression_run good = {1, 1000000, SEC, 1.0}, runs[4] = {
        {0, 1000000, SEC, 1.0}, {1, 0, SEC, 1.0}, {1, 1000000, 0, 1.0}, {1, 1000000, -5, 1.0}};
    struct ttcp_compression c;
    int i;
    (void)state;
    for (i = 0; i < 4; i++) {
        ttcp_compression_judge(&c, &good, &runs[i]);
        assert_int_equal(c.finding, TTCP_COMPRESSION_UNKNOWN);
        assert_true(c.ratio == 0.0 && c.random_bps == 0.0 && c.classic_bps > 0.0);
        ttcp_compression_judge(&c, &runs[i], &good);
        assert_int_equal(c.finding, TTCP_COMPRESSION_UNKNOWN);
        assert_true(c.ratio == 0.0 && c.classic_bps == 0.0);
    }
}

static struct ttcp_options options(int client, enum ttcp_unit unit)
{
    struct ttcp_options o;
    memset(&o, 0, sizeof o);
    o.mode = client ? TTCP_MODE_CLIENT : TTCP_MODE_CLASSIC;
    o.transmit = 1;
    o.unit = unit;
    o.compression = 1;
    return o;
}

/* The lines, in -f's unit, tagged by the side; the finding only above 1.1. */
static void the_words(void **state)
{
    struct ttcp_options t = options(0, TTCP_UNIT_KBYTE), c = options(1, TTCP_UNIT_KBPS);
    struct ttcp_compression found = judged(6144000, SEC, 1024000, SEC);
    struct ttcp_compression none = judged(1024000, SEC, 1000000, SEC), unknown;
    struct ttcp_compression_run done = {1, 1000, SEC, 1.0}, failed = {0, 0, 0, 0.0};
    struct ttcp_compression_run busy_classic = {1, 6144000, SEC, 20.0};
    struct ttcp_compression_run busy_random = {1, 1024000, SEC, 74.4};
    struct ttcp_compression busy;
    char text[1024];
    (void)state;
    ttcp_report_compression_test(&t, 1, text, sizeof text);
    assert_string_equal(text, "ttcp-t: compression: test 1 of 2: the classic pattern\n");
    ttcp_report_compression_test(&c, 2, text, sizeof text);
    assert_string_equal(text, "ttcp-C: compression: test 2 of 2: the random pattern "
                              "(incompressible), same size and options\n");
    ttcp_report_compression(&t, &found, text, sizeof text);
    assert_string_equal(text, "ttcp-t: compression: classic 6000.00 KB/sec, random 1000.00 "
                              "KB/sec: ratio 6.00\nttcp-t: compression: the path compresses "
                              "(ratio above 1.1): the random pattern's 1000.00 KB/sec is the "
                              "link's rate\n");
    ttcp_report_compression(&c, &none, text, sizeof text);
    assert_string_equal(text, "ttcp-C: compression: classic 8192.000 kbps, random 8000.000 "
                              "kbps: ratio 1.02\n");
    ttcp_compression_judge(&busy, &busy_classic, &busy_random);
    ttcp_report_compression(&t, &busy, text, sizeof text);
    assert_string_equal(text, "ttcp-t: compression: classic 6000.00 KB/sec, random 1000.00 "
                              "KB/sec: ratio 6.00\nttcp-t: compression: no finding: an end used "
                              "74 % of a CPU, so the hosts, not the path, may have set the "
                              "rates\n");
    ttcp_compression_judge(&unknown, &done, &failed);
    ttcp_report_compression(&t, &unknown, text, sizeof text);
    assert_string_equal(text, "ttcp-t: compression: no ratio: the random pattern's test did "
                              "not complete\n");
    ttcp_report_compression_refused(&t, text, sizeof text);
    assert_non_null(strstr(text, "ttcp-t: compression: the receiver refused or reset the second "
                                 "test: it must take two connections in a row (ttcp -r -s -c, "
                                 "or a ttcp -S)\n"));
    ttcp_report_compression_refused(&c, text, sizeof text);
    assert_non_null(strstr(text, "ttcp-C: compression: the server did not run the second "
                                 "test: it must serve two in a row (a ttcp -S without -1, a "
                                 "client slot free)\n"));
}

/* The document: the runs as given, the figures as numbers and a code, the
 * error of the run that failed; unknown figures are null. */
static void the_document(void **state)
{
    struct ttcp_options c = options(1, TTCP_UNIT_KBYTE);
    struct ttcp_compression found = judged(6000000, SEC, 1000000, SEC), unknown;
    struct ttcp_compression_run done = {1, 1000, SEC, 1.0}, failed = {0, 0, 0, 0.0};
    struct ttcp_failure refused = {TT_E_CONNREFUSED, 111, TTCP_OP_CONNECT, 0};
    struct ttcp_json j;
    cJSON *doc, *comp;
    (void)state;
    ttcp_json_init(&j);
    ttcp_json_compression_begin(&j, &c, "9.9");
    ttcp_json_value(&j, NULL, "{\"run\":1}");
    ttcp_json_value(&j, NULL, "{\"run\":2}");
    ttcp_json_compression_end(&j, &found, NULL, NULL);
    assert_false(j.failed);
    doc = cJSON_Parse(j.buf);
    assert_non_null(doc);
    assert_string_equal(cJSON_GetObjectItem(doc, "side")->valuestring, "client");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(doc, "error")));
    comp = cJSON_GetObjectItem(doc, "compression");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(comp, "runs")), 2);
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(comp, "runs"), 1)
                         ->child->valueint, 2);
    assert_float_equal(cJSON_GetObjectItem(comp, "classic_bits_per_second")->valuedouble, 48e6, 1);
    assert_float_equal(cJSON_GetObjectItem(comp, "random_bits_per_second")->valuedouble, 8e6, 1);
    assert_float_equal(cJSON_GetObjectItem(comp, "ratio")->valuedouble, 6.0, 1e-9);
    assert_float_equal(cJSON_GetObjectItem(comp, "threshold")->valuedouble, 1.1, 1e-12);
    assert_string_equal(cJSON_GetObjectItem(comp, "finding")->valuestring, "path_compresses");
    assert_float_equal(cJSON_GetObjectItem(comp, "cpu_percent")->valuedouble, 3.0, 1e-9);
    cJSON_Delete(doc);
    ttcp_json_free(&j);

    ttcp_compression_judge(&unknown, &done, &failed);
    ttcp_json_init(&j);
    ttcp_json_compression_begin(&j, &c, "9.9");
    ttcp_json_value(&j, NULL, "{\"run\":1}");
    ttcp_json_compression_end(&j, &unknown, &refused, "Connection refused");
    doc = cJSON_Parse(j.buf);
    assert_non_null(doc);
    comp = cJSON_GetObjectItem(doc, "compression");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(comp, "random_bits_per_second")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(comp, "ratio")));
    assert_string_equal(cJSON_GetObjectItem(comp, "finding")->valuestring, "unknown");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "error"), "operation")
                            ->valuestring, "connect");
    cJSON_Delete(doc);
    ttcp_json_free(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ratio_of_the_two_rates),
        cmocka_unit_test(threshold_is_above_one_point_one),
        cmocka_unit_test(a_busy_end_is_no_finding),
        cmocka_unit_test(no_ratio_without_both_figures),
        cmocka_unit_test(the_words),
        cmocka_unit_test(the_document),
    };
    return cmocka_run_group_tests_name("compression", tests, NULL, NULL);
}
