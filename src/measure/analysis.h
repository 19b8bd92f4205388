/* --analyze's arithmetic, pure: one end's facts (its result, the link's
 * rate, the framing) in, numbers out: what held a TCP sender back, as
 * shares of the test's time; the window against the path; the -b that
 * would lift a window's limit; RFC 6349's metrics. What counts as a
 * finding, and its words, are report/'s (report/report_analysis.c). */
#ifndef TTCP_ANALYSIS_H
#define TTCP_ANALYSIS_H

#include <stdint.h>

#include "measure/result.h"

/* What held the sender back, each a share of the test's time: the
 * receiver's window, its own send buffer, the network (the congestion
 * window, data in flight), the application (nothing to send). */
enum ttcp_limit {
    TTCP_LIMIT_RWND,
    TTCP_LIMIT_SNDBUF,
    TTCP_LIMIT_CWND,
    TTCP_LIMIT_APP,
    TTCP_LIMIT_COUNT
};

/* Where the path MTU of RFC 6349's figures came from. */
enum ttcp_mtu_source {
    TTCP_MTU_NONE,   /* not known */
    TTCP_MTU_GIVEN,  /* --mtu */
    TTCP_MTU_PROBED, /* --pmtu's search before the test */
    TTCP_MTU_SOCKET  /* the connection's own path MTU, as the OS held it at the end */
};

/* RFC 6349 counts a segment's payload as the MTU less 40 bytes (IPv4 and
 * TCP headers without options). */
#define TTCP_RFC6349_HEADERS 40

/* The -b advice is rounded up to whole KiB and kept within -b's bound. */
#define TTCP_ADVICE_ROUND 1024u
#define TTCP_ADVICE_MAX (1u << 30)

struct ttcp_analysis_in {
    const struct ttcp_result *r; /* the end's result (-P: the streams' sum) */
    int sender;                  /* that end sent the data */
    uint64_t link_bps;           /* --link-rate (0: not given) */
    uint64_t mtu;                /* --mtu (0: measured) */
    uint64_t framing_bytes;      /* --framing, settled */
};

struct ttcp_analysis {
    int sender;                  /* a sender's facts: the limits are known only there */
    int tcp_valid;               /* the OS gave TCP statistics at all */
    unsigned have;               /* tcp_end.have: the later fields the OS gave */
    double span_s;               /* the time the shares count over */
    unsigned share_known;        /* 1u << enum ttcp_limit, for each share computed */
    double share[TTCP_LIMIT_COUNT]; /* each in [0, 1] */
    double rate_bps;             /* the end's figure */
    int delivery_rate_valid;
    double delivery_rate_bps;    /* the kernel's last delivery-rate sample */
    int min_rtt_valid;
    double min_rtt_s;            /* the baseline RTT: the smallest the connection saw */
    double bdp_bytes;            /* rate x baseline RTT (min_rtt_valid) */
    double link_bdp_bytes;       /* --link-rate x baseline RTT (0: not both known) */
    uint32_t peer_window;        /* the receiver's window as the sender last saw it */
    uint32_t cwnd;               /* the congestion window at the end */
    /* a sender whose congestion window had grown to the receiver's window
     * by the end: no more than the latter could be in flight, so the time
     * Linux counts as the network's (busy) was the window's too (Linux
     * checks the congestion window first and, where both are full, counts
     * the time as busy) */
    int window_bound;
    int sndbuf_bytes, rcvbuf_bytes; /* the socket's buffers at the end (0: unknown) */
    /* the -b that would lift a window's limit, whichever end must set it:
     * the link's BDP when --link-rate is known, else twice what was in
     * flight (the larger of the window and the BDP) */
    uint64_t rwnd_advice;        /* the receiver's -b; 0: the window already held the
                                  * link's BDP (the receiver's reading was slow) */
    uint64_t sndbuf_advice;      /* the transmitter's -b */
    double cpu_percent;          /* the end's CPU time over the figure's time */
    int cpu_wait_valid;          /* the OS gave the time spent waiting for a CPU: */
    double cpu_wait_percent;     /* that time over the figure's time (other work on
                                  * the host; on some kernels a quota's hold too) */
    int throttle_valid;          /* the OS gave the time a CPU quota held the end back: */
    double throttle_percent;     /* that time over the figure's time, at most 100 (the
                                  * group's: summed over cores, it can count more) */
    double quota_percent;        /* the quota, per cent of a core (0: none, or not known) */
    uint32_t rtt_samples;
    double mean_rtt_s;           /* the smoothed RTT's mean over the samples (rtt_samples) */
    /* RFC 6349 */
    enum ttcp_mtu_source mtu_source;
    uint64_t mtu;
    uint64_t framing_bytes;
    int rfc_rate_valid;          /* link rate and MTU known: the three below */
    double max_tcp_bps;          /* the most TCP can carry at that rate and framing */
    double ideal_s;              /* the bytes at that rate */
    double transfer_time_ratio;  /* actual time / ideal time */
    int efficiency_valid;
    double efficiency_percent;   /* (sent - retransmitted) / sent */
    int buffer_delay_valid;
    double buffer_delay_percent; /* (mean RTT - baseline) / baseline */
};

void ttcp_analyze(const struct ttcp_analysis_in *in, struct ttcp_analysis *a);

/* RFC 6349's maximum achievable TCP throughput: bits/s x (MTU - 40) /
 * (MTU + framing); 0 when the MTU leaves no payload. */
double ttcp_rfc6349_max_tcp_bps(uint64_t link_bps, uint64_t mtu, uint64_t framing_bytes);

/* The -b that holds need bytes: rounded up to whole KiB, within -b's bound. */
uint64_t ttcp_advice_bytes(double need);

#endif
