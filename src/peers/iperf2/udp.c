/* -C --iperf2 -u: a UDP stream as iperf -c -u sends it: every datagram
 * starts with iperf2's sequence header (from 1) and the client header;
 * the end is datagrams of negative sequence, one more negative each
 * try, until the server report answers (wire.h); the report is the
 * server's figures of the stream. */
#include <stdlib.h>
#include <string.h>

#include "engine/run.h"
#include "peers/iperf2/internal.h"

/* The engine's stamp (engine/run.h): the template, then
 * this datagram's sequence and send time. The time is the monotonic
 * clock's: iperf2's jitter needs only differences between datagrams. */
static void stamp(void *ctx, unsigned char *buf, size_t len, uint64_t seq, int64_t now_ns)
{
    const struct iperf2 *t = ctx;
    struct ttcp_iperf2_dgram d;
    size_t n = len < sizeof t->udp_template ? len : sizeof t->udp_template;
    memcpy(buf, t->udp_template, n);
    if (len < TTCP_IPERF2_UDP_DGRAM_LEN)
        return;
    d.seq = (int64_t)(seq + 1);
    d.sec = (uint32_t)(now_ns / 1000000000ll);
    d.usec = (uint32_t)(now_ns % 1000000000ll / 1000);
    ttcp_iperf2_dgram_write(buf, &d);
}

/* The server report as the stream's far-end figures. */
static void their_figures(const struct ttcp_iperf2_report *r, struct ttcp_result *res)
{
    memset(res, 0, sizeof *res);
    res->started = 1;
    res->bytes = r->bytes;
    res->real_ns = r->stop_ns;
    res->udp_stats_valid = 1;
    res->udp.expected = r->datagrams;
    res->udp.datagrams = r->datagrams > r->lost ? r->datagrams - r->lost : 0;
    res->udp.out_of_order = r->out_of_order;
    res->udp.jitter_ns = (double)r->jitter_ns;
}

/* One end datagram, then a short wait for the report; 1 when it came
 * (res filled), 0 when not yet. */
static int end_try(tt_socket s, unsigned char *buf, size_t len, int64_t seq,
                   struct ttcp_result *res)
{
    struct ttcp_iperf2_dgram d;
    struct ttcp_iperf2_report r;
    unsigned char back[TTCP_IPERF2_REPORT_LEN * 4];
    int64_t now = tt_now_ns(), got, end = now + IPERF2_FIN_WAIT_MS * 1000000ll;
    char why[128];
    d.seq = seq;
    d.sec = (uint32_t)(now / 1000000000ll);
    d.usec = (uint32_t)(now % 1000000000ll / 1000);
    ttcp_iperf2_dgram_write(buf, &d);
    tt_send(s, buf, len);
    /* a try waits its time, however many other datagrams come */
    while (tt_now_ns() < end && tt_wait_readable(s, IPERF2_FIN_WAIT_MS) > 0) {
        got = tt_recv(s, back, sizeof back);
        if (got <= 0)
            return 0; /* refused (nothing listens): the next try tells again */
        if (ttcp_iperf2_report_read(back, (size_t)got, &r, why, sizeof why) == 0) {
            their_figures(&r, res);
            return 1;
        }
    }
    return 0;
}

/* The end: -(sent + 1), -(sent + 2), ... until the report comes; 1 when
 * it did. */
static int finish(struct iperf2 *t, int i, tt_socket s)
{
    struct ttcp_client_stream *st = &t->out->stream[0];
    uint64_t len = st->part_local[i].buflen;
    uint64_t sent = len ? st->part_mine[i].bytes / len : 0;
    unsigned char *buf = calloc(1, (size_t)len);
    int k, got = 0;
    if (buf == NULL || len < sizeof t->udp_template) { /* the check keeps -l >= 76 */
        free(buf);
        return 0;
    }
    memcpy(buf, t->udp_template, sizeof t->udp_template);
    for (k = 0; k < IPERF2_FIN_TRIES && !got && !tt_interrupted(); k++)
        got = end_try(s, buf, (size_t)len, -(int64_t)(sent + 1 + (uint64_t)k),
                      &st->part_theirs[i]);
    free(buf);
    return got;
}

void ttcp_iperf2_udp_stream(struct iperf2 *t, int i, const struct ttcp_observer *obs)
{
    struct ttcp_client_stream *st = &t->out->stream[0];
    struct ttcp_udp_stamp ours = {stamp, t, NULL, NULL, 0};
    tt_socket s = t->socks[i];
    t->socks[i] = TT_NO_SOCKET;
    st->part_rc[i] = ttcp_run_on_stamped(&st->part_local[i], obs, &st->part_mine[i], s,
                                         &t->server, TTCP_RUN_KEEP_SOCKET, &ours);
    if (st->part_mine[i].started)
        t->reported[i] = finish(t, i, s);
    st->part_theirs_valid[i] = t->reported[i];
    tt_close(s);
}
