/* The client's side of the conversation: connect, hello, (auth), test,
 * the data connections, then the streams side by side with a reader of
 * the server's live intervals and results. */
#include "client/client.h"

#include <stdio.h>
#include <string.h>

#include "base/version.h"
#include "engine/run.h"
#include "remote/auth.h"
#include "remote/channel.h"
#include "remote/wire.h"

#define CONTROL_NS (10ll * 1000000000ll)
#define POLL_MS 200
#define TOKEN_RESEND_MS 100

struct client {
    const struct ttcp_options *opts;
    const struct ttcp_client_observer *obs;
    struct ttcp_client_outcome *out;
    struct ttcp_options local; /* as the server granted */
    struct ttcp_key key;
    tt_socket control;
    struct tt_addr server;     /* the address the control connection reached */
    char token[TTCP_TOKEN_HEX + 1];
    int local_done;            /* set by the streams when they have ended */
    struct tt_mutex *lock;
};

static int problem(struct client *c, enum ttcp_client_problem p, int code)
{
    c->out->problem = p;
    if (code != 0) {
        c->out->failure.code = code;
        c->out->failure.native = tt_last_error();
    }
    return -1;
}

static int connect_control(struct client *c)
{
    struct tt_addr_list list;
    int rc = tt_resolve(c->opts->host, (uint16_t)c->opts->port, c->opts->family, 0, &list), i;
    c->out->failure.op = TTCP_OP_HOSTNAME;
    if (rc != 0)
        return problem(c, TTCP_CLIENT_CONNECT, rc);
    c->out->failure.op = TTCP_OP_CONNECT;
    for (i = 0; i < list.count && !tt_interrupted(); i++) {
        rc = tt_socket_open(list.addr[i].family, 0, &c->control);
        if (rc != 0)
            continue;
        rc = tt_connect(c->control, &list.addr[i]);
        if (rc == 0) {
            c->server = list.addr[i];
            return 0;
        }
        tt_close(c->control);
        c->control = TT_NO_SOCKET;
    }
    return problem(c, TTCP_CLIENT_CONNECT, tt_interrupted() ? TT_E_INTR : rc);
}

/* Reads the next frame, whatever it is; the server's busy and error answers
 * end the conversation here, with their message. */
static int receive_any(struct client *c, struct ttcp_message *m)
{
    const char *t, *msg;
    int rc = ttcp_channel_receive(c->control, m, tt_now_ns() + CONTROL_NS, c->out->why,
                                  sizeof c->out->why);
    c->out->failure.op = TTCP_OP_IO;
    if (rc == TT_E_INVAL)
        return problem(c, TTCP_CLIENT_PROTOCOL, 0);
    if (rc != 0)
        return problem(c, TTCP_CLIENT_LOST, rc);
    t = ttcp_proto_type(m);
    msg = ttcp_proto_get(m, "message");
    if (strcmp(t, "busy") == 0 || strcmp(t, "error") == 0) {
        snprintf(c->out->why, sizeof c->out->why, "%s", msg ? msg : "(no reason given)");
        return problem(c, strcmp(t, "busy") == 0 ? TTCP_CLIENT_BUSY : TTCP_CLIENT_REFUSED, 0);
    }
    return 0;
}

/* Reads the next frame, which must be of the given type. */
static int receive(struct client *c, struct ttcp_message *m, const char *type)
{
    if (receive_any(c, m) != 0)
        return -1;
    if (strcmp(ttcp_proto_type(m), type) != 0) {
        snprintf(c->out->why, sizeof c->out->why, "expected %s, got %.32s", type,
                 ttcp_proto_type(m));
        return problem(c, TTCP_CLIENT_PROTOCOL, 0);
    }
    return 0;
}

static int send_frame(struct client *c, struct ttcp_frame *f)
{
    int rc;
    tt_mutex_lock(c->lock);
    rc = ttcp_channel_send(c->control, f);
    tt_mutex_unlock(c->lock);
    if (rc != 0)
        return problem(c, TTCP_CLIENT_LOST, rc);
    return 0;
}

/* The server proves it holds the key too, so a client is not fooled by
 * another server on the address. */
static int authenticate(struct client *c, const char *snonce)
{
    struct ttcp_message m;
    struct ttcp_frame f;
    char cnonce[TTCP_NONCE_HEX + 1], mac[TTCP_MAC_HEX + 1];
    const char *theirs;
    if (snonce == NULL || strlen(snonce) != TTCP_NONCE_HEX ||
        ttcp_random_hex(cnonce, TTCP_NONCE_HEX) != 0 ||
        ttcp_auth_mac(&c->key, "client", snonce, cnonce, mac) != 0) {
        snprintf(c->out->why, sizeof c->out->why, "the server's challenge cannot be answered");
        return problem(c, TTCP_CLIENT_AUTH, 0);
    }
    ttcp_frame_begin(&f, "auth");
    ttcp_frame_add(&f, "nonce", cnonce);
    ttcp_frame_add(&f, "mac", mac);
    ttcp_frame_end(&f);
    if (send_frame(c, &f) != 0 || receive(c, &m, "auth_ok") != 0)
        return -1;
    theirs = ttcp_proto_get(&m, "mac");
    if (ttcp_auth_mac(&c->key, "server", snonce, cnonce, mac) != 0 || theirs == NULL ||
        !ttcp_auth_equal(theirs, mac)) {
        snprintf(c->out->why, sizeof c->out->why, "the server does not hold the key");
        return problem(c, TTCP_CLIENT_AUTH, 0);
    }
    return 0;
}

static int greet(struct client *c)
{
    struct ttcp_message m;
    struct ttcp_frame f;
    char program[64];
    uint64_t version, auth = 0;
    int rc = ttcp_channel_send_magic(c->control);
    snprintf(program, sizeof program, "ttcp %s", ttcp_version());
    ttcp_frame_begin(&f, "hello");
    ttcp_frame_add_u64(&f, "version", TTCP_PROTO_VERSION);
    ttcp_frame_add_u64(&f, "min_version", TTCP_PROTO_VERSION);
    ttcp_frame_add(&f, "program", program);
    ttcp_frame_end(&f);
    if (rc == 0)
        rc = ttcp_channel_send(c->control, &f);
    /* a server that turns us away at once (--allow) may have closed before our hello
     * went: its answer can still be waiting, and says why better than the failed send */
    if (receive(c, &m, "welcome") != 0) {
        if (rc != 0 && c->out->problem == TTCP_CLIENT_LOST)
            c->out->failure.code = rc;
        return -1;
    }
    if (ttcp_proto_get_u64(&m, "version", TTCP_PROTO_VERSION, TTCP_PROTO_VERSION, &version,
                           c->out->why, sizeof c->out->why) != 0 ||
        (ttcp_proto_get(&m, "auth") &&
         ttcp_proto_get_u64(&m, "auth", 0, 1, &auth, c->out->why, sizeof c->out->why) != 0))
        return problem(c, TTCP_CLIENT_PROTOCOL, 0);
    if (auth && c->key.len == 0) {
        snprintf(c->out->why, sizeof c->out->why,
                 "the server requires a key: give its key file with --key-file");
        return problem(c, TTCP_CLIENT_AUTH, 0);
    }
    if (!auth && c->key.len != 0) {
        snprintf(c->out->why, sizeof c->out->why,
                 "the server does not use a key: it cannot prove who it is (drop --key-file "
                 "to test anyway)");
        return problem(c, TTCP_CLIENT_AUTH, 0);
    }
    return auth ? authenticate(c, ttcp_proto_get(&m, "nonce")) : 0;
}

static int request(struct client *c)
{
    struct ttcp_message m;
    struct ttcp_frame f;
    ttcp_wire_test(&f, c->opts);
    if (send_frame(c, &f) != 0 || receive(c, &m, "ready") != 0)
        return -1;
    c->local = *c->opts;
    if (ttcp_wire_read_ready(&m, &c->local, c->token, c->out->why, sizeof c->out->why) != 0)
        return problem(c, TTCP_CLIENT_PROTOCOL, 0);
    return 0;
}

/* UDP: a socket connected to the server's port, and the token datagram
 * that tells the server where this stream's datagrams come from (and opens
 * the way back through a NAT). */
static int open_udp(struct client *c, tt_socket *out)
{
    int rc = tt_socket_open(c->server.family, 1, out);
    c->out->failure.op = TTCP_OP_SOCKET;
    if (rc == 0 && (rc = tt_connect(*out, &c->server)) != 0) {
        tt_close(*out);
        *out = TT_NO_SOCKET;
    }
    return rc != 0 ? problem(c, TTCP_CLIENT_CONNECT, rc) : 0;
}

static void send_token_datagram(struct client *c, int stream, tt_socket s)
{
    struct ttcp_frame f;
    unsigned char d[TTCP_PROTO_MAGIC_LEN + sizeof f.bytes];
    ttcp_frame_begin(&f, "udp");
    ttcp_frame_add(&f, "token", c->token);
    ttcp_frame_add_u64(&f, "stream", (uint64_t)stream);
    if (ttcp_frame_end(&f) != 0)
        return;
    memcpy(d, TTCP_PROTO_MAGIC, TTCP_PROTO_MAGIC_LEN);
    memcpy(d + TTCP_PROTO_MAGIC_LEN, f.bytes, f.len);
    tt_sendto(s, d, TTCP_PROTO_MAGIC_LEN + f.len, NULL); /* lost? it goes again */
}

/* Sends each stream's token datagram until the server says `udp_ready` for
 * it: every TOKEN_RESEND_MS, for at most CONTROL_NS. */
static int agree_udp(struct client *c, const tt_socket *socks)
{
    int ready[2] = {!c->out->stream[0].used, !c->out->stream[1].used}, i;
    int64_t end = tt_now_ns() + CONTROL_NS;
    while (!(ready[0] && ready[1])) {
        struct ttcp_message m;
        uint64_t stream;
        int rc;
        if (tt_now_ns() >= end || tt_interrupted()) {
            snprintf(c->out->why, sizeof c->out->why, "no answer to the UDP datagrams: a "
                     "firewall may drop UDP to port %llu", (unsigned long long)c->opts->port);
            return problem(c, TTCP_CLIENT_REFUSED, 0);
        }
        for (i = 0; i < 2; i++)
            if (!ready[i])
                send_token_datagram(c, i, socks[i]);
        rc = tt_wait_readable(c->control, TOKEN_RESEND_MS);
        if (rc <= 0)
            continue;
        if (receive_any(c, &m) != 0)
            return -1;
        if (strcmp(ttcp_proto_type(&m), "udp_ready") == 0 &&
            ttcp_proto_get_u64(&m, "stream", 0, TTCP_STREAM_IDS - 1, &stream, c->out->why,
                               sizeof c->out->why) == 0)
            ready[stream] = 1;
    }
    return 0;
}

/* A data connection for one stream: to the address the control connection
 * reached, opened by the client (so a client behind NAT works). */
static int open_data(struct client *c, int stream, tt_socket *out)
{
    struct ttcp_frame f;
    int rc = tt_socket_open(c->server.family, 0, out);
    c->out->failure.op = TTCP_OP_CONNECT;
    if (rc != 0)
        return problem(c, TTCP_CLIENT_CONNECT, rc);
    rc = tt_connect(*out, &c->server);
    if (rc == 0)
        rc = ttcp_channel_send_magic(*out);
    ttcp_frame_begin(&f, "data");
    ttcp_frame_add(&f, "token", c->token);
    ttcp_frame_add_u64(&f, "stream", (uint64_t)stream);
    ttcp_frame_end(&f);
    if (rc == 0)
        rc = ttcp_channel_send(*out, &f);
    if (rc != 0) {
        tt_close(*out);
        *out = TT_NO_SOCKET;
        return problem(c, TTCP_CLIENT_CONNECT, rc);
    }
    return 0;
}

struct stream_task {
    struct client *c;
    int stream;
    tt_socket sock;
};

static void local_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct stream_task *t = ctx;
    struct ttcp_client_stream *st = &t->c->out->stream[t->stream];
    t->c->obs->event(t->c->obs->ctx, &st->local, 1, ev, res);
}

static void stream_thread(void *arg)
{
    struct stream_task *t = arg;
    struct ttcp_client_stream *st = &t->c->out->stream[t->stream];
    struct ttcp_observer obs = {local_event, t, NULL, NULL};
    st->rc = ttcp_run_on(&st->local, &obs, &st->mine, t->sock, &t->c->server, 0);
    tt_mutex_lock(t->c->lock);
    t->c->local_done++;
    tt_mutex_unlock(t->c->lock);
}

/* The server's live intervals and its results, until every stream has one.
 * Waits as long as the local streams run; after, CONTROL_NS plus the idle
 * timeout (the server may still wait for a close). */
static void read_server(struct client *c, int streams)
{
    int64_t grace = CONTROL_NS + c->local.idle_timeout_ns, done_at = 0;
    int results = 0;
    while (results < streams) {
        struct ttcp_message m;
        struct ttcp_result theirs;
        struct ttcp_interval in;
        struct ttcp_event ev = {TTCP_EV_INTERVAL, TTCP_WARN_COUNT, &in, NULL};
        int stream, local_done, rc = tt_wait_readable(c->control, POLL_MS);
        tt_mutex_lock(c->lock);
        local_done = c->local_done == streams;
        tt_mutex_unlock(c->lock);
        if (local_done && done_at == 0)
            done_at = tt_now_ns();
        if (done_at != 0 && tt_now_ns() - done_at > grace)
            break; /* also when frames keep coming, but never the results */
        if (rc == 0 || rc == TT_E_INTR)
            continue;
        if (rc < 0 || receive_any(c, &m) != 0)
            break;
        if (strcmp(ttcp_proto_type(&m), "interval") == 0 &&
            ttcp_wire_read_interval(&m, &stream, &in, c->out->why, sizeof c->out->why) == 0 &&
            c->out->stream[stream].used)
            c->obs->event(c->obs->ctx, &c->out->stream[stream].remote, 0, &ev, NULL);
        if (strcmp(ttcp_proto_type(&m), "result") == 0 &&
            ttcp_wire_read_result(&m, &stream, &theirs, c->out->why, sizeof c->out->why) == 0 &&
            c->out->stream[stream].used && !c->out->stream[stream].theirs_valid) {
            c->out->stream[stream].theirs = theirs;
            c->out->stream[stream].theirs_valid = 1;
            results++;
        }
    }
}

struct reader_task {
    struct client *c;
    int streams; /* how many results to wait for */
};

static void reader_thread(void *arg)
{
    struct reader_task *t = arg;
    read_server(t->c, t->streams);
}

/* Each end's side of a stream: stream 0, the client sends. */
static void sides(struct client *c, int stream)
{
    struct ttcp_client_stream *st = &c->out->stream[stream];
    int client_sends = stream == 0;
    st->used = 1;
    st->local = c->local;
    st->local.transmit = client_sends;
    st->local.verify = c->opts->verify && !client_sends;
    if (!client_sends)
        st->local.limit_ns = 0; /* the server's transmitter keeps its own limit */
    if (!client_sends && st->local.udp)
        st->local.start_timeout_ns = st->local.idle_timeout_ns;
    st->remote = c->local;
    st->remote.transmit = !client_sends;
    st->remote.verify = c->opts->verify && client_sends;
}

/* The streams side by side, and the reader of the server's frames. */
static void run_streams(struct client *c, const tt_socket *socks)
{
    struct stream_task task[2] = {{c, 0, socks[0]}, {c, 1, socks[1]}};
    struct reader_task reader = {c, 0};
    struct tt_thread *threads[3] = {NULL, NULL, NULL};
    int i, first = c->out->stream[0].used ? 0 : 1;

    reader.streams = c->out->stream[0].used + c->out->stream[1].used;
    if (tt_thread_start(&threads[2], reader_thread, &reader) != 0)
        threads[2] = NULL;
    if (first == 0 && c->out->stream[1].used &&
        tt_thread_start(&threads[1], stream_thread, &task[1]) != 0)
        threads[1] = NULL;
    if (c->local.udp) { /* UDP: our sockets are read now; the server may begin */
        struct ttcp_frame f;
        ttcp_frame_begin(&f, "go");
        ttcp_frame_end(&f);
        tt_mutex_lock(c->lock); /* a failure shows in the results that never come */
        ttcp_channel_send(c->control, &f);
        tt_mutex_unlock(c->lock);
    }
    stream_thread(&task[first]);
    if (first == 0 && c->out->stream[1].used && threads[1] == NULL)
        stream_thread(&task[1]); /* no thread to be had: one after the other */
    for (i = 1; i >= 0; i--)
        if (threads[i + 1] != NULL)
            tt_thread_join(threads[i + 1]);
    if (threads[2] == NULL)
        read_server(c, reader.streams);
}

/* The client's own results, then bye: the server may log them. */
static void farewell(struct client *c)
{
    struct ttcp_frame f;
    int i;
    for (i = 0; i < 2; i++)
        if (c->out->stream[i].used) {
            ttcp_wire_result(&f, i, &c->out->stream[i].mine);
            send_frame(c, &f);
        }
    ttcp_frame_begin(&f, "bye");
    ttcp_frame_end(&f);
    send_frame(c, &f);
}

static int converse(struct client *c)
{
    tt_socket socks[2] = {TT_NO_SOCKET, TT_NO_SOCKET};
    enum ttcp_direction d = ttcp_options_direction(c->opts);
    int i, rc;

    if (connect_control(c) != 0 || greet(c) != 0 || request(c) != 0)
        return -1;
    if (d != TTCP_DIR_RECEIVE)
        sides(c, 0);
    if (d != TTCP_DIR_SEND)
        sides(c, 1);
    for (i = 0, rc = 0; i < 2 && rc == 0; i++)
        if (c->out->stream[i].used && c->local.udp) {
            rc = open_udp(c, &socks[i]);
        } else if (c->out->stream[i].used) {
            rc = open_data(c, i, &socks[i]);
            if (rc == 0) { /* a server that stalls ends the test after --idle-timeout */
                tt_setopt(socks[i], TT_OPT_RCVTIMEO_MS, (int)(c->local.idle_timeout_ns / 1000000));
                tt_setopt(socks[i], TT_OPT_SNDTIMEO_MS, (int)(c->local.idle_timeout_ns / 1000000));
            }
        }
    if (rc == 0 && c->local.udp)
        rc = agree_udp(c, socks);
    if (rc != 0) {
        for (i = 0; i < 2; i++)
            if (socks[i] != TT_NO_SOCKET)
                tt_close(socks[i]);
        return -1;
    }
    run_streams(c, socks);
    farewell(c);
    return 0;
}

int ttcp_client_run(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                    struct ttcp_client_outcome *out)
{
    struct client c;
    int rc = -1;

    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    c.opts = o;
    c.obs = obs;
    c.out = out;
    c.control = TT_NO_SOCKET;
    if (o->key_file != NULL &&
        ttcp_key_load(o->key_file, &c.key, out->why, sizeof out->why) != 0)
        return problem(&c, TTCP_CLIENT_KEY, 0);
    if (tt_mutex_new(&c.lock) != 0)
        return problem(&c, TTCP_CLIENT_LOST, TT_E_NOMEM);
    rc = converse(&c);
    if (c.control != TT_NO_SOCKET)
        tt_close(c.control);
    tt_mutex_free(c.lock);
    ttcp_key_wipe(&c.key);
    return rc;
}

void ttcp_client_release(struct ttcp_client_outcome *out)
{
    int i;
    for (i = 0; i < 2; i++) {
        ttcp_result_release(&out->stream[i].mine);
        ttcp_result_release(&out->stream[i].theirs);
    }
}
