/* Panel 3 (--latency): each probe's round trip over the test's time, the
 * idle ones left of 0 (shaded), the loaded ones from the data's start; a
 * probe that never came back a red cross along the panel's top; the idle
 * and loaded medians as reference lines across; the grade and medians in
 * the words above. Past LAT_POINTS_MAX samples the points give way to the
 * median of each bin (ttcp_latency_bins), a cross on each bin with a loss. */
#include "report/plot_draw.h"

#include <math.h>
#include <stdlib.h>

#include "report/plot_words.h"

#define TICKS 4
#define LAT_POINTS_MAX 4000 /* one circle each up to this many samples */
#define LAT_BINS 800        /* about this many bins past it: one a pixel */

int plot_latency_shown(const struct ttcp_plot *p)
{
    return p->latency != NULL && p->latency->source != TTCP_LATENCY_NONE &&
           p->latency->count > 0;
}

double plot_latency_start(const struct ttcp_plot *p)
{
    double first = 0.0;
    uint32_t i;
    for (i = 0; plot_latency_shown(p) && i < p->latency->count; i++)
        if ((double)p->latency->list[i].at_ns / 1e9 < first)
            first = (double)p->latency->list[i].at_ns / 1e9;
    return first;
}

double plot_latency_end(const struct ttcp_plot *p)
{
    double last = 0.0;
    uint32_t i;
    for (i = 0; plot_latency_shown(p) && i < p->latency->count; i++)
        if ((double)p->latency->list[i].at_ns / 1e9 > last)
            last = (double)p->latency->list[i].at_ns / 1e9;
    return last;
}

static double rtt_max_ms(const struct ttcp_latency *l)
{
    double max = 0.0;
    uint32_t i;
    for (i = 0; i < l->count; i++)
        if (l->list[i].rtt_ns >= 0 && (double)l->list[i].rtt_ns / 1e6 > max)
            max = (double)l->list[i].rtt_ns / 1e6;
    return max;
}

/* A cross near the panel's top at x: a probe (or a bin's) lost. */
static void lost_mark(struct ttcp_svg *s, const struct plot_panel *pn, double x)
{
    double y = pn->y0 + 6;
    ttcp_svg_add(s, "<path class=\"lat-lost\" d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" "
                 "stroke=\"" PLOT_LAT_LOST "\" stroke-width=\"1.5\" fill=\"none\"/>\n",
                 x - 3, y - 3, x + 3, y + 3, x - 3, y + 3, x + 3, y - 3);
}

/* A circle per answered probe, a cross per lost one. */
static void points(struct ttcp_svg *s, const struct plot_panel *pn, const struct ttcp_latency *l)
{
    uint32_t i;
    for (i = 0; i < l->count; i++) {
        const struct ttcp_latency_sample *x = &l->list[i];
        int idle = x->phase == TTCP_LATENCY_IDLE;
        double cx = plot_x(pn, (double)x->at_ns / 1e9);
        if (x->rtt_ns < 0)
            lost_mark(s, pn, cx);
        else
            ttcp_svg_add(s, "<circle class=\"lat-probe %s-probe\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\" "
                         "fill=\"%s\" fill-opacity=\"0.75\"/>\n", idle ? "idle" : "loaded", cx,
                         plot_y(pn, (double)x->rtt_ns / 1e6), idle ? PLOT_LAT_IDLE
                                                                   : PLOT_LAT_LOADED);
    }
}

/* Many samples: each bin's median (idle bins come first, as their times). */
struct bin_line {
    struct ttcp_svg *s;
    const struct plot_panel *pn;
    double *t, *v;
    size_t n, idle, cap;
};

static void bin_point(void *ctx, const struct ttcp_latency_bin *b)
{
    struct bin_line *bl = ctx;
    double mid = ((double)b->start_ns + (double)b->end_ns) / 2e9;
    if (b->answered < b->probes)
        lost_mark(bl->s, bl->pn, plot_x(bl->pn, mid));
    if (b->answered == 0 || bl->n >= bl->cap)
        return;
    bl->t[bl->n] = mid;
    bl->v[bl->n++] = b->median_ms;
    bl->idle += b->phase == TTCP_LATENCY_IDLE;
}

static void bins(struct ttcp_svg *s, const struct plot_panel *pn, const struct ttcp_latency *l)
{
    struct bin_line bl = {s, pn, NULL, NULL, 0, 0, l->count};
    int64_t span = l->list[l->count - 1].at_ns - l->list[0].at_ns, width = l->period_ns;
    if (width <= 0)
        width = 1000000;
    width *= 1 + span / (width * LAT_BINS);
    bl.t = calloc(l->count, sizeof *bl.t);
    bl.v = calloc(l->count, sizeof *bl.v);
    if (bl.t == NULL || bl.v == NULL) {
        s->failed = 1;
    } else {
        ttcp_latency_bins(l, width, bin_point, &bl);
        if (bl.idle > 0)
            plot_polyline(s, pn, bl.t, bl.v, bl.idle, "lat-bins idle", PLOT_LAT_IDLE, 1.5, 1.0);
        if (bl.n > bl.idle)
            plot_polyline(s, pn, bl.t + bl.idle, bl.v + bl.idle, bl.n - bl.idle,
                          "lat-bins loaded", PLOT_LAT_LOADED, 1.5, 1.0);
    }
    free(bl.t);
    free(bl.v);
}

static void median_label(struct ttcp_svg *s, const struct plot_panel *pn, double y,
                         const char *text, const char *colour)
{
    ttcp_svg_add(s, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"11\" "
                 "fill=\"%s\">%s</text>\n", pn->x1 + 6, y + 4, colour, text);
}

/* The medians across the panel, labelled at the right (apart when close). */
static void medians(struct ttcp_svg *s, const struct plot_panel *pn,
                    const struct ttcp_latency_summary *sum)
{
    double yi = 0.0, yl;
    if (sum->idle.valid) {
        plot_level(s, pn, sum->idle.median_ms, "lat-median idle", PLOT_LAT_IDLE, "4 3");
        yi = plot_y(pn, sum->idle.median_ms);
        median_label(s, pn, yi, "idle", PLOT_LAT_IDLE);
    }
    if (!sum->loaded.valid)
        return;
    plot_level(s, pn, sum->loaded.median_ms, "lat-median loaded", PLOT_LAT_LOADED, "8 4");
    yl = plot_y(pn, sum->loaded.median_ms);
    if (sum->idle.valid && fabs(yl - yi) < 12)
        yl = yl <= yi ? yi - 12 : yi + 12;
    median_label(s, pn, yl, "loaded", PLOT_LAT_LOADED);
}

/* The words above, the idle band's name. */
static void words(struct ttcp_svg *s, const struct plot_panel *pn, const struct ttcp_latency *l,
                  const struct ttcp_latency_summary *sum)
{
    char text[256];
    ttcp_svg_add(s, "<text class=\"lat-words\" x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" "
                 "font-size=\"13\" fill=\"#111\">", pn->x0, pn->y0 - 8);
    ttcp_svg_text(s, plot_words_latency(l, sum, text, sizeof text));
    ttcp_svg_add(s, "</text>\n");
    if (pn->t_min < 0)
        ttcp_svg_add(s, "<text class=\"idle-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                     "font-family=\"sans-serif\" font-size=\"11\" fill=\"#777\">idle</text>\n",
                     (pn->x0 + plot_x(pn, 0)) / 2, pn->y0 + 20);
}

void plot_latency(struct ttcp_svg *s, const struct ttcp_plot *p, struct plot_panel *pn)
{
    const struct ttcp_latency *l = p->latency;
    struct ttcp_latency_summary sum;
    if (!plot_latency_shown(p))
        return;
    ttcp_latency_summarise(l, &sum);
    pn->v_max = plot_top(rtt_max_ms(l), TICKS);
    pn->r_max = 0.0;
    ttcp_svg_add(s, "<g id=\"latency\">\n");
    plot_axes(s, pn, "RTT (ms)", NULL, 1);
    words(s, pn, l, &sum);
    medians(s, pn, &sum);
    ttcp_svg_add(s, "<clipPath id=\"latency-area\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                 "height=\"%.1f\"/></clipPath>\n<g clip-path=\"url(#latency-area)\">\n", pn->x0 - 3,
                 pn->y0 - 2, pn->x1 - pn->x0 + 6, pn->y1 - pn->y0 + 4);
    if (l->count <= LAT_POINTS_MAX)
        points(s, pn, l);
    else
        bins(s, pn, l);
    ttcp_svg_add(s, "</g>\n");
    if (sum.idle.answered + sum.loaded.answered == 0)
        plot_note(s, pn, "No probe was answered");
    ttcp_svg_add(s, "</g>\n");
}
