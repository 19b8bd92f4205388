/* -i: interval reports. Boundaries lie on the monotonic clock at origin +
 * k * period; bytes belong to the interval in which the clock read that
 * counted them fell (at most one buffer off, never lost or counted twice).
 * Intervals with nothing in them are reported as 0, and the last, partial
 * one at the end. */
#ifndef TTCP_INTERVAL_H
#define TTCP_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

#include "measure/udpstat.h"
#include "ttcp/platform.h"

struct ttcp_interval {
    int64_t start_ns, end_ns; /* from the start of the timed phase */
    uint64_t bytes;
    int omitted;              /* --omit: it lies in the part left out of the figures */
    int tcp_valid;
    struct tt_tcp_info tcp;   /* at the interval's end: retransmits count from the start */
    /* A UDP receiver with ttcp's sequence header: the interval's share of
     * its statistics (udp_valid: streams added into it, -P's total). A
     * datagram counts in the interval it arrives in, late ones too. */
    int udp_valid;
    uint64_t udp_datagrams;   /* received */
    uint64_t udp_expected;    /* sequence numbers the interval moved past */
    uint64_t udp_lost;        /* expected less received, when more were expected */
    double udp_jitter_ns;     /* RFC 3550's running jitter at the interval's end */
};

struct ttcp_intervals {
    int64_t period_ns;
    int64_t origin_ns;     /* the timed phase's start, monotonic clock */
    int64_t next_ns;       /* the next boundary, monotonic clock */
    uint64_t bytes_before; /* total bytes at the last boundary */
    uint64_t last_total;   /* total bytes at the last clock read */
    uint64_t udp_datagrams_before, udp_expected_before; /* at the last boundary */
    int64_t omit_until_ns; /* --omit: the omitted part's end, monotonic clock (0: none); */
    int omit_passed;       /* once passed, the boundaries start again from it */
    struct ttcp_interval *list;
    size_t count, cap;
};

void ttcp_intervals_start(struct ttcp_intervals *iv, int64_t period_ns, int64_t origin_ns);
/* --omit: the intervals up to until_ns are marked omitted, and one ends
 * there (short if it must), so the figures' part begins on a boundary. */
void ttcp_intervals_omit(struct ttcp_intervals *iv, int64_t until_ns);
/* A clock read that counted total_bytes so far: closes every interval whose
 * end it passed; returns how many were closed (0 when none, or when memory
 * ran out). */
size_t ttcp_intervals_tick(struct ttcp_intervals *iv, int64_t now_ns, uint64_t total_bytes);
/* Closes the last, partial interval at end_ns (if it holds any time). */
size_t ttcp_intervals_finish(struct ttcp_intervals *iv, int64_t end_ns, uint64_t total_bytes);
/* A UDP receiver's statistics as they stand at the boundary just passed:
 * the last `closed` intervals get their share (the first all of it, as
 * with bytes) and the jitter. */
void ttcp_intervals_udp(struct ttcp_intervals *iv, size_t closed,
                        const struct ttcp_udp_stats *st);
void ttcp_intervals_free(struct ttcp_intervals *iv);
/* One more interval at the end of the list, zeroed; NULL when memory ran out. */
struct ttcp_interval *ttcp_intervals_push(struct ttcp_intervals *iv);

#endif
