/* --analyze: which of measure/analysis.c's numbers make a finding (the
 * thresholds), and the findings' words: a short block after an end's
 * figures, one line each with its numbers. The JSON's `analysis` object
 * (report_json.c) takes the same codes. Pure. */
#ifndef TTCP_REPORT_ANALYSIS_H
#define TTCP_REPORT_ANALYSIS_H

#include "base/text.h"
#include "config/options.h"
#include "measure/analysis.h"
#include "measure/result.h"

/* A share of the sender's time at or above this is what limited the test. */
#define TTCP_LIMITED_SHARE 0.5
/* Linux counts the sender's limits in jiffies (1 to 10 ms): a span shorter
 * than this is too coarse to say what limited it. */
#define TTCP_LIMITS_MIN_SECONDS 0.2
/* An end that spent this much of a core over the test, running, waiting
 * to run (a busy host) or held back by a CPU quota, measured its host. */
#define TTCP_CPU_BOUND_PERCENT 75.0
/* An end that a CPU quota held back this much of the test had its figure
 * held down by the quota (cpu_quota), CPU-bound or not: on a busy host
 * the time it waited, and the time the receiver held it, vary, and the
 * quota's share of the test is the fact that names the quota. */
#define TTCP_QUOTA_HELD_PERCENT 10.0

/* The share of the test's time the end ran, waited for a CPU or was held
 * back by a CPU quota, per cent. */
double ttcp_analysis_cpu_wanted(const struct ttcp_analysis *a);
/* Whether the end was CPU-bound; whether a CPU quota held it back. */
int ttcp_analysis_cpu_bound(const struct ttcp_analysis *a);
int ttcp_analysis_quota_held(const struct ttcp_analysis *a);

enum ttcp_finding {
    TTCP_FINDING_RWND,      /* limited by the receiver's window */
    TTCP_FINDING_SNDBUF,    /* by the sender's own send buffer */
    TTCP_FINDING_NETWORK,   /* by the network (the congestion window) */
    TTCP_FINDING_APP,       /* by the application: nothing to send */
    TTCP_FINDING_CPU_BOUND, /* the end spent most of a core */
    TTCP_FINDING_CPU_QUOTA, /* a CPU quota held it back a tenth of the test or more */
    TTCP_FINDING_COUNT
};

/* The analysis of one end's result, with the options that end ran with. */
void ttcp_analysis_of(const struct ttcp_options *o, const struct ttcp_result *r,
                      struct ttcp_analysis *a);
/* The limit that held the sender back most of the time (a window-bound
 * sender's network time counted as the window's), or
 * TTCP_LIMIT_COUNT when none did (or the shares are not known). */
enum ttcp_limit ttcp_analysis_limited_by(const struct ttcp_analysis *a);
/* The share of the time that limit held the sender back: its own, but for
 * the receiver's window of a window-bound sender, the network's time too. */
double ttcp_analysis_limit_share(const struct ttcp_analysis *a, enum ttcp_limit l);
/* The findings, 1u << enum ttcp_finding each. */
unsigned ttcp_analysis_findings(const struct ttcp_analysis *a);
const char *ttcp_finding_code(enum ttcp_finding f);
const char *ttcp_limit_code(enum ttcp_limit l);
const char *ttcp_mtu_source_code(enum ttcp_mtu_source s);
/* The TT_TCPI_* fields' names, for what the OS did not give. */
const char *ttcp_tcpi_field_code(unsigned bit);

/* The block of findings after an end's figures. */
void ttcp_report_analysis(const struct ttcp_options *o, const struct ttcp_result *r,
                          struct ttcp_text *t);

#endif
