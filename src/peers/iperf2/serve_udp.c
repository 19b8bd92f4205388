/* ttcp -S: an `iperf -c -u` (2.1.8), a client of datagrams alone: the
 * server's shared UDP port took its first datagram (the row's
 * ttcp_iperf2_udp_recognise said START) and gave it a socket connected to
 * its address and port (remote/peer.h's serve_udp). One sender is one
 * test: `-P n` sends n streams from n ports, each served as a client of
 * its own (each counts in --max-clients; numThreads is held to
 * --max-streams). The datagrams are counted by the engine's UDP receiver,
 * iperf2's sequence header read for loss, order and jitter; its first end
 * datagram (negative sequence) is counted, as iperf2's server counts it,
 * and ends the test; it and every later one are answered with the
 * 128-byte server report, until the client has been quiet a moment. */
#include <stdlib.h>
#include <string.h>

#include "engine/run.h"
#include "peers/iperf2/iperf2.h"
#include "peers/iperf2/wire.h"
#include "remote/peer.h"
#include "remote/wire.h"

#define REPORT_QUIET_MS 250          /* no end datagram so long: the client has its report */
#define REPORT_MAX_NS 3000000000ll   /* 2.1.8's client tries for 2 s */
#define NS_PER_S 1000000000ll

struct serve_udp {
    struct ttcp_peer_serving *s;
    struct ttcp_iperf2_hdr h;
    struct ttcp_options o;
    struct ttcp_result res;
    int64_t base_ns;             /* the first datagram's sending moment */
    int based;
    int ended;                   /* the client's end came */
};

/* The engine's stamp reader (engine/run.h): iperf2's sequence from 1 as
 * the engine's from 0, its end (-(last + 1)) as the datagram after the
 * last; the sending moment (the client's wall clock) taken from the
 * first, so the jitter's doubles stay exact. */
static enum ttcp_stamp_seen read_dgram(void *ctx, const unsigned char *buf, size_t len,
                                       uint64_t *seq, int64_t *sent_ns)
{
    struct serve_udp *v = ctx;
    struct ttcp_iperf2_dgram d;
    int64_t at;
    if (ttcp_iperf2_dgram_read(buf, len, &d) != 0 || d.seq == 0)
        return TTCP_STAMP_NONE;
    at = (int64_t)d.sec * NS_PER_S + (int64_t)d.usec * 1000;
    if (!v->based) {
        v->base_ns = at;
        v->based = 1;
    }
    *sent_ns = at - v->base_ns;
    if (d.seq > 0) {
        *seq = (uint64_t)d.seq - 1;
        return TTCP_STAMP_DATA;
    }
    *seq = (uint64_t)(-(d.seq + 1));
    v->ended = 1;
    return TTCP_STAMP_END;
}

/* Within the server's limits, and a test we serve? 0, or -1 (nothing is
 * sent back: iperf2 has no words for a refusal; its client waits for a
 * report that does not come). */
static int within_limits(const struct serve_udp *v)
{
    const struct ttcp_options *sv = v->s->server;
    uint64_t most = sv->max_streams ? sv->max_streams : TTCP_STREAMS_MAX;
    if ((uint64_t)v->h.threads > most)
        return -1;
    if (v->h.buflen < 0 || (uint32_t)v->h.buflen > TTCP_UDP_MAX_BUFLEN)
        return -1;
    /* -r, -d (the server sends back to mPort) and -R (on this socket): not yet */
    if ((v->h.flags & TTCP_IPERF2_VERSION1) || (v->h.upper & TTCP_IPERF2_UP_REVERSE))
        return -1;
    return 0;
}

/* The receiver's options: the server's own (its units, --json, limits),
 * -l as the first datagram's length. */
static void plan(struct serve_udp *v, size_t first_len)
{
    const struct ttcp_options *sv = v->s->server;
    struct ttcp_options *o = &v->o;
    ttcp_wire_server_base(sv, o);
    o->mode = TTCP_MODE_CLASSIC;
    o->side_given = 1;
    o->udp = 1;
    o->streams = 1;
    o->port = sv->port;
    o->buflen = first_len > TTCP_UDP_MAX_BUFLEN ? TTCP_UDP_MAX_BUFLEN : first_len;
    if ((uint64_t)v->h.buflen > o->buflen)
        o->buflen = (uint64_t)v->h.buflen;
    o->limit_ns = sv->max_time_ns;
}

static void event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct serve_udp *v = ctx;
    const struct ttcp_server_observer *obs = v->s->obs;
    obs->event(obs->ctx, &v->o, ev, res);
}

/* The server report of what came: our figures, in iperf2's words. */
static size_t report(const struct serve_udp *v, unsigned char *buf, size_t len)
{
    struct ttcp_iperf2_report r;
    memset(&r, 0, sizeof r);
    r.flags = TTCP_IPERF2_VERSION1 | TTCP_IPERF2_SEQNO64B;
    r.bytes = v->res.bytes;
    r.stop_ns = v->res.real_ns;
    r.datagrams = v->res.udp.expected;
    r.lost = ttcp_udp_stats_lost(&v->res.udp);
    r.out_of_order = v->res.udp.out_of_order;
    r.jitter_ns = (int64_t)v->res.udp.jitter_ns;
    return ttcp_iperf2_report_write(buf, len, &r);
}

/* The end: the report now, and again to each end datagram that follows
 * (ours was lost, or not yet read), until the client is quiet (bounded). */
static void answer_end(struct serve_udp *v)
{
    unsigned char out[TTCP_IPERF2_REPORT_LEN];
    unsigned char *in = malloc(TTCP_UDP_MAX_BUFLEN + 1); /* whole: a short read fails on Windows */
    int64_t until = tt_now_ns() + REPORT_MAX_NS, got;
    size_t len = report(v, out, sizeof out);
    struct ttcp_iperf2_dgram d;
    tt_socket s = v->s->control;
    if (in == NULL || len == 0 || tt_send(s, out, len) != (int64_t)len) {
        free(in);
        return;
    }
    while (tt_now_ns() < until && !tt_interrupted() && tt_wait_readable(s, REPORT_QUIET_MS) > 0) {
        got = tt_recv(s, in, TTCP_UDP_MAX_BUFLEN + 1);
        if (got < 0 && got != TT_E_AGAIN && got != TT_E_INTR)
            break; /* refused: the client has gone */
        if (got > 0 && ttcp_iperf2_dgram_read(in, (size_t)got, &d) == 0 && d.seq < 0)
            tt_send(s, out, len);
    }
    free(in);
}

void ttcp_iperf2_serve_udp(struct ttcp_peer_serving *s)
{
    struct serve_udp *v = calloc(1, sizeof *v);
    const struct tt_datagram *prior = NULL;
    int n = s->udp_prior(s, &prior), rc;
    if (v == NULL)
        return;
    v->s = s;
    if (n < 1 || ttcp_iperf2_udp_recognise(prior[0].buf, prior[0].len, &v->h) !=
                     TTCP_IPERF2_UDP_START || within_limits(v) != 0) {
        s->obs->notice(s->obs->ctx, TTCP_NOTICE_REFUSED_TEST, &s->client);
    } else {
        struct ttcp_udp_stamp stamp = {NULL, v, read_dgram, prior, n};
        struct ttcp_observer obs = {event, v, NULL, NULL};
        plan(v, prior[0].len);
        s->begun(s);
        rc = ttcp_run_on_stamped(&v->o, &obs, &v->res, s->control, &s->client,
                                 TTCP_RUN_KEEP_SOCKET, &stamp);
        if (rc != 0)
            s->obs->failed(s->obs->ctx, &v->o, &v->res);
        else if (v->ended)
            answer_end(v);
    }
    ttcp_result_release(&v->res);
    free(v);
}

/* The server row's recogniser of a datagram (iperf2.h). */
enum ttcp_peer_udp_verdict ttcp_iperf2_recognise_udp(const unsigned char *b, size_t n)
{
    struct ttcp_iperf2_hdr h;
    switch (ttcp_iperf2_udp_recognise(b, n, &h)) {
    case TTCP_IPERF2_UDP_START:
        return TTCP_PEER_UDP_START;
    case TTCP_IPERF2_UDP_END:
        return TTCP_PEER_UDP_END;
    default:
        return TTCP_PEER_UDP_NO;
    }
}
