/* Other tools' clients (remote/peer.h, docs/DESIGN.md "Other tools'
 * protocols"): the slot a client of theirs runs in, and the services its
 * server end calls for its data connections, wherever they arrive (the
 * tools' own listening ports are server.c's). The tools' code is in src/peers/;
 * the server knows them only by the rows cli/ hands it. */
#include <stdio.h>
#include <string.h>

#include "server/internal.h"

#define WAIT_STEP_NS 10000000ll /* a service's look at what the gate attached */

void ttcp_peer_hand(struct ttcp_server *sv, const struct ttcp_peer *tool, tt_socket s,
                    const struct tt_addr *peer)
{
    struct slot *sl;
    if (sv->auth && !sv->opts->peers_keyless) { /* the tool cannot prove the key */
        ttcp_server_notice(sv, TTCP_NOTICE_AUTH_FAILED, peer);
        if (tool->refuse != NULL)
            tool->refuse(s, 0);
        tt_close(s);
        return;
    }
    sl = ttcp_server_claim(sv, SLOT_PEER);
    if (sl == NULL) {
        ttcp_server_notice(sv, TTCP_NOTICE_BUSY, peer);
        if (tool->refuse != NULL)
            tool->refuse(s, 1);
        tt_close(s);
        return;
    }
    sl->control = s;
    sl->peer = *peer;
    sl->tool = tool;
    ttcp_server_launch(sv, sl);
}

/* Under the lock: the slot waits for one more data connection. */
static int waits(const struct slot *sl, const struct ttcp_peer *tool, int on_shared)
{
    return sl->kind == SLOT_PEER && !sl->done && sl->data_got < sl->data_want &&
           sl->on_shared == on_shared && (tool == NULL || sl->tool == tool);
}

int ttcp_peer_attach_key(struct ttcp_server *sv, const struct ttcp_peer *tool,
                         const unsigned char *head, tt_socket s, const struct tt_addr *peer)
{
    unsigned char key[TTCP_PEER_KEY_MAX];
    int i, rc = -1;
    tt_mutex_lock(sv->lock);
    for (i = 0; i < SLOTS_MAX && rc != 0; i++) {
        struct slot *sl = &sv->slots[i];
        if (!waits(sl, tool, 0) || memcmp(sl->key, head, tool->key_len) != 0)
            continue;
        if (!ttcp_same_ip(&sl->peer, peer)) /* only from where the client is */
            break;
        /* the key is queued already (the gate peeked it): taken at once */
        if (tt_recv(s, key, tool->key_len) != (int64_t)tool->key_len)
            break;
        sl->data_in[sl->data_got++] = s;
        rc = 0;
    }
    tt_mutex_unlock(sv->lock);
    return rc;
}

int ttcp_peer_attach_shared(struct ttcp_server *sv, tt_socket s, const struct tt_addr *peer)
{
    int i, rc = -1;
    tt_mutex_lock(sv->lock);
    for (i = 0; i < SLOTS_MAX && rc != 0; i++) {
        struct slot *sl = &sv->slots[i];
        if (waits(sl, NULL, 1) && ttcp_same_ip(&sl->peer, peer)) {
            sl->data_in[sl->data_got++] = s;
            rc = 0;
        }
    }
    tt_mutex_unlock(sv->lock);
    return rc;
}

/* Waits until the gate has attached n connections to the slot, or the
 * deadline: 0, or -1 with those that came closed. */
static int wait_attached(struct slot *sl, int n, int64_t deadline)
{
    struct ttcp_server *sv = sl->server;
    int got, i, over;
    for (;;) {
        tt_mutex_lock(sv->lock);
        got = sl->data_got;
        over = got == n || tt_now_ns() >= deadline || tt_interrupted();
        if (over)
            sl->data_want = 0; /* the gate gives no more */
        tt_mutex_unlock(sv->lock);
        if (got == n)
            return 0;
        if (over)
            break;
        tt_sleep_ns(WAIT_STEP_NS);
    }
    for (i = 0; i < got; i++)
        tt_close(sl->data_in[i]);
    return -1;
}

/* Arms the slot for n data connections into socks. */
static void expect(struct slot *sl, const unsigned char *key, size_t key_len, int on_shared,
                   int n, tt_socket *socks)
{
    tt_mutex_lock(sl->server->lock);
    memset(sl->key, 0, sizeof sl->key);
    if (key != NULL)
        memcpy(sl->key, key, key_len);
    sl->on_shared = on_shared;
    sl->data_in = socks;
    sl->data_got = 0;
    sl->data_want = n;
    tt_mutex_unlock(sl->server->lock);
}

static void expect_data(struct ttcp_peer_serving *s, const unsigned char *key, int n,
                        tt_socket *socks)
{
    struct slot *sl = s->slot;
    if (n > 0 && sl->tool->key_len != 0 && sl->tool->key_len <= TTCP_PEER_KEY_MAX)
        expect(sl, key, sl->tool->key_len, 0, n, socks);
}

static int take_data(struct ttcp_peer_serving *s, const unsigned char *key, int n,
                     int64_t deadline, tt_socket *socks)
{
    struct slot *sl = s->slot;
    int armed;
    if (n <= 0 || sl->tool->key_len == 0 || sl->tool->key_len > TTCP_PEER_KEY_MAX)
        return -1;
    tt_mutex_lock(sl->server->lock); /* expect_data's, with what came since kept */
    armed = sl->data_in == socks && sl->data_want == n && !sl->on_shared &&
            memcmp(sl->key, key, sl->tool->key_len) == 0;
    tt_mutex_unlock(sl->server->lock);
    if (!armed)
        expect(sl, key, sl->tool->key_len, 0, n, socks);
    return wait_attached(sl, n, deadline);
}

/* A listener of the test's own on port, at the address the client
 * reached: n connections from the client's address. */
static int accept_own(struct ttcp_peer_serving *s, uint64_t port, int n, int64_t deadline,
                      tt_socket *socks, int *code)
{
    struct tt_addr local, from;
    tt_socket listener, conn;
    int got = 0, rc;
    if ((rc = tt_local_addr(s->control, &local)) == 0 &&
        (rc = tt_socket_open(local.family, 0, &listener)) == 0) {
        tt_setopt(listener, TT_OPT_REUSEADDR, 1);
        tt_addr_set_port(&local, (uint16_t)port);
        if ((rc = tt_bind(listener, &local)) == 0 && (rc = tt_listen(listener, n)) == 0)
            while (got < n && !tt_interrupted()) {
                int64_t left_ms = (deadline - tt_now_ns()) / 1000000;
                if (left_ms <= 0) {
                    rc = TT_E_TIMEDOUT;
                    break;
                }
                if (tt_wait_readable(listener, left_ms > 100 ? 100 : (int)left_ms) <= 0 ||
                    tt_accept(listener, &conn, &from) != 0)
                    continue;
                if (ttcp_same_ip(&from, &s->client))
                    socks[got++] = conn;
                else
                    tt_close(conn); /* the test's data comes from its client only */
            }
        tt_close(listener);
    }
    if (got == n)
        return 0;
    while (got > 0)
        tt_close(socks[--got]);
    *code = rc != 0 ? rc : TT_E_TIMEDOUT;
    return -1;
}

static int accept_data(struct ttcp_peer_serving *s, uint64_t port, int n, int64_t deadline,
                       tt_socket *socks, int *code)
{
    struct slot *sl = s->slot;
    *code = 0;
    if (n <= 0 || port == 0 || port > 65535) {
        *code = TT_E_INVAL;
        return -1;
    }
    if (port != sl->server->opts->port)
        return accept_own(s, port, n, deadline, socks, code);
    expect(sl, NULL, 0, 1, n, socks); /* the shared listener's: the gate tells them apart */
    if (wait_attached(sl, n, deadline) == 0)
        return 0;
    *code = TT_E_TIMEDOUT;
    return -1;
}

int ttcp_peer_attach_udp(struct ttcp_server *sv, const struct tt_addr *from)
{
    int i, rc = -1;
    tt_mutex_lock(sv->lock);
    for (i = 0; i < SLOTS_MAX && rc != 0; i++) {
        struct slot *sl = &sv->slots[i];
        if (sl->kind == SLOT_PEER && !sl->done && sl->udp_wait && !sl->udp_got &&
            ttcp_same_ip(&sl->peer, from)) {
            sl->udp_from = *from;
            sl->udp_got = 1;
            rc = 0;
        }
    }
    tt_mutex_unlock(sv->lock);
    return rc;
}

/* A UDP socket on port at the address the client reached (shared: beside
 * the classic receiver's, which a connected one outranks). */
static int udp_socket(struct ttcp_peer_serving *s, uint64_t port, int shared, tt_socket *out)
{
    struct tt_addr local;
    int rc = tt_local_addr(s->control, &local), family = s->server->family;
    if (rc == 0 && local.family == TT_FAMILY_V4)
        family = TT_FAMILY_V4; /* else the server's: a dual-stack one binds IPv4-mapped */
    if (rc == 0 && (rc = tt_socket_open(family, 1, out)) == 0) {
        if (shared)
            tt_setopt(*out, TT_OPT_SHARE_PORT, 1);
        tt_addr_set_port(&local, (uint16_t)port);
        if ((rc = tt_bind(*out, &local)) != 0) {
            tt_close(*out);
            *out = TT_NO_SOCKET;
        }
    }
    return rc;
}

/* Waits for the gate's note of the client's first datagram on the shared
 * port: 0 with *from, or -1 at the deadline. */
static int await_udp(struct slot *sl, int64_t deadline, struct tt_addr *from)
{
    struct ttcp_server *sv = sl->server;
    int got = 0;
    tt_mutex_lock(sv->lock);
    sl->udp_wait = 1;
    sl->udp_got = 0;
    tt_mutex_unlock(sv->lock);
    while (!got && tt_now_ns() < deadline && !tt_interrupted()) {
        tt_sleep_ns(WAIT_STEP_NS);
        tt_mutex_lock(sv->lock);
        got = sl->udp_got;
        tt_mutex_unlock(sv->lock);
    }
    tt_mutex_lock(sv->lock);
    got = sl->udp_got;
    *from = sl->udp_from;
    sl->udp_wait = sl->udp_got = 0;
    tt_mutex_unlock(sv->lock);
    return got ? 0 : -1;
}

static int udp_data(struct ttcp_peer_serving *s, uint64_t port, int64_t deadline,
                    tt_socket *sock, struct tt_addr *from, int *code)
{
    struct slot *sl = s->slot;
    *from = s->client;
    *sock = TT_NO_SOCKET;
    *code = 0;
    if (port == 0 || port > 65535) {
        *code = TT_E_INVAL;
        return -1;
    }
    if (port != sl->server->opts->port) /* a port of its own: unconnected */
        return (*code = udp_socket(s, port, 0, sock)) == 0 ? 0 : -1;
    if (await_udp(sl, deadline, from) != 0) {
        *code = TT_E_TIMEDOUT;
        return -1;
    }
    if ((*code = udp_socket(s, port, 1, sock)) == 0 && (*code = tt_connect(*sock, from)) != 0) {
        tt_close(*sock);
        *sock = TT_NO_SOCKET;
    }
    return *code == 0 ? 0 : -1;
}

static int udp_prior(struct ttcp_peer_serving *s, const struct tt_datagram **prior)
{
    return ttcp_peer_udp_prior(s->slot, prior);
}

static void begun(struct ttcp_peer_serving *s)
{
    struct slot *sl = s->slot;
    ttcp_server_begun(sl->server);
}

void ttcp_peer_run(struct slot *sl)
{
    struct ttcp_peer_serving s;
    memset(&s, 0, sizeof s);
    s.peer = sl->tool;
    s.control = sl->control;
    s.client = sl->peer;
    s.server = sl->server->opts;
    s.obs = sl->server->obs;
    s.slot = sl;
    s.begun = begun;
    s.take_data = take_data;
    s.expect_data = expect_data;
    s.accept_data = accept_data;
    s.udp_data = udp_data;
    s.udp_prior = udp_prior;
    if (sl->udp_flow) { /* a client of datagrams alone (peer_udp.c) */
        sl->tool->serve_udp(&s);
        ttcp_peer_udp_ended(sl->server, &sl->peer);
    } else {
        sl->tool->serve(&s);
    }
    sl->control = s.control; /* TT_NO_SOCKET: the serve handed it to a run, which closed it */
    tt_mutex_lock(sl->server->lock);
    sl->data_want = 0; /* nothing more is attached to a test that ended */
    sl->udp_wait = 0;
    tt_mutex_unlock(sl->server->lock);
}
