/* The client's test, from its request to bye: the conversation of
 * docs/PROTOCOL.md, section 3, as server/control.c's mirror (agree ->
 * request, plan_streams, run_streams, total_ways, farewell). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/internal.h"
#include "engine/pmtu.h"
#include "engine/run.h"
#include "engine/trace.h"

/* test -> ready, with the limits the server granted and the token. */
static int request(struct client *c)
{
    struct ttcp_message m;
    struct ttcp_frame f;
    ttcp_wire_test(&f, c->opts);
    if (ttcp_client_send_frame(c, &f) != 0 || ttcp_client_receive(c, &m, "ready") != 0)
        return -1;
    c->local = *c->opts;
    if (ttcp_wire_read_ready(&m, &c->local, c->token, c->out->why, sizeof c->out->why) != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    return 0;
}

static void local_hop(void *ctx, const struct ttcp_trace *t, const struct ttcp_hop *h)
{
    struct client *c = ctx;
    c->obs->trace(c->obs->ctx, 1, t, h, 0);
}

/* One frame of the server's trace back; 1 at `trace_end`, 0 for a hop,
 * -1 when the server broke the protocol. */
static int their_hop(struct client *c, struct ttcp_trace *t, const struct ttcp_message *m)
{
    struct ttcp_hop h;
    if (strcmp(ttcp_proto_type(m), "trace_end") == 0)
        return 1;
    if (strcmp(ttcp_proto_type(m), "hop") != 0 || t->count >= TTCP_TRACE_MAX_HOPS ||
        ttcp_wire_read_hop(m, &h, c->out->why, sizeof c->out->why) != 0) {
        if (c->out->why[0] == '\0')
            snprintf(c->out->why, sizeof c->out->why, "a trace of more than %d hops, or "
                     "%.32s in it", TTCP_TRACE_MAX_HOPS, ttcp_proto_type(m));
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    }
    t->hops[t->count++] = h;
    c->obs->trace(c->obs->ctx, 0, t, &h, 0);
    return 0;
}

/* The server's trace back: `trace`, its hops, `trace_end`; 0 or -1. */
static int their_trace(struct client *c)
{
    struct ttcp_trace t; /* about 6 KiB */
    struct ttcp_message m;
    int failed = 0, rc = 0;
    if (ttcp_client_receive(c, &m, "trace") != 0)
        return -1;
    if (ttcp_wire_read_trace(&m, &t, c->out->why, sizeof c->out->why) != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    c->obs->trace(c->obs->ctx, 0, &t, NULL, 0);
    while (rc == 0)
        rc = ttcp_client_receive_any(c, &m) != 0 ? -1 : their_hop(c, &t, &m);
    if (rc < 0)
        return -1;
    if (ttcp_wire_read_trace_end(&m, &t, &failed, c->out->why, sizeof c->out->why) != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    if (failed)
        t.failure.code = TT_E_IO; /* the server could not trace: its own words stay there */
    c->obs->trace(c->obs->ctx, 0, &t, NULL, 1);
    return 0;
}

/* --traceroute: the path to the server, then the server's back to us. */
static int traces(struct client *c)
{
    struct ttcp_trace t;
    ttcp_trace_to(&c->server, local_hop, c, &t);
    c->obs->trace(c->obs->ctx, 1, &t, NULL, 1);
    return their_trace(c);
}

/* --pmtu: the path MTU to the server, told as an event of the client's own
 * (the server's limits are not asked: the probes go to a port of its host
 * nobody listens on, as a router's ICMP answers them). */
static int path_mtu(struct client *c)
{
    struct ttcp_result res;
    struct ttcp_event ev;
    memset(&res, 0, sizeof res);
    if (ttcp_pmtu_find_to(&c->server, &res.pmtu, &res.failure) != 0) {
        snprintf(c->out->why, sizeof c->out->why, "pmtu");
        c->out->failure = res.failure;
        c->out->problem = TTCP_CLIENT_LOCAL;
        return -1;
    }
    c->out->pmtu = res.pmtu;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTCP_EV_PMTU;
    ev.warning = TTCP_WARN_COUNT;
    c->obs->event(c->obs->ctx, c->opts, 1, &ev, &res);
    if (!res.pmtu.interrupted)
        return 0;
    snprintf(c->out->why, sizeof c->out->why, "pmtu");
    return ttcp_client_problem(c, TTCP_CLIENT_LOCAL, TT_E_INTR);
}

/* Each end's side of a way (way 0: the client sends), and of its streams. */
static int plan_streams(struct client *c, int way)
{
    struct ttcp_client_stream *st = &c->out->stream[way];
    int client_sends = way == 0, n = (int)c->local.streams, i;
    st->used = 1;
    st->local = c->local;
    st->local.transmit = client_sends;
    st->local.verify = c->opts->verify && !client_sends;
    /* the server's transmitter keeps its own limit; one of our own (a third
     * party's test: our server's --max-time) ends our receiving end after a
     * grace, as a server's receiver does */
    if (!client_sends)
        st->local.limit_ns = c->opts->limit_ns ? c->opts->limit_ns + TTCP_LIMIT_GRACE_NS : 0;
    if (!client_sends && st->local.udp)
        st->local.start_timeout_ns = st->local.idle_timeout_ns;
    st->remote = c->local;
    st->remote.transmit = !client_sends;
    st->remote.verify = c->opts->verify && client_sends;
    if (ttcp_outcome_parts(st, n) != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_LOST, TT_E_NOMEM);
    for (i = 0; i < n; i++) {
        ttcp_stream_options(&st->local, i, n, &st->part_local[i]);
        ttcp_stream_options(&st->remote, i, n, &st->part_remote[i]);
    }
    return 0;
}

/* A stream's fact at either end, with the options its lines are told by. */
static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct client *c = ctx;
    ttcp_outcome_tell(c->out, c->obs, way, i, end == TTCP_END_LOCAL, ev, res);
}

/* -P: a way's total interval at either end. */
static void total_interval(void *ctx, int way, enum ttcp_stream_end end,
                           const struct ttcp_interval *in)
{
    struct client *c = ctx;
    struct ttcp_event ev = {TTCP_EV_INTERVAL, TTCP_WARN_COUNT, in, NULL};
    ttcp_outcome_tell(c->out, c->obs, way, -1, end == TTCP_END_LOCAL, &ev, NULL);
}

/* Stream i of way, on its thread: the data phase on the socket opened for
 * it (the run closes it). */
static void run_stream(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct client *c = ctx;
    struct ttcp_client_stream *st = &c->out->stream[way];
    int id = TTCP_STREAM_ID(i, way);
    tt_socket sock = c->socks[id];
    c->socks[id] = TT_NO_SOCKET;
    st->part_rc[i] = ttcp_run_on(&st->part_local[i], obs, &st->part_mine[i], sock, &c->server,
                                 0);
}

/* The streams side by side with the reader of the server's frames beside
 * them. */
static void run_streams(struct client *c)
{
    if (c->local.udp) { /* UDP: our sockets are read now; the server may begin */
        struct ttcp_frame f;
        ttcp_frame_begin(&f, "go");
        ttcp_frame_end(&f);
        tt_mutex_lock(c->lock); /* a failure shows in the results that never come */
        ttcp_channel_send(c->control, &f);
        tt_mutex_unlock(c->lock);
    }
    struct ttcp_beside tasks[2] = {{ttcp_client_read_server, c}, {ttcp_client_probe_loaded, c}};
    ttcp_streams_run_beside(&c->run, run_stream, c, tasks, c->probes.sock != TT_NO_SOCKET ? 2 : 1);
}

/* Each way's figures from its streams': with one, that stream's (moved);
 * with -P, their totals. */
void ttcp_client_total_ways(struct client *c)
{
    int way, i;
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

/* The client's results, then bye: the server may log them. */
static void farewell(struct client *c)
{
    struct ttcp_frame f;
    int i;
    for (i = 0; i < c->ids; i++)
        if (in_use(c, i)) {
            ttcp_wire_result(&f, i, &way_of(c, i)->part_mine[i / 2]);
            ttcp_client_send_frame(c, &f);
        }
    ttcp_frame_begin(&f, "bye");
    ttcp_frame_end(&f);
    ttcp_client_send_frame(c, &f);
}

/* The ways this test runs, planned, and the runner for their streams. */
int ttcp_client_plan(struct client *c)
{
    enum ttcp_direction d = ttcp_options_direction(c->opts);
    unsigned ways = (d != TTCP_DIR_RECEIVE ? 1u : 0u) | (d != TTCP_DIR_SEND ? 2u : 0u);
    c->ids = 2 * (int)c->local.streams;
    if (((ways & 1u) && plan_streams(c, 0) != 0) || ((ways & 2u) && plan_streams(c, 1) != 0))
        return -1;
    c->stream_obs.event = stream_event;
    c->stream_obs.total = total_interval;
    c->stream_obs.ctx = c;
    if (ttcp_streams_init(&c->run, (int)c->local.streams, ways, &c->stream_obs) != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_LOST, TT_E_NOMEM);
    return 0;
}

/* --latency: the probes' socket, then the idle part's probes. */
static int idle_probes(struct client *c)
{
    if (ttcp_client_probe_open(c) != 0 || ttcp_client_probe_idle(c) != 0)
        return -1;
    if (!tt_interrupted())
        return 0;
    snprintf(c->out->why, sizeof c->out->why, "latency probes");
    return ttcp_client_problem(c, TTCP_CLIENT_LOCAL, TT_E_INTR); /* Ctrl+C: no data phase */
}

int ttcp_client_converse(struct client *c)
{
    int rc = -1;
    if (ttcp_client_connect_control(c) == 0 && ttcp_client_greet(c) == 0 && request(c) == 0 &&
        (!c->opts->traceroute || traces(c) == 0) && (!c->opts->pmtu || path_mtu(c) == 0) &&
        (!c->opts->latency || idle_probes(c) == 0) && ttcp_client_plan(c) == 0 &&
        ttcp_client_open_streams(c) == 0) {
        run_streams(c);
        ttcp_client_total_ways(c);
        rc = 0;
    }
    ttcp_client_probe_close(c); /* the last echoes come while the results do */
    if (rc == 0)
        farewell(c);
    return rc;
}
