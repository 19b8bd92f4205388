/* The lines beyond 1.12's, printed when an extension asks for them:
 * intervals, CPU use, link efficiency, UDP statistics, verification. Pure. */
#ifndef TTCP_REPORT_EXTRA_H
#define TTCP_REPORT_EXTRA_H

#include <stddef.h>

#include "base/text.h"
#include "config/options.h"
#include "measure/result.h"

/* One -i line: "ttcp-t: 0.00-0.50 sec 61865984 bytes written = 944.00 Mbit/sec". */
size_t ttcp_report_interval(const struct ttcp_options *o, const struct ttcp_interval *in,
                            char *buf, size_t len);
void ttcp_report_extras(const struct ttcp_options *o, const struct ttcp_result *r,
                        struct ttcp_text *t);

/* CPU time as a share of the figure's time; the engine reads both over
 * the same interval. */
double ttcp_cpu_percent(const struct ttcp_result *r);

#endif
