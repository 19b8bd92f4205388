/* The server's frame: the listener, the classic tests (TCP on the
 * listener, UDP on the same port), and the loop that goes round until
 * Ctrl+C, or -1's test is done. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/local.h"
#include "engine/run.h"
#include "server/internal.h"

#define ROUND_MS 100
#define LISTEN_BACKLOG 128 /* a burst of clients waits in the kernel, not refused */
#define UDP_LANE_PAUSE_NS 200000000ll

/* Options the server's own side of a classic test runs with: a receiver
 * as `ttcp -r -s` with the server's -l and limits. */
static void classic_options(const struct ttcp_options *server, struct ttcp_options *o)
{
    *o = *server;
    o->mode = TTCP_MODE_CLASSIC;
    o->transmit = 0;
    o->sinkmode = 1;
    o->limit_ns = server->max_time_ns;
    if (server->max_rate_bps)
        o->pace_bps = server->max_rate_bps;
}

/* Forwards a test's progress with the options its side runs with. */
struct side_observer {
    struct ttcp_server *sv;
    const struct ttcp_server_observer *obs;
    const struct ttcp_options *opts;
};

/* A client's UDP datagram on the shared port: magic, then one frame,
 * `msg=udp token=... stream=N`, or --latency's `msg=probe token=...`;
 * anything else there is dropped. */
static void token_datagram(struct ttcp_server *sv, const struct tt_datagram *d)
{
    const unsigned char *frame = d->buf + TTCP_PROTO_MAGIC_LEN;
    size_t left = d->len - TTCP_PROTO_MAGIC_LEN;
    struct ttcp_message m;
    char why[160], probe_token[TTCP_TOKEN_HEX + 1];
    const char *token;
    uint64_t stream;
    int len;
    if (d->len > TTCP_PROTO_MAGIC_LEN + TTCP_PROTO_LENGTH_LEN + TTCP_PROTO_BODY_MAX)
        return; /* longer than any frame (and perhaps cut short by the buffer) */
    if (left < TTCP_PROTO_LENGTH_LEN || (len = ttcp_proto_frame_length(frame)) < 0 ||
        (size_t)len != left - TTCP_PROTO_LENGTH_LEN ||
        ttcp_proto_parse(frame + TTCP_PROTO_LENGTH_LEN, (size_t)len, &m, why, sizeof why) != 0)
        return;
    if (ttcp_probe_read_hello(&m, probe_token)) {
        ttcp_server_attach_probe(sv, probe_token, &d->from);
        return;
    }
    if (strcmp(ttcp_proto_type(&m), "udp") != 0 || (token = ttcp_proto_get(&m, "token")) == NULL ||
        !ttcp_wire_token_ok(token) ||
        ttcp_proto_get_u64(&m, "stream", 0, TTCP_STREAM_IDS - 1, &stream, why, sizeof why) != 0)
        return;
    ttcp_server_attach_udp(sv, token, (int)stream, &d->from);
}

/* The UDP port's datagrams before the classic receiver counts them: a
 * client's token is the server's; a sender --allow keeps out is dropped. */
static int lane_claim(void *ctx, const struct tt_datagram *d)
{
    struct side_observer *so = ctx;
    if (ttcp_proto_is_magic(d->buf, d->len)) {
        token_datagram(so->sv, d);
        return 1;
    }
    if (ttcp_probe_echoable(d->buf, d->len))
        return 1; /* a --latency probe after its test's echo socket closed: no classic test */
    if (!ttcp_allow_match(&so->sv->allow, &d->from))
        return 1;
    if (ttcp_peer_claim_udp(so->sv, d)) /* another tool's client of datagrams alone */
        return 1;
    return ttcp_peer_attach_udp(so->sv, &d->from) == 0; /* another tool's test's */
}

static void forward_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct side_observer *so = ctx;
    if (so->opts->udp && (ev->kind == TTCP_EV_READY || ev->kind == TTCP_EV_SOCKET))
        return; /* the UDP port's receiver is always there: its setup is no news */
    if (ev->kind == TTCP_EV_FAILED)
        so->obs->failed(so->obs->ctx, so->opts, res);
    else
        so->obs->event(so->obs->ctx, so->opts, ev, res);
}

static void run_classic(struct slot *sl)
{
    struct ttcp_options o;
    struct side_observer so;
    struct ttcp_observer obs = {forward_event, &so, NULL, NULL};
    struct ttcp_result res;
    ttcp_server_begun(sl->server);
    classic_options(sl->server->opts, &o);
    if (sl->server->inetd_port > 0)
        o.port = (uint64_t)sl->server->inetd_port; /* the header's port= is inetd's */
    so.sv = sl->server;
    so.obs = sl->server->obs;
    so.opts = &o;
    /* a transmitter that stalls ends its test after --idle-timeout */
    tt_setopt(sl->control, TT_OPT_RCVTIMEO_MS, (int)(o.idle_timeout_ns / 1000000));
    if (ttcp_run_on(&o, &obs, &res, sl->control, &sl->peer, TTCP_RUN_ACCEPTED) != 0)
        so.obs->failed(so.obs->ctx, &o, &res);
    sl->control = TT_NO_SOCKET; /* closed by the run */
    ttcp_result_release(&res);
}

/* Classic UDP transmitters on the same port: a `ttcp -r -u -s -c` of its own. */
struct udp_lane {
    struct ttcp_options opts;
    struct side_observer so;
};

/* The server is done (-1's test over): the lane ends as after Ctrl+C. */
static int lane_stop(void *ctx)
{
    struct side_observer *so = ctx;
    int done;
    tt_mutex_lock(so->sv->lock);
    done = so->sv->stopping;
    tt_mutex_unlock(so->sv->lock);
    return done;
}

static void udp_lane(void *arg)
{
    struct udp_lane *lane = arg;
    struct ttcp_observer obs = {forward_event, &lane->so, lane_stop, lane_claim};
    struct ttcp_result res;
    tt_socket given = lane->so.sv->udp; /* systemd's, kept from test to test */
    while (!tt_interrupted() && !lane_stop(&lane->so)) {
        int rc = given != TT_NO_SOCKET ? ttcp_run_on(&lane->opts, &obs, &res, given, NULL,
                                                     TTCP_RUN_KEEP_SOCKET)
                                       : ttcp_run(&lane->opts, &obs, &res);
        int setup_failed = rc != 0 && !res.started;
        if (rc != 0 && !tt_interrupted() && !lane_stop(&lane->so))
            lane->so.obs->failed(lane->so.obs->ctx, &lane->opts, &res);
        ttcp_result_release(&res);
        if (setup_failed)
            return; /* the port cannot be had for UDP (said once): TCP goes on */
        tt_sleep_ns(UDP_LANE_PAUSE_NS);
    }
}

int ttcp_server_listen(struct ttcp_server *sv, uint64_t port, tt_socket *out,
                       struct ttcp_failure *failure)
{
    struct tt_addr local;
    int family = sv->opts->family, rc;
    failure->op = TTCP_OP_BIND;
    if (sv->opts->bind != NULL &&
        (rc = ttcp_local_address(sv->opts, &family, (uint16_t)port, &local)) != 0)
        return rc;
    failure->op = TTCP_OP_SOCKET;
    rc = tt_socket_open(family, 0, out);
    if (rc == TT_E_AFNOSUPPORT && family == TT_FAMILY_ANY) {
        family = TT_FAMILY_V4;
        rc = tt_socket_open(family, 0, out);
    }
    if (rc != 0)
        return rc;
    tt_setopt(*out, TT_OPT_REUSEADDR, 1);
    if (sv->opts->bind == NULL)
        tt_addr_any(family, (uint16_t)port, &local);
    failure->op = TTCP_OP_BIND;
    rc = tt_bind(*out, &local);
    if (rc == 0) {
        failure->op = TTCP_OP_LISTEN;
        rc = tt_listen(*out, LISTEN_BACKLOG);
    }
    if (rc != 0) {
        failure->native = tt_last_error();
        tt_close(*out);
        *out = TT_NO_SOCKET;
    }
    return rc;
}

/* Other tools' own ports (remote/peer.h): a port not typed that cannot be
 * had is told to the observer and left out. */
static int open_lanes(struct ttcp_server *sv, struct ttcp_failure *failure, char *why,
                         size_t why_len)
{
    size_t i;
    for (i = 0; i < sv->obs->peer_count && sv->lanes < PEER_LANES_MAX; i++) {
        const struct ttcp_peer *tool = &sv->obs->peers[i];
        int typed = 0, rc;
        uint64_t port = tool->serve != NULL && tool->port != NULL ? tool->port(sv->opts, &typed)
                                                                  : 0;
        struct ttcp_failure lane_failure;
        if (port == 0)
            continue;
        memset(&lane_failure, 0, sizeof lane_failure);
        rc = ttcp_server_listen(sv, port, &sv->lane[sv->lanes], &lane_failure);
        if (rc != 0 && typed) { /* asked for by name: the server does not start without it */
            *failure = lane_failure;
            snprintf(why, why_len, "--%s-port %llu: the port cannot be had", tool->name,
                     (unsigned long long)port);
            return rc;
        }
        if (sv->obs->peer_port != NULL)
            sv->obs->peer_port(sv->obs->ctx, tool->name, port, rc, lane_failure.native);
        if (rc == 0)
            sv->lane_tool[sv->lanes++] = tool;
    }
    return 0;
}

static void close_lanes(struct ttcp_server *sv)
{
    int i;
    for (i = 0; i < sv->lanes; i++)
        tt_close(sv->lane[i]);
    sv->lanes = 0;
}

/* Where the connections come from: inetd's one on stdin, the sockets
 * systemd opened (LISTEN_FDS), or a listener of the server's own. */
static int take_sockets(struct ttcp_server *sv, struct ttcp_failure *failure, char *why,
                        size_t why_len)
{
    const char *bad = NULL;
    int port = 0, rc;
    if (sv->opts->inetd) {
        failure->op = TTCP_OP_SOCKET;
        rc = tt_stdin_socket(&sv->inetd, &sv->inetd_peer, &sv->inetd_port);
        if (rc == TT_E_UNSUPPORTED || rc == TT_E_INVAL) {
            snprintf(why, why_len, rc == TT_E_INVAL ? "--inetd: stdin is not a TCP connection "
                     "(inetd hands one over with a stream nowait service)" : "--inetd: not "
                     "supported on this system (run ttcp -S as a service instead)");
            return TT_E_INVAL;
        }
        return rc;
    }
    rc = tt_inherited_sockets(&sv->listener, &sv->udp, &port, &bad);
    if (rc == TT_E_INVAL) {
        snprintf(why, why_len, "%s", bad);
        return rc;
    }
    if (rc > 0 && (uint64_t)port != sv->opts->port) {
        /* the tests' own UDP sockets and the notices go by -p */
        snprintf(why, why_len, "LISTEN_FDS: the sockets are on port %d: give ttcp -S -p %d",
                 port, port);
        return TT_E_INVAL;
    }
    return rc > 0 ? 0 : ttcp_server_listen(sv, sv->opts->port, &sv->listener, failure);
}

static int setup(struct ttcp_server *sv, struct ttcp_failure *failure, char *why, size_t why_len)
{
    int rc;
    if (ttcp_allow_parse(sv->opts, &sv->allow, why, why_len) != 0 ||
        ttcp_third_party_parse(sv->opts, &sv->third, why, why_len) != 0)
        return TT_E_INVAL;
    if (sv->opts->key_file != NULL) {
        unsigned char probe[TT_HMAC_LEN], msg = 0;
        if (ttcp_key_load(sv->opts->key_file, &sv->key, why, why_len) != 0)
            return TT_E_INVAL;
        if (tt_hmac_sha256(sv->key.bytes, sv->key.len, &msg, 1, probe) != 0) {
            snprintf(why, why_len, "--key-file: this build has no HMAC-SHA256 (libsodium)");
            return TT_E_INVAL;
        }
        sv->auth = 1;
    }
    rc = tt_mutex_new(&sv->lock);
    if (rc == 0)
        rc = take_sockets(sv, failure, why, why_len);
    if (rc == 0) /* first: a build without it says so before any other port's line */
        rc = ttcp_server_web_start(sv, failure, why, why_len);
    if (rc == 0 && !sv->opts->inetd)
        rc = open_lanes(sv, failure, why, why_len);
    if (rc == TT_E_INVAL && why[0] != '\0')
        return rc;
    if (rc != 0) {
        failure->code = rc;
        if (failure->native == 0) /* else the listener's own, read before its close */
            failure->native = tt_last_error();
    }
    return rc;
}

static void serve_rounds(struct ttcp_server *sv, struct gate *g)
{
    for (;;) {
        int running = ttcp_server_reap(sv);
        if (tt_interrupted())
            break;
        if (sv->opts->once && sv->started && running == 0)
            break;
        if (sv->opts->inetd && ttcp_gate_count(g) == 0 && running == 0)
            break; /* its one connection: a test done, handed on, or closed */
        ttcp_gate_round(g, ROUND_MS);
    }
    while (ttcp_server_reap(sv) > 0) /* Ctrl+C: the tests end with their figures */
        tt_sleep_ns(ROUND_MS * 1000000ll);
}

/* The classic UDP receiver on the port, on a thread of its own: NULL (and
 * no thread) when memory or a thread cannot be had; TCP goes on. */
static struct udp_lane *start_udp_lane(struct ttcp_server *sv, struct tt_thread **thread)
{
    struct udp_lane *lane = calloc(1, sizeof *lane);
    *thread = NULL;
    if (lane == NULL)
        return NULL;
    classic_options(sv->opts, &lane->opts);
    lane->opts.udp = 1;
    lane->opts.continuous = 1;
    lane->opts.buflen = TTCP_UDP_MAX_BUFLEN; /* whatever a transmitter's -l */
    lane->opts.share_port = 1;
    lane->so.sv = sv;
    lane->so.obs = sv->obs;
    lane->so.opts = &lane->opts;
    if (tt_thread_start(thread, udp_lane, lane) != 0)
        *thread = NULL;
    return lane;
}

/* The end: the sockets closed, the UDP lane stopped and joined, the key
 * wiped, the memory freed. */
static void finish(struct ttcp_server *sv, struct udp_lane *lane, struct tt_thread *lane_thread)
{
    if (sv->listener != TT_NO_SOCKET)
        tt_close(sv->listener);
    close_lanes(sv);
    if (sv->inetd != TT_NO_SOCKET)
        tt_close(sv->inetd);
    if (lane_thread != NULL) {
        tt_mutex_lock(sv->lock);
        sv->stopping = 1;
        tt_mutex_unlock(sv->lock);
        tt_thread_join(lane_thread); /* within a receive poll: 0.25 s */
    }
    if (sv->udp != TT_NO_SOCKET)
        tt_close(sv->udp);
    ttcp_key_wipe(&sv->key);
    tt_mutex_free(sv->lock);
    free(lane);
    free(sv);
}

int ttcp_serve(const struct ttcp_options *o, const struct ttcp_server_observer *obs,
               struct ttcp_failure *failure, char *why, size_t why_len)
{
    struct ttcp_server *sv = calloc(1, sizeof *sv);
    struct udp_lane *lane = NULL;
    struct tt_thread *lane_thread = NULL;
    struct gate *g = NULL;
    int rc;

    memset(failure, 0, sizeof *failure);
    if (sv == NULL)
        return failure->code = TT_E_NOMEM;
    sv->opts = o;
    sv->obs = obs;
    sv->listener = TT_NO_SOCKET;
    sv->udp = TT_NO_SOCKET;
    sv->inetd = TT_NO_SOCKET;
    sv->run[SLOT_CLASSIC] = run_classic;
    sv->run[SLOT_CONTROL] = ttcp_control_run;
    sv->run[SLOT_PEER] = ttcp_peer_run;
    sv->run[SLOT_WEB] = ttcp_web_run;
    rc = setup(sv, failure, why, why_len);
    if (rc == 0 && (g = ttcp_gate_new(sv)) == NULL)
        rc = failure->code = TT_E_NOMEM;
    if (rc == 0 && o->inetd) { /* its one connection; no UDP port of its own */
        ttcp_gate_admit(g, sv->inetd, &sv->inetd_peer);
        sv->inetd = TT_NO_SOCKET;
    }
    if (rc == 0 && !o->inetd)
        lane = start_udp_lane(sv, &lane_thread);
    if (rc == 0) {
        if (!o->inetd)
            ttcp_server_notice(sv, TTCP_NOTICE_LISTENING, NULL);
        serve_rounds(sv, g);
    }
    ttcp_server_web_stop(sv);
    ttcp_gate_free(g);
    finish(sv, lane, lane_thread);
    return rc;
}
