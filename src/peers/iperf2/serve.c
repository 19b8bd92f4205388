/* ttcp -S: an `iperf -c` (2.1.8) that came to the shared port with its
 * client header (gate.c's recogniser is ttcp_iperf2_recognise). One
 * connection is one test: iperf2's -P n opens n connections, each with its
 * own header, and each is served as a client of its own (each counts in
 * --max-clients; numThreads is held to --max-streams).
 * - iperf -c: the header is answered with the CLIENTHDRACK and left in the
 *   stream, so the receiver counts it as iperf2 counts it (its 60 bytes
 *   are among the client's -n and its -y C bytes).
 * - iperf -c -R: the header taken off, we send on the same connection.
 * - iperf -c -r / -d: we also connect back to the client's address (never
 *   another) at the header's mPort and send there, after the client's test
 *   (-r) or at once beside it (-d).
 * Both ways run on the stream runner, each a data phase of the engine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/local.h"
#include "engine/run.h"
#include "engine/streams.h"
#include "peers/iperf2/iperf2.h"
#include "peers/iperf2/wire.h"
#include "remote/peer.h"
#include "remote/wire.h"

#define HDR_WAIT_MS 5000         /* the whole header, once the gate has seen its start */
#define BACK_TRIES 30            /* -d: the client's listener may come up a little late */
#define BACK_PAUSE_NS 100000000ll
#define BACK_CONNECT_MS 3000
#define SERVE_BUFLEN (128u << 10) /* iperf2's TCP -l when the client names none */
#define SERVE_BUFLEN_MAX (4u << 20)
#define BUFLEN_LEAST 8192u       /* -n's bytes sent in whole buffers no shorter than this */
#define WAY_IN 0                 /* we receive, on the client's connection */
#define WAY_OUT 1                /* we send: on it (-R) or on the connection back (-r, -d) */

struct serve {
    struct ttcp_peer_serving *s;
    struct ttcp_iperf2_hdr h;
    size_t hdr_len;
    int reverse;                 /* -R: WAY_OUT on the client's own connection */
    int back;                    /* -r, -d: WAY_OUT on a connection back to mPort */
    struct ttcp_options side[2];
    struct ttcp_result res[2];
    struct tt_addr back_to;
    char host[80];
};

/* The whole header, looked at without taking it: 0, or -1 (it did not
 * come in time, or is not one after all). */
static int peek_header(struct serve *v)
{
    unsigned char buf[TTCP_IPERF2_HDR_MAX];
    int64_t end = tt_now_ns() + HDR_WAIT_MS * 1000000ll;
    for (;;) {
        int64_t n = tt_recv_peek(v->s->control, buf, sizeof buf), left;
        enum ttcp_iperf2_seen seen = TTCP_IPERF2_NO;
        if (n > 0)
            seen = ttcp_iperf2_hdr_recognise(buf, (size_t)n, &v->h, &v->hdr_len);
        if (seen == TTCP_IPERF2_YES)
            return 0;
        if ((n <= 0 && n != TT_E_AGAIN) || seen == TTCP_IPERF2_NO ||
            (size_t)n == sizeof buf)
            return -1;
        left = (end - tt_now_ns()) / 1000000;
        if (left <= 0 || tt_interrupted())
            return -1;
        tt_sleep_ns(10000000ll); /* the bytes at hand stay queued: poll would not wait */
    }
}

/* Within the server's limits? 0, or -1 (the client is closed: iperf2 has
 * no words for a refusal). */
static int within_limits(const struct serve *v)
{
    const struct ttcp_options *sv = v->s->server;
    uint64_t most = sv->max_streams ? sv->max_streams : TTCP_STREAMS_MAX;
    if (v->h.threads < 1 || (uint64_t)v->h.threads > most)
        return -1;
    if (v->h.buflen < 0 || (uint32_t)v->h.buflen > SERVE_BUFLEN_MAX)
        return -1;
    if (v->back && (v->h.port < 1 || v->h.port > 65535))
        return -1;
    return 0;
}

/* A buffer length for bytes in whole buffers of at most most (and at
 * least BUFLEN_LEAST, else most: the last buffer goes whole, a little
 * over what was asked). */
static uint64_t whole_buffers(uint64_t bytes, uint64_t most)
{
    uint64_t len;
    if (bytes <= most)
        return bytes;
    for (len = most; len >= BUFLEN_LEAST; len--)
        if (bytes % len == 0)
            return len;
    return most;
}

/* Way's options: the server's own (its units, --json, limits) as a
 * classic test's, with what the header asks for. */
static void plan_side(struct serve *v, int way)
{
    const struct ttcp_options *sv = v->s->server;
    struct ttcp_options *o = &v->side[way];
    *o = *sv;
    o->mode = TTCP_MODE_CLASSIC;
    o->transmit = way == WAY_OUT;
    o->side_given = 1;
    o->sinkmode = 1;
    o->thread_cpu = 1;
    o->streams = 1;
    o->buflen = v->h.buflen > 0 ? (uint64_t)v->h.buflen : SERVE_BUFLEN;
    if (v->h.window > 0)
        o->sockbufsize = (uint64_t)v->h.window < TTCP_SERVER_MAX_SOCKBUF
                             ? (uint64_t)v->h.window : TTCP_SERVER_MAX_SOCKBUF;
    o->limit_ns = sv->max_time_ns;
    o->pace_bps = sv->max_rate_bps;
    o->duration_ns = 0;
    o->nbuf_given = 0;
    if (!o->transmit)
        return;
    o->host = tt_addr_text(&v->s->client, v->host, sizeof v->host);
    if (v->h.amount < 0) { /* -(seconds * 100) */
        o->duration_ns = -(int64_t)v->h.amount * 10000000ll;
        if (sv->max_time_ns && o->duration_ns > sv->max_time_ns)
            o->duration_ns = sv->max_time_ns;
    } else {
        uint64_t bytes = v->h.amount > 0 ? (uint64_t)v->h.amount : 1;
        o->buflen = whole_buffers(bytes, o->buflen);
        o->nbuf = (bytes + o->buflen - 1) / o->buflen;
        o->nbuf_given = 1;
    }
}

/* -r, -d: a connection to the client's address at mPort; 0 or a TT_E_*. */
static int connect_back(struct serve *v, tt_socket *out)
{
    struct tt_addr_list to;
    char ip[80];
    int rc, i;
    /* the client's address as its text (an IPv4-mapped one as IPv4), for a
     * socket of its own family: numeric, so no name is looked up */
    rc = tt_resolve(tt_addr_text(&v->s->client, ip, sizeof ip), (uint16_t)v->h.port,
                    TT_FAMILY_ANY, 0, &to);
    if (rc != 0 || to.count < 1)
        return rc != 0 ? rc : TT_E_IO;
    v->back_to = to.addr[0];
    for (i = 0; i < BACK_TRIES && !tt_interrupted(); i++) {
        if (i > 0)
            tt_sleep_ns(BACK_PAUSE_NS);
        rc = tt_socket_open(v->back_to.family, 0, out);
        if (rc == 0 && (rc = ttcp_bind_outgoing(*out, v->s->server, v->back_to.family, 0)) == 0) {
            tt_setopt(*out, TT_OPT_SNDTIMEO_MS, BACK_CONNECT_MS);
            rc = tt_connect(*out, &v->back_to);
        }
        if (rc == 0)
            return 0;
        if (*out != TT_NO_SOCKET)
            tt_close(*out);
        *out = TT_NO_SOCKET;
    }
    return rc;
}

static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct serve *v = ctx;
    const struct ttcp_server_observer *obs = v->s->obs;
    (void)i;
    (void)end;
    obs->event(obs->ctx, &v->side[way], ev, res);
}

/* Way's data phase on its thread: on the client's connection or on the
 * connection back; the run closes either. */
static void run_way(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct serve *v = ctx;
    const struct ttcp_options *o = &v->side[way];
    int idle_ms = (int)(o->idle_timeout_ns / 1000000), rc;
    tt_socket sock = v->s->control;
    unsigned flags = TTCP_RUN_ACCEPTED;
    const struct tt_addr *peer = &v->s->client;
    (void)i;
    if (way == WAY_OUT && v->back) {
        rc = connect_back(v, &sock);
        if (rc != 0) {
            v->res[way].failure.code = rc;
            v->res[way].failure.op = TTCP_OP_CONNECT;
            v->s->obs->failed(v->s->obs->ctx, o, &v->res[way]);
            return;
        }
        flags = 0;
        peer = &v->back_to;
    } else {
        v->s->control = TT_NO_SOCKET; /* the run closes it (remote/peer.h) */
    }
    tt_setopt(sock, TT_OPT_RCVTIMEO_MS, idle_ms); /* a client that stalls ends the test */
    tt_setopt(sock, TT_OPT_SNDTIMEO_MS, idle_ms);
    rc = ttcp_run_on(o, obs, &v->res[way], sock, peer, flags);
    if (rc != 0)
        v->s->obs->failed(v->s->obs->ctx, o, &v->res[way]);
}

/* The ways in mask side by side on the stream runner. */
static void run_ways(struct serve *v, unsigned ways)
{
    struct ttcp_streams_observer obs = {stream_event, NULL, NULL, NULL, v};
    struct ttcp_streams run;
    if (ttcp_streams_init(&run, 1, ways, &obs) != 0)
        return;
    ttcp_streams_run(&run, run_way, v, NULL, NULL);
    ttcp_streams_free(&run);
}

/* The header's answer: -R takes it off (we send after it); else the
 * CLIENTHDRACK to an extended header, the header left to be counted. */
static int open_test(struct serve *v)
{
    unsigned char buf[TTCP_IPERF2_HDR_MAX];
    size_t len;
    if (v->reverse)
        return tt_recv(v->s->control, buf, v->hdr_len) == (int64_t)v->hdr_len ? 0 : -1;
    if (!v->h.extended)
        return 0;
    len = ttcp_iperf2_ack_write(buf, sizeof buf);
    return tt_send(v->s->control, buf, len) == (int64_t)len ? 0 : -1;
}

void ttcp_iperf2_serve(struct ttcp_peer_serving *s)
{
    struct serve *v = calloc(1, sizeof *v);
    int now;
    if (v == NULL)
        return;
    v->s = s;
    if (peek_header(v) == 0) {
        enum ttcp_iperf2_send send = ttcp_iperf2_hdr_send(&v->h);
        v->reverse = send == TTCP_IPERF2_SEND_SAME;
        v->back = send == TTCP_IPERF2_SEND_BACK_AFTER || send == TTCP_IPERF2_SEND_BACK_NOW;
        now = send == TTCP_IPERF2_SEND_BACK_NOW;
        if (within_limits(v) != 0) {
            s->obs->notice(s->obs->ctx, TTCP_NOTICE_REFUSED_TEST, &s->client);
        } else if (open_test(v) == 0) {
            plan_side(v, WAY_IN);
            plan_side(v, WAY_OUT);
            s->begun(s);
            if (v->reverse)
                run_ways(v, 1u << WAY_OUT);
            else
                run_ways(v, 1u << WAY_IN | (now ? 1u << WAY_OUT : 0u));
            if (v->back && !now && !tt_interrupted())
                run_ways(v, 1u << WAY_OUT);
        }
    }
    ttcp_result_release(&v->res[WAY_IN]);
    ttcp_result_release(&v->res[WAY_OUT]);
    free(v);
}
