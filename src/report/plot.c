/* The --plot document: the title, panel 1 (throughput), panel 2
 * (plot_detail.c) and with --latency panel 3 (plot_latency.c) on the same
 * time axis, and the legend. Every line is
 * drawn from the intervals the test closed: one point per interval, at its
 * middle, as the interval lines print it. */
#include "report/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/result.h"
#include "report/plot_draw.h"
#include "report/plot_words.h"

#define TOP_Y 70        /* panel 1's top, under the title and the subtitle */
#define RATE_BOTTOM 330 /* its bottom */
#define DETAIL_TOP 350
#define DETAIL_BOTTOM 470
#define LAT_TOP 530     /* panel 3, under its words */
#define LAT_BOTTOM 680
#define LEGEND_GAP 60   /* from the last panel's bottom to the first legend row */
#define LEGEND_ROW 20
#define TICKS 5
#define STREAM_POINTS_MAX 200000 /* -P: the streams' own lines only below this many points */

void ttcp_plot_init(struct ttcp_plot *p, const struct ttcp_options *opts, const char *date)
{
    memset(p, 0, sizeof *p);
    p->opts = opts;
    p->date = date;
}

void ttcp_plot_add(struct ttcp_plot *p, const struct ttcp_options *side,
                   const struct ttcp_result *res, const struct ttcp_result *parts, int n,
                   int remote)
{
    struct ttcp_plot_test *t;
    if (p->tests >= TTCP_PLOT_TESTS)
        return;
    t = &p->test[p->tests++];
    t->side = side;
    t->res = res;
    t->parts = n > 0 ? parts : NULL;
    t->n_parts = t->parts != NULL ? n : 0;
    t->remote = remote;
}

void ttcp_plot_latency(struct ttcp_plot *p, const struct ttcp_latency *l)
{
    p->latency = l;
}

/* Bytes per second of an interval (0 for one of no length). */
static double interval_rate(const struct ttcp_interval *in)
{
    double secs = (double)(in->end_ns - in->start_ns) / 1e9;
    return secs > 0 ? (double)in->bytes / secs : 0.0;
}

/* The classic average: bytes over the test's seconds (0 before it began). */
static double average_rate(const struct ttcp_result *r)
{
    return r->started ? (double)r->bytes / ttcp_real_seconds(r) : 0.0;
}

static void widen(double *max, double v)
{
    if (v > *max)
        *max = v;
}

/* An interval that sets the scale: not the last sliver of a test (a
 * buffer over a millisecond would dwarf every other point; it is drawn,
 * clipped at the panel's top). */
static int scales(const struct ttcp_plot *p, const struct ttcp_interval *in)
{
    return in->end_ns - in->start_ns >= p->opts->interval_ns / 4; /* (a server's may be huge) */
}

/* The highest rate (bytes/s) and the last second of any line. */
static void extent(const struct ttcp_plot *p, double *rate_max, double *t_max)
{
    int i, k;
    size_t j;
    *rate_max = (double)p->opts->link_bps / 8.0;
    *t_max = 0.0;
    for (i = 0; i < p->tests; i++) {
        const struct ttcp_plot_test *pt = &p->test[i];
        widen(rate_max, average_rate(pt->res));
        if (pt->res->started)
            widen(t_max, (double)pt->res->real_ns / 1e9);
        for (k = -1; k < pt->n_parts; k++) {
            const struct ttcp_intervals *iv = k < 0 ? &pt->res->intervals
                                                    : &pt->parts[k].intervals;
            for (j = 0; j < iv->count; j++) {
                if (scales(p, &iv->list[j]))
                    widen(rate_max, interval_rate(&iv->list[j]));
                widen(t_max, (double)iv->list[j].end_ns / 1e9);
            }
        }
    }
}

/* One line: a point per interval, in the plot's unit. */
static void rate_line(struct ttcp_svg *s, const struct plot_panel *pn,
                      const struct ttcp_intervals *iv, enum ttcp_unit unit, const char *cls,
                      const char *colour, double width, double opacity)
{
    double *t = calloc(iv->count + 1, sizeof *t), *v = calloc(iv->count + 1, sizeof *v);
    size_t j;
    if (t == NULL || v == NULL) {
        s->failed = 1;
    } else {
        for (j = 0; j < iv->count; j++) {
            t[j] = plot_mid(&iv->list[j]);
            v[j] = ttcp_unit_value(unit, interval_rate(&iv->list[j]));
        }
        plot_polyline(s, pn, t, v, iv->count, cls, colour, width, opacity);
    }
    free(t);
    free(v);
}

/* A test's lines: its streams thin (when not too many points), its total
 * or only line thick, its average dashed. */
static void test_lines(struct ttcp_svg *s, const struct plot_panel *pn,
                       const struct ttcp_plot_test *pt, int i, enum ttcp_unit unit)
{
    const char *colour = plot_colour(i);
    size_t points = 0;
    int k;
    for (k = 0; k < pt->n_parts; k++)
        points += pt->parts[k].intervals.count;
    for (k = 0; points <= STREAM_POINTS_MAX && k < pt->n_parts; k++)
        rate_line(s, pn, &pt->parts[k].intervals, unit, "rate stream", colour, 1.0, 0.45);
    rate_line(s, pn, &pt->res->intervals, unit, "rate total", colour, 2.2, 1.0);
    if (pt->res->started)
        plot_level(s, pn, ttcp_unit_value(unit, average_rate(pt->res)), "average", colour, "6 4");
}

static void rate_panel(struct ttcp_svg *s, const struct ttcp_plot *p, struct plot_panel *pn,
                       enum ttcp_unit unit, double rate_max)
{
    char title[64];
    int i, lines = 0;
    pn->v_max = plot_top(ttcp_unit_value(unit, rate_max), TICKS);
    pn->r_max = 0;
    plot_axes(s, pn, plot_words_rate_axis(unit, title, sizeof title), NULL, 0);
    if (p->opts->link_bps)
        plot_level(s, pn, ttcp_unit_value(unit, (double)p->opts->link_bps / 8.0), "link",
                   "#555", "2 3 8 3");
    ttcp_svg_add(s, "<clipPath id=\"rate-area\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                 "height=\"%.1f\"/></clipPath>\n<g clip-path=\"url(#rate-area)\">\n", pn->x0,
                 pn->y0 - 2, pn->x1 - pn->x0, pn->y1 - pn->y0 + 4);
    for (i = 0; i < p->tests; i++) {
        test_lines(s, pn, &p->test[i], i, unit);
        lines += p->test[i].res->intervals.count > 0;
    }
    ttcp_svg_add(s, "</g>\n");
    if (lines == 0)
        plot_note(s, pn, "No interval was measured");
}

/* One legend entry at (*x, *y): a short line drawn with style, then the
 * words; wraps to the next row when the row is full. */
static void legend_item(struct ttcp_svg *s, double *x, double *y, const char *style,
                        const char *text)
{
    double width = 34 + 6.6 * (double)strlen(text);
    if (*x > PLOT_LEFT && *x + width > PLOT_RIGHT) {
        *x = PLOT_LEFT;
        *y += LEGEND_ROW;
    }
    ttcp_svg_add(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n"
                 "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"12\" "
                 "fill=\"#222\">", *x, *y - 4, *x + 24, *y - 4, style, *x + 30, *y);
    ttcp_svg_text(s, text);
    ttcp_svg_add(s, "</text>\n");
    *x += width + 16;
}

/* Panel 3's entries: a probe, the medians, a lost one. */
static void latency_legend(struct ttcp_svg *s, double *x, double *y)
{
    legend_item(s, x, y, "stroke=\"" PLOT_LAT_LOADED "\" stroke-width=\"4\" "
                "stroke-linecap=\"round\" stroke-dasharray=\"0.1 8\"",
                "a probe's round trip (grey: idle, before the data)");
    legend_item(s, x, y, "stroke=\"" PLOT_LAT_LOADED "\" stroke-width=\"1.5\" "
                "stroke-dasharray=\"8 4\"", "median RTT loaded (grey: idle)");
    legend_item(s, x, y, "stroke=\"" PLOT_LAT_LOST "\" stroke-width=\"2\"",
                "lost probe (a cross at the top)");
}

/* The legend's entries from row y; returns the y of its last row. */
static double legend(struct ttcp_svg *s, const struct ttcp_plot *p, enum ttcp_unit unit,
                     double y)
{
    char text[256], style[96];
    double x = PLOT_LEFT;
    int i;
    for (i = 0; i < p->tests; i++) {
        snprintf(style, sizeof style, "stroke=\"%s\" stroke-width=\"3\"", plot_colour(i));
        legend_item(s, &x, &y, style, plot_words_test(p, &p->test[i], unit, text, sizeof text));
    }
    legend_item(s, &x, &y, "stroke=\"#444\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"",
                "average of the whole test");
    if (p->opts->link_bps)
        legend_item(s, &x, &y, "stroke=\"#555\" stroke-width=\"1.5\" "
                    "stroke-dasharray=\"2 3 8 3\"", plot_words_link(p->opts, text, sizeof text));
    legend_item(s, &x, &y, "stroke=\"#444\" stroke-width=\"1.8\"", plot_detail_line_name(p));
    legend_item(s, &x, &y, "stroke=\"#444\" stroke-opacity=\"0.35\" stroke-width=\"10\"",
                plot_detail_bar_name(p));
    if (plot_latency_shown(p))
        latency_legend(s, &x, &y);
    return y;
}

static void heading(struct ttcp_svg *s, const struct ttcp_plot *p)
{
    char text[512];
    ttcp_svg_add(s, "<text x=\"%d\" y=\"30\" font-family=\"sans-serif\" font-size=\"17\" "
                 "font-weight=\"bold\" fill=\"#111\">", PLOT_LEFT);
    ttcp_svg_text(s, plot_words_title(p, text, sizeof text));
    ttcp_svg_add(s, "</text>\n<text x=\"%d\" y=\"52\" font-family=\"sans-serif\" "
                 "font-size=\"12\" fill=\"#555\">", PLOT_LEFT);
    ttcp_svg_text(s, plot_words_subtitle(p, text, sizeof text));
    ttcp_svg_add(s, "</text>\n");
}

void ttcp_plot_svg(const struct ttcp_plot *p, struct ttcp_svg *out)
{
    struct plot_panel rate = {PLOT_LEFT, PLOT_RIGHT, TOP_Y, RATE_BOTTOM, 1.0, 1.0, 0.0, 0.0};
    struct plot_panel detail = {PLOT_LEFT, PLOT_RIGHT, DETAIL_TOP, DETAIL_BOTTOM, 1.0, 1.0, 0.0, 0.0};
    struct plot_panel lat = {PLOT_LEFT, PLOT_RIGHT, LAT_TOP, LAT_BOTTOM, 1.0, 1.0, 0.0, 0.0};
    struct ttcp_svg body;
    char title[512];
    double rate_max, t_max, last_row;
    double bottom = plot_latency_shown(p) ? LAT_BOTTOM : DETAIL_BOTTOM; /* the last panel's */
    enum ttcp_unit unit;

    extent(p, &rate_max, &t_max);
    widen(&t_max, plot_latency_end(p));
    unit = p->opts->unit_given ? p->opts->unit : ttcp_unit_si(rate_max * 8.0);
    rate.t_max = detail.t_max = lat.t_max = t_max > 0 ? t_max : 1.0; /* ends with the test */
    rate.t_min = detail.t_min = lat.t_min = plot_latency_start(p);    /* idle probes: < 0 */
    ttcp_svg_init(&body); /* the height depends on the legend: the body first */
    heading(&body, p);
    rate_panel(&body, p, &rate, unit, rate_max);
    plot_detail(&body, p, &detail);
    plot_latency(&body, p, &lat);
    ttcp_svg_add(&body, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" font-family=\"sans-serif\" "
                 "font-size=\"12\" fill=\"#333\">Time since the test began (s)</text>\n",
                 (PLOT_LEFT + PLOT_RIGHT) / 2.0, bottom + 36);
    last_row = legend(&body, p, unit, bottom + LEGEND_GAP);
    ttcp_svg_add(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
                 "viewBox=\"0 0 %d %.0f\">\n<title>", PLOT_WIDTH, last_row + 16, PLOT_WIDTH,
                 last_row + 16);
    ttcp_svg_text(out, plot_words_title(p, title, sizeof title));
    ttcp_svg_add(out, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
    ttcp_svg_add(out, "%s", body.buf != NULL ? body.buf : "");
    ttcp_svg_add(out, "</svg>\n");
    out->failed |= body.failed;
    ttcp_svg_free(&body);
}
