/* The connections still opening: accepted, not yet a test. Each is read
 * without waiting, one round at a time, so that no number of them, idle
 * or slow, holds a thread or a client slot (docs/PROTOCOL.md, section 4).
 * On the shared port the first bytes decide: the magic (0xFF first) opens
 * a controlled connection, whose first frame (hello, or a data
 * connection's token) is read here too; a connection from a client whose
 * tool's test waits for its data here is that test's; an opening another
 * tool's row recognises is that tool's client; anything else is a
 * classic transmitter, handed on with nothing read. On a tool's own port
 * (remote/peer.h) a waiting test's key makes a data connection, anything
 * else is a client of the tool (peer.c). */
#include <stdlib.h>
#include <string.h>

#include "server/internal.h"

#define FRAME_MAX (TTCP_PROTO_LENGTH_LEN + TTCP_PROTO_BODY_MAX)
#define ACCEPTS_PER_ROUND 64
#define PEEK_MAX 256 /* the first bytes looked at: ttcp's magic, a tool's opening (iperf2's
                      * header is at most 255) */

/* P_FIRST: nothing read yet; P_FRAME: the magic came, the first frame is read;
 * P_AUTH: a client was welcomed, its auth frame is read (--key-file). */
enum pending_state { P_FIRST, P_FRAME, P_AUTH };

struct pending {
    tt_socket sock;
    struct tt_addr peer;
    const struct ttcp_peer *lane; /* accepted on this tool's own port; NULL: the shared one */
    int64_t opened_ns;     /* accepted */
    int64_t deadline_ns;
    enum pending_state state;
    int partial;           /* P_FIRST: part of a magic came; looked at each round, not polled
                            * (its queued bytes would wake every poll) */
    size_t got;            /* P_FRAME, P_AUTH: bytes of the frame so far */
    char nonce[TTCP_NONCE_HEX + 1]; /* P_AUTH: the challenge sent in welcome */
    unsigned char frame[FRAME_MAX];
};

struct gate {
    struct ttcp_server *sv;
    /* in the order they were accepted, kept so when one leaves: a tool that tells its
     * streams apart by the order they connect in (iperf3's stream ids, and with --bidir
     * which way each runs) has them attached in that order */
    struct pending *list[PENDING_MAX];
    int count;
    struct ttcp_message msg; /* the frame being looked at */
};

struct gate *ttcp_gate_new(struct ttcp_server *sv)
{
    struct gate *g = calloc(1, sizeof *g);
    if (g != NULL)
        g->sv = sv;
    return g;
}

static void drop(struct gate *g, int i, enum ttcp_notice why, int close_it)
{
    struct pending *p = g->list[i];
    if (why != TTCP_NOTICE_COUNT)
        ttcp_server_notice(g->sv, why, &p->peer);
    if (close_it)
        tt_close(p->sock);
    free(p);
    g->count--;
    memmove(&g->list[i], &g->list[i + 1], (size_t)(g->count - i) * sizeof g->list[0]);
}

void ttcp_gate_free(struct gate *g)
{
    if (g == NULL)
        return;
    while (g->count > 0)
        drop(g, 0, TTCP_NOTICE_COUNT, 1);
    free(g);
}

/* A short answer to a connection that is turned away (busy, an error). */
static void answer(tt_socket s, const char *type, const char *reason, const char *message)
{
    struct ttcp_frame f;
    ttcp_frame_begin(&f, type);
    if (reason != NULL)
        ttcp_frame_add(&f, "reason", reason);
    if (message != NULL)
        ttcp_frame_add(&f, "message", message);
    if (ttcp_frame_end(&f) == 0)
        tt_send(s, f.bytes, f.len); /* the far end may be gone: nothing to do then */
}

int ttcp_gate_count(const struct gate *g)
{
    return g->count;
}

static void admit(struct gate *g, tt_socket s, const struct tt_addr *from,
                  const struct ttcp_peer *lane);

static void accept_one(struct gate *g, tt_socket listener, const struct ttcp_peer *lane)
{
    tt_socket s;
    struct tt_addr peer;
    if (tt_accept(listener, &s, &peer) == 0)
        admit(g, s, &peer, lane);
}

void ttcp_gate_admit(struct gate *g, tt_socket s, const struct tt_addr *from)
{
    admit(g, s, from, NULL);
}

/* A new connection, on the shared port (lane NULL) or a tool's own. */
static void admit(struct gate *g, tt_socket s, const struct tt_addr *from,
                  const struct ttcp_peer *lane)
{
    struct ttcp_server *sv = g->sv;
    struct tt_addr peer = *from;
    struct pending *p;

    if (!ttcp_allow_match(&sv->allow, &peer)) {
        ttcp_server_notice(sv, TTCP_NOTICE_NOT_ALLOWED, &peer);
        /* a client learns why; a classic transmitter reads nothing, and is closed all the same */
        answer(s, "error", "allow", "this server does not take connections from your address");
        tt_close(s);
        return;
    }
    if (g->count == PENDING_MAX)
        drop(g, 0, TTCP_NOTICE_CROWDED, 1); /* the oldest: a flood cannot fill the gate for good */
    p = malloc(sizeof *p);
    if (p == NULL) {
        tt_close(s);
        return;
    }
    p->sock = s;
    p->peer = peer;
    p->lane = lane;
    p->opened_ns = tt_now_ns();
    p->deadline_ns = p->opened_ns + g->sv->opts->idle_timeout_ns;
    p->state = P_FIRST;
    p->partial = 0;
    p->got = 0;
    p->nonce[0] = '\0';
    tt_setopt(s, TT_OPT_SNDTIMEO_MS, 1000); /* the few frames sent from here never wait */
    g->list[g->count++] = p;
}

/* A classic transmitter: a test of its own, nothing read from it yet. */
static void hand_classic(struct gate *g, int i)
{
    struct slot *sl = ttcp_server_claim(g->sv, SLOT_CLASSIC);
    struct pending *p = g->list[i];
    if (sl == NULL) {
        drop(g, i, TTCP_NOTICE_BUSY, 1); /* a classic peer cannot be told why */
        return;
    }
    sl->control = p->sock;
    sl->peer = p->peer;
    drop(g, i, TTCP_NOTICE_COUNT, 0);
    ttcp_server_launch(g->sv, sl);
}

/* A partial opening waits no longer than a hello does. */
static void wait_for_more(struct gate *g, struct pending *p)
{
    if (p->deadline_ns > p->opened_ns + HELLO_NS)
        p->deadline_ns = p->opened_ns + HELLO_NS;
    p->partial = 1;
    (void)g;
}

/* P_FIRST on a tool's own port: a waiting test's data connection (its
 * key first), or a client of the tool. */
static void look_lane(struct gate *g, int i)
{
    struct pending *p = g->list[i];
    const struct ttcp_peer *tool = p->lane;
    unsigned char head[TTCP_PEER_KEY_MAX];
    size_t need = tool->key_len ? tool->key_len : 1;
    int64_t n;
    if (need > sizeof head) /* a row whose key no test could hold: every one a client */
        need = 1;
    n = tt_recv_peek(p->sock, head, need);
    if (n == TT_E_AGAIN)
        return;
    if (n <= 0) {
        drop(g, i, TTCP_NOTICE_COUNT, 1);
        return;
    }
    if ((size_t)n < need) {
        wait_for_more(g, p);
        return;
    }
    if (tool->key_len && tool->key_len <= sizeof head &&
        ttcp_peer_attach_key(g->sv, tool, head, p->sock, &p->peer) == 0) {
        drop(g, i, TTCP_NOTICE_COUNT, 0);
        return;
    }
    ttcp_peer_hand(g->sv, tool, p->sock, &p->peer);
    drop(g, i, TTCP_NOTICE_COUNT, 0);
}

/* The shared port's first bytes, not ttcp's magic: a tool's opening
 * (YES), perhaps one (MORE: wait), or classic data (NULL, *more 0). */
static const struct ttcp_peer *recognise(const struct gate *g, const unsigned char *head,
                                         size_t n, int *more)
{
    const struct ttcp_server_observer *obs = g->sv->obs;
    size_t k;
    *more = 0;
    for (k = 0; k < obs->peer_count; k++) {
        const struct ttcp_peer *tool = &obs->peers[k];
        enum ttcp_peer_verdict v;
        if (tool->serve == NULL || tool->recognise == NULL)
            continue;
        v = tool->recognise(head, n);
        if (v == TTCP_PEER_YES)
            return tool;
        if (v == TTCP_PEER_MORE && n < tool->recognise_len)
            *more = 1;
    }
    return NULL;
}

/* Not ttcp's: a data connection a tool's test waits for on this port, a
 * tool's client, or a classic transmitter. */
static void look_shared(struct gate *g, int i, const unsigned char *head, size_t n)
{
    struct pending *p = g->list[i];
    const struct ttcp_peer *tool;
    int more;
    if (ttcp_peer_attach_shared(g->sv, p->sock, &p->peer) == 0) {
        drop(g, i, TTCP_NOTICE_COUNT, 0);
        return;
    }
    tool = recognise(g, head, n, &more);
    if (tool != NULL) {
        ttcp_peer_hand(g->sv, tool, p->sock, &p->peer);
        drop(g, i, TTCP_NOTICE_COUNT, 0);
    } else if (more) {
        wait_for_more(g, p);
    } else {
        hand_classic(g, i);
    }
}

/* P_FIRST: looks at what has come without taking it. */
static void look_first(struct gate *g, int i)
{
    struct pending *p = g->list[i];
    unsigned char head[PEEK_MAX];
    int64_t n;

    if (p->lane != NULL) {
        look_lane(g, i);
        return;
    }
    n = tt_recv_peek(p->sock, head, sizeof head);
    if (n == TT_E_AGAIN)
        return;
    if (n <= 0) {
        drop(g, i, TTCP_NOTICE_COUNT, 1); /* closed or reset before a byte */
        return;
    }
    if (!ttcp_proto_magic_prefix(head, (size_t)n < TTCP_PROTO_MAGIC_LEN ? (size_t)n
                                                                       : TTCP_PROTO_MAGIC_LEN)) {
        look_shared(g, i, head, (size_t)n);
        return;
    }
    if (n < TTCP_PROTO_MAGIC_LEN) {
        /* a magic on its way, or a file that starts with 0xFF: not for long */
        wait_for_more(g, p);
        return;
    }
    tt_recv(p->sock, head, TTCP_PROTO_MAGIC_LEN); /* the magic, queued already: taken at once */
    p->state = P_FRAME;
    p->partial = 0;
    p->deadline_ns = p->opened_ns + HELLO_NS;
}

/* A client through its opening: its test gets a slot and a thread. */
static void hand_control(struct gate *g, int i)
{
    struct pending *p = g->list[i];
    struct slot *sl = ttcp_server_claim(g->sv, SLOT_CONTROL);
    if (sl == NULL) {
        answer(p->sock, "busy", "busy", "the server runs as many tests as it takes: try later");
        drop(g, i, TTCP_NOTICE_BUSY, 1);
        return;
    }
    sl->control = p->sock;
    sl->peer = p->peer;
    drop(g, i, TTCP_NOTICE_COUNT, 0);
    ttcp_server_launch(g->sv, sl);
}

/* P_AUTH: the client's proof of the key. */
static void check_auth(struct gate *g, int i, const struct ttcp_message *m)
{
    struct pending *p = g->list[i];
    if (ttcp_greet_auth(g->sv, p->sock, &p->peer, m, p->nonce) != 0)
        drop(g, i, TTCP_NOTICE_COUNT, 1); /* greet.c told why */
    else
        hand_control(g, i);
}

/* A hello: welcomed (or refused), then with --key-file its proof is read here too. */
static void take_hello(struct gate *g, int i, const struct ttcp_message *m)
{
    struct pending *p = g->list[i];
    if (ttcp_greet_hello(g->sv, p->sock, &p->peer, m, p->nonce) != 0) {
        drop(g, i, TTCP_NOTICE_COUNT, 1);
    } else if (g->sv->auth) {
        p->state = P_AUTH;
        p->got = 0;
        p->deadline_ns = tt_now_ns() + HELLO_NS;
    } else {
        hand_control(g, i);
    }
}

/* A data connection's first frame: it joins its test. */
static void take_data(struct gate *g, int i, const struct ttcp_message *m)
{
    struct pending *p = g->list[i];
    const char *token = ttcp_proto_get(m, "token");
    uint64_t stream;
    char why[160];
    int handed;
    if (token == NULL || !ttcp_wire_token_ok(token) ||
        ttcp_proto_get_u64(m, "stream", 0, TTCP_STREAM_IDS - 1, &stream, why, sizeof why) != 0) {
        drop(g, i, TTCP_NOTICE_BAD_TOKEN, 1);
        return;
    }
    if (ttcp_server_attach(g->sv, token, (int)stream, p->sock, &p->peer) == 0) {
        drop(g, i, TTCP_NOTICE_COUNT, 0);
        return;
    }
    /* --inetd: the test is another process's (handoff.c), which takes a copy */
    handed = g->sv->opts->inetd && ttcp_handoff_give(token, (int)stream, p->sock) == 0;
    drop(g, i, handed ? TTCP_NOTICE_COUNT : TTCP_NOTICE_BAD_TOKEN, 1);
}

/* A whole frame: a hello or its auth, or a data connection joining its test. */
static void dispatch(struct gate *g, int i)
{
    struct pending *p = g->list[i];
    struct ttcp_message *m = &g->msg;
    char why[160];
    const char *type;

    if (ttcp_proto_parse(p->frame + TTCP_PROTO_LENGTH_LEN, p->got - TTCP_PROTO_LENGTH_LEN, m,
                         why, sizeof why) != 0) {
        answer(p->sock, "error", "protocol", why);
        drop(g, i, TTCP_NOTICE_BAD_HELLO, 1);
        return;
    }
    if (p->state == P_AUTH) {
        check_auth(g, i, m);
        return;
    }
    type = ttcp_proto_type(m);
    if (strcmp(type, "data") == 0) {
        take_data(g, i, m);
        return;
    }
    if (strcmp(type, "hello") != 0) {
        answer(p->sock, "error", "protocol", "the first message must be hello");
        drop(g, i, TTCP_NOTICE_BAD_HELLO, 1);
        return;
    }
    take_hello(g, i, m);
}

/* P_FRAME: takes what has come of the first frame, bounded by its length. */
static void read_frame(struct gate *g, int i)
{
    struct pending *p = g->list[i];
    size_t want = TTCP_PROTO_LENGTH_LEN;
    int64_t n;
    if (p->got >= TTCP_PROTO_LENGTH_LEN) {
        int len = ttcp_proto_frame_length(p->frame);
        if (len < 0) {
            answer(p->sock, "error", "protocol", "a frame length out of range");
            drop(g, i, TTCP_NOTICE_BAD_HELLO, 1);
            return;
        }
        want += (size_t)len;
    }
    n = tt_recv_peek(p->sock, p->frame + p->got, want - p->got);
    if (n == TT_E_AGAIN)
        return;
    if (n <= 0) {
        drop(g, i, TTCP_NOTICE_BAD_HELLO, 1);
        return;
    }
    n = tt_recv(p->sock, p->frame + p->got, (size_t)n); /* queued: taken at once */
    if (n <= 0) {
        drop(g, i, TTCP_NOTICE_BAD_HELLO, 1);
        return;
    }
    p->got += (size_t)n;
    if (p->got == TTCP_PROTO_LENGTH_LEN)
        read_frame(g, i); /* the body may be queued too */
    else if (p->got == want)
        dispatch(g, i);
}

/* A deadline passed: a magic cut short is classic data after all; anything
 * else is dropped. */
static void expire(struct gate *g, int i)
{
    struct pending *p = g->list[i];
    unsigned char head[TTCP_PROTO_MAGIC_LEN];
    if (p->state == P_FIRST && p->lane == NULL && tt_recv_peek(p->sock, head, sizeof head) > 0)
        hand_classic(g, i);
    else
        drop(g, i, p->state == P_FIRST ? TTCP_NOTICE_IDLE : TTCP_NOTICE_HELLO_TIMEOUT, 1);
}

/* Every connection waiting on a listener, up to a round's share: a
 * burst is taken at once. */
static void accept_waiting(struct gate *g, tt_socket listener, const struct ttcp_peer *lane)
{
    int i, waiting = 1;
    for (i = 0; waiting && i < ACCEPTS_PER_ROUND; i++) {
        accept_one(g, listener, lane);
        waiting = tt_wait_readable(listener, 0) > 0;
    }
}

void ttcp_gate_round(struct gate *g, int timeout_ms)
{
    struct ttcp_server *sv = g->sv;
    tt_socket socks[1 + PEER_LANES_MAX + PENDING_MAX];
    unsigned char ready[1 + PEER_LANES_MAX + PENDING_MAX];
    struct pending *seen[PENDING_MAX];
    int at[PENDING_MAX]; /* seen[i]'s place among the polled sockets; -1: partial */
    int listeners = 1 + sv->lanes, polled = 0, total = g->count, i, j;
    int64_t now;

    /* the listeners, then the connections but the partial ones (always looked at) */
    socks[0] = sv->listener;
    for (i = 0; i < sv->lanes; i++)
        socks[1 + i] = sv->lane[i];
    for (i = 0; i < total; i++) {
        seen[i] = g->list[i];
        at[i] = seen[i]->partial ? -1 : listeners + polled;
        if (!seen[i]->partial)
            socks[listeners + polled++] = seen[i]->sock;
    }
    if (tt_poll_readable(socks, listeners + polled, timeout_ms, ready) < 0)
        return;
    /* in the order they came; one handed on leaves the list: look each up by what it was */
    for (i = 0; i < total; i++) {
        if (at[i] >= 0 && !ready[at[i]])
            continue;
        for (j = 0; j < g->count && g->list[j] != seen[i]; j++)
            continue;
        if (j < g->count && g->list[j]->state == P_FIRST)
            look_first(g, j);
        else if (j < g->count)
            read_frame(g, j);
    }
    now = tt_now_ns();
    for (i = g->count - 1; i >= 0; i--)
        if (now >= g->list[i]->deadline_ns)
            expire(g, i);
    for (i = 0; i < listeners; i++)
        if (ready[i])
            accept_waiting(g, socks[i], i == 0 ? NULL : sv->lane_tool[i - 1]);
}
