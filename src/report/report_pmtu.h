/* --pmtu's line: the path MTU found, from the search's facts. */
#ifndef TTCP_REPORT_PMTU_H
#define TTCP_REPORT_PMTU_H

#include <stddef.h>

#include "measure/pmtu.h"

/* "ttcp-t: path MTU to host: 1280 (found by 2 probes in 1.2 ms; the route's
 * was 1500)", with what made it less than certain. */
size_t ttcp_report_pmtu(const char *side, const char *host, const struct ttcp_pmtu *p,
                        char *buf, size_t len);

#endif
