/* libFuzzer: iperf2's messages (src/peers/iperf2/wire.c) as ttcp reads
 * them: the first bytes of a connection through the server's recogniser
 * (at every length, so YES, NO and MORE agree as bytes arrive), a
 * datagram through the shared UDP port's rule (what its header asks the
 * server to send, and the header written back and read again), its
 * sequence header (and a receiver's reading of it, twice, as the first
 * and a later datagram), a CLIENTHDRACK and a server report. Whatever
 * the bytes, nothing is read past them, a YES names a length within them
 * and the header's bounds, and a report's reason is printable. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "peers/iperf2/wire.h"

/* What a header asks the server to send: -R by its upper flag alone, -r
 * and -d by VERSION1 without VERSION2, RUN_NOW telling them apart. */
static void asks(const struct ttcp_iperf2_hdr *h)
{
    enum ttcp_iperf2_send send = ttcp_iperf2_hdr_send(h);
    int v1 = (h->flags & TTCP_IPERF2_VERSION1) && !(h->flags & TTCP_IPERF2_VERSION2);
    if ((send == TTCP_IPERF2_SEND_SAME) != ((h->upper & TTCP_IPERF2_UP_REVERSE) != 0))
        abort();
    if (send == TTCP_IPERF2_SEND_NONE && v1 && !(h->upper & TTCP_IPERF2_UP_REVERSE))
        abort();
    if ((send == TTCP_IPERF2_SEND_BACK_AFTER || send == TTCP_IPERF2_SEND_BACK_NOW) &&
        (!v1 || (send == TTCP_IPERF2_SEND_BACK_NOW) != ((h->flags & TTCP_IPERF2_RUN_NOW) != 0)))
        abort();
}

static void recognise(const uint8_t *data, size_t size)
{
    struct ttcp_iperf2_hdr h;
    size_t len, n, first_len = 0;
    enum ttcp_iperf2_seen first = TTCP_IPERF2_MORE;
    for (n = 0; n <= size && n <= TTCP_IPERF2_HDR_MAX; n++) {
        enum ttcp_iperf2_seen s = ttcp_iperf2_hdr_recognise(data, n, &h, &len);
        if (first != TTCP_IPERF2_MORE && s != first)
            abort(); /* once decided, more bytes never change the answer */
        if (first == TTCP_IPERF2_MORE && s != TTCP_IPERF2_MORE) {
            first = s;
            first_len = len;
        }
        if (s == TTCP_IPERF2_YES)
            asks(&h);
        if (s == TTCP_IPERF2_YES && (len > n || len < TTCP_IPERF2_V1_LEN || len != first_len ||
                                     h.threads < 1 || h.threads > TTCP_IPERF2_THREADS_MAX ||
                                     h.port < 0 || h.port > 65535))
            abort();
    }
}

static void report(const uint8_t *data, size_t size)
{
    struct ttcp_iperf2_report r;
    char why[128] = "";
    size_t i;
    if (ttcp_iperf2_report_read(data, size, &r, why, sizeof why) == 0) {
        unsigned char again[TTCP_IPERF2_REPORT_LEN];
        struct ttcp_iperf2_report back;
        if (r.stop_ns < 0 || r.jitter_ns < 0 ||
            ttcp_iperf2_report_write(again, sizeof again, &r) != sizeof again ||
            ttcp_iperf2_report_read(again, sizeof again, &back, why, sizeof why) != 0)
            abort();
        return;
    }
    for (i = 0; why[i] != '\0'; i++)
        if ((unsigned char)why[i] < 0x20 || (unsigned char)why[i] > 0x7e)
            abort();
}

/* A datagram the rule took, its header written back over a copy: the
 * rule takes it again, with the same numbers (the rate among them). */
static void written_back(const uint8_t *data, size_t size, const struct ttcp_iperf2_hdr *h,
                         enum ttcp_iperf2_udp_seen s)
{
    unsigned char *copy = malloc(size);
    struct ttcp_iperf2_hdr again;
    if (copy == NULL)
        return;
    memcpy(copy, data, size);
    if (ttcp_iperf2_hdr_write(copy, size, h, 1) != TTCP_IPERF2_TCP_HDR_LEN ||
        ttcp_iperf2_udp_recognise(copy, size, &again) != s || again.rate != h->rate ||
        again.threads != h->threads || again.port != h->port || again.amount != h->amount ||
        again.buflen != h->buflen || again.flags != h->flags || again.upper != h->upper)
        abort();
    free(copy);
}

/* The shared UDP port's rule: a datagram it takes holds the whole header,
 * its sequence not 0, its numbers within their bounds. */
static void recognise_udp(const uint8_t *data, size_t size)
{
    struct ttcp_iperf2_hdr h;
    struct ttcp_iperf2_dgram d;
    enum ttcp_iperf2_udp_seen s = ttcp_iperf2_udp_recognise(data, size, &h);
    if (s == TTCP_IPERF2_UDP_NO)
        return;
    if (size < TTCP_IPERF2_UDP_HDR_LEN || ttcp_iperf2_dgram_read(data, size, &d) != 0 ||
        (s == TTCP_IPERF2_UDP_START) != (d.seq > 0) || d.seq == 0 || h.threads < 1 ||
        h.threads > TTCP_IPERF2_THREADS_MAX || h.port < 0 || h.port > 65535 ||
        ((h.flags & TTCP_IPERF2_LEN_MASK) >> 1) > size)
        abort();
    asks(&h);
    written_back(data, size, &h, s);
}

/* A receiver's reading: DATA and END only of a sequence header with a
 * sequence not 0; the first datagram's moment is the base (0). */
static void take(const uint8_t *data, size_t size)
{
    struct ttcp_iperf2_arrivals a;
    struct ttcp_iperf2_dgram d;
    uint64_t seq;
    int64_t sent;
    enum ttcp_iperf2_take t;
    memset(&a, 0, sizeof a);
    t = ttcp_iperf2_dgram_take(&a, data, size, &seq, &sent);
    if (t == TTCP_IPERF2_TAKE_NONE)
        return;
    if (ttcp_iperf2_dgram_read(data, size, &d) != 0 || d.seq == 0 || sent != 0 ||
        (t == TTCP_IPERF2_TAKE_END) != (d.seq < 0) || a.ended != (d.seq < 0))
        abort();
    if (ttcp_iperf2_dgram_take(&a, data, size, &seq, &sent) != t || sent != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ttcp_iperf2_dgram d;
    size_t ack_len;
    recognise(data, size);
    recognise_udp(data, size);
    take(data, size);
    if (ttcp_iperf2_dgram_read(data, size, &d) == 0 && d.usec >= 1000000u)
        abort();
    if (ttcp_iperf2_ack_read(data, size, &ack_len) == 0 && (ack_len > size || ack_len < 8))
        abort();
    report(data, size);
    return 0;
}
