/* --traceroute: the path to the peer, hop by hop, as facts. */
#ifndef TTCP_HOPS_H
#define TTCP_HOPS_H

#include <stdint.h>

#include "measure/result.h"
#include "ttcp/platform.h"

#define TTCP_TRACE_PROBES 3     /* per hop */
#define TTCP_TRACE_MAX_HOPS 30
#define TTCP_TRACE_PROBE_MS 1000 /* how long a probe waits for its answer */
#define TTCP_TRACE_LIMIT_NS (30ll * 1000000000ll) /* the whole trace, at most */
#define TTCP_TRACE_NAME_MS 250  /* how long a hop's name may take to be found */

struct ttcp_hop {
    int ttl;
    int answered;                        /* probes that got an answer */
    struct tt_addr from;                 /* who answered (valid when answered) */
    char name[128];                      /* its name, when one was found in time ("": none) */
    int64_t rtt_ns[TTCP_TRACE_PROBES];   /* -1: no answer in time */
    int reached;                         /* the destination itself answered */
};

struct ttcp_trace {
    struct tt_addr dest;
    int dest_valid;
    struct ttcp_hop hops[TTCP_TRACE_MAX_HOPS];
    int count;
    int reached;                         /* the last hop is the destination */
    int cut_short;                       /* the time limit or Ctrl+C ended it */
    int interrupted;                     /* ... Ctrl+C did */
    struct ttcp_failure failure;
};

#endif
