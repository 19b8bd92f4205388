/* --plot's document (report/plot.c): a point per interval, text escaped,
 * an empty test still a document, and no coordinate that is not a number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/options.h"
#include "report/plot.h"
#include "test_support.h"

#define MS 1000000ll
/* where the panels draw second t of a plot from -2 s to 1 s (90 to 880) */
#define PLOT_X(t) (90.0 + ((t) + 2.0) / 3.0 * 790.0)

static struct ttcp_options opts;

static void parse_line(const char *text)
{
    static char line[256]; /* opts.host points into it */
    char *argv[32], why[256];
    int argc;
    snprintf(line, sizeof line, "%s", text);
    argc = split_args(line, argv, 32);
    assert_int_equal(ttcp_options_parse(&opts, argc, argv, 0, why, sizeof why), 0);
}

/* A result of n intervals of period ms, bytes each (k + 1) * step. */
static void fill(struct ttcp_result *r, size_t n, int64_t period_ms, uint64_t step)
{
    size_t k;
    memset(r, 0, sizeof *r);
    for (k = 0; k < n; k++) {
        struct ttcp_interval *in = ttcp_intervals_push(&r->intervals);
        assert_non_null(in);
        in->start_ns = (int64_t)k * period_ms * MS;
        in->end_ns = (int64_t)(k + 1) * period_ms * MS;
        in->bytes = (k + 1) * step;
        r->bytes += in->bytes;
    }
    r->started = n > 0;
    r->real_ns = (int64_t)n * period_ms * MS;
}

static char *draw(const struct ttcp_plot *p)
{
    struct ttcp_svg s;
    ttcp_svg_init(&s);
    ttcp_plot_svg(p, &s);
    assert_false(s.failed);
    assert_non_null(s.buf);
    return s.buf;
}

/* The points of the first polyline whose class is cls. */
static int points_of(const char *svg, const char *cls)
{
    char key[64];
    const char *at, *end;
    int n = 0;
    snprintf(key, sizeof key, "class=\"%s\"", cls);
    at = strstr(svg, key);
    assert_non_null(at);
    at = strstr(at, "points=\"");
    assert_non_null(at);
    at += 8;
    end = strchr(at, '"');
    for (; at < end; at++)
        n += *at == ',';
    return n;
}

static int count_of(const char *svg, const char *text)
{
    int n = 0;
    const char *at;
    for (at = strstr(svg, text); at != NULL; at = strstr(at + 1, text))
        n++;
    return n;
}

/* Well formed as far as a string can tell: one document, every element
 * closed, and no number a browser cannot draw. */
static void check_document(const char *svg)
{
    assert_true(strncmp(svg, "<?xml version=\"1.0\"", 19) == 0);
    assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_int_equal(count_of(svg, "<svg"), 1);
    assert_string_equal(svg + strlen(svg) - 7, "</svg>\n");
    assert_int_equal(count_of(svg, "<text"), count_of(svg, "</text>"));
    assert_null(strstr(svg, "nan"));
    assert_null(strstr(svg, "inf"));
    assert_null(strstr(svg, "NaN"));
}

static void a_point_per_interval(void **state)
{
    struct ttcp_result r;
    struct ttcp_plot p;
    char *svg;
    (void)state;
    parse_line("-t -s -i 0.5 --link-rate 100m 127.0.0.1");
    fill(&r, 7, 500, 1000000);
    r.intervals.list[2].tcp_valid = 1;
    r.intervals.list[2].tcp.srtt_us = 1500;
    r.intervals.list[2].tcp.retransmits = 3;
    ttcp_plot_init(&p, &opts, "2024-05-01 10:00");
    ttcp_plot_add(&p, &opts, &r, NULL, 0, 0);
    svg = draw(&p);
    check_document(svg);
    assert_int_equal(points_of(svg, "rate total"), 7);
    assert_int_equal(count_of(svg, "class=\"rate stream\""), 0);
    assert_int_equal(count_of(svg, "class=\"average\""), 1);
    assert_int_equal(count_of(svg, "class=\"link\""), 1);
    assert_int_equal(points_of(svg, "detail"), 1); /* the one interval with an RTT */
    assert_int_equal(count_of(svg, "class=\"bar\""), 1);
    assert_non_null(strstr(svg, "ttcp: TCP to 127.0.0.1, 8192-byte buffers"));
    assert_non_null(strstr(svg, "2024-05-01 10:00"));
    assert_non_null(strstr(svg, "Throughput (Mbps)")); /* SI by default */
    free(svg);
    ttcp_result_release(&r);
}

/* A test shorter than its period has one interval: a polyline of one point
 * would draw nothing, so the point is marked. */
static void a_lone_point_is_marked(void **state)
{
    struct ttcp_result r;
    struct ttcp_plot p;
    char *svg;
    (void)state;
    parse_line("-t -s 127.0.0.1 --plot x.svg");
    fill(&r, 1, 130, 1000000);
    ttcp_plot_init(&p, &opts, "2024-05-01 10:00");
    ttcp_plot_add(&p, &opts, &r, NULL, 0, 0);
    svg = draw(&p);
    check_document(svg);
    assert_int_equal(points_of(svg, "rate total"), 1);
    assert_int_equal(count_of(svg, "<circle class=\"rate total\""), 1);
    free(svg);
    ttcp_result_release(&r);
}

/* The text of the first bar's width="..." */
static void bar_width(const char *svg, char *out, size_t len)
{
    const char *at = strstr(svg, "class=\"bar\"");
    assert_non_null(at);
    at = strstr(at, "width=\"");
    assert_non_null(at);
    snprintf(out, len, "%.*s", (int)strcspn(at + 7, "\""), at + 7);
}

/* A UDP transmitter's intervals carry no loss of its own: beside its
 * receiver's, it takes no share of the bars' room. */
static void bars_share_room_only_with_tests_that_have_some(void **state)
{
    struct ttcp_result rx, tx;
    struct ttcp_plot p;
    char *svg, alone[32], both[32];
    size_t k;
    (void)state;
    parse_line("-r -s -u -i 0.5");
    fill(&rx, 4, 500, 1000);
    fill(&tx, 4, 500, 1000);
    for (k = 0; k < 4; k++) {
        rx.intervals.list[k].udp_valid = 1;
        rx.intervals.list[k].udp_expected = 100;
        rx.intervals.list[k].udp_datagrams = 90;
        rx.intervals.list[k].udp_lost = 10;
    }
    ttcp_plot_init(&p, &opts, "2024-05-01 10:00");
    ttcp_plot_add(&p, &opts, &rx, NULL, 0, 0);
    svg = draw(&p);
    bar_width(svg, alone, sizeof alone);
    free(svg);
    ttcp_plot_init(&p, &opts, "2024-05-01 10:00");
    ttcp_plot_add(&p, &opts, &rx, NULL, 0, 0);
    ttcp_plot_add(&p, &opts, &tx, NULL, 0, 1);
    svg = draw(&p);
    check_document(svg);
    bar_width(svg, both, sizeof both);
    assert_string_equal(both, alone);
    free(svg);
    ttcp_result_release(&rx);
    ttcp_result_release(&tx);
}

static void text_is_escaped(void **state)
{
    struct ttcp_result r;
    struct ttcp_plot p;
    char *svg;
    (void)state;
    parse_line("-t -s -f K x");
    opts.host = "a<b&c\"d'e>\x01\xff";
    fill(&r, 2, 1000, 10);
    ttcp_plot_init(&p, &opts, "<now>");
    ttcp_plot_add(&p, &opts, &r, NULL, 0, 0);
    svg = draw(&p);
    check_document(svg);
    assert_non_null(strstr(svg, "to a&lt;b&amp;c&quot;d&#39;e&gt;??,"));
    assert_null(strstr(svg, "a<b"));
    assert_non_null(strstr(svg, "&lt;now&gt;"));
    assert_non_null(strstr(svg, "Throughput (KB/sec)")); /* -f as typed */
    free(svg);
    ttcp_result_release(&r);
}

static void an_empty_test_is_a_document(void **state)
{
    struct ttcp_result r;
    struct ttcp_plot p;
    char *svg;
    (void)state;
    parse_line("-r -s -u");
    memset(&r, 0, sizeof r);
    ttcp_plot_init(&p, &opts, NULL);
    ttcp_plot_add(&p, &opts, &r, NULL, 3, 0); /* streams that were never made: none drawn */
    svg = draw(&p);
    check_document(svg);
    assert_int_equal(points_of(svg, "rate total"), 0);
    assert_int_equal(count_of(svg, "class=\"rate stream\""), 0);
    assert_non_null(strstr(svg, "No interval was measured"));
    assert_non_null(strstr(svg, "received on port 5001"));
    assert_non_null(strstr(svg, "received: no data"));
    free(svg);
    ttcp_plot_init(&p, &opts, NULL); /* no test at all */
    svg = draw(&p);
    check_document(svg);
    free(svg);
}

/* Intervals of no length, of absurd sizes, a test of no time: every
 * coordinate stays a finite number. */
static void no_coordinate_is_not_a_number(void **state)
{
    struct ttcp_result r;
    struct ttcp_plot p;
    char *svg;
    (void)state;
    parse_line("-t -s -u 127.0.0.1");
    fill(&r, 3, 0, UINT64_MAX / 4);
    r.intervals.list[1].udp_valid = 1;
    r.intervals.list[1].udp_jitter_ns = 1e300;
    r.intervals.list[1].udp_expected = 0;
    r.intervals.list[2].end_ns = INT64_MAX;
    r.real_ns = 0;
    ttcp_plot_init(&p, &opts, NULL);
    ttcp_plot_add(&p, &opts, &r, NULL, 0, 0);
    svg = draw(&p);
    check_document(svg);
    assert_int_equal(points_of(svg, "rate total"), 3);
    free(svg);
    ttcp_result_release(&r);
}

/* -P: a thin line per stream and the total; -C: both ends, named. */
static void streams_and_both_ends(void **state)
{
    struct ttcp_result parts[3], total, theirs;
    struct ttcp_options remote;
    struct ttcp_plot p;
    char *svg;
    int i;
    (void)state;
    parse_line("-C -u -P 3 -i 1 127.0.0.1");
    for (i = 0; i < 3; i++)
        fill(&parts[i], 4, 1000, 100);
    fill(&total, 4, 1000, 300);
    fill(&theirs, 4, 1000, 290);
    theirs.intervals.list[0].udp_valid = 1;
    theirs.intervals.list[0].udp_expected = 10;
    theirs.intervals.list[0].udp_lost = 1;
    theirs.intervals.list[0].udp_jitter_ns = 2e6;
    remote = opts;
    remote.transmit = 0;
    ttcp_plot_init(&p, &opts, NULL);
    ttcp_plot_add(&p, &opts, &total, parts, 3, 0);
    ttcp_plot_add(&p, &remote, &theirs, NULL, 0, 1);
    svg = draw(&p);
    check_document(svg);
    assert_int_equal(count_of(svg, "class=\"rate stream\""), 3);
    assert_int_equal(count_of(svg, "class=\"rate total\""), 2);
    assert_int_equal(count_of(svg, "class=\"average\""), 2);
    assert_non_null(strstr(svg, "client sent, total of 3 streams"));
    assert_non_null(strstr(svg, "server received: average"));
    assert_non_null(strstr(svg, "UDP from this client to 127.0.0.1"));
    assert_non_null(strstr(svg, "Jitter (ms)"));
    assert_int_equal(count_of(svg, "class=\"bar\""), 1); /* 10 % lost in the first second */
    free(svg);
    for (i = 0; i < 3; i++)
        ttcp_result_release(&parts[i]);
    ttcp_result_release(&total);
    ttcp_result_release(&theirs);
}

/* --latency's samples: n probes of one phase from at_ms on, every period
 * ms, each rtt_ms, with every lost_every-th lost (0: none). */
static void probes(struct ttcp_latency *l, int n, int64_t at_ms, int64_t period_ms,
                   int64_t rtt_ms, int lost_every, int phase)
{
    int i;
    l->source = l->source ? l->source : TTCP_LATENCY_UDP_ECHO;
    l->period_ns = period_ms * MS;
    for (i = 0; i < n; i++)
        assert_int_equal(ttcp_latency_push(l, (at_ms + i * period_ms) * MS,
                                           lost_every && i % lost_every == lost_every - 1
                                               ? -1 : rtt_ms * MS, phase), 0);
}

/* The x of the first point of the first polyline whose class is cls. */
static double first_x(const char *svg, const char *cls)
{
    char key[64];
    const char *at;
    snprintf(key, sizeof key, "class=\"%s\"", cls);
    at = strstr(svg, key);
    assert_non_null(at);
    at = strstr(at, "points=\"");
    assert_non_null(at);
    return atof(at + 8);
}

/* The largest (or smallest) cx of the circles whose class is cls. */
static double circles_x(const char *svg, const char *cls, int largest)
{
    char key[64];
    const char *at;
    double best = largest ? -1e9 : 1e9;
    snprintf(key, sizeof key, "class=\"%s\" cx=\"", cls);
    for (at = strstr(svg, key); at != NULL; at = strstr(at + 1, key)) {
        double x = atof(at + strlen(key));
        best = largest ? (x > best ? x : best) : (x < best ? x : best);
    }
    return best;
}

/* -C --latency: a circle per answered probe, a cross per lost one, idle
 * ones left of 0 on every panel's axis, both medians, the grade. */
static void latency_panel(void **state)
{
    struct ttcp_result r;
    struct ttcp_latency l;
    struct ttcp_plot p;
    char *svg;
    (void)state;
    parse_line("-C --latency 127.0.0.1");
    fill(&r, 10, 100, 1000000);
    memset(&l, 0, sizeof l);
    probes(&l, 20, -2000, 100, 10, 10, TTCP_LATENCY_IDLE);  /* 2 of 20 lost */
    probes(&l, 10, 0, 100, 200, 10, TTCP_LATENCY_LOADED);   /* 1 of 10 lost */
    ttcp_plot_init(&p, &opts, NULL);
    ttcp_plot_add(&p, &opts, &r, NULL, 0, 0);
    ttcp_plot_latency(&p, &l);
    svg = draw(&p);
    check_document(svg);
    assert_int_equal(count_of(svg, "<g id=\"latency\">"), 1);
    assert_int_equal(count_of(svg, "class=\"lat-probe idle-probe\""), 18);
    assert_int_equal(count_of(svg, "class=\"lat-probe loaded-probe\""), 9);
    assert_int_equal(count_of(svg, "class=\"lat-lost\""), 3);
    assert_int_equal(count_of(svg, "class=\"lat-median idle\""), 1);
    assert_int_equal(count_of(svg, "class=\"lat-median loaded\""), 1);
    assert_non_null(strstr(svg, "Latency under load: +190.00 ms, grade C"));
    assert_non_null(strstr(svg, "idle median 10.00 ms, loaded median 200.00 ms"));
    assert_non_null(strstr(svg, "UDP probes every 0.1 s, 3 of 30 lost"));
    assert_int_equal(count_of(svg, "class=\"idle\""), 3); /* shaded in each panel */
    assert_non_null(strstr(svg, ">-2.0</text>"));          /* the axis starts at the first probe */
    /* 0 is two thirds across (-2 s to 1 s): the data and the loaded probes right of it,
     * the idle probes left */
    assert_true(fabs(first_x(svg, "rate total") - PLOT_X(0.05)) < 0.2);
    assert_true(circles_x(svg, "lat-probe idle-probe", 1) < PLOT_X(0));
    assert_true(circles_x(svg, "lat-probe loaded-probe", 0) >= PLOT_X(0) - 0.1);
    free(svg);
    ttcp_latency_free(&l);
    ttcp_result_release(&r);
}

/* No samples (none asked, or none taken): no panel 3, nothing shaded, the
 * document as without --latency. */
static void no_samples_no_panel(void **state)
{
    struct ttcp_result r;
    struct ttcp_latency l;
    struct ttcp_plot p;
    char *without, *empty;
    (void)state;
    parse_line("-C --latency 127.0.0.1");
    fill(&r, 4, 250, 1000);
    memset(&l, 0, sizeof l);
    l.source = TTCP_LATENCY_UDP_ECHO;
    ttcp_plot_init(&p, &opts, NULL);
    ttcp_plot_add(&p, &opts, &r, NULL, 0, 0);
    without = draw(&p);
    ttcp_plot_latency(&p, &l);
    empty = draw(&p);
    assert_string_equal(without, empty);
    assert_int_equal(count_of(without, "id=\"latency\""), 0);
    assert_int_equal(count_of(without, "class=\"idle\""), 0);
    free(without);
    free(empty);
    ttcp_result_release(&r);
}

/* Every probe lost: the crosses, a note, no grade, no median. */
static void no_probe_answered(void **state)
{
    struct ttcp_result r;
    struct ttcp_latency l;
    struct ttcp_plot p;
    char *svg;
    (void)state;
    parse_line("-C --latency 127.0.0.1");
    fill(&r, 4, 250, 1000);
    memset(&l, 0, sizeof l);
    probes(&l, 5, -500, 100, 0, 1, TTCP_LATENCY_IDLE);
    probes(&l, 10, 0, 100, 0, 1, TTCP_LATENCY_LOADED);
    ttcp_plot_init(&p, &opts, NULL);
    ttcp_plot_add(&p, &opts, &r, NULL, 0, 0);
    ttcp_plot_latency(&p, &l);
    svg = draw(&p);
    check_document(svg);
    assert_int_equal(count_of(svg, "class=\"lat-lost\""), 15);
    assert_int_equal(count_of(svg, "class=\"lat-probe"), 0);
    assert_int_equal(count_of(svg, "class=\"lat-median"), 0);
    assert_non_null(strstr(svg, "No probe was answered"));
    assert_non_null(strstr(svg, "Latency: no grade"));
    assert_non_null(strstr(svg, "15 of 15 lost"));
    free(svg);
    ttcp_latency_free(&l);
    ttcp_result_release(&r);
}

/* The classic transmitter's TCP RTT: its handshake's at 0, nothing before
 * the data (no shading), its own words. */
static void classic_samples(void **state)
{
    struct ttcp_result r;
    struct ttcp_plot p;
    char *svg;
    (void)state;
    parse_line("-t -s --latency 127.0.0.1");
    fill(&r, 4, 250, 1000);
    r.latency.source = TTCP_LATENCY_TCP_INFO;
    probes(&r.latency, 1, 0, 100, 1, 0, TTCP_LATENCY_IDLE);
    probes(&r.latency, 9, 100, 100, 31, 0, TTCP_LATENCY_LOADED);
    ttcp_plot_init(&p, &opts, NULL);
    ttcp_plot_add(&p, &opts, &r, NULL, 0, 0);
    ttcp_plot_latency(&p, &r.latency);
    svg = draw(&p);
    check_document(svg);
    assert_int_equal(count_of(svg, "class=\"lat-probe idle-probe\""), 1);
    assert_int_equal(count_of(svg, "class=\"lat-probe loaded-probe\""), 9);
    assert_int_equal(count_of(svg, "class=\"idle\""), 0);
    assert_non_null(strstr(svg, "+30.00 ms, grade B"));
    assert_non_null(strstr(svg, "TCP_INFO&#39;s RTT every 0.1 s"));
    free(svg);
    ttcp_latency_free(&r.latency);
    ttcp_result_release(&r);
}

/* Past 4000 samples the circles give way to each bin's median, a line a
 * phase, and a cross on each bin with a loss. */
static void many_samples_are_binned(void **state)
{
    struct ttcp_result r;
    struct ttcp_latency l;
    struct ttcp_plot p;
    char *svg;
    (void)state;
    parse_line("-C --latency 127.0.0.1");
    fill(&r, 10, 1000, 1000);
    memset(&l, 0, sizeof l);
    probes(&l, 2000, -2000, 1, 5, 0, TTCP_LATENCY_IDLE);
    probes(&l, 10000, 0, 1, 40, 5000, TTCP_LATENCY_LOADED); /* 2 lost */
    ttcp_plot_init(&p, &opts, NULL);
    ttcp_plot_add(&p, &opts, &r, NULL, 0, 0);
    ttcp_plot_latency(&p, &l);
    svg = draw(&p);
    check_document(svg);
    assert_int_equal(count_of(svg, "class=\"lat-probe"), 0);
    assert_in_range(points_of(svg, "lat-bins idle"), 100, 400);
    assert_in_range(points_of(svg, "lat-bins loaded"), 500, 2000);
    assert_int_equal(count_of(svg, "class=\"lat-lost\""), 2);
    assert_true(strlen(svg) < 400000); /* not 12000 circles */
    free(svg);
    ttcp_latency_free(&l);
    ttcp_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_point_per_interval),
        cmocka_unit_test(a_lone_point_is_marked),
        cmocka_unit_test(bars_share_room_only_with_tests_that_have_some),
        cmocka_unit_test(text_is_escaped),
        cmocka_unit_test(an_empty_test_is_a_document),
        cmocka_unit_test(no_coordinate_is_not_a_number),
        cmocka_unit_test(streams_and_both_ends),
        cmocka_unit_test(latency_panel),
        cmocka_unit_test(no_samples_no_panel),
        cmocka_unit_test(no_probe_answered),
        cmocka_unit_test(classic_samples),
        cmocka_unit_test(many_samples_are_binned),
    };
    return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
