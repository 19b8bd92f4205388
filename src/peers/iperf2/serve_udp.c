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
 * --max-rate), and end with one negative sequence, as 2.1.8's server.
 * `-u -r` / `-u -d` (VERSION1, RUN_NOW for -d): after the client's test
 * and its report (-r) or at once beside it (-d), we send as 2.1.8's server
 * does, a client of the client's listener: from a socket of our own to the
 * client's address (never another) at the header's mPort, the sequence
 * header alone in each datagram (no client header: 2.1.8's reverse client
 * is in compatibility mode), the header's time or bytes at its rate
 * (within --max-rate, --max-time), ended as iperf -c -u ends, negative
 * sequences until the listener's report comes. Both ways run on the
 * stream runner, through the same write hook as -R. */
#include <stdlib.h>
#include <string.h>

#include "engine/run.h"
#include "engine/local.h"
#include "engine/streams.h"
#include "peers/iperf2/internal.h"
#include "remote/peer.h"
#include "remote/wire.h"

#define REPORT_QUIET_MS 250          /* no end datagram so long: the client has its report */
#define UDP_DEFAULT_LEN 1470u        /* iperf2's -l with -u */
#define UDP_DEFAULT_RATE 1000000u    /* iperf2's -b with -u */
#define CENTI_NS 10000000ll          /* mAmount's time unit */
#define REPORT_MAX_NS 3000000000ll   /* 2.1.8's client tries for 2 s */
#define NS_PER_S 1000000000ll
#define WAY_IN 0                     /* the client's datagrams, on its socket */
#define WAY_OUT 1                    /* ours: on its socket (-R), to its mPort (-r, -d) */

struct serve_udp {
    struct ttcp_peer_serving *s;
    struct ttcp_iperf2_hdr h;
    struct ttcp_options o[2];    /* each way's */
    struct ttcp_result res[2];
    struct ttcp_iperf2_arrivals arrivals; /* its datagrams' sequence and moments */
    const struct tt_datagram *prior; /* what the shared port read of it first */
    int prior_count;
    int reverse;                 /* -R: we send, on the same socket */
    int back;                    /* -r, -d: we send to the client's address at mPort */
    int now;                     /* -d: both ways at once */
    int answered;                /* the client's test ended and its report went */
    struct tt_mutex *lock;       /* -d: in_cut, between the two ways' threads */
    int in_cut;                  /* -d: the client's way ended without its end datagram
                                  * (gone, or never a client: a forged opening): ours stops */
    int64_t shift_ns;            /* we send: our clock to the client's, from its first datagram */
    struct tt_addr back_to;
    char host[80];
};

/* Within the server's limits, and a test we serve? 0, or -1 (nothing is
 * sent back: iperf2 has no words for a refusal; its client waits for a
 * report that does not come). */
static int within_limits(const struct serve_udp *v)
{
    const struct ttcp_options *sv = v->s->server;
    uint64_t most = sv->max_streams ? sv->max_streams : TTCP_STREAMS_MAX;
    int sends = v->reverse || v->back;
    if ((uint64_t)v->h.threads > most)
        return -1;
    if (v->h.buflen < 0 || (uint32_t)v->h.buflen > TTCP_UDP_MAX_BUFLEN ||
        (sends && v->h.buflen > 0 && v->h.buflen < (int32_t)TTCP_IPERF2_UDP_DGRAM_LEN))
        return -1;
    /* -r, -d: the port the client listens on (the recogniser keeps it <= 65535) */
    return v->back && v->h.port < 1 ? -1 : 0;
}

/* The receiver's options: the server's own (its units, --json, limits),
 * -l as the first datagram's length. */
static void plan(struct serve_udp *v, size_t first_len)
{
    const struct ttcp_options *sv = v->s->server;
    struct ttcp_options *o = &v->o[WAY_IN];
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

/* Our sender's, from the receiver's: for the header's time or bytes,
 * paced at its rate (iperf2's 1 Mbit/s when it names none) within
 * --max-rate; -r and -d to the port the client listens on. */
static void plan_send(struct serve_udp *v)
{
    const struct ttcp_options *sv = v->s->server;
    struct ttcp_options *o = &v->o[WAY_OUT];
    uint64_t rate = v->h.rate ? v->h.rate : UDP_DEFAULT_RATE;
    *o = v->o[WAY_IN];
    o->transmit = 1;
    o->host = tt_addr_text(&v->s->client, v->host, sizeof v->host);
    if (v->back)
        o->port = (uint64_t)v->h.port;
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

/* The engine's stamp (engine/run.h), when we send: iperf2's sequence
 * header, from 1 (-R, -r and -d alike: 2.1.8's server puts no client
 * header in its datagrams). */
static void stamp_dgram(void *ctx, unsigned char *buf, size_t len, uint64_t seq, int64_t now_ns)
{
    if (len >= TTCP_IPERF2_UDP_DGRAM_LEN)
        put_dgram(ctx, buf, (int64_t)(seq + 1), now_ns);
}

/* Our end on s: -R's as 2.1.8's server sends it, one datagram of
 * sequence -(sent + 1) and no report asked for; -r's and -d's as its
 * client's, until the client's listener reports (its figures are its
 * own to print: ours are what we sent). */
static void send_end(struct serve_udp *v, tt_socket s)
{
    size_t len = (size_t)v->o[WAY_OUT].buflen;
    uint64_t sent = v->res[WAY_OUT].bytes / len;
    unsigned char *buf = calloc(1, len);
    struct ttcp_iperf2_report r;
    if (buf == NULL)
        return;
    if (v->back)
        ttcp_iperf2_udp_end(s, buf, len, sent, v->shift_ns, IPERF2_FIN_TRIES, &r);
    else
        ttcp_iperf2_udp_end(s, buf, len, sent, v->shift_ns, 1, NULL);
    free(buf);
}

/* The server report of what came: our figures, in iperf2's words. */
static size_t report(const struct serve_udp *v, unsigned char *buf, size_t len)
{
    const struct ttcp_result *res = &v->res[WAY_IN];
    struct ttcp_iperf2_report r;
    memset(&r, 0, sizeof r);
    r.flags = TTCP_IPERF2_VERSION1 | TTCP_IPERF2_SEQNO64B;
    r.bytes = res->bytes;
    r.stop_ns = res->real_ns;
    r.datagrams = res->udp.expected;
    r.lost = ttcp_udp_stats_lost(&res->udp);
    r.out_of_order = res->udp.out_of_order;
    r.jitter_ns = (int64_t)res->udp.jitter_ns;
    return ttcp_iperf2_report_write(buf, len, &r);
}

/* The end: the report now, and again to each end datagram that follows
 * (ours was lost, or not yet read), until the client is quiet (bounded);
 * 0, or -1 when it could not be sent. */
static int answer_end(struct serve_udp *v)
{
    unsigned char out[TTCP_IPERF2_REPORT_LEN];
    unsigned char *in = malloc(TTCP_UDP_MAX_BUFLEN + 1); /* whole: a short read fails on Windows */
    int64_t until = tt_now_ns() + REPORT_MAX_NS, got;
    size_t len = report(v, out, sizeof out);
    struct ttcp_iperf2_dgram d;
    tt_socket s = v->s->control;
    if (in == NULL || len == 0 || tt_send(s, out, len) != (int64_t)len) {
        free(in);
        return -1;
    }
    while (tt_now_ns() < until && !tt_interrupted() && tt_wait_readable(s, REPORT_QUIET_MS) > 0) {
        got = tt_recv(s, in, TTCP_UDP_MAX_BUFLEN + 1);
        if (got < 0 && got != TT_E_AGAIN && got != TT_E_INTR)
            break; /* refused: the client has gone */
        if (got > 0 && ttcp_iperf2_dgram_read(in, (size_t)got, &d) == 0 && d.seq < 0)
            tt_send(s, out, len);
    }
    free(in);
    return 0;
}

/* -r, -d: a UDP socket of our own connected to the client's address at
 * mPort; 0 or a TT_E_*. */
static int open_back(struct serve_udp *v, tt_socket *out)
{
    struct tt_addr_list to;
    char ip[80];
    int rc;
    *out = TT_NO_SOCKET;
    /* the client's address as its text (an IPv4-mapped one as IPv4), for a
     * socket of its own family: numeric, so no name is looked up */
    rc = tt_resolve(tt_addr_text(&v->s->client, ip, sizeof ip), (uint16_t)v->h.port,
                    TT_FAMILY_ANY, 1, &to);
    if (rc != 0 || to.count < 1)
        return rc != 0 ? rc : TT_E_IO;
    v->back_to = to.addr[0];
    rc = tt_socket_open(v->back_to.family, 1, out);
    if (rc == 0 && (rc = ttcp_bind_outgoing(*out, v->s->server, v->back_to.family, 0)) == 0)
        rc = tt_connect(*out, &v->back_to);
    if (rc != 0 && *out != TT_NO_SOCKET) {
        tt_close(*out);
        *out = TT_NO_SOCKET;
    }
    return rc;
}

static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct serve_udp *v = ctx;
    const struct ttcp_server_observer *obs = v->s->obs;
    (void)i;
    (void)end;
    obs->event(obs->ctx, &v->o[way], ev, res);
}

/* Way's data phase on its thread: the client's datagrams, then its
 * report; or ours, on the client's socket (-R) or on a socket back to
 * its listener (-r, -d), then our end. */
static void run_way(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct serve_udp *v = ctx;
    struct ttcp_udp_stamp in = {NULL, &v->arrivals, ttcp_iperf2_stamp_read, v->prior,
                                v->prior_count};
    struct ttcp_udp_stamp out = {stamp_dgram, v, NULL, NULL, 0};
    tt_socket sock = v->s->control;
    const struct tt_addr *peer = &v->s->client;
    int rc = 0;
    (void)i;
    if (way == WAY_OUT && v->back) {
        rc = open_back(v, &sock);
        v->res[way].failure.code = rc;
        v->res[way].failure.op = TTCP_OP_CONNECT; /* (a run's own failure replaces it) */
        peer = &v->back_to;
    }
    if (rc == 0)
        rc = ttcp_run_on_stamped(&v->o[way], obs, &v->res[way], sock, peer,
                                 TTCP_RUN_KEEP_SOCKET, way == WAY_OUT ? &out : &in);
    if (way == WAY_IN && !v->arrivals.ended) {
        tt_mutex_lock(v->lock);
        v->in_cut = 1;
        tt_mutex_unlock(v->lock);
    }
    if (rc != 0)
        v->s->obs->failed(v->s->obs->ctx, &v->o[way], &v->res[way]);
    else if (way == WAY_OUT)
        send_end(v, sock);
    else if (v->arrivals.ended)
        v->answered = answer_end(v) == 0;
    if (sock != v->s->control && sock != TT_NO_SOCKET)
        tt_close(sock);
}

/* -d: our datagrams go on only while the client's come, or came to their
 * end: one datagram from a forged address must not start a long send. */
static int stop_sending(void *ctx)
{
    struct serve_udp *v = ctx;
    int cut;
    tt_mutex_lock(v->lock);
    cut = v->in_cut;
    tt_mutex_unlock(v->lock);
    return cut;
}

/* The ways in mask side by side on the stream runner. */
static void run_ways(struct serve_udp *v, unsigned ways)
{
    struct ttcp_streams_observer obs = {stream_event, NULL, stop_sending, NULL, v};
    struct ttcp_streams run;
    if (ttcp_streams_init(&run, 1, ways, &obs) != 0)
        return;
    ttcp_streams_run(&run, run_way, v, NULL, NULL);
    ttcp_streams_free(&run);
}

/* The test's plan from its first datagram: 0, or -1 (not one we serve). */
static int open_test(struct serve_udp *v)
{
    struct ttcp_iperf2_dgram first;
    enum ttcp_iperf2_send send;
    if (v->prior_count < 1 || ttcp_iperf2_udp_recognise(v->prior[0].buf, v->prior[0].len,
                                                        &v->h) != TTCP_IPERF2_UDP_START)
        return -1;
    send = ttcp_iperf2_hdr_send(&v->h);
    v->reverse = send == TTCP_IPERF2_SEND_SAME;
    v->back = send == TTCP_IPERF2_SEND_BACK_AFTER || send == TTCP_IPERF2_SEND_BACK_NOW;
    v->now = send == TTCP_IPERF2_SEND_BACK_NOW;
    if (within_limits(v) != 0)
        return -1;
    plan(v, v->prior[0].len);
    if (v->reverse || v->back) {
        plan_send(v);
        if (ttcp_iperf2_dgram_read(v->prior[0].buf, v->prior[0].len, &first) == 0)
            v->shift_ns = (int64_t)first.sec * NS_PER_S + (int64_t)first.usec * 1000 -
                          tt_now_ns();
    }
    return 0;
}

void ttcp_iperf2_serve_udp(struct ttcp_peer_serving *s)
{
    struct serve_udp *v = calloc(1, sizeof *v);
    if (v == NULL)
        return;
    if (tt_mutex_new(&v->lock) != 0) {
        free(v);
        return;
    }
    v->s = s;
    v->prior_count = s->udp_prior(s, &v->prior);
    if (open_test(v) != 0) {
        s->obs->notice(s->obs->ctx, TTCP_NOTICE_REFUSED_TEST, &s->client);
    } else {
        s->begun(s);
        if (v->reverse)
            run_ways(v, 1u << WAY_OUT);
        else
            run_ways(v, 1u << WAY_IN | (v->now ? 1u << WAY_OUT : 0u));
        /* -r: ours after the client's test has ended and been answered */
        if (v->back && !v->now && v->answered && !tt_interrupted())
            run_ways(v, 1u << WAY_OUT);
    }
    ttcp_result_release(&v->res[WAY_IN]);
    ttcp_result_release(&v->res[WAY_OUT]);
    tt_mutex_free(v->lock);
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
