/* -R: pacing by schedule. Buffer k may leave at origin + (bits before it) /
 * rate; the sender sleeps until then instead of spinning. A sender that
 * falls behind (a stall, a long sleep) catches up with at most `burst`
 * buffers back to back; what it lost beyond that is forgiven, not sent in
 * one flood. */
#ifndef TTCP_PACE_H
#define TTCP_PACE_H

#include <stdint.h>

struct ttcp_pacer {
    double ns_per_bit;
    int64_t origin_ns;  /* when bit 0 was due */
    uint64_t bits;      /* bits handed out so far */
    int64_t max_lag_ns; /* burst: how far behind the schedule may be made up */
};

/* burst 0: enough buffers for 10 ms, at least one. */
void ttcp_pacer_start(struct ttcp_pacer *p, uint64_t bits_per_sec, uint64_t burst,
                      uint64_t buffer_len, int64_t now_ns);
/* Accounts a buffer of len bytes and returns how long to wait before
 * sending it (0: now). */
int64_t ttcp_pacer_wait(struct ttcp_pacer *p, uint64_t len, int64_t now_ns);
/* How long until the next buffer is due, accounting nothing. */
int64_t ttcp_pacer_ahead(const struct ttcp_pacer *p, int64_t now_ns);
/* How early a buffer may go instead of sleeping for it: at most the burst,
 * at most 1 ms (so a sender wakes about once a millisecond, not once a
 * datagram). */
int64_t ttcp_pacer_slack(const struct ttcp_pacer *p);

#endif
