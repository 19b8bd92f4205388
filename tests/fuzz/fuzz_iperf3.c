/* libFuzzer: iperf3's messages as either end reads them
 * (src/peers/iperf3/wire.h): the first byte picks the reader (parameters,
 * results, the length field, the UDP header and words), the rest is its
 * input. Whatever the bytes, a reader returns a known code with a
 * printable reason, and what it accepts is within iperf3's limits and
 * builds back into a message the same reader takes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measure/udpstat.h"
#include "peers/iperf3/wire.h"

static void check_reason(const char *why)
{
    size_t i;
    if (why[0] == '\0')
        abort();
    for (i = 0; why[i] != '\0'; i++)
        if ((unsigned char)why[i] < 0x20 || (unsigned char)why[i] > 0x7e)
            abort();
}

static void params(const char *d, size_t n)
{
    static struct ttcp_iperf3_params p, q;
    static char buf[TTCP_IPERF3_PARAMS_MAX + 8];
    char why[256];
    size_t len;
    int rc = ttcp_iperf3_params_parse(d, n, &p, why, sizeof why);
    if (rc != TTCP_IPERF3_OK) {
        if (rc != TTCP_IPERF3_BAD && rc != TTCP_IPERF3_AUTH)
            abort();
        check_reason(why);
        return;
    }
    if (p.parallel < 1 || p.parallel > TTCP_IPERF3_MAX_STREAMS || p.time_s > TTCP_IPERF3_MAX_TIME ||
        p.omit_s > TTCP_IPERF3_MAX_OMIT || p.tos > 255 || (p.reverse && p.bidirectional) ||
        (p.udp && (p.len < TTCP_IPERF3_UDP_MIN_BLOCK || p.len > TTCP_IPERF3_UDP_MAX_BLOCK)) ||
        (!p.udp && (p.len < 1 || p.len > TTCP_IPERF3_MAX_BLOCK)))
        abort();
    if (ttcp_iperf3_params_build(&p, buf, sizeof buf, &len) == 0 &&
        ttcp_iperf3_params_parse(buf, len, &q, why, sizeof why) != TTCP_IPERF3_OK)
        abort();
}

static void results(const char *d, size_t n)
{
    static struct ttcp_iperf3_results r, s;
    static char buf[TTCP_IPERF3_RESULTS_MAX + 8];
    char why[256];
    size_t len;
    int i;
    if (ttcp_iperf3_results_parse(d, n, &r, why, sizeof why) != TTCP_IPERF3_OK) {
        check_reason(why);
        return;
    }
    if (r.n < 0 || r.n > TTCP_IPERF3_MAX_STREAMS)
        abort();
    for (i = 0; i < r.n; i++)
        if (r.streams[i].id < 1 || r.streams[i].bytes > TTCP_IPERF3_MAX_NUM ||
            r.streams[i].retransmits < -1)
            abort();
    if (ttcp_iperf3_results_build(&r, buf, sizeof buf, &len) == 0) {
        if (ttcp_iperf3_results_parse(buf, len, &s, why, sizeof why) != TTCP_IPERF3_OK ||
            s.n != r.n)
            abort();
        ttcp_iperf3_results_release(&s);
    }
    ttcp_iperf3_results_release(&r);
}

static void small(const unsigned char *d, size_t n)
{
    struct ttcp_udp_iperf3 h;
    uint32_t len;
    enum ttcp_iperf3_state st;
    if (n >= 4 && ttcp_iperf3_length_get(d, TTCP_IPERF3_PARAMS_MAX, &len) == 0 &&
        (len == 0 || len > TTCP_IPERF3_PARAMS_MAX))
        abort();
    if (n >= 1 && ttcp_iperf3_state_known(d[0], &st) &&
        ttcp_iperf3_state_byte(st) != d[0])
        abort();
    if (ttcp_udp_iperf3_read(d, n, n % 2, &h) && n < 12)
        abort();
    (void)ttcp_iperf3_udp_reply_ok(d, n);
    if (n >= TTCP_IPERF3_COOKIE_LEN)
        (void)ttcp_iperf3_cookie_valid(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 3) {
    case 0:
        params((const char *)data + 1, size - 1);
        break;
    case 1:
        results((const char *)data + 1, size - 1);
        break;
    default:
        small(data + 1, size - 1);
    }
    return 0;
}
