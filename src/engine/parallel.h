/* -P between two ttcp's (the classic pair): n tests side by side, each on
 * a thread of its own and a port of its own (-p + i - 1), then their total. */
#ifndef TTCP_PARALLEL_H
#define TTCP_PARALLEL_H

#include "config/options.h"
#include "measure/result.h"

struct ttcp_parallel {
    int n;
    struct ttcp_options *opts;   /* stream i's: its number, port, share of -R, CPU */
    struct ttcp_result *results; /* stream i's figures */
    int *rc;                     /* stream i's outcome: 0 or a TT_E_* code */
    struct ttcp_result total;    /* their sum (measure/sum.h), the process's CPU */
};

/* Runs opts->streams tests of opts side by side. The observer hears each
 * stream's events (ev->opts: the stream's options, tagged with its number)
 * and the total's intervals and FIGURES (ev->opts: opts), one at a time.
 * Returns 0 when every stream succeeded, else the first failing stream's
 * code; out is filled either way (release it with ttcp_parallel_release). */
int ttcp_run_parallel(const struct ttcp_options *opts, const struct ttcp_observer *obs,
                      struct ttcp_parallel *out);
void ttcp_parallel_release(struct ttcp_parallel *p);

#endif
