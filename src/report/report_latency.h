/* --latency: its lines after the figures and its JSON object, from the
 * samples (measure/latency.h). Pure. */
#ifndef TTCP_REPORT_LATENCY_H
#define TTCP_REPORT_LATENCY_H

#include <stddef.h>

#include "measure/latency.h"
#include "report/json.h"

const char *ttcp_latency_grade_text(enum ttcp_latency_grade g);
const char *ttcp_latency_source_code(enum ttcp_latency_source s);
/* The lines, each tagged ttcp<side>: (-C for a client, -t for a classic
 * transmitter); their length in buf. */
size_t ttcp_report_latency(const char *tag, const struct ttcp_latency *l, char *buf, size_t len);
/* The document's "latency" object at the level the writer is at, its
 * series in bins of width_ns. */
struct ttcp_options;
/* The series' bins: -i's period, else a second. */
int64_t ttcp_latency_bin_width(const struct ttcp_options *o);
void ttcp_json_latency(struct ttcp_json *j, const struct ttcp_latency *l, int64_t width_ns);
#endif
