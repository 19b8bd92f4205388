/* The Prometheus text exposition format (version 0.0.4) of a probe's
 * figures and of the exporter's own counters: facts in, text out, pure. */
#ifndef TTCP_REPORT_PROMETHEUS_H
#define TTCP_REPORT_PROMETHEUS_H

#include <stddef.h>
#include <stdint.h>

#include "config/options.h"
#include "measure/compression.h"
#include "measure/latency.h"
#include "measure/result.h"
#include "remote/wire_web.h"

/* web=1: what the server said of its browser tests (-S --web). */
struct ttcp_prom_web {
    int answered;                         /* it answered web_results (0: older, or failed) */
    uint64_t tests;                       /* its browser tests since it started (0: none) */
    const struct ttcp_web_record *latest; /* the newest kept (NULL: none) */
};

/* One probe: the test's options, the transmitter's and the receiver's
 * results (both NULL when the test did not complete: ttcp_up 0 and the
 * duration alone), how long the probe took. With o->analyze, the
 * sender's analysis facts (measure/analysis.h) too; with compression,
 * the two runs' rates and their ratio (the figures above are the first,
 * classic run's); with latency, the round trips' quantiles idle and
 * loaded, the increase and the grade, each where it is known. */
struct ttcp_prom_probe {
    const char *target;           /* the label's value, as asked */
    const struct ttcp_options *o; /* the test's options (UDP: its -l) */
    const struct ttcp_result *tx, *rx;
    int64_t duration_ns;
    const struct ttcp_compression *compression; /* NULL: not asked */
    const struct ttcp_latency *latency;         /* latency=1's probes (NULL: not asked) */
    const struct ttcp_prom_web *web;            /* web=1's answer (NULL: not asked) */
};

/* The exporter's own counters since it started. */
struct ttcp_prom_counters {
    uint64_t probes;       /* probes run (a test was attempted) */
    uint64_t failures;     /* of those, the ones whose test did not complete */
    uint64_t refused;      /* 403: a target outside the allow-list */
    uint64_t bad_requests; /* 400 */
    uint64_t busy;         /* 503: the target or the exporter was busy */
    int64_t duration_ns;   /* the probes' durations, summed */
};

/* The probe's exposition into buf (cut at len, always a string); its length. */
size_t ttcp_prometheus_probe(const struct ttcp_prom_probe *p, char *buf, size_t len);
/* /metrics: the exporter's counters. */
size_t ttcp_prometheus_counters(const struct ttcp_prom_counters *c, char *buf, size_t len);

#endif
