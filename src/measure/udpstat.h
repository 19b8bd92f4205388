/* ttcp's UDP header and what a receiver learns from it: loss, duplicates,
 * reordering and jitter (RFC 3550's interarrival jitter). The header sits
 * at the start of each data datagram's payload (docs/UDP-HEADER.md); a
 * classic receiver just counts it as bytes, and a datagram without it (a
 * classic transmitter) is counted as before, with no statistics. */
#ifndef TTCP_UDPSTAT_H
#define TTCP_UDPSTAT_H

#include <stddef.h>
#include <stdint.h>

#define TTCP_UDP_HEADER 32
#define TTCP_UDP_MAGIC "tTcU"
#define TTCP_UDP_VERSION 1
#define TTCP_UDP_WINDOW 4096 /* sequence numbers remembered for duplicates */

struct ttcp_udp_header {
    uint8_t pattern;  /* enum ttcp_payload of the bytes after the header */
    uint64_t seq;     /* 0, 1, 2, ... per data datagram */
    int64_t sent_ns;  /* the sender's monotonic clock */
    uint64_t seed;    /* random pattern: this datagram's bytes come from it */
};

void ttcp_udp_header_write(unsigned char *buf, const struct ttcp_udp_header *h);
/* 1 when buf (len bytes) starts with a header of a version it knows. */
int ttcp_udp_header_read(const unsigned char *buf, size_t len, struct ttcp_udp_header *h);

/* iperf3's datagram header (src/peers/iperf3/wire.h), in place of ours when
 * the far end is iperf3: sec and usec of the sending moment, then the
 * datagram's count from 1, 32- or 64-bit (udp_counters_64bit), all
 * big-endian. */
struct ttcp_udp_iperf3 {
    uint32_t sec, usec;
    uint64_t count;
};
/* The header at buf: its size (12 or 16), or 0 when len is too short. */
size_t ttcp_udp_iperf3_write(unsigned char *buf, size_t len, const struct ttcp_udp_iperf3 *h,
                             int counters64);
/* 1 when buf holds a whole header (the count is not checked: any goes). */
int ttcp_udp_iperf3_read(const unsigned char *buf, size_t len, int counters64,
                         struct ttcp_udp_iperf3 *h);

struct ttcp_udp_stats {
    uint64_t datagrams;    /* with a header */
    uint64_t expected;     /* highest sequence number + 1 */
    uint64_t duplicates;
    uint64_t out_of_order; /* arrived after a higher sequence number */
    double jitter_ns;
    double last_transit_ns; /* double: stamps from the network may be anything */
    uint64_t window[TTCP_UDP_WINDOW / 64]; /* seen bits, by seq % WINDOW */
};

void ttcp_udp_stats_add(struct ttcp_udp_stats *st, uint64_t seq, int64_t sent_ns,
                        int64_t arrived_ns);
/* Datagrams that never came: expected minus the distinct ones received.
 * Losses after the last one received cannot be seen and are not counted. */
uint64_t ttcp_udp_stats_lost(const struct ttcp_udp_stats *st);

#endif
