/* ttcp -C --iperf3 host (iperf3.h): the conversation of iperf3's client
 * (wire.h's diagram) with our data on the engine's phases through the
 * stream runner. We time the test and send TEST_END once our sending
 * streams' data has all been acknowledged, or, when only the server
 * sends, once --time has passed or -n's bytes have come. */
#include <stdlib.h>
#include <string.h>

#include "engine/local.h"
#include "engine/run.h"
#include "peers/iperf3/internal.h"

/* Each end's side of a way (0: we send), the far end's tagged (iperf3). */
static int plan_way(struct i3 *c, int way)
{
    struct ttcp_client_stream *st = &c->out->stream[way];
    int i;
    st->used = 1;
    st->local = c->local;
    st->local.transmit = way == 0;
    if (way == 1 && st->local.udp) /* the server's first datagram is due at once */
        st->local.start_timeout_ns = I3_CONTROL_NS;
    st->remote = c->local;
    st->remote.transmit = way == 1;
    if (ttcp_outcome_parts(st, c->n) != 0)
        return ttcp_iperf3_fail(c, TTCP_CLIENT_LOCAL, TT_E_NOMEM, "memory");
    for (i = 0; i < c->n; i++) {
        ttcp_stream_options(&st->local, i, c->n, &st->part_local[i]);
        ttcp_stream_options(&st->remote, i, c->n, &st->part_remote[i]);
        ttcp_options_name_tool(&st->part_remote[i], "iperf3");
    }
    ttcp_options_name_tool(&st->remote, "iperf3");
    return 0;
}

/* One data connection: our options before the SYN, then the cookie. */
static int open_data(struct i3 *c, int k, tt_socket *out)
{
    uint16_t port = c->opts->cport ? (uint16_t)(c->opts->cport + (uint64_t)k) : 0;
    int rc = tt_socket_open(c->server.family, 0, out);
    c->out->failure.op = TTCP_OP_CONNECT;
    if (rc != 0)
        return ttcp_iperf3_fail(c, TTCP_CLIENT_LOCAL, rc, "a data socket");
    rc = ttcp_bind_outgoing(*out, c->opts, c->server.family, port);
    if (rc == 0 && c->opts->mss)
        rc = tt_setopt(*out, TT_OPT_MAXSEG, (int)c->opts->mss);
    if (rc == 0 && c->opts->tos_given)
        (void)tt_setopt(*out, TT_OPT_TOS, (int)c->opts->tos);
    if (rc == 0)
        rc = ttcp_iperf3_connect(c, *out, &c->server);
    if (rc == 0)
        rc = ttcp_iperf3_send(c, *out, c->cookie, TTCP_IPERF3_COOKIE_LEN);
    if (rc != 0) {
        tt_close(*out);
        *out = TT_NO_SOCKET;
        return ttcp_iperf3_fail(c, TTCP_CLIENT_CONNECT, rc, NULL);
    }
    tt_setopt(*out, TT_OPT_RCVTIMEO_MS, (int)(c->local.idle_timeout_ns / 1000000));
    tt_setopt(*out, TT_OPT_SNDTIMEO_MS, (int)(c->local.idle_timeout_ns / 1000000));
    return 0;
}

/* UDP: a socket connected to the server's port, its "9876" answered
 * ("6789") before the next stream's: the server connects one socket per
 * stream to the address the word came from. */
static int open_udp(struct i3 *c, int k, tt_socket *out)
{
    uint16_t port = c->opts->cport ? (uint16_t)(c->opts->cport + (uint64_t)k) : 0;
    int64_t end = tt_now_ns() + I3_CONTROL_NS, next = 0;
    unsigned char reply[8];
    int rc = tt_socket_open(c->server.family, 1, out);
    c->out->failure.op = TTCP_OP_CONNECT;
    if (rc == 0)
        rc = ttcp_bind_outgoing(*out, c->opts, c->server.family, port);
    if (rc == 0)
        rc = tt_connect(*out, &c->server);
    while (rc == 0 && tt_now_ns() < end && !tt_interrupted()) {
        int64_t n;
        if (tt_now_ns() >= next) { /* lost? it goes again, a second later */
            (void)tt_send(*out, TTCP_IPERF3_UDP_CONNECT, 4);
            next = tt_now_ns() + I3_UDP_RESEND_NS;
        }
        if (tt_wait_readable(*out, 100) <= 0)
            continue;
        n = tt_recv(*out, reply, sizeof reply);
        if (n > 0 && ttcp_iperf3_udp_reply_ok(reply, (size_t)n))
            return 0;
    }
    if (*out != TT_NO_SOCKET)
        tt_close(*out);
    *out = TT_NO_SOCKET;
    return ttcp_iperf3_fail(c, rc != 0 ? TTCP_CLIENT_CONNECT : TTCP_CLIENT_REFUSED, rc,
                            rc != 0 ? NULL : "iperf3 did not answer the UDP streams' \"9876\": "
                            "a firewall may drop UDP");
}

/* In iperf3's order: our sending streams first, then the server's. */
static int open_streams(struct i3 *c)
{
    int way, i, k = 0;
    for (way = 0; way < 2; way++)
        for (i = 0; (c->ways & (1u << way)) && i < c->n; i++, k++) {
            c->ids[way][i] = ttcp_iperf3_stream_id(k);
            if ((c->opts->udp ? open_udp(c, k, &c->socks[way][i])
                              : open_data(c, k, &c->socks[way][i])) != 0)
                return -1;
        }
    return 0;
}

/* What stream i of way runs with: its events reach the runner's observer,
 * but for TTCP_EV_SENT, which ends our part (and -n's count). */
struct watch {
    struct i3 *c;
    int way, told;
    uint64_t counted; /* TTCP_EV_BYTES: what res->bytes was */
    const struct ttcp_observer *inner;
};

static void watch_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct watch *w = ctx;
    if (ev->kind == TTCP_EV_SENT || ev->kind == TTCP_EV_BYTES) {
        tt_mutex_lock(w->c->lock);
        if (ev->kind == TTCP_EV_SENT && !w->told)
            w->c->senders_left--;
        if (ev->kind == TTCP_EV_SENT)
            w->told = 1;
        else
            w->c->received += res->bytes - w->counted;
        w->counted = res->bytes;
        tt_mutex_unlock(w->c->lock);
        return;
    }
    if (w->inner->event != NULL)
        w->inner->event(w->inner->ctx, ev, res);
}

/* A UDP receiver ends a moment after TEST_END: no close tells it. */
static int watch_stop(void *ctx)
{
    struct watch *w = ctx;
    int over = 0;
    if (w->way == 1 && w->c->opts->udp) {
        tt_mutex_lock(w->c->lock);
        over = w->c->ended && tt_now_ns() - w->c->ended_ns >= I3_UDP_DRAIN_NS;
        tt_mutex_unlock(w->c->lock);
    }
    return over || (w->inner->stop != NULL && w->inner->stop(w->inner->ctx));
}

static int watch_claim(void *ctx, const struct tt_datagram *d)
{
    struct watch *w = ctx;
    return w->inner->claim != NULL && w->inner->claim(w->inner->ctx, d);
}

static void run_stream(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct i3 *c = ctx;
    struct ttcp_client_stream *st = &c->out->stream[way];
    struct watch w = {c, way, 0, 0, obs};
    unsigned flags = way == 0 ? TTCP_RUN_TELL_SENT : c->params.num ? TTCP_RUN_TELL_BYTES : 0;
    struct ttcp_observer mine = {watch_event, &w, watch_stop, watch_claim};
    tt_socket sock = c->socks[way][i];
    c->socks[way][i] = TT_NO_SOCKET;
    st->part_rc[i] = ttcp_run_on(&st->part_local[i], &mine, &st->part_mine[i], sock, &c->server,
                                 flags);
    tt_mutex_lock(c->lock);
    if (way == 0 && !w.told) /* it failed, or Ctrl+C: it sends no more */
        c->senders_left--;
    tt_mutex_unlock(c->lock);
}

/* Whether the test is over from our side. */
static int over(struct i3 *c)
{
    int done;
    if (tt_interrupted() || ttcp_streams_running(&c->run) == 0)
        return 1;
    tt_mutex_lock(c->lock);
    if (c->ways & 1u)
        done = c->senders_left <= 0;
    else if (c->params.num)
        done = c->received >= c->params.num;
    else
        done = tt_now_ns() - c->start_ns >= c->opts->duration_ns;
    tt_mutex_unlock(c->lock);
    return done;
}

static void set_ended(struct i3 *c)
{
    tt_mutex_lock(c->lock);
    c->ended = 1;
    c->ended_ns = tt_now_ns();
    tt_mutex_unlock(c->lock);
}

/* Beside the streams: TEST_END once the test is over; the server then
 * closes the data connections, which ends our streams. */
static void ender(void *arg)
{
    struct i3 *c = arg;
    while (!over(c))
        tt_sleep_ns(I3_END_POLL_NS);
    if ((c->ways & 1u) && !tt_interrupted())
        tt_sleep_ns(I3_END_GRACE_NS);
    if (ttcp_iperf3_send_state(c, TTCP_IPERF3_TEST_END) == 0)
        set_ended(c);
}

/* A stream's fact at either end, with the options its lines are told by. */
static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct i3 *c = ctx;
    struct ttcp_client_stream *st = &c->out->stream[way];
    c->obs->event(c->obs->ctx, end == TTCP_END_LOCAL ? &st->part_local[i] : &st->part_remote[i],
                  end == TTCP_END_LOCAL, ev, res);
}

/* -P: a way's total interval (ours: iperf3 tells no intervals). */
static void total_interval(void *ctx, int way, enum ttcp_stream_end end,
                           const struct ttcp_interval *in)
{
    struct i3 *c = ctx;
    struct ttcp_client_stream *st = &c->out->stream[way];
    struct ttcp_event ev = {TTCP_EV_INTERVAL, TTCP_WARN_COUNT, in, NULL};
    c->obs->event(c->obs->ctx, end == TTCP_END_LOCAL ? &st->local : &st->remote,
                  end == TTCP_END_LOCAL, &ev, NULL);
}

/* The ways planned, the streams opened and run, TEST_END sent. */
static int run_test(struct i3 *c)
{
    if (((c->ways & 1u) && plan_way(c, 0) != 0) || ((c->ways & 2u) && plan_way(c, 1) != 0))
        return -1;
    c->stream_obs.event = stream_event;
    c->stream_obs.total = total_interval;
    c->stream_obs.ctx = c;
    if (ttcp_streams_init(&c->run, c->n, c->ways, &c->stream_obs) != 0)
        return ttcp_iperf3_fail(c, TTCP_CLIENT_LOCAL, TT_E_NOMEM, "memory");
    if (ttcp_iperf3_expect(c, TTCP_IPERF3_CREATE_STREAMS) != 0 || open_streams(c) != 0 ||
        ttcp_iperf3_expect(c, TTCP_IPERF3_TEST_START) != 0 ||
        ttcp_iperf3_expect(c, TTCP_IPERF3_TEST_RUNNING) != 0)
        return -1;
    c->senders_left = (c->ways & 1u) ? c->n : 0;
    c->start_ns = tt_now_ns();
    ttcp_streams_run(&c->run, run_stream, c, ender, c);
    if (!c->ended && ttcp_iperf3_send_state(c, TTCP_IPERF3_TEST_END) == 0)
        set_ended(c); /* the streams ended before the ender could tell */
    return c->ended ? 0 : -1;
}

/* EXCHANGE_RESULTS: ours out, theirs in; DISPLAY_RESULTS; IPERF_DONE. */
static int exchange(struct i3 *c)
{
    char *buf = malloc(TTCP_IPERF3_RESULTS_MAX + 1);
    size_t len = 0;
    uint32_t got = 0;
    int rc = -1;
    if (buf == NULL)
        return ttcp_iperf3_fail(c, TTCP_CLIENT_LOCAL, TT_E_NOMEM, "memory");
    if (ttcp_iperf3_expect(c, TTCP_IPERF3_EXCHANGE_RESULTS) == 0 &&
        (ttcp_iperf3_our_results(c, buf, TTCP_IPERF3_RESULTS_MAX + 1, &len) == 0
             ? ttcp_iperf3_send_json(c, buf, len)
             : ttcp_iperf3_fail(c, TTCP_CLIENT_LOCAL, TT_E_NOMEM, "our results")) == 0 &&
        ttcp_iperf3_read_json(c, buf, TTCP_IPERF3_RESULTS_MAX, &got) == 0) {
        if (ttcp_iperf3_results_parse(buf, got, &c->theirs, c->out->why, sizeof c->out->why) !=
            TTCP_IPERF3_OK)
            ttcp_iperf3_fail(c, TTCP_CLIENT_PROTOCOL, 0, NULL);
        else if (ttcp_iperf3_expect(c, TTCP_IPERF3_DISPLAY_RESULTS) == 0)
            rc = ttcp_iperf3_send_state(c, TTCP_IPERF3_IPERF_DONE);
    }
    free(buf);
    return rc;
}

/* Each way's figures: the streams' own, and the server's from its results. */
static void total_ways(struct i3 *c)
{
    int way, i;
    ttcp_iperf3_take_theirs(c);
    for (way = 0; way < 2; way++) {
        struct ttcp_client_stream *st = &c->out->stream[way];
        if (!st->used)
            continue;
        st->theirs_valid = 1;
        for (i = 0; i < st->n; i++) {
            st->theirs_valid &= st->part_theirs_valid[i];
            if (st->rc == 0)
                st->rc = st->part_rc[i];
        }
        ttcp_streams_total(&c->run, way, TTCP_END_LOCAL, st->part_mine, &st->mine);
        ttcp_streams_total(&c->run, way, TTCP_END_PEER, st->part_theirs, &st->theirs);
    }
}

/* Cookie and parameters: the server's PARAM_EXCHANGE comes first. */
static int open_test(struct i3 *c)
{
    unsigned char random[36];
    char json[TTCP_IPERF3_PARAMS_MAX + 8];
    size_t len;
    if (ttcp_iperf3_open_control(c) != 0)
        return -1;
    if (tt_random_bytes(random, sizeof random) != 0)
        return ttcp_iperf3_fail(c, TTCP_CLIENT_LOCAL, TT_E_IO, "the random source");
    ttcp_iperf3_cookie_make(random, c->cookie);
    /* a busy server answers without reading it: its word tells more than a failed send */
    (void)tt_send(c->control, c->cookie, TTCP_IPERF3_COOKIE_LEN);
    if (ttcp_iperf3_expect(c, TTCP_IPERF3_PARAM_EXCHANGE) != 0)
        return -1;
    if (ttcp_iperf3_params_build(&c->params, json, sizeof json, &len) != 0)
        return ttcp_iperf3_fail(c, TTCP_CLIENT_LOCAL, TT_E_INVAL, "the parameters");
    return ttcp_iperf3_send_json(c, json, len);
}

static void finish(struct i3 *c)
{
    int way, i;
    for (way = 0; way < 2; way++)
        for (i = 0; i < TTCP_IPERF3_MAX_STREAMS; i++)
            if (c->socks[way][i] != TT_NO_SOCKET)
                tt_close(c->socks[way][i]);
    if (c->control != TT_NO_SOCKET)
        tt_close(c->control);
    ttcp_streams_free(&c->run);
    ttcp_iperf3_results_release(&c->theirs);
    tt_mutex_free(c->lock);
}

int ttcp_iperf3_test(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                     struct ttcp_client_outcome *out, int64_t deadline)
{
    struct i3 *c = calloc(1, sizeof *c);
    int way, i, rc = -1;
    memset(out, 0, sizeof *out);
    if (c == NULL) {
        out->problem = TTCP_CLIENT_LOCAL;
        out->failure.code = TT_E_NOMEM;
        return -1;
    }
    c->opts = o;
    c->obs = obs;
    c->out = out;
    c->deadline = deadline;
    c->control = TT_NO_SOCKET;
    for (way = 0; way < 2; way++)
        for (i = 0; i < TTCP_IPERF3_MAX_STREAMS; i++)
            c->socks[way][i] = TT_NO_SOCKET;
    ttcp_iperf3_plan(c);
    if (tt_mutex_new(&c->lock) != 0)
        ttcp_iperf3_fail(c, TTCP_CLIENT_LOCAL, TT_E_NOMEM, "memory");
    else if (open_test(c) == 0 && run_test(c) == 0 && exchange(c) == 0)
        rc = 0;
    if (c->run.n > 0)
        total_ways(c);
    finish(c);
    free(c);
    return rc;
}
