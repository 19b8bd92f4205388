/* A controlled test, on its slot's thread: the conversation of
 * docs/PROTOCOL.md, section 3, from the server's side. Every read has a
 * deadline; whatever the client does, the thread ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/local.h"
#include "engine/run.h"
#include "engine/streams.h"
#include "engine/trace.h"
#include "server/echo.h"
#include "server/internal.h"

#define ATTACH_POLL_NS 10000000ll
#define UDP_DRAIN_NS 500000000ll /* the peer's trailing end markers come 0.1 s after */

struct control {
    struct slot *sl;
    struct ttcp_server *sv;
    struct ttcp_grant grant;
    struct ttcp_options whole[2]; /* each way's side: 0 the server receives, 1 it sends */
    int ids;                      /* stream numbers on the wire (TTCP_STREAM_ID) */
    struct ttcp_options *side;    /* [ids]: a stream's (with -P, tagged with its number) */
    struct ttcp_result *res;      /* [ids] */
    int *rc;                      /* [ids] */
    char peer[80];                /* the client's address: the transmitter's "host" */
    struct ttcp_echo echo;        /* --latency: the probes' echo, once its hello came */
    char why[256];
};

/* One frame on the control socket, whichever stream's thread sends it
 * (slots.c: third.c sends on it too). */
static int send_frame(struct slot *sl, struct ttcp_frame *f)
{
    return ttcp_slot_send(sl, f);
}

static void send_error(struct slot *sl, const char *reason, const char *message)
{
    ttcp_slot_error(sl, reason, message);
}

static int receive(struct control *c, struct ttcp_message *m, const char *type, int64_t ns)
{
    int rc = ttcp_channel_receive(c->sl->control, m, tt_now_ns() + ns, c->why, sizeof c->why);
    if (rc == TT_E_INVAL)
        send_error(c->sl, "protocol", c->why);
    if (rc == 0 && type != NULL && strcmp(ttcp_proto_type(m), type) != 0) {
        snprintf(c->why, sizeof c->why, "expected %s, got %.32s", type, ttcp_proto_type(m));
        send_error(c->sl, "protocol", c->why);
        rc = TT_E_INVAL;
    }
    return rc;
}

/* Each stream's options and room for its figures, and the slot's record of
 * the data connections it waits for; 0, or -1 when memory ran out. */
static int plan_streams(struct control *c, const char *token)
{
    struct slot *sl = c->sl;
    int n = (int)c->grant.opts.streams, id;
    struct slot_stream *st;
    c->ids = 2 * n;
    c->side = calloc((size_t)c->ids, sizeof *c->side);
    c->res = calloc((size_t)c->ids, sizeof *c->res);
    c->rc = calloc((size_t)c->ids, sizeof *c->rc);
    st = calloc((size_t)c->ids, sizeof *st);
    if (c->side == NULL || c->res == NULL || c->rc == NULL || st == NULL) {
        free(st);
        return -1;
    }
    for (id = 0; id < c->ids; id++) {
        int way = id % 2;
        ttcp_stream_options(&c->whole[way], id / 2, n, &c->side[id]);
        st[id].data = TT_NO_SOCKET;
        st[id].expect = way == 0 ? c->grant.direction != TTCP_DIR_RECEIVE
                                 : c->grant.direction != TTCP_DIR_SEND;
    }
    tt_mutex_lock(c->sv->lock);
    memcpy(sl->token, token, TTCP_TOKEN_HEX + 1);
    sl->udp = c->grant.opts.udp;
    sl->probe_expect = c->grant.latency;
    sl->stream = st;
    sl->ids = c->ids;
    tt_mutex_unlock(c->sv->lock);
    return 0;
}

/* test -> ready, with a token for the data connections. */
static int agree(struct control *c, const struct ttcp_message *m)
{
    struct ttcp_frame f;
    char token[TTCP_TOKEN_HEX + 1];
    int refused = ttcp_wire_read_test(m, c->sv->opts, &c->grant, c->why, sizeof c->why) != 0;
    if (!refused && c->grant.opts.buflen > SERVER_MAX_BUFLEN) {
        snprintf(c->why, sizeof c->why, "buflen: at most %u bytes on this server",
                 SERVER_MAX_BUFLEN);
        refused = 1;
    }
    if (!refused && c->sv->opts->inetd && (c->grant.opts.udp || c->grant.latency)) {
        snprintf(c->why, sizeof c->why, "%s: this server was started by inetd (--inetd) and "
                 "holds no UDP port; TCP tests only%s", c->grant.opts.udp ? "UDP" : "--latency",
                 c->grant.opts.udp ? "" : ", without latency probes");
        refused = 1;
    }
    if (refused) {
        send_error(c->sl, "test", c->why);
        ttcp_server_notice(c->sv, TTCP_NOTICE_REFUSED_TEST, &c->sl->peer);
        return -1;
    }
    ttcp_wire_side(&c->grant, 0, &c->whole[0]);
    ttcp_wire_side(&c->grant, 1, &c->whole[1]);
    if (c->sv->inetd_port > 0) /* the headers' port= is inetd's, not -p's */
        c->whole[0].port = c->whole[1].port = (uint64_t)c->sv->inetd_port;
    c->whole[1].host = tt_addr_text(&c->sl->peer, c->peer, sizeof c->peer);
    if (c->grant.group[0] != '\0') { /* -C -r -m: to the group the client joined */
        c->whole[1].host = c->grant.group;
        c->whole[1].group = c->grant.group;
        c->whole[1].mcast_ttl = (uint64_t)c->grant.ttl;
    }
    if (ttcp_random_hex(token, TTCP_TOKEN_HEX) != 0)
        return -1;
    if (plan_streams(c, token) != 0) {
        send_error(c->sl, "test", "the server is out of memory");
        return -1;
    }
    if (c->sv->opts->inetd && ttcp_handoff_open(c->sv, token) != 0) {
        send_error(c->sl, "test", "this inetd-started server cannot meet its data connections");
        return -1;
    }
    ttcp_wire_ready(&f, &c->grant, token);
    return send_frame(c->sl, &f) == 0 ? 0 : -1;
}

static int open_udp_to(struct control *c, int stream, const struct tt_addr *peer,
                       tt_socket *out);

/* --latency: once the client's probe hello has come, the echo socket and
 * `probe_ready`; then the probes are echoed for span, else it is slept. */
static void serve_probes(struct control *c, int64_t span)
{
    struct tt_addr from;
    int seen;
    tt_socket s;
    tt_mutex_lock(c->sv->lock);
    seen = c->sl->probe_seen;
    from = c->sl->probe_from;
    tt_mutex_unlock(c->sv->lock);
    if (c->echo.sock == TT_NO_SOCKET && seen && open_udp_to(c, -1, &from, &s) == 0) {
        struct ttcp_frame f;
        ttcp_echo_init(&c->echo, s);
        ttcp_frame_begin(&f, "probe_ready");
        ttcp_frame_end(&f);
        send_frame(c->sl, &f);
    }
    if (c->echo.sock != TT_NO_SOCKET)
        ttcp_echo_for(&c->echo, span);
    else
        tt_sleep_ns(span);
}

/* Whether the client has closed its control connection (it sends nothing
 * while the server waits for its data: what is readable is its end). */
static int control_closed(struct control *c)
{
    unsigned char b;
    int64_t n;
    if (tt_wait_readable(c->sl->control, 0) <= 0)
        return 0;
    n = tt_recv_peek(c->sl->control, &b, 1);
    return n == 0 || (n < 0 && n != TT_E_AGAIN);
}

/* Waits until every data connection the test needs has come (gate.c
 * attaches them; for UDP, the client's token datagram names its address),
 * for at most CONTROL_NS (after --latency's idle probes, which it echoes),
 * or until the client goes away. */
static int await_data(struct control *c)
{
    int64_t end = tt_now_ns() + CONTROL_NS + c->grant.latency_idle_ns;
    for (;;) {
        int missing = 0, i;
        tt_mutex_lock(c->sv->lock);
        for (i = 0; i < c->ids; i++)
            missing += c->sl->stream[i].expect &&
                       (c->sl->udp ? !c->sl->stream[i].udp_seen : !c->sl->stream[i].attached);
        tt_mutex_unlock(c->sv->lock);
        if (missing == 0)
            return 0;
        ttcp_handoff_collect(c->sv); /* --inetd: from the processes inetd started */
        if (tt_now_ns() >= end || tt_interrupted() || control_closed(c))
            return -1;
        serve_probes(c, ATTACH_POLL_NS);
    }
}

/* -C -r -m: the stream goes to the group, at the port the client's token
 * datagram came from, with the hop limit granted; the socket stays
 * unconnected (the run sends to the group). */
static int aim_at_group(struct control *c, tt_socket s, int family, int stream)
{
    struct tt_addr_list group;
    uint16_t port = tt_addr_port(&c->sl->stream[stream].peer);
    int rc = tt_resolve(c->grant.group, port, family, 1, &group);
    if (rc == 0)
        rc = tt_mcast_sender(s, group.addr[0].family, c->grant.ttl, NULL);
    if (rc == 0) {
        tt_mutex_lock(c->sv->lock);
        c->sl->stream[stream].peer = group.addr[0];
        tt_mutex_unlock(c->sv->lock);
    }
    return rc;
}

/* Whether stream goes to a multicast group (-C -r -m); -1: the echo's. */
static int to_group(const struct control *c, int stream)
{
    return c->grant.group[0] != '\0' && stream >= 0 && stream % 2 == 1;
}

/* A UDP stream's socket: on the server's port, shared with the classic
 * receiver there, connected to the address the client's datagram came
 * from, so the kernel hands it that client's datagrams alone. */
/* The address a stream's UDP socket binds: the group's family's any; the
 * address of -S --bind; else the one the client's control connection
 * reached. Bound to any, the socket once connected would take the route's
 * source address, which on a host of several addresses may be another
 * one: the client's datagrams to the address it reached would then go to
 * the classic receiver on the port instead. */
static int udp_local(struct control *c, int stream, int *family, struct tt_addr *local)
{
    uint16_t port = (uint16_t)c->sv->opts->port;
    if (to_group(c, stream)) { /* a socket of the group's own family */
        *family = ttcp_options_multicast(c->grant.group) == 4 ? TT_FAMILY_V4 : TT_FAMILY_V6;
        return tt_addr_any(*family, port, local);
    }
    if (c->sv->opts->bind != NULL)
        return ttcp_local_address(c->sv->opts, family, port, local);
    /* (of the listener's family, as the token datagram's source the socket
     * connects to: to an IPv4 client a dual-stack server's is IPv4-mapped,
     * for a socket of the server's family, dual-stack too) */
    if (tt_local_addr(c->sl->control, local) == 0) {
        tt_addr_set_port(local, port);
        if (local->family == TT_FAMILY_V4)
            *family = TT_FAMILY_V4;
        return 0;
    }
    return tt_addr_any(*family, port, local);
}

/* A UDP socket of stream's (-1: the probes' echo) on the shared port,
 * connected to peer (or aimed at the group). */
static int open_udp_to(struct control *c, int stream, const struct tt_addr *peer,
                       tt_socket *out)
{
    struct tt_addr local;
    tt_socket s;
    int family = c->sv->opts->family;
    int rc = udp_local(c, stream, &family, &local);
    if (rc != 0)
        return rc;
    rc = tt_socket_open(family, 1, &s);
    if (rc == TT_E_AFNOSUPPORT && family == TT_FAMILY_ANY) {
        rc = tt_socket_open(family = TT_FAMILY_V4, 1, &s);
        tt_addr_any(family, (uint16_t)c->sv->opts->port, &local);
    }
    if (rc != 0)
        return rc;
    tt_setopt(s, TT_OPT_SHARE_PORT, 1);
    rc = tt_bind(s, &local);
    if (rc == 0 && to_group(c, stream))
        rc = aim_at_group(c, s, family, stream);
    else if (rc == 0)
        rc = tt_connect(s, peer);
    if (rc != 0) {
        tt_close(s);
        return rc;
    }
    *out = s;
    return 0;
}

static int open_udp(struct control *c, int stream)
{
    tt_socket s;
    int rc = open_udp_to(c, stream, &c->sl->stream[stream].peer, &s);
    if (rc != 0)
        return rc;
    tt_mutex_lock(c->sv->lock);
    c->sl->stream[stream].data = s;
    tt_mutex_unlock(c->sv->lock);
    return 0;
}

/* UDP: a socket per stream, then `udp_ready` tells the client to begin. */
static int ready_udp(struct control *c)
{
    struct ttcp_frame f;
    int i;
    for (i = 0; i < c->ids; i++) {
        if (!c->sl->stream[i].expect)
            continue;
        if (open_udp(c, i) != 0) {
            send_error(c->sl, "data", "the server cannot open its UDP socket");
            return -1;
        }
        ttcp_frame_begin(&f, "udp_ready");
        ttcp_frame_add_u64(&f, "stream", (uint64_t)i);
        ttcp_frame_end(&f);
        if (send_frame(c->sl, &f) != 0)
            return -1;
    }
    return 0;
}

/* UDP: the client reads its sockets; datagrams sent before would only
 * fill its buffer and be counted lost. */
static int await_go(struct control *c)
{
    struct ttcp_message m;
    return receive(c, &m, "go", CONTROL_NS) == 0 ? 0 : -1;
}

/* After a UDP stream: the peer's last end markers still on their way go to
 * this socket, not to the classic receiver on the port. */
static void drain_udp(tt_socket s)
{
    unsigned char buf[64];
    int64_t end = tt_now_ns() + UDP_DRAIN_NS;
    tt_setopt(s, TT_OPT_RCVTIMEO_MS, 50);
    while (tt_now_ns() < end)
        tt_recv(s, buf, sizeof buf);
    tt_close(s);
}

/* One stream's progress: printed by the server's observer (one event at a
 * time, under the runner's lock; a failed stream's line, from run_stream,
 * is not), and its intervals sent to the client as they close. */
static void stream_event(void *ctx, int way, int i, enum ttcp_stream_end end,
                         const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct control *c = ctx;
    const struct ttcp_server_observer *obs = c->sv->obs;
    int stream = TTCP_STREAM_ID(i, way);
    (void)end;
    obs->event(obs->ctx, &c->side[stream], ev, res);
    if (ev->kind == TTCP_EV_INTERVAL) {
        struct ttcp_frame f;
        ttcp_wire_interval(&f, stream, ev->interval);
        send_frame(c->sl, &f);
    }
}

/* A late copy of the client's token datagram on the test's own socket. */
static int stream_claim(void *ctx, const struct tt_datagram *d)
{
    (void)ctx;
    return ttcp_proto_is_magic(d->buf, d->len);
}

/* Stream i of way, on its thread: the data phase on the socket the client
 * opened or named, then its result to the client. */
static void run_stream(void *ctx, int way, int i, const struct ttcp_observer *obs)
{
    struct control *c = ctx;
    int stream = TTCP_STREAM_ID(i, way);
    tt_socket sock;
    struct ttcp_frame f;
    int idle_ms = (int)(c->side[stream].idle_timeout_ns / 1000000), udp = c->sl->udp;

    tt_mutex_lock(c->sv->lock);
    sock = c->sl->stream[stream].data;
    c->sl->stream[stream].data = TT_NO_SOCKET; /* the run closes it */
    tt_mutex_unlock(c->sv->lock);
    /* a client that stalls ends the test after --idle-timeout */
    if (!udp)
        tt_setopt(sock, TT_OPT_RCVTIMEO_MS, idle_ms);
    tt_setopt(sock, TT_OPT_SNDTIMEO_MS, idle_ms);
    c->rc[stream] = ttcp_run_on(&c->side[stream], obs, &c->res[stream], sock,
                                &c->sl->stream[stream].peer,
                                udp ? TTCP_RUN_KEEP_SOCKET | (to_group(c, stream) ?
                                      TTCP_RUN_SEND_TO_PEER : 0u) : TTCP_RUN_ACCEPTED);
    if (udp)
        drain_udp(sock);
    if (c->rc[stream] != 0)
        c->sv->obs->failed(c->sv->obs->ctx, &c->side[stream], &c->res[stream]);
    else /* a failure on the way out (a trailing UDP marker refused) is not the test's */
        memset(&c->res[stream].failure, 0, sizeof c->res[stream].failure);
    ttcp_wire_result(&f, stream, &c->res[stream]);
    send_frame(c->sl, &f);
}

/* -P: each way's total on the server's own output, after its streams'. */
static void total_ways(struct control *c, struct ttcp_streams *run)
{
    int n = c->ids / 2, way, i;
    struct ttcp_result *parts = calloc((size_t)n, sizeof *parts), total;
    struct ttcp_event ev = {TTCP_EV_FIGURES, TTCP_WARN_COUNT, NULL, NULL};
    if (parts == NULL)
        return;
    for (way = 0; way < 2; way++) {
        if (!c->sl->stream[way].expect)
            continue;
        for (i = 0; i < n; i++)
            parts[i] = c->res[TTCP_STREAM_ID(i, way)]; /* copies: the intervals stay theirs */
        ttcp_streams_total(run, way, TTCP_END_LOCAL, parts, &total);
        if (total.started)
            c->sv->obs->event(c->sv->obs->ctx, &c->whole[way], &ev, &total);
    }
    free(parts);
}

/* --latency: the echo beside the streams, while they run. */
struct echo_beside {
    struct control *c;
    struct ttcp_streams *run;
};

static void echo_while_running(void *arg)
{
    struct echo_beside *eb = arg;
    while (ttcp_streams_running(eb->run) > 0 && !tt_interrupted())
        ttcp_echo_for(&eb->c->echo, ATTACH_POLL_NS * 5);
}

/* The streams side by side: --bidir's two ways, -P's streams each way, on
 * the stream runner. */
static void run_streams(struct control *c)
{
    struct echo_beside eb;
    struct ttcp_streams_observer obs = {stream_event, NULL, NULL, stream_claim, c};
    struct ttcp_streams run;
    unsigned ways = (c->sl->stream[0].expect ? 1u : 0u) | (c->sl->stream[1].expect ? 2u : 0u);
    if (ttcp_streams_init(&run, c->ids / 2, ways, &obs) != 0) {
        send_error(c->sl, "test", "the server is out of memory");
        return;
    }
    eb.c = c;
    eb.run = &run;
    ttcp_streams_run(&run, run_stream, c, c->echo.sock != TT_NO_SOCKET ? echo_while_running
                     : NULL, &eb);
    if (c->ids > 2)
        total_ways(c, &run);
    ttcp_streams_free(&run);
}

/* The client's results and bye: read (and bounded), not needed further. */
static void farewell(struct control *c)
{
    struct ttcp_message m;
    int64_t end = tt_now_ns() + CONTROL_NS;
    while (ttcp_channel_receive(c->sl->control, &m, end, c->why, sizeof c->why) == 0 &&
           strcmp(ttcp_proto_type(&m), "bye") != 0)
        continue;
}

static void release(struct control *c)
{
    int i;
    for (i = 0; c->res != NULL && i < c->ids; i++)
        ttcp_result_release(&c->res[i]);
    free(c->side);
    free(c->res);
    free(c->rc);
}

/* -C --traceroute: the path back to the client, hop by hop as frames. */
static void send_hop(void *ctx, const struct ttcp_trace *t, const struct ttcp_hop *h)
{
    struct control *c = ctx;
    struct ttcp_frame f;
    if (h == NULL)
        ttcp_wire_trace(&f, t);
    else
        ttcp_wire_hop(&f, h);
    send_frame(c->sl, &f);
}

static void trace_back(struct control *c)
{
    struct ttcp_trace t; /* about 6 KiB */
    struct ttcp_frame f;
    int rc = ttcp_trace_to(&c->sl->peer, send_hop, c, &t);
    ttcp_wire_trace_end(&f, &t, rc != 0);
    send_frame(c->sl, &f);
}

static void converse(struct control *c)
{
    struct slot *sl = c->sl;
    struct ttcp_message m;
    int rc;
    if (receive(c, &m, NULL, CONTROL_NS) != 0)
        return;
    if (strcmp(ttcp_proto_type(&m), "third_party") == 0) { /* -C this-host host2 */
        ttcp_third_run(sl, &m);
        return;
    }
    if (strcmp(ttcp_proto_type(&m), "web_results") == 0) { /* the exporter's web=1 */
        ttcp_web_answer(sl);
        return;
    }
    if (strcmp(ttcp_proto_type(&m), "test") != 0) {
        snprintf(c->why, sizeof c->why, "expected test, got %.32s", ttcp_proto_type(&m));
        send_error(sl, "protocol", c->why);
        return;
    }
    if (agree(c, &m) != 0)
        return;
    if (c->grant.traceroute)
        trace_back(c);
    ttcp_server_begun(c->sv);
    rc = await_data(c);
    ttcp_handoff_close(c->sv);
    if (rc != 0) {
        send_error(sl, "data", "the data connections did not come within 10 s");
        ttcp_server_notice(c->sv, TTCP_NOTICE_CONTROL_LOST, &sl->peer);
        return;
    }
    if (sl->udp && (ready_udp(c) != 0 || await_go(c) != 0))
        return;
    run_streams(c);
    if (c->echo.sock != TT_NO_SOCKET) /* the last probes, still on their way */
        ttcp_echo_for(&c->echo, UDP_DRAIN_NS);
    farewell(c);
}

void ttcp_control_run(struct slot *sl)
{
    struct control c;
    memset(&c, 0, sizeof c);
    c.sl = sl;
    c.sv = sl->server;
    ttcp_echo_init(&c.echo, TT_NO_SOCKET);
    tt_setopt(sl->control, TT_OPT_SNDTIMEO_MS, (int)(CONTROL_NS / 1000000));
    converse(&c);
    ttcp_echo_close(&c.echo);
    release(&c);
}
