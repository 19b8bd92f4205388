/* --plot: a test drawn over time, as one self-contained SVG document.
 * Pure: facts (options, results and their intervals) in, text out; the
 * caller writes the file. Panel 1 is the throughput of every end and
 * stream with the classic averages and --link-rate; panel 2 what the
 * intervals tell beside it: RTT and retransmits for TCP, loss and jitter
 * for a UDP receiver; with --latency's samples, panel 3 their round trips,
 * idle ones left of 0, on the same time axis. */
#ifndef TTCP_PLOT_H
#define TTCP_PLOT_H

#include "config/options.h"
#include "measure/latency.h"
#include "measure/result.h"
#include "report/svg.h"

#define TTCP_PLOT_TESTS 4 /* -C --bidir: each way at each end */

/* One end's test: a line of its own (with -P, its total's), its average,
 * and the thin lines of its streams. */
struct ttcp_plot_test {
    const struct ttcp_options *side; /* the end's options: -t or -r */
    const struct ttcp_result *res;   /* its figures (-P: the streams' total) */
    const struct ttcp_result *parts; /* -P: each stream's; NULL with one */
    int n_parts;
    int remote;                      /* the server measured it (-C) */
};

struct ttcp_plot {
    const struct ttcp_options *opts; /* the run as typed: title, -f, --link-rate */
    const char *date;                /* when it ran, as the caller words it (NULL: left out) */
    struct ttcp_plot_test test[TTCP_PLOT_TESTS];
    int tests;
    const struct ttcp_latency *latency; /* --latency's samples (NULL: no panel 3) */
};

void ttcp_plot_init(struct ttcp_plot *p, const struct ttcp_options *opts, const char *date);
/* One end's test, or with -P its total and n streams (parts, n; else NULL,
 * 0). Tests past TTCP_PLOT_TESTS are left out. */
void ttcp_plot_add(struct ttcp_plot *p, const struct ttcp_options *side,
                   const struct ttcp_result *res, const struct ttcp_result *parts, int n,
                   int remote);
/* --latency's samples, drawn in panel 3 when there is one at least (they
 * must outlive the plot; NULL or none: no panel). */
void ttcp_plot_latency(struct ttcp_plot *p, const struct ttcp_latency *l);

/* The document into out (out->failed: memory ran out, the text is cut). */
void ttcp_plot_svg(const struct ttcp_plot *p, struct ttcp_svg *out);

#endif
