/* A controlled test, on its slot's thread: the conversation of
 * docs/PROTOCOL.md, section 3, from the server's side. Every read has a
 * deadline; whatever the client does, the thread ends. */
#include <stdio.h>
#include <string.h>

#include "engine/run.h"
#include "server/internal.h"

#define ATTACH_POLL_NS 10000000ll
#define UDP_DRAIN_NS 500000000ll /* the peer's trailing end markers come 0.1 s after */

struct control {
    struct slot *sl;
    struct ttcp_server *sv;
    struct ttcp_grant grant;
    struct ttcp_options side[2]; /* stream 0: the server receives; 1: it sends */
    struct ttcp_result res[2];
    int rc[2];
    char peer[80];               /* the client's address: the transmitter's "host" */
    char why[256];
};

/* One frame on the control socket, whichever stream's thread sends it. */
static int send_frame(struct slot *sl, struct ttcp_frame *f)
{
    int rc;
    tt_mutex_lock(sl->send_lock);
    rc = ttcp_channel_send(sl->control, f);
    tt_mutex_unlock(sl->send_lock);
    return rc;
}

static void send_error(struct slot *sl, const char *reason, const char *message)
{
    struct ttcp_frame f;
    ttcp_frame_begin(&f, "error");
    ttcp_frame_add(&f, "reason", reason);
    ttcp_frame_add(&f, "message", message);
    if (ttcp_frame_end(&f) == 0)
        send_frame(sl, &f);
}

static int receive(struct control *c, struct ttcp_message *m, const char *type, int64_t ns)
{
    int rc = ttcp_channel_receive(c->sl->control, m, tt_now_ns() + ns, c->why, sizeof c->why);
    if (rc == TT_E_INVAL)
        send_error(c->sl, "protocol", c->why);
    if (rc == 0 && strcmp(ttcp_proto_type(m), type) != 0) {
        snprintf(c->why, sizeof c->why, "expected %s, got %.32s", type, ttcp_proto_type(m));
        send_error(c->sl, "protocol", c->why);
        rc = TT_E_INVAL;
    }
    return rc;
}

/* test -> ready, with a token for the data connections. */
static int agree(struct control *c)
{
    struct ttcp_message m;
    struct ttcp_frame f;
    char token[TTCP_TOKEN_HEX + 1];
    int refused;
    if (receive(c, &m, "test", CONTROL_NS) != 0)
        return -1;
    refused = ttcp_wire_read_test(&m, c->sv->opts, &c->grant, c->why, sizeof c->why) != 0;
    if (!refused && c->grant.opts.buflen > SERVER_MAX_BUFLEN) {
        snprintf(c->why, sizeof c->why, "buflen: at most %u bytes on this server",
                 SERVER_MAX_BUFLEN);
        refused = 1;
    }
    if (refused) {
        send_error(c->sl, "test", c->why);
        ttcp_server_notice(c->sv, TTCP_NOTICE_REFUSED_TEST, &c->sl->peer);
        return -1;
    }
    ttcp_wire_side(&c->grant, 0, &c->side[0]);
    ttcp_wire_side(&c->grant, 1, &c->side[1]);
    c->side[1].host = tt_addr_text(&c->sl->peer, c->peer, sizeof c->peer);
    if (ttcp_random_hex(token, TTCP_TOKEN_HEX) != 0)
        return -1;
    tt_mutex_lock(c->sv->lock);
    memcpy(c->sl->token, token, sizeof token);
    c->sl->udp = c->grant.opts.udp;
    c->sl->expect[0] = c->grant.direction != TTCP_DIR_RECEIVE;
    c->sl->expect[1] = c->grant.direction != TTCP_DIR_SEND;
    tt_mutex_unlock(c->sv->lock);
    ttcp_wire_ready(&f, &c->grant, token);
    return send_frame(c->sl, &f) == 0 ? 0 : -1;
}

/* Waits until every data connection the test needs has come (gate.c
 * attaches them; for UDP, the client's token datagram names its address),
 * for at most CONTROL_NS. */
static int await_data(struct control *c)
{
    int64_t end = tt_now_ns() + CONTROL_NS;
    for (;;) {
        int missing = 0, i;
        tt_mutex_lock(c->sv->lock);
        for (i = 0; i < 2; i++)
            missing += c->sl->expect[i] &&
                       (c->sl->udp ? !c->sl->udp_seen[i] : c->sl->data[i] == TT_NO_SOCKET);
        tt_mutex_unlock(c->sv->lock);
        if (missing == 0)
            return 0;
        if (tt_now_ns() >= end || tt_interrupted())
            return -1;
        tt_sleep_ns(ATTACH_POLL_NS);
    }
}

/* A UDP stream's socket: on the server's port, shared with the classic
 * receiver there, connected to the address the client's datagram came
 * from, so the kernel hands it that client's datagrams alone. */
static int open_udp(struct control *c, int stream)
{
    struct tt_addr any;
    tt_socket s;
    int family = c->sv->opts->family, rc = tt_socket_open(family, 1, &s);
    if (rc == TT_E_AFNOSUPPORT && family == TT_FAMILY_ANY)
        rc = tt_socket_open(family = TT_FAMILY_V4, 1, &s);
    if (rc != 0)
        return rc;
    tt_setopt(s, TT_OPT_SHARE_PORT, 1);
    tt_addr_any(family, (uint16_t)c->sv->opts->port, &any);
    rc = tt_bind(s, &any);
    if (rc == 0)
        rc = tt_connect(s, &c->sl->data_peer[stream]);
    if (rc != 0) {
        tt_close(s);
        return rc;
    }
    c->sl->data[stream] = s;
    return 0;
}

/* UDP: a socket per stream, then `udp_ready` tells the client to begin. */
static int ready_udp(struct control *c)
{
    struct ttcp_frame f;
    int i;
    for (i = 0; i < 2; i++) {
        if (!c->sl->expect[i])
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

/* One stream's progress: printed by the server's observer, and its
 * intervals sent to the client as they close. */
struct stream_observer {
    struct control *c;
    int stream;
};

static void stream_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct stream_observer *so = ctx;
    struct control *c = so->c;
    const struct ttcp_server_observer *obs = c->sv->obs;
    obs->event(obs->ctx, &c->side[so->stream], ev, res);
    if (ev->kind == TTCP_EV_INTERVAL) {
        struct ttcp_frame f;
        ttcp_wire_interval(&f, so->stream, ev->interval);
        send_frame(c->sl, &f);
    }
}

/* A late copy of the client's token datagram on the test's own socket. */
static int stream_claim(void *ctx, const struct tt_datagram *d)
{
    (void)ctx;
    return ttcp_proto_is_magic(d->buf, d->len);
}

struct stream_run {
    struct control *c;
    int stream;
};

static void run_stream(struct control *c, int stream)
{
    struct stream_observer so = {c, stream};
    struct ttcp_observer obs = {stream_event, &so, NULL, stream_claim};
    tt_socket sock;
    struct ttcp_frame f;
    int idle_ms = (int)(c->side[stream].idle_timeout_ns / 1000000), udp = c->sl->udp;

    tt_mutex_lock(c->sv->lock);
    sock = c->sl->data[stream];
    c->sl->data[stream] = TT_NO_SOCKET; /* the run closes it */
    tt_mutex_unlock(c->sv->lock);
    /* a client that stalls ends the test after --idle-timeout */
    if (!udp)
        tt_setopt(sock, TT_OPT_RCVTIMEO_MS, idle_ms);
    tt_setopt(sock, TT_OPT_SNDTIMEO_MS, idle_ms);
    c->rc[stream] = ttcp_run_on(&c->side[stream], &obs, &c->res[stream], sock,
                                &c->sl->data_peer[stream],
                                udp ? TTCP_RUN_KEEP_SOCKET : TTCP_RUN_ACCEPTED);
    if (udp)
        drain_udp(sock);
    if (c->rc[stream] != 0)
        c->sv->obs->failed(c->sv->obs->ctx, &c->side[stream], &c->res[stream]);
    else /* a failure on the way out (a trailing UDP marker refused) is not the test's */
        memset(&c->res[stream].failure, 0, sizeof c->res[stream].failure);
    ttcp_wire_result(&f, stream, &c->res[stream]);
    send_frame(c->sl, &f);
}

static void stream_thread(void *arg)
{
    struct stream_run *r = arg;
    run_stream(r->c, r->stream);
}

/* The streams, side by side for --bidir. */
static void run_streams(struct control *c)
{
    struct stream_run second = {c, 1};
    struct tt_thread *t = NULL;
    int both = c->sl->expect[0] && c->sl->expect[1];
    if (both && tt_thread_start(&t, stream_thread, &second) != 0)
        t = NULL;
    if (c->sl->expect[0])
        run_stream(c, 0);
    if (t != NULL)
        tt_thread_join(t);
    else if (c->sl->expect[1])
        run_stream(c, 1);
    ttcp_result_release(&c->res[0]);
    ttcp_result_release(&c->res[1]);
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

void ttcp_control_run(struct slot *sl)
{
    struct control c;
    memset(&c, 0, sizeof c);
    c.sl = sl;
    c.sv = sl->server;
    tt_setopt(sl->control, TT_OPT_SNDTIMEO_MS, (int)(CONTROL_NS / 1000000));
    if (agree(&c) != 0)
        return;
    ttcp_server_begun(c.sv);
    if (await_data(&c) != 0) {
        send_error(sl, "data", "the data connections did not come within 10 s");
        ttcp_server_notice(c.sv, TTCP_NOTICE_CONTROL_LOST, &sl->peer);
        return;
    }
    if (sl->udp && (ready_udp(&c) != 0 || await_go(&c) != 0))
        return;
    run_streams(&c);
    farewell(&c);
}
