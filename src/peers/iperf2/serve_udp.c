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
 * 128-byte server report, until the client has been quiet a moment.
 * `-u -R`: we send on the same socket, iperf2's sequence header in each
 * datagram, for the header's time or bytes at its rate (within
 * --max-rate), and end with one negative sequence, as 2.1.8's server. */
#include <stdlib.h>
#include <string.h>

#include "engine/run.h"
#include "peers/iperf2/iperf2.h"
#include "peers/iperf2/wire.h"
#include "remote/peer.h"
#include "remote/wire.h"

#define REPORT_QUIET_MS 250          /* no end datagram so long: the client has its report */
#define UDP_DEFAULT_LEN 1470u        /* iperf2's -l with -u */
#define UDP_DEFAULT_RATE 1000000u    /* iperf2's -b with -u */
#define CENTI_NS 10000000ll          /* mAmount's time unit */
#define REPORT_MAX_NS 3000000000ll   /* 2.1.8's client tries for 2 s */
#define NS_PER_S 1000000000ll

struct serve_udp {
    struct ttcp_peer_serving *s;
    struct ttcp_iperf2_hdr h;
    struct ttcp_options o;
    struct ttcp_result res;
    struct ttcp_iperf2_arrivals arrivals; /* its datagrams' sequence and moments */
    int reverse;                 /* -R: we send, on the same socket */
    int64_t shift_ns;            /* -R: our clock to the client's, from its first datagram */
    char host[80];
};

/* The engine's stamp reader (engine/run.h): wire.c's reading of the
 * sender's datagrams (the client's wall clock, from its first). */
static enum ttcp_stamp_seen read_dgram(void *ctx, const unsigned char *buf, size_t len,
                                       uint64_t *seq, int64_t *sent_ns)
{
    struct serve_udp *v = ctx;
    switch (ttcp_iperf2_dgram_take(&v->arrivals, buf, len, seq, sent_ns)) {
    case TTCP_IPERF2_TAKE_DATA:
        return TTCP_STAMP_DATA;
    case TTCP_IPERF2_TAKE_END:
        return TTCP_STAMP_END;
    default:
        return TTCP_STAMP_NONE;
    }
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
    if (v->h.buflen < 0 || (uint32_t)v->h.buflen > TTCP_UDP_MAX_BUFLEN ||
        (v->reverse && v->h.buflen > 0 && v->h.buflen < (int32_t)TTCP_IPERF2_UDP_DGRAM_LEN))
        return -1;
    /* -r, -d: the server would send to mPort, a port the client names: not served */
    return (v->h.flags & TTCP_IPERF2_VERSION1) ? -1 : 0;
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

/* -R: our sender's, for the header's time or bytes, paced at its rate
 * (iperf2's 1 Mbit/s when it names none) within --max-rate. */
static void plan_send(struct serve_udp *v)
{
    const struct ttcp_options *sv = v->s->server;
    struct ttcp_options *o = &v->o;
    uint64_t rate = v->h.rate ? v->h.rate : UDP_DEFAULT_RATE;
    o->transmit = 1;
    o->host = tt_addr_text(&v->s->client, v->host, sizeof v->host);
    o->buflen = v->h.buflen > 0 ? (uint64_t)v->h.buflen : UDP_DEFAULT_LEN;
    o->pace_bps = sv->max_rate_bps && rate > sv->max_rate_bps ? sv->max_rate_bps : rate;
    if (v->h.amount < 0) { /* -(seconds * 100) */
        o->duration_ns = -(int64_t)v->h.amount * CENTI_NS;
        if (sv->max_time_ns && o->duration_ns > sv->max_time_ns)
            o->duration_ns = sv->max_time_ns;
    } else {
        uint64_t bytes = v->h.amount > 0 ? (uint64_t)v->h.amount : 1;
        o->nbuf = (bytes + o->buflen - 1) / o->buflen;
        o->nbuf_given = 1;
    }
}

/* A sequence header with our moment as the client's clock tells time:
 * 2.1.8's client, with -n, takes its first datagram's transit for a
 * jump in its jitter, so the transit must be near 0 as its own server's
 * (on one host) would be. */
static void put_dgram(const struct serve_udp *v, unsigned char *buf, int64_t seq, int64_t now_ns)
{
    ttcp_iperf2_dgram_stamp(buf, seq, now_ns + v->shift_ns);
}

/* The engine's stamp (engine/run.h), -R: iperf2's sequence header, from 1. */
static void stamp_dgram(void *ctx, unsigned char *buf, size_t len, uint64_t seq, int64_t now_ns)
{
    if (len >= TTCP_IPERF2_UDP_DGRAM_LEN)
        put_dgram(ctx, buf, (int64_t)(seq + 1), now_ns);
}

/* -R's end, as 2.1.8's server sends it: one datagram of sequence
 * -(sent + 1), and no report asked for. */
static void send_end(struct serve_udp *v)
{
    size_t len = (size_t)v->o.buflen;
    unsigned char *buf = calloc(1, len);
    if (buf == NULL)
        return;
    put_dgram(v, buf, -(int64_t)(v->res.bytes / len + 1), tt_now_ns());
    tt_send(v->s->control, buf, len);
    free(buf);
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
    int n = s->udp_prior(s, &prior), rc, ok;
    if (v == NULL)
        return;
    v->s = s;
    ok = n >= 1 && ttcp_iperf2_udp_recognise(prior[0].buf, prior[0].len, &v->h) ==
                       TTCP_IPERF2_UDP_START;
    v->reverse = ok && (v->h.upper & TTCP_IPERF2_UP_REVERSE) != 0;
    if (!ok || within_limits(v) != 0) {
        s->obs->notice(s->obs->ctx, TTCP_NOTICE_REFUSED_TEST, &s->client);
    } else {
        struct ttcp_udp_stamp in = {NULL, v, read_dgram, prior, n};
        struct ttcp_udp_stamp out = {stamp_dgram, v, NULL, NULL, 0};
        struct ttcp_observer obs = {event, v, NULL, NULL};
        plan(v, prior[0].len);
        if (v->reverse) {
            struct ttcp_iperf2_dgram first;
            plan_send(v);
            if (ttcp_iperf2_dgram_read(prior[0].buf, prior[0].len, &first) == 0)
                v->shift_ns = (int64_t)first.sec * NS_PER_S + (int64_t)first.usec * 1000 -
                              tt_now_ns();
        }
        s->begun(s);
        rc = ttcp_run_on_stamped(&v->o, &obs, &v->res, s->control, &s->client,
                                 TTCP_RUN_KEEP_SOCKET, v->reverse ? &out : &in);
        if (rc != 0)
            s->obs->failed(s->obs->ctx, &v->o, &v->res);
        else if (v->reverse)
            send_end(v);
        else if (v->arrivals.ended)
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
