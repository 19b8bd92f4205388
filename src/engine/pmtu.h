/* --pmtu: the path MTU toward the test's host, found by probes that no
 * router may fragment. */
#ifndef TTCP_ENGINE_PMTU_H
#define TTCP_ENGINE_PMTU_H

#include "config/options.h"
#include "measure/pmtu.h"
#include "measure/result.h"

/* Finds the path MTU to opts->host (as -4/-6 choose). Bounded: at most
 * TTCP_PMTU_PROBES_MAX probes of at most TTCP_PMTU_PROBE_MS each,
 * TTCP_PMTU_LIMIT_NS in all. Returns 0 (out filled; cut short by Ctrl+C
 * or the limit, it holds what was known), or the TT_E_* code also in
 * *failure. */
int ttcp_pmtu_find(const struct ttcp_options *opts, struct ttcp_pmtu *out,
                   struct ttcp_failure *failure);
/* The same toward an address (a client's server). */
int ttcp_pmtu_find_to(const struct tt_addr *dest, struct ttcp_pmtu *out,
                      struct ttcp_failure *failure);

#endif
