/* Our runs' figures as iperf3's results message carries them
 * (run_figures.h), for both ends. */
#include "peers/iperf3/run_figures.h"

#include <string.h>

#define NS 1e9

void ttcp_iperf3_stream_figures(const struct ttcp_result *r, int32_t id, int sending, int udp,
                                uint64_t buflen, struct ttcp_iperf3_stream_result *s)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    s->bytes = r->bytes;
    s->retransmits = sending && r->tcp_end_valid ? (int64_t)r->tcp_end.retransmits : -1;
    s->end_time = (double)r->real_ns / NS;
    if (!udp)
        return;
    if (sending) {
        s->packets = buflen ? r->bytes / buflen : 0;
    } else if (r->udp_stats_valid) {
        s->packets = r->udp.expected;
        s->errors = ttcp_udp_stats_lost(&r->udp);
        s->jitter_s = r->udp.jitter_ns / NS;
    }
}

void ttcp_iperf3_cpu_share(const struct ttcp_result *const *runs, int n,
                           struct ttcp_iperf3_results *out)
{
    int64_t user = 0, sys = 0, real = 0;
    int i;
    for (i = 0; i < n; i++) {
        user += runs[i]->cpu_end.user_ns - runs[i]->cpu_start.user_ns;
        sys += runs[i]->cpu_end.sys_ns - runs[i]->cpu_start.sys_ns;
        if (runs[i]->real_ns > real)
            real = runs[i]->real_ns;
    }
    if (real <= 0)
        return;
    out->cpu_user = 100.0 * (double)user / (double)real;
    out->cpu_system = 100.0 * (double)sys / (double)real;
    out->cpu_total = out->cpu_user + out->cpu_system;
}
