/* The client's opening: the control connection, hello and welcome, and
 * with --key-file the proof both ways that each end holds the key. The
 * server's answers are in server/greet.c. */
#include <stdio.h>
#include <string.h>

#include "base/version.h"
#include "client/internal.h"
#include "engine/local.h"
#include "remote/dial.h"

/* The control connection's step (remote/dial.h): from --bind's address
 * (--cport is the data's port); an address of another family than
 * --bind's fails the bind, and the next is tried. */
static int control_step(void *ctx, tt_socket s, const struct tt_addr *a, enum ttcp_op *op)
{
    struct client *c = ctx;
    int rc;
    *op = TTCP_OP_BIND;
    if ((rc = ttcp_bind_outgoing(s, c->opts, a->family, 0)) != 0)
        return rc;
    *op = TTCP_OP_CONNECT;
    return ttcp_client_connect(c, s, a);
}

int ttcp_client_connect_control(struct client *c)
{
    struct ttcp_dialled d;
    int rc = ttcp_dial(c->opts->host, (uint16_t)c->opts->port, c->opts->family, 0,
                       control_step, c, &d);
    c->out->failure.op = d.op;
    if (rc == 0) {
        c->control = d.sock;
        c->server = d.server;
        return 0;
    }
    if (d.op == TTCP_OP_BIND && !tt_interrupted()) { /* not the server's fault */
        snprintf(c->out->why, sizeof c->out->why, "--bind %s", c->opts->bind);
        return ttcp_client_problem(c, TTCP_CLIENT_LOCAL, rc);
    }
    return ttcp_client_problem(c, TTCP_CLIENT_CONNECT, rc);
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
        return ttcp_client_problem(c, TTCP_CLIENT_AUTH, 0);
    }
    ttcp_frame_begin(&f, "auth");
    ttcp_frame_add(&f, "nonce", cnonce);
    ttcp_frame_add(&f, "mac", mac);
    ttcp_frame_end(&f);
    if (ttcp_client_send_frame(c, &f) != 0 || ttcp_client_receive(c, &m, "auth_ok") != 0)
        return -1;
    theirs = ttcp_proto_get(&m, "mac");
    if (ttcp_auth_mac(&c->key, "server", snonce, cnonce, mac) != 0 || theirs == NULL ||
        !ttcp_auth_equal(theirs, mac)) {
        snprintf(c->out->why, sizeof c->out->why, "the server does not hold the key");
        return ttcp_client_problem(c, TTCP_CLIENT_AUTH, 0);
    }
    return 0;
}

/* magic and hello out; 0 or the send's failure. */
static int send_hello(struct client *c)
{
    struct ttcp_frame f;
    char program[64];
    int rc = ttcp_channel_send_magic(c->control);
    snprintf(program, sizeof program, "ttcp %s", ttcp_version());
    ttcp_frame_begin(&f, "hello");
    ttcp_frame_add_u64(&f, "version", TTCP_PROTO_VERSION);
    ttcp_frame_add_u64(&f, "min_version", TTCP_PROTO_VERSION);
    ttcp_frame_add(&f, "program", program);
    ttcp_frame_end(&f);
    if (rc == 0)
        rc = ttcp_channel_send(c->control, &f);
    return rc;
}

/* Whether the key and the server's wish for one agree. */
static int keys_agree(struct client *c, uint64_t auth)
{
    if (auth && c->key.len == 0) {
        snprintf(c->out->why, sizeof c->out->why,
                 "the server requires a key: give its key file with --key-file");
        return ttcp_client_problem(c, TTCP_CLIENT_AUTH, 0);
    }
    if (!auth && c->key.len != 0) {
        snprintf(c->out->why, sizeof c->out->why,
                 "the server does not use a key: it cannot prove who it is (drop --key-file "
                 "to test anyway)");
        return ttcp_client_problem(c, TTCP_CLIENT_AUTH, 0);
    }
    return 0;
}

int ttcp_client_greet(struct client *c)
{
    struct ttcp_message m;
    uint64_t version, auth = 0;
    int rc = send_hello(c);
    /* a server that turns us away at once (--allow) may have closed before our hello
     * went: its answer can still be waiting, and says why better than the failed send */
    if (ttcp_client_receive(c, &m, "welcome") != 0) {
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
        return ttcp_client_problem(c, TTCP_CLIENT_PROTOCOL, 0);
    if (keys_agree(c, auth) != 0)
        return -1;
    return auth ? authenticate(c, ttcp_proto_get(&m, "nonce")) : 0;
}
