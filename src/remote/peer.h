/* Another tool's protocol, as one row of cli/peers.c's table names it
 * (docs/DESIGN.md, "Other tools' protocols"): its client end, that
 * `ttcp -C --<tool>` runs, and its server end, that `ttcp -S` serves.
 * The code is in src/peers/<tool>/; this type is what plugs it in, so
 * that neither client/ nor server/ names a tool. */
#ifndef TTCP_REMOTE_PEER_H
#define TTCP_REMOTE_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "config/options.h"
#include "remote/outcome.h"

/* -C --<tool>: refuses, in a one-line reason, what the protocol cannot
 * carry (an option the tool has no field for): 0, or -1 with why. */
typedef int (*ttcp_peer_check)(const struct ttcp_options *o, char *why, size_t why_len);

/* -C --<tool>: the test against the tool's server, as ttcp_client_run_until()
 * runs ttcp's own: fills out (the client's figures, the server's as its
 * results said), hands each end's facts to obs; 0, or -1 with out->problem. */
typedef int (*ttcp_peer_test)(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                              struct ttcp_client_outcome *out, int64_t deadline);

struct ttcp_peer {
    const char *name;      /* "iperf3": its option (--iperf3), its name in lines and JSON */
    int far_end;           /* enum ttcp_far_end: the -C option that picks it */
    ttcp_peer_check check; /* NULL: every option the client takes carries over */
    ttcp_peer_test test;   /* NULL: this build has no client end for it */
};

#endif
