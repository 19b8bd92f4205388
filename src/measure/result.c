/* A result's own memory, and the seconds its figures are read in. */
#include "measure/result.h"

void ttcp_result_release(struct ttcp_result *res)
{
    ttcp_intervals_free(&res->intervals);
    ttcp_latency_free(&res->latency);
}

double ttcp_real_seconds(const struct ttcp_result *r)
{
    double secs = (double)r->real_ns / 1e9;
    return secs > 0.0 ? secs : 0.001;
}

double ttcp_cpu_seconds(const struct ttcp_result *r)
{
    return (double)((r->cpu_end.user_ns - r->cpu_start.user_ns) +
                    (r->cpu_end.sys_ns - r->cpu_start.sys_ns)) / 1e9;
}
