/* The client's side of the conversation: connect, hello, (auth), test,
 * the data connections, then the streams side by side with a reader of
 * the server's live intervals and results. */
#include "client/client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "engine/parallel.h"
#include "engine/run.h"
#include "engine/trace.h"
#include "measure/sum.h"
#include "remote/auth.h"
#include "remote/channel.h"
#include "remote/wire.h"

#define CONTROL_NS (10ll * 1000000000ll)
#define POLL_MS 200
#define TOKEN_RESEND_MS 100
/* The server's intervals kept, all its streams together: a 1000 s test at
 * the finest -i (0.01 s) twice over, about 20 MB; past it they are shown
 * but not kept, whatever a server sends. */
#define KEPT_INTERVALS_MAX 200000u

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
    struct tt_mutex *lock;     /* sends on the control connection, local_done */
    int ids;                   /* stream numbers on the wire: 2 x -P */
    unsigned char unconnected[TTCP_STREAM_IDS]; /* -m: a member's socket, not connected */
    struct ttcp_interval_sum sums[2][2]; /* -P: [way][local] interval totals */
    struct tt_mutex *print_lock; /* one event at a time reaches the observer */
    size_t kept;               /* the server's intervals kept (the reader's) */
    int64_t deadline;          /* every wait for the server ends by it; 0: none */
};

/* When a wait of span for the server ends: span from now, or sooner at
 * the deadline. */
static int64_t wait_end(const struct client *c, int64_t span)
{
    int64_t end = tt_now_ns() + span;
    return c->deadline != 0 && c->deadline < end ? c->deadline : end;
}

/* A connect that gives up at the deadline (TT_OPT_SNDTIMEO_MS bounds it);
 * the option is cleared after, for the sends that follow. */
static int connect_by_deadline(const struct client *c, tt_socket s, const struct tt_addr *a)
{
    int64_t left_ms;
    int rc;
    if (c->deadline == 0)
        return tt_connect(s, a);
    left_ms = (c->deadline - tt_now_ns()) / 1000000;
    if (left_ms < 1)
        return TT_E_TIMEDOUT;
    tt_setopt(s, TT_OPT_SNDTIMEO_MS, left_ms > 0x7fffffff ? 0x7fffffff : (int)left_ms);
    rc = tt_connect(s, a);
    tt_setopt(s, TT_OPT_SNDTIMEO_MS, 0);
    return rc;
}

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
        rc = connect_by_deadline(c, c->control, &list.addr[i]);
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
    int rc = ttcp_channel_receive(c->control, m, wait_end(c, CONTROL_NS), c->out->why,
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
        else if (c->out->problem == TTCP_CLIENT_LOST &&
                 c->out->failure.code == TT_E_TIMEDOUT)
            c->out->problem = TTCP_CLIENT_SILENT; /* took the connection, said nothing */
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

static void local_hop(void *ctx, const struct ttcp_trace *t, const struct ttcp_hop *h)
{
    struct client *c = ctx;
    c->obs->trace(c->obs->ctx, 1, t, h, 0);
}

/* The server's trace back: `trace`, its hops, `trace_end`; 0 or -1. */
static int their_trace(struct client *c)
{
    struct ttcp_trace t; /* about 6 KiB */
    struct ttcp_message m;
    int failed = 0;
    if (receive(c, &m, "trace") != 0)
        return -1;
    if (ttcp_wire_read_trace(&m, &t, c->out->why, sizeof c->out->why) != 0)
        return problem(c, TTCP_CLIENT_PROTOCOL, 0);
    c->obs->trace(c->obs->ctx, 0, &t, NULL, 0);
    for (;;) {
        struct ttcp_hop h;
        if (receive_any(c, &m) != 0)
            return -1;
        if (strcmp(ttcp_proto_type(&m), "trace_end") == 0)
            break;
        if (strcmp(ttcp_proto_type(&m), "hop") != 0 || t.count >= TTCP_TRACE_MAX_HOPS ||
            ttcp_wire_read_hop(&m, &h, c->out->why, sizeof c->out->why) != 0) {
            if (c->out->why[0] == '\0')
                snprintf(c->out->why, sizeof c->out->why, "a trace of more than %d hops, or "
                         "%.32s in it", TTCP_TRACE_MAX_HOPS, ttcp_proto_type(&m));
            return problem(c, TTCP_CLIENT_PROTOCOL, 0);
        }
        t.hops[t.count++] = h;
        c->obs->trace(c->obs->ctx, 0, &t, &h, 0);
    }
    if (ttcp_wire_read_trace_end(&m, &t, &failed, c->out->why, sizeof c->out->why) != 0)
        return problem(c, TTCP_CLIENT_PROTOCOL, 0);
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
    /* lost? it goes again */
    tt_sendto(s, d, TTCP_PROTO_MAGIC_LEN + f.len, c->unconnected[stream] ? &c->server : NULL);
}

/* Stream number id's way (0: the client sends) and place in that way. */
static struct ttcp_client_stream *way_of(struct client *c, int id)
{
    return &c->out->stream[id % 2];
}

/* The stream numbers this test uses (TTCP_STREAM_ID), by way. */
static int in_use(const struct client *c, int id)
{
    return id >= 0 && id < c->ids && c->out->stream[id % 2].used;
}

/* Sends each stream's token datagram until the server says `udp_ready` for
 * it: every TOKEN_RESEND_MS, for at most CONTROL_NS. */
static int agree_udp(struct client *c, const tt_socket *socks)
{
    unsigned char ready[TTCP_STREAM_IDS];
    int64_t end = wait_end(c, CONTROL_NS);
    int missing = 0, i;
    for (i = 0; i < c->ids; i++) {
        ready[i] = !in_use(c, i);
        missing += !ready[i];
    }
    while (missing > 0) {
        struct ttcp_message m;
        uint64_t id;
        int rc;
        if (tt_now_ns() >= end || tt_interrupted()) {
            snprintf(c->out->why, sizeof c->out->why, "no answer to the UDP datagrams: a "
                     "firewall may drop UDP to port %llu", (unsigned long long)c->opts->port);
            return problem(c, TTCP_CLIENT_REFUSED, 0);
        }
        for (i = 0; i < c->ids; i++)
            if (!ready[i])
                send_token_datagram(c, i, socks[i]);
        rc = tt_wait_readable(c->control, TOKEN_RESEND_MS);
        if (rc <= 0)
            continue;
        if (receive_any(c, &m) != 0)
            return -1;
        if (strcmp(ttcp_proto_type(&m), "udp_ready") == 0 &&
            ttcp_proto_get_u64(&m, "stream", 0, TTCP_STREAM_IDS - 1, &id, c->out->why,
                               sizeof c->out->why) == 0 &&
            in_use(c, (int)id) && !ready[id]) {
            ready[id] = 1;
            missing--;
        }
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
    rc = connect_by_deadline(c, *out, &c->server);
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

/* -P: a closed interval of one stream at one end (local: the client's),
 * added to that way's total; the totals every stream has got past are
 * shown. Under the print lock. */
static void flush_intervals(struct client *c, int way, int local)
{
    struct ttcp_client_stream *st = &c->out->stream[way];
    const struct ttcp_interval *t;
    while ((t = ttcp_interval_sum_next(&c->sums[way][local])) != NULL) {
        struct ttcp_event ev = {TTCP_EV_INTERVAL, TTCP_WARN_COUNT, t, NULL};
        c->obs->event(c->obs->ctx, local ? &st->local : &st->remote, local, &ev, NULL);
    }
}

static void add_interval(struct client *c, int id, int local, const struct ttcp_interval *in)
{
    if (way_of(c, id)->n < 2)
        return;
    ttcp_interval_sum_add(&c->sums[id % 2][local], id / 2, in);
    flush_intervals(c, id % 2, local);
}

/* A stream's interval totals can go on without it (it ended, or it never
 * reports): under the print lock. */
static void end_intervals(struct client *c, int id, int local)
{
    if (way_of(c, id)->n < 2)
        return;
    ttcp_interval_sum_end(&c->sums[id % 2][local], id / 2);
    flush_intervals(c, id % 2, local);
}

struct stream_task {
    struct client *c;
    int id;
    tt_socket sock;
};

static void local_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct stream_task *t = ctx;
    struct ttcp_client_stream *st = way_of(t->c, t->id);
    tt_mutex_lock(t->c->print_lock);
    t->c->obs->event(t->c->obs->ctx, &st->part_local[t->id / 2], 1, ev, res);
    if (ev->kind == TTCP_EV_INTERVAL)
        add_interval(t->c, t->id, 1, ev->interval);
    tt_mutex_unlock(t->c->print_lock);
}

static void stream_thread(void *arg)
{
    struct stream_task *t = arg;
    struct ttcp_client_stream *st = way_of(t->c, t->id);
    struct ttcp_observer obs = {local_event, t, NULL, NULL};
    int i = t->id / 2;
    st->part_rc[i] = ttcp_run_on(&st->part_local[i], &obs, &st->part_mine[i], t->sock,
                                 &t->c->server, 0);
    tt_mutex_lock(t->c->print_lock);
    end_intervals(t->c, t->id, 1);
    tt_mutex_unlock(t->c->print_lock);
    tt_mutex_lock(t->c->lock);
    t->c->local_done++;
    tt_mutex_unlock(t->c->lock);
}

/* The server's interval, kept with its end's figures (the JSON's
 * server_tests, --plot); out of memory, the interval is only shown. */
static void keep_interval(struct client *c, struct ttcp_result *theirs,
                          const struct ttcp_interval *in)
{
    struct ttcp_interval *kept;
    if (c->kept >= KEPT_INTERVALS_MAX)
        return;
    kept = ttcp_intervals_push(&theirs->intervals);
    if (kept != NULL) {
        *kept = *in;
        c->kept++;
    }
}

/* One frame from the server while the streams run: a live interval, or a
 * stream's result (counted in *results). */
static void server_frame(struct client *c, const struct ttcp_message *m, int *results)
{
    struct ttcp_result theirs;
    struct ttcp_interval in;
    struct ttcp_event ev = {TTCP_EV_INTERVAL, TTCP_WARN_COUNT, &in, NULL};
    int id;
    if (strcmp(ttcp_proto_type(m), "interval") == 0 &&
        ttcp_wire_read_interval(m, &id, &in, c->out->why, sizeof c->out->why) == 0 &&
        in_use(c, id)) {
        struct ttcp_client_stream *st = way_of(c, id);
        keep_interval(c, &st->part_theirs[id / 2], &in);
        tt_mutex_lock(c->print_lock);
        c->obs->event(c->obs->ctx, &st->part_remote[id / 2], 0, &ev, NULL);
        add_interval(c, id, 0, &in);
        tt_mutex_unlock(c->print_lock);
    }
    if (strcmp(ttcp_proto_type(m), "result") == 0 &&
        ttcp_wire_read_result(m, &id, &theirs, c->out->why, sizeof c->out->why) == 0 &&
        in_use(c, id) && !way_of(c, id)->part_theirs_valid[id / 2]) {
        struct ttcp_client_stream *st = way_of(c, id);
        theirs.intervals = st->part_theirs[id / 2].intervals; /* as they came */
        st->part_theirs[id / 2] = theirs;
        st->part_theirs_valid[id / 2] = 1;
        tt_mutex_lock(c->print_lock);
        end_intervals(c, id, 0);
        tt_mutex_unlock(c->print_lock);
        (*results)++;
    }
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
        int local_done, rc = tt_wait_readable(c->control, POLL_MS);
        tt_mutex_lock(c->lock);
        local_done = c->local_done == streams;
        tt_mutex_unlock(c->lock);
        if (local_done && done_at == 0)
            done_at = tt_now_ns();
        if (done_at != 0 && tt_now_ns() - done_at > grace)
            break; /* also when frames keep coming, but never the results */
        if (c->deadline != 0 && tt_now_ns() >= c->deadline)
            break;
        if (rc == 0 || rc == TT_E_INTR)
            continue;
        if (rc < 0 || receive_any(c, &m) != 0)
            break;
        server_frame(c, &m, &results);
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

/* Room for way's n streams; 0 or -1. */
static int make_parts(struct ttcp_client_stream *st, int n)
{
    st->n = n;
    st->part_local = calloc((size_t)n, sizeof *st->part_local);
    st->part_remote = calloc((size_t)n, sizeof *st->part_remote);
    st->part_mine = calloc((size_t)n, sizeof *st->part_mine);
    st->part_theirs = calloc((size_t)n, sizeof *st->part_theirs);
    st->part_theirs_valid = calloc((size_t)n, sizeof *st->part_theirs_valid);
    st->part_rc = calloc((size_t)n, sizeof *st->part_rc);
    return st->part_local && st->part_remote && st->part_mine && st->part_theirs &&
                   st->part_theirs_valid && st->part_rc ? 0 : -1;
}

/* Each end's side of a way (way 0: the client sends), and of its streams. */
static int sides(struct client *c, int way)
{
    struct ttcp_client_stream *st = &c->out->stream[way];
    int client_sends = way == 0, n = (int)c->local.streams, i;
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
    if (make_parts(st, n) != 0 || (n > 1 && (ttcp_interval_sum_init(&c->sums[way][0], n) != 0 ||
                                              ttcp_interval_sum_init(&c->sums[way][1], n) != 0)))
        return problem(c, TTCP_CLIENT_LOST, TT_E_NOMEM);
    for (i = 0; i < n; i++) {
        if (n > 1) {
            ttcp_parallel_stream_options(&st->local, i, &st->part_local[i]);
            ttcp_parallel_stream_options(&st->remote, i, &st->part_remote[i]);
        } else {
            st->part_local[i] = st->local;
            st->part_remote[i] = st->remote;
        }
    }
    return 0;
}

/* The streams side by side, a thread each, and the reader of the server's
 * frames; a stream that cannot get a thread runs on this one. */
static void run_streams(struct client *c, const tt_socket *socks)
{
    struct stream_task task[TTCP_STREAM_IDS];
    struct tt_thread *threads[TTCP_STREAM_IDS], *reader_t = NULL;
    struct reader_task reader = {c, 0};
    int i;

    for (i = 0; i < c->ids; i++)
        reader.streams += in_use(c, i);
    if (tt_thread_start(&reader_t, reader_thread, &reader) != 0)
        reader_t = NULL;
    if (c->local.udp) { /* UDP: our sockets are read now; the server may begin */
        struct ttcp_frame f;
        ttcp_frame_begin(&f, "go");
        ttcp_frame_end(&f);
        tt_mutex_lock(c->lock); /* a failure shows in the results that never come */
        ttcp_channel_send(c->control, &f);
        tt_mutex_unlock(c->lock);
    }
    for (i = 0; i < c->ids; i++) {
        threads[i] = NULL;
        if (!in_use(c, i))
            continue;
        task[i].c = c;
        task[i].id = i;
        task[i].sock = socks[i];
        if (tt_thread_start(&threads[i], stream_thread, &task[i]) != 0) {
            threads[i] = NULL;
            stream_thread(&task[i]);
        }
    }
    for (i = 0; i < c->ids; i++)
        if (threads[i] != NULL)
            tt_thread_join(threads[i]);
    if (reader_t != NULL)
        tt_thread_join(reader_t);
    else
        read_server(c, reader.streams);
}

/* Each way's figures from its streams': with one, that stream's (moved);
 * with -P, their totals. */
static void totals(struct client *c)
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
        if (st->n == 1) {
            st->mine = st->part_mine[0];
            st->theirs = st->part_theirs[0];
            memset(&st->part_mine[0].intervals, 0, sizeof st->part_mine[0].intervals);
            memset(&st->part_theirs[0].intervals, 0, sizeof st->part_theirs[0].intervals);
            continue;
        }
        ttcp_result_sum(&st->mine, st->part_mine, st->n);
        ttcp_result_sum_cpu(&st->mine, st->part_mine, st->n);
        st->mine.intervals = c->sums[way][1].total;
        memset(&c->sums[way][1].total, 0, sizeof c->sums[way][1].total);
        ttcp_result_sum(&st->theirs, st->part_theirs, st->n);
        ttcp_result_sum_cpu(&st->theirs, st->part_theirs, st->n);
        st->theirs.intervals = c->sums[way][0].total;
        memset(&c->sums[way][0].total, 0, sizeof c->sums[way][0].total);
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
            send_frame(c, &f);
        }
    ttcp_frame_begin(&f, "bye");
    ttcp_frame_end(&f);
    send_frame(c, &f);
}

/* -C -r -m: the receiving way's socket joins the group (on a port of its
 * own, which its token datagram tells the server) and stays unconnected. */
static int open_member(struct client *c, int id, tt_socket *out)
{
    struct tt_addr_list group;
    struct tt_addr any;
    int rc = tt_resolve(c->opts->group, 0, TT_FAMILY_ANY, 1, &group);
    snprintf(c->out->why, sizeof c->out->why, "cannot join the group %s", c->opts->group);
    c->out->failure.op = TTCP_OP_JOIN;
    if (rc == 0 && group.addr[0].family != c->server.family) {
        snprintf(c->out->why, sizeof c->out->why, "the group %s is not of the family of the "
                 "server's address (IPv4, IPv6)", c->opts->group);
        rc = TT_E_AFNOSUPPORT;
    }
    if (rc == 0)
        rc = tt_socket_open(group.addr[0].family, 1, out);
    if (rc == 0 && tt_addr_any(group.addr[0].family, 0, &any) == 0)
        rc = tt_bind(*out, &any);
    if (rc == 0)
        rc = tt_mcast_join(*out, &group.addr[0], NULL, c->opts->interface);
    if (rc != 0) {
        if (*out != TT_NO_SOCKET)
            tt_close(*out);
        *out = TT_NO_SOCKET;
        return problem(c, TTCP_CLIENT_LOCAL, rc);
    }
    c->unconnected[id] = 1;
    c->out->why[0] = '\0';
    return 0;
}

/* Every stream's socket: a data connection (TCP) or a UDP socket with its
 * token datagram answered. */
static int open_streams(struct client *c, tt_socket *socks)
{
    int i, rc = 0;
    for (i = 0; i < c->ids && rc == 0; i++) {
        if (!in_use(c, i))
            continue;
        if (c->local.udp && c->opts->group != NULL && i % 2 == 1) {
            rc = open_member(c, i, &socks[i]);
            continue;
        }
        if (c->local.udp) {
            rc = open_udp(c, &socks[i]);
            continue;
        }
        rc = open_data(c, i, &socks[i]);
        if (rc == 0) { /* a server that stalls ends the test after --idle-timeout */
            tt_setopt(socks[i], TT_OPT_RCVTIMEO_MS, (int)(c->local.idle_timeout_ns / 1000000));
            tt_setopt(socks[i], TT_OPT_SNDTIMEO_MS, (int)(c->local.idle_timeout_ns / 1000000));
        }
    }
    if (rc == 0 && c->local.udp)
        rc = agree_udp(c, socks);
    return rc;
}

static int converse(struct client *c)
{
    tt_socket socks[TTCP_STREAM_IDS];
    enum ttcp_direction d = ttcp_options_direction(c->opts);
    int i;

    for (i = 0; i < TTCP_STREAM_IDS; i++)
        socks[i] = TT_NO_SOCKET;
    if (connect_control(c) != 0 || greet(c) != 0 || request(c) != 0 ||
        (c->opts->traceroute && traces(c) != 0))
        return -1;
    c->ids = 2 * (int)c->local.streams;
    if ((d != TTCP_DIR_RECEIVE && sides(c, 0) != 0) || (d != TTCP_DIR_SEND && sides(c, 1) != 0))
        return -1;
    if (open_streams(c, socks) != 0) {
        for (i = 0; i < c->ids; i++)
            if (socks[i] != TT_NO_SOCKET)
                tt_close(socks[i]);
        return -1;
    }
    run_streams(c, socks);
    totals(c);
    farewell(c);
    return 0;
}

int ttcp_client_run(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                    struct ttcp_client_outcome *out)
{
    return ttcp_client_run_until(o, obs, out, 0);
}

int ttcp_client_run_until(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                          struct ttcp_client_outcome *out, int64_t deadline)
{
    struct client c;
    int rc = -1, i;

    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    c.deadline = deadline;
    c.opts = o;
    c.obs = obs;
    c.out = out;
    c.control = TT_NO_SOCKET;
    if (o->key_file != NULL &&
        ttcp_key_load(o->key_file, &c.key, out->why, sizeof out->why) != 0)
        return problem(&c, TTCP_CLIENT_KEY, 0);
    if (tt_mutex_new(&c.lock) != 0 || tt_mutex_new(&c.print_lock) != 0) {
        tt_mutex_free(c.lock);
        return problem(&c, TTCP_CLIENT_LOST, TT_E_NOMEM);
    }
    rc = converse(&c);
    if (c.control != TT_NO_SOCKET)
        tt_close(c.control);
    for (i = 0; i < 4; i++)
        ttcp_interval_sum_free(&c.sums[i / 2][i % 2]);
    tt_mutex_free(c.lock);
    tt_mutex_free(c.print_lock);
    ttcp_key_wipe(&c.key);
    return rc;
}

void ttcp_client_release(struct ttcp_client_outcome *out)
{
    int i, k;
    for (i = 0; i < 2; i++) {
        struct ttcp_client_stream *st = &out->stream[i];
        ttcp_result_release(&st->mine);
        ttcp_result_release(&st->theirs);
        for (k = 0; k < st->n; k++) {
            if (st->part_mine != NULL)
                ttcp_result_release(&st->part_mine[k]);
            if (st->part_theirs != NULL)
                ttcp_result_release(&st->part_theirs[k]);
        }
        free(st->part_local);
        free(st->part_remote);
        free(st->part_mine);
        free(st->part_theirs);
        free(st->part_theirs_valid);
        free(st->part_rc);
    }
}
