/* -C --iperf2 -u: a UDP stream as iperf -c -u sends it: every datagram
 * starts with iperf2's sequence header (from 1) and the client header;
 * the end is datagrams of negative sequence, one more negative each
 * try, until the server report answers (wire.h); the report is the
 * server's figures of the stream. -u -r, as iperf -c -u -R: one datagram
 * asks (the header, REVERSE), the server sends, its sequence header in
 * each, and ends with one datagram of negative sequence; it reports
 * nothing back (ttcp -S's end of the same is serve_udp.c). --bidir, as
 * --full-duplex: both on one socket, our end one negative datagram
 * (NOUDPFIN: no report), the server's as with -r. */
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
    size_t n = len < sizeof t->udp_template ? len : sizeof t->udp_template;
    memcpy(buf, t->udp_template, n);
    if (len >= TTCP_IPERF2_UDP_DGRAM_LEN)
        ttcp_iperf2_dgram_stamp(buf, (int64_t)(seq + 1), now_ns);
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
 * (*r filled), 0 when not yet, or at once with r NULL (none is asked). */
static int end_try(tt_socket s, unsigned char *buf, size_t len, int64_t seq, int64_t shift_ns,
                   struct ttcp_iperf2_report *r)
{
    unsigned char back[TTCP_IPERF2_REPORT_LEN * 4];
    int64_t now = tt_now_ns(), got, end = now + IPERF2_FIN_WAIT_MS * 1000000ll;
    char why[128];
    ttcp_iperf2_dgram_stamp(buf, seq, now + shift_ns);
    tt_send(s, buf, len);
    if (r == NULL)
        return 0;
    /* a try waits its time, however many other datagrams come */
    while (tt_now_ns() < end && tt_wait_readable(s, IPERF2_FIN_WAIT_MS) > 0) {
        got = tt_recv(s, back, sizeof back);
        if (got <= 0)
            return 0; /* refused (nothing listens): the next try tells again */
        if (ttcp_iperf2_report_read(back, (size_t)got, r, why, sizeof why) == 0)
            return 1;
    }
    return 0;
}

int ttcp_iperf2_udp_end(tt_socket s, unsigned char *buf, size_t len, uint64_t sent,
                        int64_t shift_ns, int tries, struct ttcp_iperf2_report *r)
{
    int k, got = 0;
    for (k = 0; k < tries && !got && !tt_interrupted(); k++)
        got = end_try(s, buf, len, -(int64_t)(sent + 1 + (uint64_t)k), shift_ns, r);
    return got;
}

/* The end: -(sent + 1), -(sent + 2), ... until the report comes; 1 when
 * it did. --bidir: -(sent + 1) alone (NOUDPFIN: no report comes). */
static int finish(struct iperf2 *t, int i, tt_socket s)
{
    struct ttcp_client_stream *st = &t->out->stream[0];
    uint64_t len = st->part_local[i].buflen;
    uint64_t sent = len ? st->part_mine[i].bytes / len : 0;
    unsigned char *buf = calloc(1, (size_t)len);
    struct ttcp_iperf2_report r;
    int got = 0;
    if (buf == NULL || len < sizeof t->udp_template) { /* the check keeps -l >= 76 */
        free(buf);
        return 0;
    }
    memcpy(buf, t->udp_template, sizeof t->udp_template);
    if (t->ways == 3u)
        ttcp_iperf2_udp_end(s, buf, (size_t)len, sent, 0, 1, NULL);
    else if ((got = ttcp_iperf2_udp_end(s, buf, (size_t)len, sent, 0, IPERF2_FIN_TRIES, &r)))
        their_figures(&r, &st->part_theirs[i]);
    free(buf);
    return got;
}

static void send_stream(struct iperf2 *t, int i, const struct ttcp_observer *obs)
{
    struct ttcp_client_stream *st = &t->out->stream[0];
    struct ttcp_udp_stamp ours = {stamp, t, NULL, NULL, 0};
    tt_socket s = t->socks[i];
    st->part_rc[i] = ttcp_run_on_stamped(&st->part_local[i], obs, &st->part_mine[i], s,
                                         &t->server, TTCP_RUN_KEEP_SOCKET, &ours);
    if (st->part_mine[i].started)
        t->reported[i] = finish(t, i, s);
    st->part_theirs_valid[i] = t->reported[i];
}

enum ttcp_stamp_seen ttcp_iperf2_stamp_read(void *ctx, const unsigned char *buf, size_t len,
                                            uint64_t *seq, int64_t *sent_ns)
{
    switch (ttcp_iperf2_dgram_take(ctx, buf, len, seq, sent_ns)) {
    case TTCP_IPERF2_TAKE_DATA:
        return TTCP_STAMP_DATA;
    case TTCP_IPERF2_TAKE_END:
        return TTCP_STAMP_END;
    default:
        return TTCP_STAMP_NONE;
    }
}

static void receive_stream(struct iperf2 *t, int i, const struct ttcp_observer *obs)
{
    struct ttcp_client_stream *st = &t->out->stream[1];
    int first = t->first[i].buf != NULL;
    struct ttcp_udp_stamp theirs = {NULL, &t->arrivals[i], ttcp_iperf2_stamp_read,
                                    first ? &t->first[i] : NULL, first};
    st->part_rc[i] = ttcp_run_on_stamped(&st->part_local[i], obs, &st->part_mine[i],
                                         t->socks[i], &t->server, TTCP_RUN_KEEP_SOCKET,
                                         &theirs);
}

void ttcp_iperf2_udp_stream(struct iperf2 *t, int way, int i, const struct ttcp_observer *obs)
{
    if (way == 0)
        send_stream(t, i, obs);
    else
        receive_stream(t, i, obs);
}

int ttcp_iperf2_udp_request(struct iperf2 *t, int i, tt_socket s, enum ttcp_op *op)
{
    size_t len = (size_t)t->o->buflen; /* the check keeps it >= 76 */
    struct tt_datagram *d = &t->first[i];
    int rc;
    if (d->buf == NULL && (d->buf = malloc(len + 1)) == NULL)
        return TT_E_NOMEM;
    memset(d->buf, 0, len);
    memcpy(d->buf, t->udp_template, sizeof t->udp_template);
    ttcp_iperf2_dgram_stamp(d->buf, 1, tt_now_ns());
    *op = TTCP_OP_IO;
    if ((rc = (int)tt_send(s, d->buf, len)) < 0)
        return rc;
    /* the engine's arrival clock from the first datagram on (jitter) */
    tt_setopt(s, TT_OPT_TIMESTAMPS, 1);
    *op = TTCP_OP_RECVFROM;
    rc = tt_wait_readable(s, IPERF2_ACK_WAIT_MS);
    if (rc > 0)
        rc = tt_recvfrom_batch(s, d, 1, len);
    if (rc == 1)
        return 0;
    return rc < 0 && rc != TT_E_AGAIN ? rc : TT_E_TIMEDOUT;
}
