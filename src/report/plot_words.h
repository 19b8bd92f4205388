/* A plot's words (plot_words.c): the test as a person would describe it,
 * the legend's entries, the axes' titles. Each fills buf and returns it. */
#ifndef TTCP_PLOT_WORDS_H
#define TTCP_PLOT_WORDS_H

#include <stddef.h>

#include "base/rate.h"
#include "measure/latency.h"
#include "report/plot.h"

/* "ttcp: TCP to host.example, 8192-byte buffers, 4 streams" */
const char *plot_words_title(const struct ttcp_plot *p, char *buf, size_t len);
/* When, the period of the intervals, the port, pacing, how it ended. */
const char *plot_words_subtitle(const struct ttcp_plot *p, char *buf, size_t len);
/* A test's legend entry: which end, which way, its average. */
const char *plot_words_test(const struct ttcp_plot *p, const struct ttcp_plot_test *t,
                            enum ttcp_unit unit, char *buf, size_t len);
/* "link rate 10.000 Mbps (--link-rate)" */
const char *plot_words_link(const struct ttcp_options *o, char *buf, size_t len);
/* "Throughput (Mbps)", "Throughput (KB/sec)" */
const char *plot_words_rate_axis(enum ttcp_unit unit, char *buf, size_t len);
/* --latency's panel: "Latency under load: +182.00 ms, grade C | idle median
 * 1.20 ms, loaded median 183.20 ms | UDP probes every 0.1 s, 3 of 320 lost". */
const char *plot_words_latency(const struct ttcp_latency *l, const struct ttcp_latency_summary *s,
                               char *buf, size_t len);

#endif
