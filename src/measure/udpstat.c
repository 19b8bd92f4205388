#include "measure/udpstat.h"

#include <string.h>

#include "base/le64.h"

/* Layout, little-endian: magic[4] version[1] pattern[1] reserved[2]
 * seq[8] sent_ns[8] seed[8]. */
void ttcp_udp_header_write(unsigned char *buf, const struct ttcp_udp_header *h)
{
    memcpy(buf, TTCP_UDP_MAGIC, 4);
    buf[4] = TTCP_UDP_VERSION;
    buf[5] = h->pattern;
    buf[6] = buf[7] = 0;
    ttcp_le64_put(buf + 8, h->seq);
    ttcp_le64_put(buf + 16, (uint64_t)h->sent_ns);
    ttcp_le64_put(buf + 24, h->seed);
}

int ttcp_udp_header_read(const unsigned char *buf, size_t len, struct ttcp_udp_header *h)
{
    if (len < TTCP_UDP_HEADER || memcmp(buf, TTCP_UDP_MAGIC, 4) != 0 || buf[4] != TTCP_UDP_VERSION)
        return 0;
    h->pattern = buf[5];
    h->seq = ttcp_le64_get(buf + 8);
    h->sent_ns = (int64_t)ttcp_le64_get(buf + 16);
    h->seed = ttcp_le64_get(buf + 24);
    return 1;
}

static int seen(const struct ttcp_udp_stats *st, uint64_t seq)
{
    uint64_t slot = seq % TTCP_UDP_WINDOW;
    return (int)((st->window[slot / 64] >> (slot % 64)) & 1);
}

static void mark(struct ttcp_udp_stats *st, uint64_t seq, int on)
{
    uint64_t slot = seq % TTCP_UDP_WINDOW, bit = 1ull << (slot % 64);
    st->window[slot / 64] = on ? st->window[slot / 64] | bit : st->window[slot / 64] & ~bit;
}

/* Moving the window forward forgets the slots it passes over. */
static void advance(struct ttcp_udp_stats *st, uint64_t new_expected)
{
    uint64_t s = st->expected;
    if (new_expected - s >= TTCP_UDP_WINDOW) {
        memset(st->window, 0, sizeof st->window);
        return;
    }
    for (; s < new_expected; s++)
        mark(st, s, 0);
}

void ttcp_udp_stats_add(struct ttcp_udp_stats *st, uint64_t seq, int64_t sent_ns,
                        int64_t arrived_ns)
{
    double transit = (double)arrived_ns - (double)sent_ns, d;

    if (seq >= st->expected) {
        advance(st, seq + 1);
        st->expected = seq + 1;
    } else if (st->expected - seq > TTCP_UDP_WINDOW) {
        st->out_of_order++; /* too old to tell a duplicate: late, at least */
        st->datagrams++;
        return;
    } else if (seen(st, seq)) {
        st->duplicates++;
        return;
    } else {
        st->out_of_order++;
    }
    mark(st, seq, 1);
    /* RFC 3550 6.4.1: J += (|D| - J) / 16; the clocks' offset cancels in D. */
    if (st->datagrams > 0) {
        d = transit - st->last_transit_ns;
        st->jitter_ns += ((d < 0 ? -d : d) - st->jitter_ns) / 16.0;
    }
    st->last_transit_ns = transit;
    st->datagrams++;
}

uint64_t ttcp_udp_stats_lost(const struct ttcp_udp_stats *st)
{
    return st->expected > st->datagrams ? st->expected - st->datagrams : 0;
}

static void put_be(unsigned char *p, uint64_t v, int bytes)
{
    int i;
    for (i = bytes - 1; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

static uint64_t get_be(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < bytes; i++)
        v = v << 8 | p[i];
    return v;
}

size_t ttcp_udp_iperf3_write(unsigned char *buf, size_t len, const struct ttcp_udp_iperf3 *h,
                             int counters64)
{
    size_t size = counters64 ? 16 : 12;
    if (len < size)
        return 0;
    put_be(buf, h->sec, 4);
    put_be(buf + 4, h->usec, 4);
    put_be(buf + 8, counters64 ? h->count : (uint32_t)h->count, counters64 ? 8 : 4);
    return size;
}

int ttcp_udp_iperf3_read(const unsigned char *buf, size_t len, int counters64,
                         struct ttcp_udp_iperf3 *h)
{
    if (len < (counters64 ? 16u : 12u))
        return 0;
    h->sec = (uint32_t)get_be(buf, 4);
    h->usec = (uint32_t)get_be(buf + 4, 4);
    h->count = get_be(buf + 8, counters64 ? 8 : 4);
    return 1;
}
