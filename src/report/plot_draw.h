/* The parts of a plot the panels share (plot_axes.c): a panel's box and
 * scales, nice ticks, axes, lines and the tests' colours. Inside report/
 * only; plot.c lays the document out with them. */
#ifndef TTCP_PLOT_DRAW_H
#define TTCP_PLOT_DRAW_H

#include <stddef.h>

#include "measure/interval.h"
#include "report/plot.h"
#include "report/svg.h"

/* The canvas, in SVG user units (CSS pixels). */
#define PLOT_WIDTH 960
#define PLOT_LEFT 90    /* the panels' left edge: room for the tick labels */
#define PLOT_RIGHT 880  /* their right edge: room for panel 2's right axis */

/* A panel: its box on the canvas and the data ranges it shows. */
struct plot_panel {
    double x0, x1, y0, y1; /* left, right, top, bottom */
    double t_max;          /* seconds at the right edge */
    double v_max;          /* the left axis's top value */
    double r_max;          /* the right axis's top value (0: none) */
    double t_min;          /* seconds at the left edge: 0, or --latency's idle start */
};

double plot_x(const struct plot_panel *pn, double seconds);
double plot_y(const struct plot_panel *pn, double value);
double plot_y_right(const struct plot_panel *pn, double value);

/* A step of 1, 2 or 5 times a power of ten that cuts max into about n. */
double plot_step(double max, int n);
/* The top of an axis for values up to max: the next step above it (1 for
 * nothing to show, so that an empty axis still has a scale). */
double plot_top(double max, int n);

/* The colour of test i, readable on white. */
const char *plot_colour(int i);

/* The frame, grid and tick labels: the time axis (labels below when
 * time_labels), the left axis with its title, the right one when r_max;
 * the time before 0 (t_min < 0: --latency's idle probes) shaded. */
void plot_axes(struct ttcp_svg *s, const struct plot_panel *pn, const char *left_title,
               const char *right_title, int time_labels);
/* A line through the points (t[i], v[i]), i < n, at the left scale. */
void plot_polyline(struct ttcp_svg *s, const struct plot_panel *pn, const double *t,
                   const double *v, size_t n, const char *cls, const char *colour,
                   double width, double opacity);
/* A horizontal line across the panel at value (left scale). */
void plot_level(struct ttcp_svg *s, const struct plot_panel *pn, double value,
                const char *cls, const char *colour, const char *dashes);
/* A line of text centred in the panel (a panel with nothing to show). */
void plot_note(struct ttcp_svg *s, const struct plot_panel *pn, const char *text);

/* An interval's middle, in seconds from its test's start: where its rate
 * is drawn. */
static inline double plot_mid(const struct ttcp_interval *in)
{
    return ((double)in->start_ns + (double)in->end_ns) / 2e9;
}

/* Panel 2 (plot_detail.c): RTT and retransmits (TCP) or jitter and loss
 * (UDP) of every test that has them, or a note saying why there are none.
 * pn has its box and t_max; the scales are set here. */
void plot_detail(struct ttcp_svg *s, const struct ttcp_plot *p, struct plot_panel *pn);
/* The words panel 2's line and bars stand for, for the legend. */
const char *plot_detail_line_name(const struct ttcp_plot *p);
const char *plot_detail_bar_name(const struct ttcp_plot *p);

/* Panel 3 (plot_latency.c): --latency's round trips, or nothing when
 * the plot has no samples. plot_latency_shown: 1 when it is drawn;
 * plot_latency_start: the seconds its first idle probe went at (0 when
 * none went before the data), the left edge of every panel. */
#define PLOT_LAT_IDLE "#8a8a8a"   /* idle probes and their median */
#define PLOT_LAT_LOADED "#0f766e" /* loaded ones */
#define PLOT_LAT_LOST "#dc2626"   /* a probe that never came back */
int plot_latency_shown(const struct ttcp_plot *p);
double plot_latency_start(const struct ttcp_plot *p);
/* The seconds the last probe went at (0 when none). */
double plot_latency_end(const struct ttcp_plot *p);
void plot_latency(struct ttcp_svg *s, const struct ttcp_plot *p, struct plot_panel *pn);

#endif
