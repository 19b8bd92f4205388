/* A panel's scales, ticks, axes and lines: what the throughput panel and
 * the detail panel draw alike. */
#include "report/plot_draw.h"

#include <math.h>

#define TICKS 5             /* about this many steps on each axis */
#define FONT "font-family=\"sans-serif\" font-size=\"12\" fill=\"#333\""

static const char *const colours[] = {"#1f5fbf", "#c2410c", "#15803d", "#7e22ce"};

const char *plot_colour(int i)
{
    return colours[(unsigned)i % (sizeof colours / sizeof colours[0])];
}

double plot_x(const struct plot_panel *pn, double seconds)
{
    double span = pn->t_max - pn->t_min;
    double t = span > 0 ? (seconds - pn->t_min) / span : 0.0;
    return ttcp_svg_coord(pn->x0 + t * (pn->x1 - pn->x0));
}

static double scale_y(const struct plot_panel *pn, double value, double top)
{
    double v = top > 0 ? value / top : 0.0;
    return ttcp_svg_coord(pn->y1 - v * (pn->y1 - pn->y0));
}

double plot_y(const struct plot_panel *pn, double value)
{
    return scale_y(pn, value, pn->v_max);
}

double plot_y_right(const struct plot_panel *pn, double value)
{
    return scale_y(pn, value, pn->r_max);
}

double plot_step(double max, int n)
{
    double raw, power, f;
    if (!(max > 0) || !isfinite(max))
        return 1.0;
    raw = max / n;
    power = pow(10.0, floor(log10(raw)));
    f = raw / power;
    return power * (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0);
}

double plot_top(double max, int n)
{
    double step = plot_step(max, n);
    if (!(max > 0) || !isfinite(max))
        return 1.0;
    return step * ceil(max / step + 1e-9);
}

/* Enough decimals to tell the steps apart: 0 for 1, 2, 5, 10..., 1 for 0.5 */
static int decimals(double step)
{
    int d = (int)-floor(log10(step) + 1e-9);
    return d < 0 ? 0 : d > 6 ? 6 : d;
}

/* The ticks at whole steps from the left edge (negative: idle) to the right. */
static void time_axis(struct ttcp_svg *s, const struct plot_panel *pn, int labels)
{
    double step = plot_step(pn->t_max - pn->t_min, 8);
    long k = (long)ceil(pn->t_min / step - 1e-9);
    int d = decimals(step);
    for (; k * step <= pn->t_max * (1 + 1e-9) + 1e-12; k++) {
        double t = k * step, x = plot_x(pn, t);
        ttcp_svg_add(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e6e6e6\"/>\n",
                     x, pn->y0, x, pn->y1);
        if (labels)
            ttcp_svg_add(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" " FONT ">%.*f</text>\n",
                         x, pn->y1 + 16, d, t);
    }
}

static void value_axis(struct ttcp_svg *s, const struct plot_panel *pn, double top, int right,
                       const char *title)
{
    double step = plot_step(top, TICKS), v;
    double x = right ? pn->x1 + 6 : pn->x0 - 6, mid = (pn->y0 + pn->y1) / 2;
    double title_x = right ? PLOT_WIDTH - 14 : 22;
    int d = decimals(step);
    for (v = 0; v <= top * (1 + 1e-9); v += step) {
        double y = scale_y(pn, v, top);
        if (!right)
            ttcp_svg_add(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"#e6e6e6\"/>\n", pn->x0, y, pn->x1, y);
        ttcp_svg_add(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" " FONT ">%.*f</text>\n",
                     x, y + 4, right ? "start" : "end", d, v);
    }
    ttcp_svg_add(s, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\" "
                 FONT ">", title_x, mid);
    ttcp_svg_text(s, title);
    ttcp_svg_add(s, "</text>\n");
}

void plot_axes(struct ttcp_svg *s, const struct plot_panel *pn, const char *left_title,
               const char *right_title, int time_labels)
{
    if (pn->t_min < 0) /* before the data: --latency's idle probes */
        ttcp_svg_add(s, "<rect class=\"idle\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\" fill=\"#f1f1f1\"/>\n", pn->x0, pn->y0,
                     plot_x(pn, 0) - pn->x0, pn->y1 - pn->y0);
    time_axis(s, pn, time_labels);
    value_axis(s, pn, pn->v_max, 0, left_title);
    if (pn->r_max > 0)
        value_axis(s, pn, pn->r_max, 1, right_title);
    ttcp_svg_add(s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                 "stroke=\"#888\"/>\n", pn->x0, pn->y0, pn->x1 - pn->x0, pn->y1 - pn->y0);
}

void plot_polyline(struct ttcp_svg *s, const struct plot_panel *pn, const double *t,
                   const double *v, size_t n, const char *cls, const char *colour,
                   double width, double opacity)
{
    size_t i;
    ttcp_svg_add(s, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" "
                 "stroke-opacity=\"%.2f\" stroke-linejoin=\"round\" points=\"", cls, colour,
                 width, opacity);
    for (i = 0; i < n; i++)
        ttcp_svg_add(s, "%s%.1f,%.1f", i ? " " : "", plot_x(pn, t[i]), plot_y(pn, v[i]));
    ttcp_svg_add(s, "\"/>\n");
    if (n == 1) /* a line of one point shows nothing: a short test's one interval, say */
        ttcp_svg_add(s, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" "
                     "fill-opacity=\"%.2f\"/>\n", cls, plot_x(pn, t[0]), plot_y(pn, v[0]),
                     width + 1.5, colour, opacity);
}

void plot_level(struct ttcp_svg *s, const struct plot_panel *pn, double value, const char *cls,
                const char *colour, const char *dashes)
{
    double y = plot_y(pn, value);
    ttcp_svg_add(s, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                 "stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"%s\"/>\n", cls, pn->x0,
                 y, pn->x1, y, colour, dashes);
}

void plot_note(struct ttcp_svg *s, const struct plot_panel *pn, const char *text)
{
    ttcp_svg_add(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-family=\"sans-serif\" "
                 "font-size=\"13\" fill=\"#666\">", (pn->x0 + pn->x1) / 2, (pn->y0 + pn->y1) / 2);
    ttcp_svg_text(s, text);
    ttcp_svg_add(s, "</text>\n");
}
