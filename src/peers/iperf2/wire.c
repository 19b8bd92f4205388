/* iperf2's messages (wire.h), pure: built and read field by field, every
 * number big-endian and bounded. */
#include "peers/iperf2/wire.h"

#include "peers/iperf2/iperf2.h"

#include <stdio.h>
#include <string.h>

/* Every flag iperf2 2.1 defines in client_hdr_v1's flags word. */
#define KNOWN_FLAGS 0xff8301ffu
#define BOUNCEBACK 0x00800000u
#define EXT_OFFSET 24u        /* the extension after the v1 words */
#define VERSION_OFFSET 36u    /* version_u in a TCP header */
#define USEC 1000000u
/* The rate's high word: 2.1.8 puts bits 32 and up 8 bits higher in it
 * (-b 5g: 0x00000100), its low byte left 0. */
#define RATE_HIGH_SHIFT 8

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int32_t get_i32(const unsigned char *p)
{
    uint32_t v = get32(p);
    return v <= 0x7fffffffu ? (int32_t)v : -(int32_t)(~v) - 1;
}

void ttcp_iperf2_hdr_init(struct ttcp_iperf2_hdr *h, int udp, int threads, uint64_t bytes,
                          int64_t ns)
{
    uint32_t len = udp ? TTCP_IPERF2_UDP_HDR_LEN : TTCP_IPERF2_TCP_HDR_LEN;
    int64_t centis = ns / 10000000ll;
    memset(h, 0, sizeof *h);
    h->flags = TTCP_IPERF2_EXTEND | TTCP_IPERF2_LEN_BIT | (len << 1);
    if (udp)
        h->flags |= TTCP_IPERF2_SEQNO64B;
    h->threads = threads;
    if (bytes > 0)
        h->amount = bytes > 0x7fffffffu ? 0x7fffffff : (int32_t)bytes;
    else
        h->amount = centis > 0x7fffffffll ? -0x7fffffff : -(int32_t)(centis > 0 ? centis : 1);
    h->extended = 1;
    h->version_u = TTCP_IPERF2_VERSION_U;
    h->version_l = TTCP_IPERF2_VERSION_L;
}

size_t ttcp_iperf2_hdr_write(unsigned char *buf, size_t len, const struct ttcp_iperf2_hdr *h,
                             int udp)
{
    size_t at = udp ? TTCP_IPERF2_UDP_DGRAM_LEN : 0, end = at + TTCP_IPERF2_TCP_HDR_LEN;
    unsigned char *p = buf + at;
    if (len < end)
        return 0;
    memset(p, 0, TTCP_IPERF2_TCP_HDR_LEN);
    put32(p, h->flags);
    put32(p + 4, (uint32_t)h->threads);
    put32(p + 8, (uint32_t)h->port);
    put32(p + 12, (uint32_t)h->buflen);
    put32(p + 16, (uint32_t)h->window);
    put32(p + 20, (uint32_t)h->amount);
    /* type and length (words 6, 7) stay 0, as 2.1.8 sends them */
    put32(p + 32, (uint32_t)h->upper << 16 | h->lower);
    put32(p + 36, h->version_u);
    put32(p + 40, h->version_l);
    put32(p + 44, h->tos);
    put32(p + 48, (uint32_t)h->rate);
    put32(p + 52, (uint32_t)(h->rate >> 32) << RATE_HIGH_SHIFT);
    return end - at;
}

/* The v1 words, each checked as soon as it is there: NO, or MORE while
 * the header is still short (YES is the caller's, at its whole length). */
static enum ttcp_iperf2_seen v1_words(const unsigned char *buf, size_t len,
                                      struct ttcp_iperf2_hdr *h)
{
    if (len >= 8) {
        h->threads = get_i32(buf + 4);
        if (h->threads < 1 || h->threads > TTCP_IPERF2_THREADS_MAX)
            return TTCP_IPERF2_NO;
    }
    if (len >= 12) {
        h->port = get_i32(buf + 8);
        if (h->port < 0 || h->port > 65535)
            return TTCP_IPERF2_NO;
    }
    if (len >= TTCP_IPERF2_V1_LEN) {
        h->buflen = get_i32(buf + 12);
        h->window = get_i32(buf + 16);
        h->amount = get_i32(buf + 20);
    }
    return TTCP_IPERF2_MORE;
}

static void extension(const unsigned char *p, struct ttcp_iperf2_hdr *h)
{
    uint32_t flags = get32(p + 8);
    h->extended = 1;
    h->upper = (uint16_t)(flags >> 16);
    h->lower = (uint16_t)flags;
    h->version_u = get32(p + 12);
    h->version_l = get32(p + 16);
    h->tos = (uint16_t)get32(p + 20);
    h->rate = (uint64_t)(get32(p + 28) >> RATE_HIGH_SHIFT) << 32 | get32(p + 24);
}

enum ttcp_iperf2_send ttcp_iperf2_hdr_send(const struct ttcp_iperf2_hdr *h)
{
    if (h->upper & TTCP_IPERF2_UP_REVERSE)
        return TTCP_IPERF2_SEND_SAME;
    if (!(h->flags & TTCP_IPERF2_VERSION1) || (h->flags & TTCP_IPERF2_VERSION2))
        return TTCP_IPERF2_SEND_NONE;
    return (h->flags & TTCP_IPERF2_RUN_NOW) ? TTCP_IPERF2_SEND_BACK_NOW
                                            : TTCP_IPERF2_SEND_BACK_AFTER;
}

enum ttcp_iperf2_seen ttcp_iperf2_hdr_recognise(const unsigned char *buf, size_t len,
                                                struct ttcp_iperf2_hdr *h, size_t *hdr_len)
{
    size_t need = TTCP_IPERF2_V1_LEN;
    memset(h, 0, sizeof *h);
    *hdr_len = 0;
    if (len < 4)
        return TTCP_IPERF2_MORE;
    h->flags = get32(buf);
    if ((h->flags & ~KNOWN_FLAGS) != 0 || (h->flags & BOUNCEBACK) != 0 ||
        (h->flags & (TTCP_IPERF2_VERSION1 | TTCP_IPERF2_EXTEND)) == 0)
        return TTCP_IPERF2_NO;
    if (h->flags & TTCP_IPERF2_EXTEND) {
        need = (h->flags & TTCP_IPERF2_LEN_MASK) >> 1;
        if (!(h->flags & TTCP_IPERF2_LEN_BIT) || need < TTCP_IPERF2_TCP_HDR_LEN)
            return TTCP_IPERF2_NO;
    }
    if (v1_words(buf, len, h) == TTCP_IPERF2_NO)
        return TTCP_IPERF2_NO;
    if ((h->flags & TTCP_IPERF2_EXTEND) && len >= VERSION_OFFSET + 2 &&
        ((unsigned)buf[VERSION_OFFSET] << 8 | buf[VERSION_OFFSET + 1]) != 2)
        return TTCP_IPERF2_NO;
    if (len < need)
        return TTCP_IPERF2_MORE;
    if (h->flags & TTCP_IPERF2_EXTEND)
        extension(buf + EXT_OFFSET, h);
    *hdr_len = need;
    return TTCP_IPERF2_YES;
}

enum ttcp_iperf2_udp_seen ttcp_iperf2_udp_recognise(const unsigned char *buf, size_t len,
                                                    struct ttcp_iperf2_hdr *h)
{
    const uint32_t must = TTCP_IPERF2_EXTEND | TTCP_IPERF2_LEN_BIT | TTCP_IPERF2_SEQNO64B;
    const unsigned char *p = buf + TTCP_IPERF2_UDP_DGRAM_LEN;
    struct ttcp_iperf2_dgram d;
    size_t need, whole;
    memset(h, 0, sizeof *h);
    if (len < TTCP_IPERF2_UDP_HDR_LEN || ttcp_iperf2_dgram_read(buf, len, &d) != 0 || d.seq == 0)
        return TTCP_IPERF2_UDP_NO;
    h->flags = get32(p);
    need = (h->flags & TTCP_IPERF2_LEN_MASK) >> 1;
    if ((h->flags & must) != must || (h->flags & ~KNOWN_FLAGS) != 0 ||
        (h->flags & BOUNCEBACK) != 0 || need < TTCP_IPERF2_UDP_HDR_LEN || need > len)
        return TTCP_IPERF2_UDP_NO;
    /* the rest of the rule is TCP's, over the header's bytes after the sequence */
    whole = TTCP_IPERF2_TCP_HDR_LEN;
    if (v1_words(p, whole, h) == TTCP_IPERF2_NO ||
        ((unsigned)p[VERSION_OFFSET] << 8 | p[VERSION_OFFSET + 1]) != 2)
        return TTCP_IPERF2_UDP_NO;
    extension(p + EXT_OFFSET, h);
    return d.seq > 0 ? TTCP_IPERF2_UDP_START : TTCP_IPERF2_UDP_END;
}

void ttcp_iperf2_dgram_write(unsigned char *buf, const struct ttcp_iperf2_dgram *d)
{
    uint64_t seq = (uint64_t)d->seq;
    put32(buf, (uint32_t)seq);
    put32(buf + 4, d->sec);
    put32(buf + 8, d->usec);
    put32(buf + 12, (uint32_t)(seq >> 32));
}

int ttcp_iperf2_dgram_read(const unsigned char *buf, size_t len, struct ttcp_iperf2_dgram *d)
{
    uint64_t seq;
    if (len < TTCP_IPERF2_UDP_DGRAM_LEN)
        return -1;
    seq = (uint64_t)get32(buf + 12) << 32 | get32(buf);
    d->seq = seq <= (uint64_t)INT64_MAX ? (int64_t)seq : -(int64_t)(~seq) - 1;
    d->sec = get32(buf + 4);
    d->usec = get32(buf + 8);
    return d->usec < USEC ? 0 : -1;
}

void ttcp_iperf2_dgram_stamp(unsigned char *buf, int64_t seq, int64_t at_ns)
{
    struct ttcp_iperf2_dgram d;
    int64_t at = at_ns > 0 ? at_ns : 0;
    d.seq = seq;
    d.sec = (uint32_t)(at / 1000000000ll);
    d.usec = (uint32_t)(at % 1000000000ll / 1000);
    ttcp_iperf2_dgram_write(buf, &d);
}

enum ttcp_iperf2_take ttcp_iperf2_dgram_take(struct ttcp_iperf2_arrivals *a,
                                             const unsigned char *buf, size_t len,
                                             uint64_t *seq, int64_t *sent_ns)
{
    struct ttcp_iperf2_dgram d;
    int64_t at;
    if (ttcp_iperf2_dgram_read(buf, len, &d) != 0 || d.seq == 0)
        return TTCP_IPERF2_TAKE_NONE;
    at = (int64_t)d.sec * 1000000000ll + (int64_t)d.usec * 1000;
    if (!a->based) {
        a->base_ns = at;
        a->based = 1;
    }
    *sent_ns = at - a->base_ns;
    if (d.seq > 0) {
        *seq = (uint64_t)d.seq - 1;
        return TTCP_IPERF2_TAKE_DATA;
    }
    *seq = (uint64_t)(-(d.seq + 1));
    a->ended = 1;
    return TTCP_IPERF2_TAKE_END;
}

size_t ttcp_iperf2_ack_write(unsigned char *buf, size_t len)
{
    if (len < TTCP_IPERF2_ACK_LEN)
        return 0;
    memset(buf, 0, TTCP_IPERF2_ACK_LEN);
    put32(buf, TTCP_IPERF2_ACK_TYPE);
    put32(buf + 4, TTCP_IPERF2_ACK_LEN);
    put32(buf + 12, TTCP_IPERF2_VERSION_U);
    put32(buf + 16, TTCP_IPERF2_VERSION_L);
    return TTCP_IPERF2_ACK_LEN;
}

int ttcp_iperf2_ack_read(const unsigned char *buf, size_t len, size_t *ack_len)
{
    uint32_t n;
    if (len < 8 || get32(buf) != TTCP_IPERF2_ACK_TYPE)
        return -1;
    n = get32(buf + 4);
    if (n < 8 || n > TTCP_IPERF2_HDR_MAX || n > len)
        return -1;
    *ack_len = n;
    return 0;
}

#define REPORT_AT TTCP_IPERF2_UDP_DGRAM_LEN /* server_hdr after the datagram header */
#define REPORT_EXT2 (REPORT_AT + 100u)     /* the counts' high words */

static void put_time(unsigned char *p, int64_t ns)
{
    put32(p, (uint32_t)(ns / 1000000000ll));
    put32(p + 4, (uint32_t)(ns % 1000000000ll / 1000));
}

size_t ttcp_iperf2_report_write(unsigned char *buf, size_t len,
                                const struct ttcp_iperf2_report *r)
{
    unsigned char *p = buf + REPORT_AT;
    if (len < TTCP_IPERF2_REPORT_LEN)
        return 0;
    memset(buf, 0, TTCP_IPERF2_REPORT_LEN);
    put32(p, r->flags);
    put32(p + 4, (uint32_t)(r->bytes >> 32));
    put32(p + 8, (uint32_t)r->bytes);
    put_time(p + 12, r->stop_ns);
    put32(p + 20, (uint32_t)r->lost);
    put32(p + 24, (uint32_t)r->out_of_order);
    put32(p + 28, (uint32_t)r->datagrams);
    put_time(p + 32, r->jitter_ns);
    put32(buf + REPORT_EXT2, (uint32_t)(r->lost >> 32));
    put32(buf + REPORT_EXT2 + 4, (uint32_t)(r->out_of_order >> 32));
    put32(buf + REPORT_EXT2 + 8, (uint32_t)(r->datagrams >> 32));
    return TTCP_IPERF2_REPORT_LEN;
}

/* A (seconds, microseconds) pair: 0, or -1 when either is out of range. */
static int get_time(const unsigned char *p, int64_t *ns)
{
    int32_t s = get_i32(p), us = get_i32(p + 4);
    if (s < 0 || us < 0 || (uint32_t)us >= USEC)
        return -1;
    *ns = (int64_t)s * 1000000000ll + (int64_t)us * 1000;
    return 0;
}

/* A count: its low word, and with 64-bit counts its high one. */
static int get_count(const unsigned char *lo, const unsigned char *hi, uint64_t *v)
{
    int32_t low = get_i32(lo), high = hi != NULL ? get_i32(hi) : 0;
    if (hi == NULL && low < 0)
        return -1;
    if (high < 0)
        return -1;
    *v = (uint64_t)high << 32 | get32(lo);
    return 0;
}

int ttcp_iperf2_report_read(const unsigned char *buf, size_t len, struct ttcp_iperf2_report *r,
                            char *why, size_t why_len)
{
    const unsigned char *p = buf + REPORT_AT;
    int wide;
    memset(r, 0, sizeof *r);
    if (len < TTCP_IPERF2_REPORT_MIN) {
        snprintf(why, why_len, "a server report of %u bytes (at least %u)", (unsigned)len,
                 TTCP_IPERF2_REPORT_MIN);
        return -1;
    }
    r->flags = get32(p);
    wide = (r->flags & TTCP_IPERF2_SEQNO64B) && len >= TTCP_IPERF2_REPORT_LEN;
    r->bytes = (uint64_t)get32(p + 4) << 32 | get32(p + 8);
    if (!(r->flags & TTCP_IPERF2_VERSION1) || get32(p + 4) > 0x7fffffffu ||
        get_time(p + 12, &r->stop_ns) != 0 || get_time(p + 32, &r->jitter_ns) != 0 ||
        get_count(p + 20, wide ? buf + REPORT_EXT2 : NULL, &r->lost) != 0 ||
        get_count(p + 24, wide ? buf + REPORT_EXT2 + 4 : NULL, &r->out_of_order) != 0 ||
        get_count(p + 28, wide ? buf + REPORT_EXT2 + 8 : NULL, &r->datagrams) != 0) {
        snprintf(why, why_len, "a server report without its flag, or with a negative or "
                 "out-of-range time or count");
        return -1;
    }
    return 0;
}

/* The server row's recogniser (iperf2.h): the verdict as the gate takes it. */
enum ttcp_peer_verdict ttcp_iperf2_recognise(const unsigned char *b, size_t n)
{
    struct ttcp_iperf2_hdr h;
    size_t len;
    switch (ttcp_iperf2_hdr_recognise(b, n, &h, &len)) {
    case TTCP_IPERF2_YES:
        return TTCP_PEER_YES;
    case TTCP_IPERF2_MORE:
        return TTCP_PEER_MORE;
    default:
        return TTCP_PEER_NO;
    }
}
