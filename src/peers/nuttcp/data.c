/* The data of a test against a nuttcp server: the transmitter opens the
 * data connection (6.1.2 without -F): we connect to the server's ports when
 * we send, and listen on ours for it when it sends; UDP goes to the
 * receiver's port alike. Stream i uses the first data port + i. Each stream
 * runs the engine's phases (ttcp_run_on) through the stream runner. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/local.h"
#include "engine/run.h"
#include "peers/nuttcp/internal.h"

#define RETRY_NS 20000000ll /* a refused data connect, tried again this much later */
#define UDP_BIND_WAIT_NS 100000000ll
#define SNAP_MIN 128u       /* The local side of the way: nuttcp's datagrams, its UDP rate unasked. */
static void local_side(const struct nuttcp_test *t, struct ttcp_options *l)
{
    *l = *t->o;
    l->transmit = t->way == 0;
    l->bidir = 0;
    if (l->udp) {
        l->udp_dialect = TTCP_UDP_NUTTCP;
        if (l->transmit && l->pace_bps == 0)
            l->pace_bps = NUTTCP_UDP_DEFAULT_BPS;
        if (!l->transmit)
            l->start_timeout_ns = l->idle_timeout_ns;
    }
}

int nuttcp_plan(struct nuttcp_test *t)
{
    struct ttcp_client_stream *st = &t->out->stream[t->way];
    int i, n = (int)t->n;
    st->used = 1;
    local_side(t, &st->local);
    st->remote = st->local;
    st->remote.transmit = !st->local.transmit;
    if (ttcp_outcome_parts(st, n) != 0)
        return nuttcp_problem(t, TTCP_CLIENT_LOCAL, TT_E_NOMEM);
    for (i = 0; i < n; i++) {
        ttcp_stream_options(&st->local, i, n, &st->part_local[i]);
        ttcp_stream_options(&st->remote, i, n, &st->part_remote[i]);
        ttcp_options_name_tool(&st->part_remote[i], "nuttcp");
    }
    ttcp_options_name_tool(&st->remote, "nuttcp");
    return 0;
}

/* A socket of ours on data port + i, bound (and for TCP listening). */
static int bind_port(struct nuttcp_test *t, unsigned i, tt_socket *out)
{
    struct tt_addr a;
    int family = t->server.family;
    int rc = ttcp_local_address(t->o, &family, (uint16_t)(t->dport + i), &a);
    if (rc == 0)
        rc = tt_socket_open(family, t->o->udp, out);
    if (rc == 0 && !t->o->udp)
        tt_setopt(*out, TT_OPT_REUSEADDR, 1);
    if (rc == 0 && t->o->sockbufsize)
        tt_setopt(*out, TT_OPT_RCVBUF, (int)t->o->sockbufsize);
    if (rc == 0)
        rc = tt_bind(*out, &a);
    if (rc == 0 && !t->o->udp)
        rc = tt_listen(*out, 1);
    if (rc != 0) {
        snprintf(t->out->why, sizeof t->out->why, "cannot take data port %u", t->dport + i);
        t->out->failure.op = TTCP_OP_BIND;
        return nuttcp_problem(t, TTCP_CLIENT_LOCAL, rc);
    }
    return 0;
}

int nuttcp_listen(struct nuttcp_test *t)
{
    unsigned i;
    if (t->way == 0)
        return 0;
    for (i = 0; i < t->n; i++)
        if (bind_port(t, i, t->o->udp ? &t->socks[i] : &t->listeners[i]) != 0)
            return -1;
    return 0;
}

/* We send, TCP: the server's data port + i, which 6.1.2 binds only after
 * its OK went: a refused connect is tried again, for NUTTCP_CONNECT_NS. */
static int connect_data(struct nuttcp_test *t, unsigned i, tt_socket *out)
{
    struct tt_addr to = t->server;
    int64_t end = nuttcp_wait_end(t, NUTTCP_CONNECT_NS);
    int rc;
    tt_addr_set_port(&to, (uint16_t)(t->dport + i));
    do {
        rc = tt_socket_open(to.family, t->o->udp, out);
        if (rc == 0)
            rc = ttcp_bind_outgoing(*out, t->o, to.family,
                                    t->o->cport ? (uint16_t)(t->o->cport + i) : 0);
        if (rc == 0 && t->o->mss)
            tt_setopt(*out, TT_OPT_MAXSEG, (int)t->o->mss);
        if (rc == 0)
            rc = t->o->udp ? tt_connect(*out, &to) : nuttcp_connect_by(*out, &to, end);
        if (rc == 0)
            return 0;
        if (*out != TT_NO_SOCKET)
            tt_close(*out);
        *out = TT_NO_SOCKET;
        if (rc != TT_E_CONNREFUSED || tt_interrupted())
            break;
        tt_sleep_ns(RETRY_NS);
    } while (tt_now_ns() < end);
    t->out->failure.op = TTCP_OP_CONNECT;
    snprintf(t->out->why, sizeof t->out->why, "data port %u", t->dport + i);
    return nuttcp_problem(t, TTCP_CLIENT_CONNECT, rc);
}

/* The server sends, TCP: its connection to our port + i, from its address
 * alone (another's is closed, and the wait goes on). */
static int accept_data(struct nuttcp_test *t, unsigned i, tt_socket *out)
{
    int64_t end = nuttcp_wait_end(t, NUTTCP_CONTROL_NS);
    unsigned char ours[16], theirs[16];
    int rc = TT_E_TIMEDOUT, len = tt_addr_ip(&t->server, ours);
    while (tt_now_ns() < end && !tt_interrupted()) {
        struct tt_addr peer;
        if (tt_wait_readable(t->listeners[i], 100) <= 0)
            continue;
        rc = tt_accept(t->listeners[i], out, &peer);
        if (rc != 0)
            continue;
        if (tt_addr_ip(&peer, theirs) == len && memcmp(ours, theirs, (size_t)len) == 0)
            return 0;
        tt_close(*out);
        *out = TT_NO_SOCKET;
        rc = TT_E_TIMEDOUT;
    }
    snprintf(t->out->why, sizeof t->out->why, "the nuttcp server never connected to data "
             "port %u", t->dport + i);
    t->out->failure.op = TTCP_OP_ACCEPT;
    return nuttcp_problem(t, TTCP_CLIENT_LOST, rc);
}

int nuttcp_open_streams(struct nuttcp_test *t)
{
    unsigned i;
    int rc = 0;
    for (i = 0; i < t->n && rc == 0; i++) {
        if (t->way == 0)
            rc = connect_data(t, i, &t->socks[i]);
        else if (!t->o->udp)
            rc = accept_data(t, i, &t->socks[i]);
        if (rc == 0 && t->socks[i] != TT_NO_SOCKET) { /* a stalled server ends the test */
            tt_setopt(t->socks[i], TT_OPT_SNDTIMEO_MS, (int)(t->o->idle_timeout_ns / 1000000));
            tt_setopt(t->socks[i], TT_OPT_RCVTIMEO_MS, (int)(t->o->idle_timeout_ns / 1000000));
        }
    }
    return rc;
}

static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct nuttcp_test *t = ctx;
    ttcp_outcome_tell(t->out, t->obs, way, i, end == TTCP_END_LOCAL, ev, res);
}

static void total_interval(void *ctx, int way, enum ttcp_stream_end end,
                           const struct ttcp_interval *in)
{
    struct nuttcp_test *t = ctx;
    struct ttcp_event ev = {TTCP_EV_INTERVAL, TTCP_WARN_COUNT, in, NULL};
    ttcp_outcome_tell(t->out, t->obs, way, -1, end == TTCP_END_LOCAL, &ev, NULL);
}

static void run_stream(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct nuttcp_test *t = ctx;
    struct ttcp_client_stream *st = &t->out->stream[way];
    struct tt_addr peer = t->server;
    tt_socket sock = t->socks[i];
    t->socks[i] = TT_NO_SOCKET;
    tt_addr_set_port(&peer, (uint16_t)(t->dport + (unsigned)i));
    st->part_rc[i] = ttcp_run_on(&st->part_local[i], obs, &st->part_mine[i], sock, &peer,
                                 t->way == 1 && !t->o->udp ? TTCP_RUN_ACCEPTED : 0);
}

void nuttcp_run_streams(struct nuttcp_test *t)
{
    t->stream_obs.event = stream_event;
    t->stream_obs.total = total_interval;
    t->stream_obs.ctx = t;
    if (ttcp_streams_init(&t->run, (int)t->n, 1u << t->way, &t->stream_obs) != 0) {
        nuttcp_problem(t, TTCP_CLIENT_LOCAL, TT_E_NOMEM);
        return;
    }
    t->run_ready = 1;
    if (t->o->udp && t->way == 0) /* 6.1.2 binds its UDP port only after its OK went */
        tt_sleep_ns(UDP_BIND_WAIT_NS);
    ttcp_streams_run(&t->run, run_stream, t, NULL, NULL);
}

/* The server's figures from its lines: bytes (from its MiB, 4 decimals:
 * within 53 bytes; when it received, what we sent was whole buffers of -l
 * bytes, so the nearest multiple of -l is the count, once -l is 128 or
 * more, and so are datagrams; a timed nuttcp TCP transmitter's last write
 * may be cut short, so its own count stays as its MiB said),
 * seconds, CPU; UDP's loss as nuttcp's client counts it, what we sent
 * against what it received. */
static int theirs_from_report(const struct nuttcp_test *t, const struct ttcp_client_stream *st,
                              struct ttcp_result *r)
{
    const struct ttcp_nuttcp_report *rep = &t->report;
    memset(r, 0, sizeof *r);
    if (!(rep->have & (1u << TTCP_NUTTCP_LINE_TOTAL)))
        return 0;
    r->started = 1;
    r->bytes = ttcp_nuttcp_bytes(rep->megabytes);
    if (t->o->buflen >= SNAP_MIN && (t->way == 0 || t->o->udp))
        r->bytes = (r->bytes + t->o->buflen / 2) / t->o->buflen * t->o->buflen;
    r->real_ns = (int64_t)(rep->real_s * 1e9);
    r->cpu_end.user_ns = (int64_t)(rep->user_s * 1e9);
    r->cpu_end.sys_ns = (int64_t)(rep->sys_s * 1e9);
    if (t->o->udp && t->way == 0 && t->o->buflen > 0) {
        r->udp_stats_valid = 1;
        r->udp.expected = st->mine.bytes / t->o->buflen;
        r->udp.datagrams = (r->bytes + t->o->buflen / 2) / t->o->buflen;
        if (r->udp.datagrams > r->udp.expected)
            r->udp.datagrams = r->udp.expected;
    }
    return 1;
}

void nuttcp_totals(struct nuttcp_test *t)
{
    struct ttcp_client_stream *st = &t->out->stream[t->way];
    int i;
    if (!t->run_ready)
        return;
    for (i = 0; i < st->n; i++)
        if (st->rc == 0)
            st->rc = st->part_rc[i];
    ttcp_streams_total(&t->run, t->way, TTCP_END_LOCAL, st->part_mine, &st->mine);
    st->theirs_valid = theirs_from_report(t, st, &st->theirs);
    if (t->o->udp && t->way == 1 && st->theirs_valid && !st->mine.udp_stats_valid &&
        t->o->buflen > 0) { /* no count in its datagrams: what it sent, what came */
        st->mine.udp_stats_valid = 1;
        st->mine.udp.expected = st->theirs.bytes / t->o->buflen;
        st->mine.udp.datagrams = st->mine.bytes / t->o->buflen;
        if (st->mine.udp.datagrams > st->mine.udp.expected)
            st->mine.udp.expected = st->mine.udp.datagrams;
    }
    if (st->n == 1 && st->theirs_valid) { /* one stream: its figures are the server's */
        st->part_theirs[0] = st->theirs;
        st->part_theirs_valid[0] = 1;
    }
    if (!st->theirs_valid && t->out->problem == TTCP_CLIENT_OK) {
        snprintf(t->out->why, sizeof t->out->why, "%s", t->report.error[0]
                 ? t->report.error : "the nuttcp server sent no figures");
        t->out->problem = t->report.error[0] ? TTCP_CLIENT_REFUSED : TTCP_CLIENT_PROTOCOL;
    }
}

void nuttcp_close_all(struct nuttcp_test *t)
{
    unsigned i;
    for (i = 0; i < TTCP_NUTTCP_STREAMS_MAX; i++) {
        if (t->socks[i] != TT_NO_SOCKET)
            tt_close(t->socks[i]);
        if (t->listeners[i] != TT_NO_SOCKET)
            tt_close(t->listeners[i]);
        t->socks[i] = t->listeners[i] = TT_NO_SOCKET;
    }
}
