/* --compression's arithmetic (measure/compression.h). */
#include "measure/compression.h"

/* A completed run's bits per second; 0 when it has no figure to give. */
static double run_bps(const struct ttcp_compression_run *r)
{
    if (!r->complete || r->bytes == 0 || r->real_ns <= 0)
        return 0.0;
    return (double)r->bytes * 8.0 / ((double)r->real_ns / 1e9);
}

void ttcp_compression_judge(struct ttcp_compression *c, const struct ttcp_compression_run *classic,
                            const struct ttcp_compression_run *random)
{
    c->classic_bps = run_bps(classic);
    c->random_bps = run_bps(random);
    c->ratio = 0.0;
    c->cpu_percent = classic->cpu_percent > random->cpu_percent ? classic->cpu_percent
                                                                 : random->cpu_percent;
    c->finding = TTCP_COMPRESSION_UNKNOWN;
    if (c->classic_bps <= 0.0 || c->random_bps <= 0.0)
        return;
    c->ratio = c->classic_bps / c->random_bps;
    if (c->ratio <= TTCP_COMPRESSION_THRESHOLD)
        c->finding = TTCP_COMPRESSION_NONE;
    else if (c->cpu_percent > TTCP_COMPRESSION_CPU_BOUND)
        c->finding = TTCP_COMPRESSION_HOST_BOUND;
    else
        c->finding = TTCP_COMPRESSION_FOUND;
}
