/* A server's last browser tests as frames (remote/wire_web.h): what the
 * server sends reads back as it was, a figure the test did not give is
 * not sent, and a frame with a field out of its bounds, missing, or of
 * another type is refused with a reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "measure/latency.h"
#include "remote/wire_web.h"

#define S 1000000000ll

static struct ttcp_message msg;
static char why[200];

static int parse_frame(const struct ttcp_frame *f)
{
    return ttcp_proto_parse(f->bytes + TTCP_PROTO_LENGTH_LEN, f->len - TTCP_PROTO_LENGTH_LEN,
                            &msg, why, sizeof why);
}

static int parse_text(const char *body)
{
    return ttcp_proto_parse((const unsigned char *)body, strlen(body), &msg, why, sizeof why);
}

static void full_record(struct ttcp_web_record *r)
{
    memset(r, 0, sizeof *r);
    r->seq = 7;
    r->end_ns = 100 * S;
    r->f.end = TTCP_WEB_DONE;
    r->f.down_valid = 1;
    r->f.down_bps = 38600.4;
    r->f.down_bytes = 48250;
    r->f.up_valid = 1;
    r->f.up_bps = 31200.6;
    r->f.up_bytes = 39000;
    r->f.up_ns = 10 * S;
    r->f.latency_valid = 1;
    r->f.idle_ms = 120.25;
    r->f.loaded_ms = 880.5;
    r->f.jitter_ms = 3.125;
    r->f.grade = TTCP_GRADE_D;
}

static void a_result_reads_back(void **state)
{
    struct ttcp_web_record r, back;
    struct ttcp_frame f;
    (void)state;
    full_record(&r);
    ttcp_wire_web_result(&f, &r, 103 * S);
    assert_false(f.failed);
    assert_int_equal(parse_frame(&f), 0);
    assert_int_equal(ttcp_wire_read_web_result(&msg, &back, why, sizeof why), 0);
    assert_int_equal(back.seq, 7);
    assert_int_equal(back.age_ns, 3 * S);
    assert_int_equal(back.f.end, TTCP_WEB_DONE);
    assert_true(back.f.down_valid && back.f.up_valid && back.f.latency_valid);
    assert_true(back.f.down_bps == 38600.0); /* whole bits a second */
    assert_int_equal(back.f.down_bytes, 48250);
    assert_true(back.f.up_bps == 31201.0);
    assert_int_equal(back.f.up_bytes, 39000);
    assert_int_equal(back.f.up_ns, 10 * S);
    assert_true(back.f.idle_ms == 120.25); /* whole microseconds */
    assert_true(back.f.loaded_ms == 880.5);
    assert_true(back.f.jitter_ms == 3.125);
    assert_int_equal(back.f.grade, TTCP_GRADE_D);
}

/* A page that went away: no figure of its own is sent, nor read. */
static void figures_not_given_are_not_sent(void **state)
{
    struct ttcp_web_record r, back;
    struct ttcp_frame f;
    (void)state;
    full_record(&r);
    r.f.end = TTCP_WEB_ABANDONED;
    r.f.down_valid = r.f.latency_valid = 0;
    r.end_ns = 200 * S; /* a clock behind the end: age 0, never negative */
    ttcp_wire_web_result(&f, &r, 100 * S);
    assert_int_equal(parse_frame(&f), 0);
    assert_null(ttcp_proto_get(&msg, "down_bps"));
    assert_null(ttcp_proto_get(&msg, "idle_us"));
    assert_null(ttcp_proto_get(&msg, "grade"));
    assert_string_equal(ttcp_proto_get(&msg, "valid"), "2");
    assert_int_equal(ttcp_wire_read_web_result(&msg, &back, why, sizeof why), 0);
    assert_int_equal(back.age_ns, 0);
    assert_int_equal(back.f.end, TTCP_WEB_ABANDONED);
    assert_false(back.f.down_valid);
    assert_false(back.f.latency_valid);
    assert_true(back.f.up_valid);
    assert_int_equal(back.f.up_bytes, 39000);
}

static void refused(const char *body, const char *reason)
{
    struct ttcp_web_record back;
    if (parse_text(body) != 0)
        fail_msg("not a frame: %s", why);
    why[0] = '\0';
    if (ttcp_wire_read_web_result(&msg, &back, why, sizeof why) == 0)
        fail_msg("taken: %s", body);
    if (strstr(why, reason) == NULL)
        fail_msg("reason \"%s\" lacks \"%s\"", why, reason);
}

static void fields_out_of_bounds_are_refused(void **state)
{
    (void)state;
    refused("msg=web_result\nseq=0\nage_ns=0\nend=0\nvalid=0\n", "seq");
    refused("msg=web_result\nseq=1\nage_ns=-1\nend=0\nvalid=0\n", "age_ns");
    refused("msg=web_result\nseq=1\nage_ns=0\nend=4\nvalid=0\n", "end");
    refused("msg=web_result\nseq=1\nage_ns=0\nend=0\nvalid=8\n", "valid");
    refused("msg=web_result\nseq=1\nage_ns=0\nend=0\n", "valid: missing");
    refused("msg=web_result\nseq=1\nage_ns=0\nend=0\nvalid=1\ndown_bps=10000000000001\n"
            "down_bytes=1\n", "down_bps");
    refused("msg=web_result\nseq=1\nage_ns=0\nend=0\nvalid=1\ndown_bps=1\n",
            "down_bytes: missing");
    refused("msg=web_result\nseq=1\nage_ns=0\nend=0\nvalid=2\nup_bps=1\nup_bytes=1\n"
            "up_ns=86400000000001\n", "up_ns");
    refused("msg=web_result\nseq=1\nage_ns=0\nend=0\nvalid=4\nidle_us=1\nloaded_us=1\n"
            "jitter_us=1\ngrade=6\n", "grade");
    refused("msg=web_result\nseq=1\nage_ns=0\nend=0\nvalid=4\nidle_us=3600000001\n"
            "loaded_us=1\njitter_us=1\ngrade=0\n", "idle_us");
    refused("msg=web_result\nseq=99999999999999999999\nage_ns=0\nend=0\nvalid=0\n", "seq");
    refused("msg=result\nseq=1\nage_ns=0\nend=0\nvalid=0\n", "expected web_result");
}

static void the_end_counts_at_most_the_kept(void **state)
{
    struct ttcp_frame f;
    int n = -1;
    (void)state;
    ttcp_wire_web_results_end(&f, TTCP_WEB_KEPT);
    assert_int_equal(parse_frame(&f), 0);
    assert_int_equal(ttcp_wire_read_web_results_end(&msg, &n, why, sizeof why), 0);
    assert_int_equal(n, TTCP_WEB_KEPT);
    assert_int_equal(parse_text("msg=web_results_end\ncount=17\n"), 0);
    assert_int_equal(ttcp_wire_read_web_results_end(&msg, &n, why, sizeof why), -1);
    assert_non_null(strstr(why, "count"));
    assert_int_equal(parse_text("msg=web_result\ncount=1\n"), 0);
    assert_int_equal(ttcp_wire_read_web_results_end(&msg, &n, why, sizeof why), -1);
    ttcp_wire_web_results(&f);
    assert_int_equal(parse_frame(&f), 0);
    assert_string_equal(ttcp_proto_type(&msg), "web_results");
    assert_int_equal(msg.count, 1); /* the request has no field but its type */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_result_reads_back),
        cmocka_unit_test(figures_not_given_are_not_sent),
        cmocka_unit_test(fields_out_of_bounds_are_refused),
        cmocka_unit_test(the_end_counts_at_most_the_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
