/* The iperf3 server end's streams (serve.h): each way's options from the
 * client's parameters and the server's limits, the data connections
 * (TCP: those that open with the test's cookie, given by the server's
 * gate; UDP: a socket a stream on the port the client reached, "9876"
 * answered with "6789"), the streams side by side on the stream runner
 * with a reader of the control connection beside them: TEST_END, or the
 * client's going, ends them (our senders stop, our receivers' sockets
 * are shut down and read to the end). */
#include <stdlib.h>
#include <string.h>

#include "engine/run.h"
#include "peers/iperf3/serve.h"
#include "remote/wire.h"

#define NS 1000000000ll
#define TCP_DEFAULT_LEN (128u << 10) /* iperf3's -l, for a client that leaves it out */
#define UDP_DEFAULT_LEN 1460u
#define DEFAULT_TIME_S 10u

/* What the server's options carry into every test of its (as ttcp's own
 * server's grants: remote/wire.c). */
static void server_part(const struct ttcp_options *sv, struct ttcp_options *o)
{
    ttcp_wire_server_base(sv, o);
    o->side_given = 1;
    o->port = sv->iperf3_port;
    o->limit_ns = sv->max_time_ns; /* --max-time: the streams stop there */
}

/* Our sender: until TEST_END (bounded past the client's -t), or -n's or
 * -k's share; paced at the client's -b, within --max-rate. */
static void sender_part(struct i3s *v, struct ttcp_options *o)
{
    const struct ttcp_iperf3_params *p = &v->params;
    uint64_t rate = p->bandwidth * (uint64_t)v->n, max = v->s->server->max_rate_bps;
    o->host = v->peer;
    o->pace_bps = max && (rate == 0 || rate > max) ? max : rate;
    if (p->num || p->blockcount) {
        uint64_t each = p->num ? p->num / o->buflen : p->blockcount;
        each /= (uint64_t)v->n;
        o->nbuf = each ? each : 1;
        o->nbuf_given = 1;
    } else {
        o->duration_ns = (int64_t)((p->time_s ? p->time_s : DEFAULT_TIME_S) + p->omit_s) * NS +
                         I3S_SEND_GRACE_NS;
    }
}

static void side_options(struct i3s *v, int way, struct ttcp_options *o)
{
    const struct ttcp_iperf3_params *p = &v->params;
    server_part(v->s->server, o);
    o->transmit = way == 1;
    o->udp = p->udp;
    o->buflen = p->len ? p->len : p->udp ? UDP_DEFAULT_LEN : TCP_DEFAULT_LEN;
    o->streams = (uint64_t)v->n;
    o->nodelay = p->nodelay;
    o->sockbufsize = p->window;
    o->tos = p->tos;
    o->tos_given = p->tos != 0;
    o->omit_ns = (int64_t)p->omit_s * NS;
    if (p->udp)
        o->udp_iperf3 = p->udp_counters_64bit ? TTCP_UDP_IPERF3_64 : TTCP_UDP_IPERF3_32;
    if (way == 1)
        sender_part(v, o);
    else if (p->udp) /* the client's first datagram is due at once */
        o->start_timeout_ns = I3S_CONTROL_NS;
}

int ttcp_iperf3_serve_plan(struct i3s *v)
{
    int way, i, k = 0;
    for (way = 0; way < 2; way++) {
        if (!(v->ways & (1u << way)))
            continue;
        side_options(v, way, &v->whole[way]);
        v->side[way] = calloc((size_t)v->n, sizeof *v->side[way]);
        v->res[way] = calloc((size_t)v->n, sizeof *v->res[way]);
        v->rc[way] = calloc((size_t)v->n, sizeof *v->rc[way]);
        if (v->side[way] == NULL || v->res[way] == NULL || v->rc[way] == NULL)
            return -1;
        for (i = 0; i < v->n; i++) {
            ttcp_stream_options(&v->whole[way], i, v->n, &v->side[way][i]);
            v->ids[way][i] = ttcp_iperf3_stream_id(k++); /* the client's sending ones first */
        }
    }
    return 0;
}

/* The k-th connection (in the order the client made them) is which
 * way's which stream: the client's sending streams come first. */
static tt_socket *slot_of(struct i3s *v, int k)
{
    int way = (v->ways & 1u) && k < v->n ? 0 : 1;
    return &v->socks[way][(v->ways & 1u) && way == 1 ? k - v->n : k];
}

static int total(const struct i3s *v)
{
    return v->n * ((v->ways & 1u) + ((v->ways >> 1) & 1u));
}

/* TCP: the connections that open with our cookie, through the gate. */
static int connect_tcp(struct i3s *v)
{
    tt_socket got[2 * TTCP_IPERF3_MAX_STREAMS];
    int k, n = total(v), idle_ms = (int)(v->s->server->idle_timeout_ns / 1000000);
    v->s->expect_data(v->s, v->cookie, n, got); /* before the client may connect */
    if (ttcp_iperf3_serve_state(v, TTCP_IPERF3_CREATE_STREAMS) != 0)
        return -1;
    if (v->s->take_data(v->s, v->cookie, n, tt_now_ns() + I3S_CONTROL_NS, got) != 0)
        return ttcp_iperf3_serve_refuse(v, I3S_IE_ACCEPT);
    for (k = 0; k < n; k++) {
        /* a client that stalls ends its stream after --idle-timeout */
        tt_setopt(got[k], TT_OPT_RCVTIMEO_MS, idle_ms);
        tt_setopt(got[k], TT_OPT_SNDTIMEO_MS, idle_ms);
        *slot_of(v, k) = got[k];
    }
    return 0;
}

static int same_ip(const struct tt_addr *a, const struct tt_addr *b)
{
    unsigned char x[16], y[16];
    int lx = tt_addr_ip(a, x), ly = tt_addr_ip(b, y);
    return lx != 0 && lx == ly && memcmp(x, y, (size_t)lx) == 0;
}

/* A UDP socket on the address and port the client's control connection
 * reached, beside the test's others there. */
static int open_udp(struct i3s *v, tt_socket *out)
{
    struct tt_addr local;
    int family = v->s->server->family, rc = tt_local_addr(v->s->control, &local);
    if (rc != 0)
        return -1;
    if (local.family == TT_FAMILY_V4)
        family = TT_FAMILY_V4;
    rc = tt_socket_open(family, 1, out);
    if (rc == TT_E_AFNOSUPPORT && family == TT_FAMILY_ANY)
        rc = tt_socket_open(family = TT_FAMILY_V4, 1, out);
    if (rc != 0)
        return -1;
    tt_setopt(*out, TT_OPT_SHARE_PORT, 1);
    if (tt_bind(*out, &local) != 0) {
        tt_close(*out);
        *out = TT_NO_SOCKET;
        return -1;
    }
    return 0;
}

/* The stream's "9876", from the client's address only: the socket is
 * connected to where it came from. */
static int await_word(struct i3s *v, tt_socket s, int64_t end)
{
    unsigned char b[16];
    struct tt_addr from;
    while (tt_now_ns() < end && !tt_interrupted()) {
        int64_t n;
        if (tt_wait_readable(s, I3S_POLL_MS) <= 0)
            continue;
        n = tt_recvfrom(s, b, sizeof b, &from);
        if (n > 0 && same_ip(&from, &v->s->client) && ttcp_iperf3_udp_connect_ok(b, (size_t)n))
            return tt_connect(s, &from) == 0 ? 0 : -1;
    }
    return -1;
}

/* UDP: a socket before CREATE_STREAMS, and the next one before each
 * "6789", so that the client's next "9876" finds it. */
static int connect_udp(struct i3s *v)
{
    int k, n = total(v);
    int64_t end = tt_now_ns() + I3S_CONTROL_NS;
    tt_socket next = TT_NO_SOCKET;
    if (open_udp(v, &next) != 0)
        return ttcp_iperf3_serve_refuse(v, I3S_IE_ACCEPT);
    if (ttcp_iperf3_serve_state(v, TTCP_IPERF3_CREATE_STREAMS) != 0) {
        tt_close(next);
        return -1;
    }
    for (k = 0; k < n; k++) {
        tt_socket s = next;
        *slot_of(v, k) = s; /* closed with the others */
        next = TT_NO_SOCKET;
        if (await_word(v, s, end) != 0 || (k + 1 < n && open_udp(v, &next) != 0))
            return ttcp_iperf3_serve_refuse(v, I3S_IE_ACCEPT);
        if (tt_send(s, TTCP_IPERF3_UDP_REPLY, 4) != 4) {
            tt_close(next);
            return -1;
        }
    }
    return 0;
}

int ttcp_iperf3_serve_connect(struct i3s *v)
{
    return v->params.udp ? connect_udp(v) : connect_tcp(v);
}

/* What stream i of way runs with: the runner's observer, and the stop
 * at the test's end. */
struct watch {
    struct i3s *v;
    int way;
    const struct ttcp_observer *inner;
};

static void watch_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct watch *w = ctx;
    if (w->inner->event != NULL)
        w->inner->event(w->inner->ctx, ev, res);
}

/* Our senders stop at TEST_END; a UDP receiver a moment after (no close
 * tells it); a TCP receiver once drained (its shutdown wakes it). All
 * stop when the client has gone. */
static int watch_stop(void *ctx)
{
    struct watch *w = ctx;
    struct i3s *v = w->v;
    int over;
    tt_mutex_lock(v->lock);
    over = v->gone || (v->ended && (w->way == 1 || v->drained ||
                                    (v->params.udp && tt_now_ns() - v->ended_ns >= I3S_UDP_DRAIN_NS)));
    tt_mutex_unlock(v->lock);
    return over || (w->inner->stop != NULL && w->inner->stop(w->inner->ctx));
}

static void run_stream(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct i3s *v = ctx;
    struct watch w = {v, way, obs};
    struct ttcp_observer mine = {watch_event, &w, watch_stop, NULL};
    const struct ttcp_server_observer *so = v->s->obs;
    unsigned flags = TTCP_RUN_KEEP_SOCKET | (v->params.udp ? 0u : TTCP_RUN_ACCEPTED);
    v->rc[way][i] = ttcp_run_on(&v->side[way][i], &mine, &v->res[way][i], v->socks[way][i],
                                &v->s->client, flags);
    if (v->rc[way][i] != 0)
        so->failed(so->ctx, &v->side[way][i], &v->res[way][i]);
}

static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct i3s *v = ctx;
    (void)end;
    v->s->obs->event(v->s->obs->ctx, &v->side[way][i], ev, res);
}

/* Shuts down way's TCP sockets (a blocked send or receive wakes). */
static void shut_way(struct i3s *v, int way)
{
    int i;
    tt_mutex_lock(v->lock);
    for (i = 0; !v->params.udp && (v->ways & (1u << way)) && i < v->n; i++)
        if (v->socks[way][i] != TT_NO_SOCKET)
            (void)tt_shutdown_both(v->socks[way][i]);
    tt_mutex_unlock(v->lock);
}

/* After TEST_END: what the client sent before it is still on its way
 * (its socket's buffer, the network): our TCP receivers read on until
 * their sockets have been quiet a moment. */
static void drain_receivers(struct i3s *v)
{
    int64_t now = tt_now_ns(), quiet_since = now, until = now + I3S_TCP_DRAIN_MAX_NS;
    int i, queued;
    while (!v->params.udp && (v->ways & 1u) && now < until && !tt_interrupted() &&
           now - quiet_since < I3S_TCP_QUIET_NS) {
        for (i = 0, queued = 0; i < v->n && !queued; i++)
            queued = tt_wait_readable(v->socks[0][i], 0) > 0;
        tt_sleep_ns(I3S_TCP_QUIET_NS / 10);
        now = tt_now_ns();
        if (queued)
            quiet_since = now;
    }
}

/* The test is over (TEST_END: ended; else the client has gone): our
 * senders stop (their stop) and their sockets are shut down; the
 * receivers' once they have read what came before TEST_END. */
static void end_streams(struct i3s *v, int ended)
{
    tt_mutex_lock(v->lock);
    if (ended) {
        v->ended = 1;
        v->ended_ns = tt_now_ns();
    } else {
        v->gone = 1;
    }
    tt_mutex_unlock(v->lock);
    shut_way(v, 1);
    if (ended)
        drain_receivers(v);
    tt_mutex_lock(v->lock);
    v->drained = 1; /* the receivers' figures end at their last read */
    tt_mutex_unlock(v->lock);
    shut_way(v, 0);
}

/* Whether the test has run past every bound: the client's -t with a
 * grace, or --idle-timeout after its streams all ended. */
static int overdue(struct i3s *v, int64_t *idle_since)
{
    const struct ttcp_iperf3_params *p = &v->params;
    int64_t now = tt_now_ns();
    if (!p->num && !p->blockcount &&
        now - v->start_ns >= (int64_t)((p->time_s ? p->time_s : DEFAULT_TIME_S) + p->omit_s) *
                                     NS + I3S_SEND_GRACE_NS)
        return 1;
    if (ttcp_streams_running(&v->run) > 0)
        return 0;
    if (*idle_since == 0)
        *idle_since = now;
    return now - *idle_since >= v->s->server->idle_timeout_ns;
}

/* Beside the streams: the client's TEST_END, or its going (a close, a
 * reset, anything else on the control connection), ends them. */
static void reader(void *arg)
{
    struct i3s *v = arg;
    int64_t idle_since = 0;
    enum ttcp_iperf3_state st;
    unsigned char b;
    for (;;) {
        int64_t n;
        int r;
        if (tt_interrupted()) { /* the server stops: the client hears why first */
            (void)ttcp_iperf3_serve_state(v, TTCP_IPERF3_SERVER_TERMINATE);
            break;
        }
        if (overdue(v, &idle_since))
            break;
        r = tt_wait_readable(v->s->control, I3S_POLL_MS);
        if (r == 0 || r == TT_E_INTR)
            continue;
        n = r > 0 ? tt_recv(v->s->control, &b, 1) : r;
        if (n == TT_E_INTR)
            continue;
        if (n == 1 && ttcp_iperf3_state_known(b, &st) && st == TTCP_IPERF3_TEST_END) {
            end_streams(v, 1);
            return;
        }
        break;
    }
    end_streams(v, 0);
}

/* -P: each way's total on the server's output, after its streams'. */
static void total_ways(struct i3s *v)
{
    struct ttcp_event ev = {TTCP_EV_FIGURES, TTCP_WARN_COUNT, NULL, NULL};
    struct ttcp_result *parts = calloc((size_t)v->n, sizeof *parts), sum;
    int way;
    if (parts == NULL)
        return;
    for (way = 0; way < 2; way++) {
        if (!(v->ways & (1u << way)))
            continue;
        memcpy(parts, v->res[way], (size_t)v->n * sizeof *parts); /* the intervals stay theirs */
        ttcp_streams_total(&v->run, way, TTCP_END_LOCAL, parts, &sum);
        if (sum.started)
            v->s->obs->event(v->s->obs->ctx, &v->whole[way], &ev, &sum);
    }
    free(parts);
}

void ttcp_iperf3_serve_run(struct i3s *v)
{
    v->stream_obs.event = stream_event;
    v->stream_obs.ctx = v;
    if (ttcp_streams_init(&v->run, v->n, v->ways, &v->stream_obs) != 0)
        return;
    v->start_ns = tt_now_ns();
    ttcp_streams_run(&v->run, run_stream, v, reader, v);
    if (v->n > 1)
        total_ways(v);
}

void ttcp_iperf3_serve_free(struct i3s *v)
{
    int way, i;
    for (way = 0; way < 2; way++) {
        for (i = 0; i < TTCP_IPERF3_MAX_STREAMS; i++)
            if (v->socks[way][i] != TT_NO_SOCKET)
                tt_close(v->socks[way][i]);
        for (i = 0; v->res[way] != NULL && i < v->n; i++)
            ttcp_result_release(&v->res[way][i]);
        free(v->side[way]);
        free(v->res[way]);
        free(v->rc[way]);
    }
    if (v->run.n > 0)
        ttcp_streams_free(&v->run);
}
