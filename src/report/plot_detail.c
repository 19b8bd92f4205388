/* Panel 2: what the intervals tell beside the throughput. TCP: the RTT
 * (a line, left axis) and the retransmits of each interval (bars, right
 * axis), as the OS reported them at each boundary; with -P the streams'
 * mean RTT and their retransmits added. UDP: the receiver's jitter (line)
 * and the share of datagrams lost (bars). */
#include "report/plot_draw.h"

#include <stdlib.h>
#include <string.h>

#define TICKS 4

/* One test's points: at t[k] (seconds), line[k] and bar[k] when ok[k]. */
struct detail {
    size_t n;
    double *t, *from, *to, *line, *bar;
    int *ok;
};

static void detail_free(struct detail *d)
{
    free(d->t);
    free(d->from);
    free(d->to);
    free(d->line);
    free(d->bar);
    free(d->ok);
    memset(d, 0, sizeof *d);
}

static int detail_alloc(struct detail *d, size_t n)
{
    memset(d, 0, sizeof *d);
    if (n == 0)
        return 0;
    d->t = calloc(n, sizeof *d->t);
    d->from = calloc(n, sizeof *d->from);
    d->to = calloc(n, sizeof *d->to);
    d->line = calloc(n, sizeof *d->line);
    d->bar = calloc(n, sizeof *d->bar);
    d->ok = calloc(n, sizeof *d->ok);
    if (!d->t || !d->from || !d->to || !d->line || !d->bar || !d->ok) {
        detail_free(d);
        return -1;
    }
    d->n = n;
    return 0;
}

/* Where interval k of the test is drawn: the total's, else the stream's. */
static void place(struct detail *d, size_t k, const struct ttcp_intervals *total,
                  const struct ttcp_interval *own)
{
    const struct ttcp_interval *in = k < total->count ? &total->list[k] : own;
    d->t[k] = plot_mid(in);
    d->from[k] = (double)in->start_ns / 1e9;
    d->to[k] = (double)in->end_ns / 1e9;
}

/* TCP: each stream's RTT into the mean, its retransmits since its last
 * boundary into the sum (the OS counts them from the connection's start). */
static void tcp_points(const struct ttcp_plot_test *pt, struct detail *d)
{
    const struct ttcp_result *parts = pt->parts != NULL ? pt->parts : pt->res;
    int n = pt->parts != NULL ? pt->n_parts : 1, i;
    for (i = 0; i < n; i++) {
        const struct ttcp_intervals *iv = &parts[i].intervals;
        uint64_t last = 0;
        size_t k;
        for (k = 0; k < iv->count && k < d->n; k++) {
            const struct ttcp_interval *in = &iv->list[k];
            if (!in->tcp_valid)
                continue;
            place(d, k, &pt->res->intervals, in);
            d->line[k] = (d->line[k] * d->ok[k] + in->tcp.srtt_us / 1000.0) / (d->ok[k] + 1);
            d->ok[k]++;
            d->bar[k] += in->tcp.retransmits > last ? (double)(in->tcp.retransmits - last) : 0.0;
            last = in->tcp.retransmits;
        }
    }
}

/* UDP: the receiver's own intervals (-P: their total, which adds them up). */
static void udp_points(const struct ttcp_plot_test *pt, struct detail *d)
{
    const struct ttcp_intervals *iv = &pt->res->intervals;
    size_t k;
    for (k = 0; k < iv->count && k < d->n; k++) {
        const struct ttcp_interval *in = &iv->list[k];
        if (!in->udp_valid)
            continue;
        place(d, k, iv, in);
        d->ok[k] = 1;
        d->line[k] = in->udp_jitter_ns / 1e6;
        d->bar[k] = in->udp_expected > 0
                        ? 100.0 * (double)in->udp_lost / (double)in->udp_expected : 0.0;
    }
}

/* The most intervals any stream of the test closed. */
static size_t longest(const struct ttcp_plot_test *pt)
{
    size_t n = pt->res->intervals.count;
    int i;
    for (i = 0; pt->parts != NULL && i < pt->n_parts; i++)
        if (pt->parts[i].intervals.count > n)
            n = pt->parts[i].intervals.count;
    return n;
}

/* Every test's points; the largest values; 1 when any point was found. */
static int gather(const struct ttcp_plot *p, struct detail *d, double *line_max,
                  double *bar_max)
{
    int i, any = 0;
    size_t k;
    *line_max = *bar_max = 0.0;
    for (i = 0; i < p->tests; i++) {
        if (detail_alloc(&d[i], longest(&p->test[i])) != 0)
            continue; /* out of memory: this test goes without */
        if (p->opts->udp)
            udp_points(&p->test[i], &d[i]);
        else
            tcp_points(&p->test[i], &d[i]);
        for (k = 0; k < d[i].n; k++) {
            if (!d[i].ok[k])
                continue;
            any = 1;
            if (d[i].line[k] > *line_max)
                *line_max = d[i].line[k];
            if (d[i].bar[k] > *bar_max)
                *bar_max = d[i].bar[k];
        }
    }
    return any;
}

/* Bars first (behind), side by side when several tests have them. */
static void draw_bars(struct ttcp_svg *s, const struct plot_panel *pn, const struct detail *d,
                      int slot, int slots, const char *colour)
{
    size_t k;
    for (k = 0; k < d->n; k++) {
        double x0, x1, w, top;
        if (!d->ok[k] || !(d->bar[k] > 0))
            continue;
        x0 = plot_x(pn, d->from[k]);
        x1 = plot_x(pn, d->to[k]);
        w = (x1 - x0) * 0.8 / slots;
        top = plot_y_right(pn, d->bar[k]);
        ttcp_svg_add(s, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                     "fill=\"%s\" fill-opacity=\"0.35\"/>\n", x0 + (x1 - x0) * 0.1 + w * slot,
                     top, w, pn->y1 - top, colour);
    }
}

static void draw_line(struct ttcp_svg *s, const struct plot_panel *pn, struct detail *d,
                      const char *colour)
{
    size_t k, m = 0;
    for (k = 0; k < d->n; k++) /* the points that have a value, packed to the front */
        if (d->ok[k]) {
            d->t[m] = d->t[k];
            d->line[m++] = d->line[k];
        }
    if (m > 0)
        plot_polyline(s, pn, d->t, d->line, m, "detail", colour, 1.8, 1.0);
}

/* Why the panel is empty, in a user's words. */
static const char *empty_reason(const struct ttcp_plot *p)
{
    int i, intervals = 0, receivers = 0;
    for (i = 0; i < p->tests; i++) {
        intervals += p->test[i].res->intervals.count > 0;
        receivers += !p->test[i].side->transmit;
    }
    if (intervals == 0)
        return "No interval was measured";
    if (!p->opts->udp)
        return "RTT and retransmits: this system gives no TCP statistics";
    if (receivers == 0)
        return "Loss and jitter are measured by the receiver: this end sent";
    return "Loss and jitter need ttcp's sequence header (not with --no-udp-stats or a classic ttcp)";
}

const char *plot_detail_line_name(const struct ttcp_plot *p)
{
    return p->opts->udp ? "jitter (ms, left)" : "RTT (ms, left)";
}

const char *plot_detail_bar_name(const struct ttcp_plot *p)
{
    return p->opts->udp ? "datagrams lost (%, right)" : "retransmits per interval (right)";
}

/* Whether a test has a point to draw here (a UDP transmitter has intervals
 * but no loss of its own): only those share the bars' room. */
static int has_points(const struct detail *d)
{
    size_t k;
    for (k = 0; k < d->n; k++)
        if (d->ok[k])
            return 1;
    return 0;
}

void plot_detail(struct ttcp_svg *s, const struct ttcp_plot *p, struct plot_panel *pn)
{
    struct detail d[TTCP_PLOT_TESTS];
    double line_max, bar_max;
    int i, any = gather(p, d, &line_max, &bar_max), slots = 0, slot = 0;
    pn->v_max = plot_top(line_max, TICKS);
    if (!p->opts->udp && bar_max < TICKS)
        bar_max = TICKS; /* retransmits are whole: steps of 1 at least */
    pn->r_max = any ? plot_top(bar_max, TICKS) : 0.0;
    plot_axes(s, pn, p->opts->udp ? "Jitter (ms)" : "RTT (ms)",
              p->opts->udp ? "Lost (%)" : "Retransmits", 1);
    for (i = 0; i < p->tests; i++)
        slots += has_points(&d[i]);
    for (i = 0; any && i < p->tests; i++)
        if (has_points(&d[i]))
            draw_bars(s, pn, &d[i], slot++, slots, plot_colour(i));
    for (i = 0; any && i < p->tests; i++)
        draw_line(s, pn, &d[i], plot_colour(i));
    if (!any)
        plot_note(s, pn, empty_reason(p));
    for (i = 0; i < p->tests; i++)
        detail_free(&d[i]);
}
