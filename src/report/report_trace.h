/* --traceroute's lines: the path, hop by hop, from the trace's facts. */
#ifndef TTCP_REPORT_TRACE_H
#define TTCP_REPORT_TRACE_H

#include <stddef.h>

#include "measure/hops.h"

/* side: the lines' tag after "ttcp" ("-t"; "-S" for a server's trace back
 * to its client, shown by the client). */
/* "ttcp-t: traceroute to host (10.0.0.2), at most 30 hops, 3 probes each" */
size_t ttcp_report_trace_start(const char *side, const char *host, const struct ttcp_trace *t,
                               char *buf, size_t len);
/* "ttcp-t:  1  10.0.0.1  0.081 ms  0.042 ms  *" (* : no answer in time), or
 * with the hop's name "ttcp-t:  1  gw.example (10.0.0.1)  ..." */
size_t ttcp_report_hop(const char *side, const struct ttcp_hop *h, char *buf, size_t len);
/* How the trace ended, when not at the destination (else nothing). */
size_t ttcp_report_trace_end(const char *side, const struct ttcp_trace *t, char *buf,
                             size_t len);

#endif
