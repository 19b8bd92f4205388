/* -S --web's bookkeeping (web/session.c): sessions and their ids, the
 * windows each way, the --max-rate cap, the upload's count and rate, the
 * page's figures parsed with bounds, how a test ends; and its words at the
 * server (report/report_web.c): the line and the JSON object. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include <cjson/cJSON.h>

#include "measure/latency.h"
#include "report/report_web.h"
#include "web/session.h"

#define S 1000000000ll
#define T0 (100 * S) /* the clock when a test opens */

static struct ttcp_web_table table;

static struct ttcp_web_session *open_one(unsigned char first, int64_t asked, int64_t max_time)
{
    unsigned char id[TTCP_WEB_ID_BYTES];
    memset(id, 0xab, sizeof id);
    id[0] = first;
    return ttcp_web_session_open(&table, id, asked, max_time, T0);
}

/* Ids are the random bytes in hex; found while open, never by a wrong or
 * short id; a full table refuses; the phase asked is capped by --max-time. */
static void sessions_open_and_are_found_by_id(void **state)
{
    struct ttcp_web_session *a, *b;
    int i;
    (void)state;
    memset(&table, 0, sizeof table);
    a = open_one(0x01, 0, 0);
    assert_non_null(a);
    assert_string_equal(a->id, "01ababababababababababababababab");
    assert_int_equal(a->phase_ns, TTCP_WEB_PHASE_DEFAULT_NS);
    assert_ptr_equal(ttcp_web_session_find(&table, "01ababababababababababababababab"), a);
    assert_null(ttcp_web_session_find(&table, "02ababababababababababababababab"));
    assert_null(ttcp_web_session_find(&table, "01ab"));
    assert_null(ttcp_web_session_find(&table, NULL));
    b = open_one(0x02, 30 * S, 8 * S); /* --max-time 8: 4 s each way */
    assert_int_equal(b->phase_ns, 4 * S);
    assert_int_equal(open_one(0x03, 999 * S, 0)->phase_ns, TTCP_WEB_PHASE_MAX_NS);
    for (i = 3; i < TTCP_WEB_SESSIONS; i++)
        assert_non_null(open_one((unsigned char)(i + 1), 0, 0));
    assert_null(open_one(0xff, 0, 0));
    b->state = TTCP_WEB_FINISHED; /* found no more: no request of its counts */
    assert_null(ttcp_web_session_find(&table, b->id));
}

/* The download: nothing before its window opens; within --max-rate's
 * budget (a burst, then the rate); over after its phase and the grace. */
static void the_download_keeps_its_window_and_rate(void **state)
{
    struct ttcp_web_session *s;
    (void)state;
    memset(&table, 0, sizeof table);
    s = open_one(1, 2 * S, 0);
    assert_int_equal(ttcp_web_down_take(s, 1000, 0, T0), -1);
    ttcp_web_window_open(s, 0, T0 + S);
    assert_int_equal(ttcp_web_down_take(s, 65536, 8000000, T0 + S), 65536); /* the burst */
    assert_int_equal(ttcp_web_down_take(s, 65536, 8000000, T0 + S), 0);     /* wait */
    /* 8 Mbit/s: 1 MB a second; 0.1 s later 100000 bytes more */
    assert_int_equal(ttcp_web_down_take(s, 1 << 20, 8000000, T0 + S + S / 10), 100000);
    assert_int_equal(ttcp_web_down_take(s, 1 << 20, 0, T0 + 3 * S), 1 << 20);
    assert_int_equal(s->down_sent, 65536 + 100000 + (1 << 20));
    assert_int_equal(ttcp_web_down_take(s, 1, 0, T0 + S + 2 * S + TTCP_WEB_GRACE_NS), 1);
    assert_int_equal(ttcp_web_down_take(s, 1, 0, T0 + S + 2 * S + TTCP_WEB_GRACE_NS + 1), -1);
}

/* The upload: counted in its window alone; the rate is over the server's
 * time, the steady part's: from the first piece an eighth of the phase
 * after the first (a shaper's burst before it left out) to the last; a
 * shorter upload's leaves out the first piece alone (it came before the
 * first instant). */
static void the_upload_is_the_servers_count(void **state)
{
    struct ttcp_web_session *s;
    struct ttcp_web_figures f;
    (void)state;
    memset(&table, 0, sizeof table);
    s = open_one(1, 2 * S, 0);
    assert_int_equal(ttcp_web_up_count(s, 100, T0), -1);
    ttcp_web_window_open(s, 1, T0 + S);
    assert_int_equal(ttcp_web_up_count(s, 1000, T0 + S), 0);
    assert_int_equal(ttcp_web_up_count(s, 100000, T0 + S + S / 10), 0); /* a burst */
    ttcp_web_session_figures(s, TTCP_WEB_DONE, T0 + 2 * S, &f);
    assert_int_equal(f.up_ns, S / 10); /* no steady part yet (2 s / 8 = 250 ms) */
    assert_true(f.up_bps > 7999999.0 && f.up_bps < 8000001.0); /* 100000 bytes in 0.1 s */
    assert_int_equal(ttcp_web_up_count(s, 250000, T0 + S + S / 2), 0);
    assert_int_equal(ttcp_web_up_count(s, 250000, T0 + 2 * S), 0);
    assert_int_equal(ttcp_web_up_count(s, 5, T0 + S + 2 * S + TTCP_WEB_GRACE_NS + 1), -1);
    ttcp_web_session_figures(s, TTCP_WEB_DONE, T0 + 5 * S, &f);
    assert_int_equal(f.up_bytes, 601000);
    assert_int_equal(f.up_ns, S / 2); /* from T0 + 1.5 s, the steady part's start */
    assert_true(f.up_valid);
    assert_true(f.up_bps > 3999999.0 && f.up_bps < 4000001.0); /* 250000 bytes in 0.5 s */
    assert_int_equal(f.ran_ns, 5 * S);
    assert_false(f.down_valid);
    assert_false(f.latency_valid);
}

/* The page's figures: each bounded, none twice, no unknown name; the grade
 * is measure/latency.c's of the increase. */
static void the_pages_figures_are_bounded(void **state)
{
    struct ttcp_web_done d;
    struct ttcp_web_session *s;
    struct ttcp_web_figures f;
    char why[200];
    (void)state;
    memset(&d, 0, sizeof d);
    assert_int_equal(ttcp_web_done_param(&d, "down_bps", "38600", why, sizeof why), 0);
    assert_int_equal(ttcp_web_done_param(&d, "down_bytes", "48250", why, sizeof why), 0);
    assert_int_equal(ttcp_web_done_param(&d, "idle_us", "120000", why, sizeof why), 0);
    assert_int_equal(ttcp_web_done_param(&d, "loaded_us", "880000", why, sizeof why), 0);
    assert_int_equal(ttcp_web_done_param(&d, "id", "anything", why, sizeof why), 0);
    assert_int_equal(ttcp_web_done_param(&d, "idle_us", "1", why, sizeof why), -1);
    assert_string_equal(why, "idle_us: given twice");
    assert_int_equal(ttcp_web_done_param(&d, "jitter_us", "600000001", why, sizeof why), -1);
    assert_non_null(strstr(why, "jitter_us: "));
    assert_int_equal(ttcp_web_done_param(&d, "jitter_us", "-1", why, sizeof why), -1);
    assert_int_equal(ttcp_web_done_param(&d, "jitter_us", NULL, why, sizeof why), -1);
    assert_string_equal(why, "jitter_us: no value");
    assert_int_equal(ttcp_web_done_param(&d, "rate", "1", why, sizeof why), -1);
    assert_non_null(strstr(why, "unknown parameter rate"));
    memset(&table, 0, sizeof table);
    s = open_one(1, 0, 0);
    s->done = d;
    ttcp_web_session_figures(s, TTCP_WEB_DONE, T0, &f);
    assert_true(f.down_valid && f.latency_valid);
    assert_true(f.idle_ms == 120.0 && f.loaded_ms == 880.0);
    assert_int_equal(f.grade, ttcp_latency_grade(760.0));
    assert_int_equal(f.grade, TTCP_GRADE_F);
}

/* How a test ends: the page's figures; the server stopping; past its life;
 * nothing from the page for TTCP_WEB_PAGE_IDLE_NS, counted from its last
 * request's end (a download or an upload in progress is a page there, however
 * long a slow link's queue keeps it quiet). */
static void a_test_ends_one_way_or_another(void **state)
{
    struct ttcp_web_session *s;
    (void)state;
    memset(&table, 0, sizeof table);
    s = open_one(1, 2 * S, 0);
    assert_int_equal(ttcp_web_session_ended(s, 0, T0 + TTCP_WEB_PAGE_IDLE_NS), -1);
    assert_int_equal(ttcp_web_session_ended(s, 0, T0 + TTCP_WEB_PAGE_IDLE_NS + 1), TTCP_WEB_ABANDONED);
    assert_int_equal(ttcp_web_session_ended(s, 1, T0), TTCP_WEB_STOPPED);
    s->life_ns = 100 * TTCP_WEB_PAGE_IDLE_NS;
    ttcp_web_request_begin(s, T0);
    ttcp_web_request_begin(s, T0 + S);
    assert_int_equal(ttcp_web_session_ended(s, 0, T0 + 3 * TTCP_WEB_PAGE_IDLE_NS), -1);
    ttcp_web_request_end(s, T0 + 3 * TTCP_WEB_PAGE_IDLE_NS);
    assert_int_equal(ttcp_web_session_ended(s, 0, T0 + 5 * TTCP_WEB_PAGE_IDLE_NS), -1);
    ttcp_web_request_end(s, T0 + 5 * TTCP_WEB_PAGE_IDLE_NS);
    assert_int_equal(ttcp_web_session_ended(s, 0, T0 + 6 * TTCP_WEB_PAGE_IDLE_NS), -1);
    assert_int_equal(ttcp_web_session_ended(s, 0, T0 + 6 * TTCP_WEB_PAGE_IDLE_NS + 1), TTCP_WEB_ABANDONED);
    s->seen_ns = T0 + s->life_ns; /* busy to the end of its life */
    assert_int_equal(ttcp_web_session_ended(s, 0, T0 + s->life_ns), -1);
    assert_int_equal(ttcp_web_session_ended(s, 0, T0 + s->life_ns + 1), TTCP_WEB_CUT);
    s->state = TTCP_WEB_FINISHED;
    assert_int_equal(ttcp_web_session_ended(s, 1, T0 + 999 * S), TTCP_WEB_DONE);
}

/* The server's line, as the issue writes it, and the JSON object. */
static void the_servers_line_and_json(void **state)
{
    struct ttcp_web_figures f;
    struct ttcp_json j;
    cJSON *doc, *web;
    char text[300];
    (void)state;
    memset(&f, 0, sizeof f);
    tt_addr_any(TT_FAMILY_V4, 0, &f.peer);
    f.down_valid = f.up_valid = f.latency_valid = 1;
    f.down_bps = 38600, f.up_bps = 31200, f.idle_ms = 120, f.loaded_ms = 880;
    f.grade = TTCP_GRADE_D, f.up_bytes = 39000, f.up_ns = 10 * S, f.down_bytes = 48250;
    ttcp_report_web(&f, text, sizeof text);
    assert_string_equal(text, "ttcp-S: web 192.0.2.1: down 38.6 kbit/s, up 31.2 kbit/s, "
                              "idle 120 ms, loaded 880 ms, grade D\n");
    f.end = TTCP_WEB_ABANDONED, f.ran_ns = 12 * S + S / 2, f.latency_valid = f.down_valid = 0;
    ttcp_report_web(&f, text, sizeof text);
    assert_string_equal(text, "ttcp-S: web 192.0.2.1: ended: the page went away after 12.5 s: "
                              "down -, up 31.2 kbit/s\n");
    ttcp_json_init(&j);
    ttcp_json_object(&j, NULL);
    ttcp_json_web(&j, &f);
    ttcp_json_end(&j);
    doc = cJSON_Parse(j.buf);
    assert_non_null(doc);
    web = cJSON_GetObjectItem(doc, "web");
    assert_string_equal(cJSON_GetObjectItem(web, "end")->valuestring, "abandoned");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(web, "download_bps")));
    assert_int_equal(cJSON_GetObjectItem(web, "upload_bytes")->valuedouble, 39000);
    assert_true(cJSON_GetObjectItem(web, "upload_bps")->valuedouble == 31200.0);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(web, "grade")));
    cJSON_Delete(doc);
    ttcp_json_free(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sessions_open_and_are_found_by_id),
        cmocka_unit_test(the_download_keeps_its_window_and_rate),
        cmocka_unit_test(the_upload_is_the_servers_count),
        cmocka_unit_test(the_pages_figures_are_bounded),
        cmocka_unit_test(a_test_ends_one_way_or_another),
        cmocka_unit_test(the_servers_line_and_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
