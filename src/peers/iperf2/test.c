/* ttcp -C --iperf2 host (iperf2.h): the streams' connections, each opened
 * with iperf2's client header, run on the engine's phases through the
 * stream runner; UDP's end and report are udp.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/local.h"
#include "engine/run.h"
#include "remote/dial.h"
#include "peers/iperf2/internal.h"

#define CONNECT_MS 10000
#define NOT_IPERF2 1 /* introduce(): the answer was not iperf2's */

int ttcp_iperf2_check(const struct ttcp_options *o, char *why, size_t why_len)
{
    const char *no = NULL;
    if (o->key_file != NULL)
        no = "--key-file (iperf2 has no key)";
    else if (o->verify || o->half_close || o->traceroute || o->pmtu || o->group != NULL)
        no = "--verify, --half-close, --traceroute, --pmtu and multicast";
    else if (o->udp && o->buflen < TTCP_IPERF2_UDP_HDR_LEN)
        no = "-u -l below 76 (iperf2's datagram header and test header)";
    else if (!o->sinkmode)
        no = "data from stdin";
    else if (!o->transmit || o->bidir) /* the server sends: -l within its buffer */
        no = !o->udp && o->buflen > TTCP_IPERF2_SERVER_TCP_BUF
                 ? "-l above 128k when the server sends (-r, --bidir): iperf -s 2.1.8 "
                   "writes from a buffer of its own -l, 128k by default, and overruns it"
             : o->udp && o->buflen > TTCP_IPERF2_SERVER_UDP_BUF
                 ? "-u -l above 1470 when the server sends (-r, --bidir): iperf -s -u 2.1.8 "
                   "writes from a buffer of its own -l, 1470 by default, and overruns it"
                 : NULL;
    if (no == NULL)
        return 0;
    snprintf(why, why_len, "--iperf2 cannot carry %s", no);
    return -1;
}

static int problem(struct iperf2 *t, enum ttcp_client_problem p, int code, const char *why)
{
    ttcp_outcome_problem(t->out, p, code);
    if (why != NULL)
        snprintf(t->out->why, sizeof t->out->why, "%s", why);
    return -1;
}

/* Room for the way's n streams and each end's options; 0 or -1. iperf2's
 * server sends figures back only of UDP it received alone (its server
 * report): not of TCP, not of what it sends, not in --full-duplex. */
static int plan(struct iperf2 *t, int way)
{
    struct ttcp_client_stream *st = &t->out->stream[way];
    int i, n = t->n;
    st->used = 1;
    st->n = n;
    st->theirs_unknown = !t->o->udp || t->ways != 1u;
    st->local = *t->o;
    st->local.transmit = way == 0;
    if (way == 1 && st->local.udp) /* the server's first datagram is due at once */
        st->local.start_timeout_ns = IPERF2_ACK_WAIT_MS * 1000000ll;
    st->remote = *t->o;
    st->remote.transmit = !st->local.transmit;
    ttcp_options_name_tool(&st->remote, IPERF2_TOOL);
    if (ttcp_outcome_parts(st, n) != 0)
        return problem(t, TTCP_CLIENT_LOCAL, TT_E_NOMEM, "memory");
    for (i = 0; i < n; i++) {
        ttcp_stream_options(&st->local, i, n, &st->part_local[i]);
        ttcp_stream_options(&st->remote, i, n, &st->part_remote[i]);
        if (n > 1) /* numbered afresh: tagged again after its number */
            ttcp_options_name_tool(&st->part_remote[i], IPERF2_TOOL);
    }
    return 0;
}

/* The header every connection (or datagram) carries: -n's bytes or
 * --time, -P, -l, -b, -R; with -r the server sends on the connection
 * (REVERSE), with --bidir both ends send on it at once (FULLDUPLEX; UDP:
 * NOUDPFIN, the server answers our end with no report). */
static void header(struct iperf2 *t)
{
    const struct ttcp_options *o = t->o;
    uint64_t bytes = o->duration_ns ? 0 : o->nbuf * o->buflen;
    struct ttcp_iperf2_hdr *h = &t->hdr;
    ttcp_iperf2_hdr_init(h, o->udp, t->n, bytes, o->duration_ns);
    h->port = (int32_t)o->port;
    h->buflen = (int32_t)o->buflen;
    h->window = (int32_t)(o->sockbufsize > 0x7fffffffu ? 0x7fffffff : o->sockbufsize);
    if (t->ways != 1u) /* UDPTESTS: 2.1.8's server reads NOUDPFIN only with it */
        h->flags |= TTCP_IPERF2_VERSION2 | (o->udp ? TTCP_IPERF2_UDPTESTS : 0);
    if (t->ways == 2u)
        h->upper |= TTCP_IPERF2_UP_REVERSE;
    if (t->ways == 3u)
        h->upper |= TTCP_IPERF2_UP_FULLDUPLEX | (o->udp ? TTCP_IPERF2_UP_NOUDPFIN : 0);
    if (o->udp && o->pace_bps) {
        h->upper |= TTCP_IPERF2_UP_BWSET;
        h->rate = o->pace_bps;
    }
    if (o->tos_given)
        h->tos = (uint16_t)o->tos;
    memset(t->udp_template, 0, sizeof t->udp_template);
    ttcp_iperf2_hdr_write(t->udp_template, sizeof t->udp_template, h, 1);
}

/* The server's CLIENTHDRACK, read whole before the data (unread, it would
 * turn our close into a reset that loses the server's last bytes). A
 * server that sends none (2.0) is waited for IPERF2_ACK_WAIT_MS. */
static int read_ack(tt_socket s)
{
    unsigned char ack[TTCP_IPERF2_HDR_MAX];
    size_t got = 0, want = TTCP_IPERF2_ACK_LEN;
    int64_t end = tt_now_ns() + IPERF2_ACK_WAIT_MS * 1000000ll, n;
    while (got < want) {
        int64_t left = (end - tt_now_ns()) / 1000000;
        if (left <= 0 || tt_wait_readable(s, (int)left) <= 0)
            return got == 0 ? 0 : -1;
        n = tt_recv(s, ack + got, want - got);
        if (n <= 0)
            return -1;
        got += (size_t)n;
        if (got >= 8 && ttcp_iperf2_ack_read(ack, sizeof ack, &want) != 0)
            return -1;
    }
    return 0;
}

/* The connection's opening: the 60-byte header, then (unless the server
 * sends to us) its acknowledgement. 0, NOT_IPERF2 or a TT_E_* code. */
static int introduce(struct iperf2 *t, tt_socket s)
{
    unsigned char h[TTCP_IPERF2_TCP_HDR_LEN];
    size_t len = ttcp_iperf2_hdr_write(h, sizeof h, &t->hdr, 0);
    int64_t n = tt_send(s, h, len);
    if (n != (int64_t)len)
        return n < 0 ? (int)n : TT_E_IO;
    if (t->ways == 1u && read_ack(s) != 0)
        return NOT_IPERF2;
    return 0;
}

/* A stream's socket made ready for address a (remote/dial.h's step):
 * options, the local address, the connect, then the protocol's opening:
 * TCP's header (and its acknowledgement); -u -r's request datagram and
 * the server's first answer. The stream is t->opening. */
static int connect_step(void *ctx, tt_socket s, const struct tt_addr *a, enum ttcp_op *op)
{
    struct iperf2 *t = ctx;
    const struct ttcp_options *o = t->o;
    uint16_t port = o->cport ? (uint16_t)(o->cport + (uint64_t)t->opening) : 0;
    int rc;
    *op = TTCP_OP_BIND;
    if ((rc = ttcp_bind_outgoing(s, o, a->family, port)) != 0)
        return rc;
    *op = TTCP_OP_MSS;
    if (!o->udp && o->mss != 0 && (rc = tt_setopt(s, TT_OPT_MAXSEG, (int)o->mss)) != 0)
        return rc;
    if (o->tos_given)
        (void)tt_setopt(s, TT_OPT_TOS, (int)o->tos);
    *op = TTCP_OP_CONNECT;
    tt_setopt(s, TT_OPT_SNDTIMEO_MS, CONNECT_MS);
    if ((rc = tt_connect(s, a)) != 0)
        return rc;
    if (!o->udp && (rc = introduce(t, s)) == NOT_IPERF2)
        t->not_iperf2 = 1;
    else if (o->udp && t->ways == 2u)
        rc = ttcp_iperf2_udp_request(t, t->opening, s, op);
    return rc;
}

/* The first stream by each address of the host in turn; the others to
 * the address that took. */
static int open_streams(struct iperf2 *t)
{
    const struct ttcp_options *o = t->o;
    struct ttcp_dialled d;
    enum ttcp_op op = TTCP_OP_SOCKET;
    int rc;
    t->opening = 0;
    rc = ttcp_dial(o->host, (uint16_t)o->port, o->family, o->udp, connect_step, t, &d);
    t->socks[0] = d.sock;
    t->server = d.server;
    for (t->opening = 1; rc == 0 && t->opening < t->n; t->opening++) {
        tt_socket *s = &t->socks[t->opening];
        op = TTCP_OP_SOCKET;
        if ((rc = tt_socket_open(t->server.family, o->udp, s)) != 0)
            *s = TT_NO_SOCKET;
        else
            rc = connect_step(t, *s, &t->server, &op);
    }
    t->out->failure.op = t->opening == 1 ? d.op : op;
    if (rc != 0 && t->not_iperf2)
        return problem(t, TTCP_CLIENT_PROTOCOL, 0, "the server's answer to iperf2's client "
                       "header is not a CLIENTHDRACK: not an iperf2 server?");
    if (rc != 0)
        return problem(t, TTCP_CLIENT_CONNECT, rc, NULL);
    for (t->opening = 0; t->opening < t->n; t->opening++) {
        tt_socket s = t->socks[t->opening];
        tt_setopt(s, TT_OPT_RCVTIMEO_MS, (int)(o->idle_timeout_ns / 1000000));
        tt_setopt(s, TT_OPT_SNDTIMEO_MS, (int)(o->idle_timeout_ns / 1000000));
    }
    return 0;
}

static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct iperf2 *t = ctx;
    ttcp_outcome_tell(t->out, t->obs, way, i, end == TTCP_END_LOCAL, ev, res);
}

static void total_interval(void *ctx, int way, enum ttcp_stream_end end,
                           const struct ttcp_interval *in)
{
    struct iperf2 *t = ctx;
    struct ttcp_event ev = {TTCP_EV_INTERVAL, TTCP_WARN_COUNT, in, NULL};
    ttcp_outcome_tell(t->out, t->obs, way, -1, end == TTCP_END_LOCAL, &ev, NULL);
}

/* Stream i of way on its thread: TCP, the data phase on its connection;
 * with --bidir each way on the same one, kept until both are done. */
static void run_stream(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct iperf2 *t = ctx;
    struct ttcp_client_stream *st = &t->out->stream[way];
    tt_socket s = t->socks[i];
    unsigned flags = TTCP_RUN_KEEP_SOCKET | TTCP_RUN_SHARED_SOCKET;
    if (t->o->udp) {
        ttcp_iperf2_udp_stream(t, way, i, obs);
        return;
    }
    if (t->ways != 3u) { /* the run takes the connection and closes it */
        t->socks[i] = TT_NO_SOCKET;
        flags = 0;
    }
    st->part_rc[i] = ttcp_run_on(&st->part_local[i], obs, &st->part_mine[i], s, &t->server,
                                 flags);
}

/* The way's totals; UDP sent alone: a stream without its report is the
 * problem. */
static void total(struct iperf2 *t, int way)
{
    struct ttcp_client_stream *st = &t->out->stream[way];
    int i;
    st->theirs_valid = !st->theirs_unknown;
    for (i = 0; i < st->n; i++) {
        st->theirs_valid &= st->part_theirs_valid[i];
        if (st->rc == 0)
            st->rc = st->part_rc[i];
    }
    ttcp_streams_total(&t->run, way, TTCP_END_LOCAL, st->part_mine, &st->mine);
    if (!st->theirs_unknown)
        ttcp_streams_total(&t->run, way, TTCP_END_PEER, st->part_theirs, &st->theirs);
    if (!st->theirs_unknown && !st->theirs_valid && st->rc == 0 &&
        t->out->problem == TTCP_CLIENT_OK)
        problem(t, TTCP_CLIENT_LOST, TT_E_TIMEDOUT, "no server report after the end datagrams: iperf2's "
                "server did not answer (its \"did not receive ack of last datagram\")");
}

static int converse(struct iperf2 *t)
{
    int way;
    for (way = 0; way < 2; way++)
        if ((t->ways & (1u << way)) && plan(t, way) != 0)
            return -1;
    header(t);
    if (open_streams(t) != 0)
        return -1;
    t->stream_obs.event = stream_event;
    t->stream_obs.total = total_interval;
    t->stream_obs.ctx = t;
    if (ttcp_streams_init(&t->run, t->n, t->ways, &t->stream_obs) != 0)
        return problem(t, TTCP_CLIENT_LOCAL, TT_E_NOMEM, "memory");
    ttcp_streams_run(&t->run, run_stream, t, NULL, NULL);
    for (way = 0; way < 2; way++)
        if (t->ways & (1u << way))
            total(t, way);
    return t->out->problem == TTCP_CLIENT_OK ? 0 : -1;
}

int ttcp_iperf2_test(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                     struct ttcp_client_outcome *out, int64_t deadline)
{
    struct iperf2 *t = calloc(1, sizeof *t);
    int rc, i;
    memset(out, 0, sizeof *out);
    if (t == NULL) {
        out->problem = TTCP_CLIENT_LOCAL;
        out->failure.code = TT_E_NOMEM;
        return -1;
    }
    t->o = o;
    t->obs = obs;
    t->out = out;
    t->deadline = deadline;
    switch (ttcp_options_direction(o)) {
    case TTCP_DIR_BIDIR:
        t->ways = 3u;
        break;
    case TTCP_DIR_RECEIVE:
        t->ways = 2u;
        break;
    default:
        t->ways = 1u;
    }
    t->n = o->streams > 0 ? (int)o->streams : 1;
    for (i = 0; i < TTCP_STREAMS_MAX; i++)
        t->socks[i] = TT_NO_SOCKET;
    rc = converse(t);
    for (i = 0; i < TTCP_STREAMS_MAX; i++) {
        if (t->socks[i] != TT_NO_SOCKET)
            tt_close(t->socks[i]);
        free(t->first[i].buf);
    }
    ttcp_streams_free(&t->run);
    free(t);
    return rc;
}
