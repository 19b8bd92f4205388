/* -P: the streams of one test added up into its total, pure. */
#ifndef TTCP_SUM_H
#define TTCP_SUM_H

#include <stddef.h>

#include "measure/interval.h"
#include "measure/result.h"

/* The total of n streams' results: bytes, calls, datagrams and losses
 * added; the time from the first stream's start to the last one's end;
 * warnings and endings (interrupted, idle timeout) of any; retransmits
 * added, RTT and jitter averaged over the streams that have them; the
 * first failure. The CPU readings are left for the caller (the process's
 * over the whole test); the intervals too (struct ttcp_interval_sum). */
void ttcp_result_sum(struct ttcp_result *sum, const struct ttcp_result *parts, int n);

/* Threads' CPU readings (each stream's own, as -S and -C count them) added
 * into sum's: cpu_start zero, cpu_end the time all of them used; memory and
 * faults the highest reading (they are the process's), and a CPU quota's
 * hold the longest (it holds their control group, not a thread). */
void ttcp_result_sum_cpu(struct ttcp_result *sum, const struct ttcp_result *parts, int n);

/* The streams' intervals, added index by index as they close (iperf3's
 * [SUM]): total k is ready once every stream has closed its k-th interval
 * or ended. Bytes and UDP counts add up, the UDP jitter is averaged; TCP
 * statistics are left out (a window or an RTT does not add). */
struct ttcp_interval_sum {
    struct ttcp_intervals total; /* list[k]: the sum of the streams' k-th intervals */
    size_t handed_out;           /* how many ttcp_interval_sum_next() returned */
    int parts;
    size_t *closed;              /* per stream: the intervals it closed */
    int *ended;                  /* per stream: it closes no more */
};

/* 0, or -1 when memory ran out. */
int ttcp_interval_sum_init(struct ttcp_interval_sum *s, int parts);
void ttcp_interval_sum_free(struct ttcp_interval_sum *s);
/* Stream `part` (0..parts-1) closed its next interval. */
void ttcp_interval_sum_add(struct ttcp_interval_sum *s, int part, const struct ttcp_interval *in);
/* Stream `part` ended: it closes no more. */
void ttcp_interval_sum_end(struct ttcp_interval_sum *s, int part);
/* The next total interval that is ready, or NULL. */
const struct ttcp_interval *ttcp_interval_sum_next(struct ttcp_interval_sum *s);

#endif
