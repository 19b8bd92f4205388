/* --traceroute's lines: the path, hop by hop, from the trace's facts. */
#ifndef TTCP_REPORT_TRACE_H
#define TTCP_REPORT_TRACE_H

#include <stddef.h>

#include "config/options.h"
#include "measure/trace.h"

/* "ttcp-t: traceroute to 10.0.0.2, at most 30 hops" */
size_t ttcp_report_trace_start(const struct ttcp_options *o, const struct ttcp_trace *t,
                               char *buf, size_t len);
/* "ttcp-t:  1  10.0.0.1  0.081 ms  0.042 ms  *" (* : no answer in time) */
size_t ttcp_report_hop(const struct ttcp_options *o, const struct ttcp_hop *h, char *buf,
                       size_t len);
/* How the trace ended, when not at the destination (else nothing). */
size_t ttcp_report_trace_end(const struct ttcp_options *o, const struct ttcp_trace *t,
                             char *buf, size_t len);

#endif
