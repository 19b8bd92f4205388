/* ttcp-exporter: one probe, a ttcp -C test run in this process, and its
 * exposition text; and what the exporter shares between its requests. */
#ifndef TTCP_EXPORTER_PROBE_H
#define TTCP_EXPORTER_PROBE_H

#include "exporter/request.h"
#include "report/report_prometheus.h"

/* Runs the plan's test (blocking, bounded by its --time and the client's
 * own deadlines); the exposition into buf. 1 when the test completed. */
int exporter_probe_run(struct exporter_plan *plan, char *buf, size_t len, int64_t *ns);

/* The probes running now (one per target, at most max) and the counters,
 * under one lock. */
struct exporter_state {
    struct tt_mutex *lock;
    int max;
    char running[16][EXPORTER_TARGET_LEN + 1];
    int used[16];
    struct ttcp_prom_counters counters;
};
#define EXPORTER_PROBES_MAX 16

int exporter_state_init(struct exporter_state *s, int max);
/* A slot for target: its index, or -1 when the target is probed now, -2
 * when max probes run (counted as busy either way). */
int exporter_begin(struct exporter_state *s, const char *target);
void exporter_end(struct exporter_state *s, int slot, int completed, int64_t ns);
/* Counts a refused request (status 400 or 403). */
void exporter_count(struct exporter_state *s, int status);
size_t exporter_counters_text(struct exporter_state *s, char *buf, size_t len);

#endif
