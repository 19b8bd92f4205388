/* 1.12's rusage line: "0.0user 2.1sys 0:03real 70% 0i+0d 918maxrss 0+2pf 7945+12833csw". */
#ifndef TTCP_RUSAGE_H
#define TTCP_RUSAGE_H

#include <stddef.h>
#include <stdint.h>

#include "ttcp/platform.h"

const char *ttcp_rusage_format(const struct tt_cpu *start, const struct tt_cpu *end,
                               int64_t real_ns, char *buf, size_t len);

#endif
