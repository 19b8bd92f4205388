#include "measure/pace.h"

#define AUTO_BURST_NS 10000000.0 /* 10 ms */
#define MAX_SLACK_NS 1000000ll   /* 1 ms */

void ttcp_pacer_start(struct ttcp_pacer *p, uint64_t bits_per_sec, uint64_t burst,
                      uint64_t buffer_len, int64_t now_ns)
{
    double buffer_ns;
    p->ns_per_bit = 1e9 / (double)bits_per_sec;
    p->origin_ns = now_ns;
    p->bits = 0;
    buffer_ns = (double)buffer_len * 8.0 * p->ns_per_bit;
    if (burst == 0)
        burst = buffer_ns >= AUTO_BURST_NS ? 1 : (uint64_t)(AUTO_BURST_NS / buffer_ns);
    p->max_lag_ns = (int64_t)((double)burst * buffer_ns);
}

int64_t ttcp_pacer_ahead(const struct ttcp_pacer *p, int64_t now_ns)
{
    int64_t due = p->origin_ns + (int64_t)((double)p->bits * p->ns_per_bit);
    return due > now_ns ? due - now_ns : 0;
}

int64_t ttcp_pacer_slack(const struct ttcp_pacer *p)
{
    return p->max_lag_ns < MAX_SLACK_NS ? p->max_lag_ns : MAX_SLACK_NS;
}

int64_t ttcp_pacer_wait(struct ttcp_pacer *p, uint64_t len, int64_t now_ns)
{
    int64_t due = p->origin_ns + (int64_t)((double)p->bits * p->ns_per_bit);
    if (now_ns - due > p->max_lag_ns) {
        p->origin_ns += (now_ns - due) - p->max_lag_ns; /* forgive the rest */
        due = now_ns - p->max_lag_ns;
    }
    p->bits += len * 8;
    return due > now_ns ? due - now_ns : 0;
}
