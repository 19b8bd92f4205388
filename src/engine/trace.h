/* --traceroute: probes with a rising hop limit toward the test's host. */
#ifndef TTCP_ENGINE_TRACE_H
#define TTCP_ENGINE_TRACE_H

#include "config/options.h"
#include "measure/hops.h"

/* Traces the path to opts->host (as -4/-6 choose), telling hop(ctx, ...)
 * each hop as it is known (and once first with no hop: the destination is
 * resolved). Bounded: TTCP_TRACE_MAX_HOPS hops, TTCP_TRACE_PROBES probes of
 * at most TTCP_TRACE_PROBE_MS each, TTCP_TRACE_LIMIT_NS in all. Returns 0,
 * or the TT_E_* code also in out->failure. */
int ttcp_trace(const struct ttcp_options *opts,
               void (*hop)(void *ctx, const struct ttcp_trace *t, const struct ttcp_hop *h),
               void *ctx, struct ttcp_trace *out);
/* The same toward an address (a server tracing back to its client). */
int ttcp_trace_to(const struct tt_addr *dest,
                  void (*hop)(void *ctx, const struct ttcp_trace *t, const struct ttcp_hop *h),
                  void *ctx, struct ttcp_trace *out);

#endif
