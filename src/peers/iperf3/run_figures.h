/* What both ends of iperf3's protocol put in their results message from
 * their own runs of the streams (figures.c for the client, serve_figures.c
 * for the server). */
#ifndef TTCP_PEERS_IPERF3_RUN_FIGURES_H
#define TTCP_PEERS_IPERF3_RUN_FIGURES_H

#include "measure/result.h"
#include "peers/iperf3/wire.h"

/* Stream id's figures from our run r of it: sending (our end sent it:
 * its retransmits; UDP: its datagrams, bytes / buflen) or receiving
 * (UDP: the datagrams expected, lost, and the jitter). */
void ttcp_iperf3_stream_figures(const struct ttcp_result *r, int32_t id, int sending, int udp,
                                uint64_t buflen, struct ttcp_iperf3_stream_result *s);
/* The CPU share of our n runs, in percent of the longest one's time, as
 * iperf3 reports its own, into out's cpu_*. */
void ttcp_iperf3_cpu_share(const struct ttcp_result *const *runs, int n,
                           struct ttcp_iperf3_results *out);

#endif
