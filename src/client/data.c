/* The streams' sockets, opened by the client (so a client behind NAT
 * works): a data connection for each TCP stream, or a UDP socket whose
 * token datagram tells the server where the stream's datagrams come from
 * (and opens the way back through a NAT). The server's half is in
 * server/control.c (await_data, open_udp, ready_udp). */
#include <stdio.h>
#include <string.h>

#include "client/internal.h"
#include "engine/local.h"

#define TOKEN_RESEND_MS 100

/* --bind and --cport: the k-th data socket opened binds port --cport + k
 * (rules.c checks that the last fits), so a firewall rule can name them.
 * On failure the socket is closed and the problem recorded: -1. */
static int bind_data(struct client *c, int k, tt_socket *s)
{
    uint16_t port = c->opts->cport ? (uint16_t)(c->opts->cport + (uint64_t)k) : 0;
    int rc = ttcp_bind_outgoing(*s, c->opts, c->server.family, port);
    if (rc == 0)
        return 0;
    tt_close(*s);
    *s = TT_NO_SOCKET;
    snprintf(c->out->why, sizeof c->out->why, "cannot bind a data socket to %s port %u",
             c->opts->bind ? c->opts->bind : "any address", (unsigned)port);
    c->out->failure.op = TTCP_OP_BIND;
    return ttcp_client_problem(c, TTCP_CLIENT_LOCAL, rc);
}

/* UDP: a socket connected to the server's port. */
static int open_udp(struct client *c, int k, tt_socket *out)
{
    int rc = tt_socket_open(c->server.family, 1, out);
    c->out->failure.op = TTCP_OP_SOCKET;
    if (rc == 0 && bind_data(c, k, out) != 0)
        return -1;
    if (rc == 0 && (rc = tt_connect(*out, &c->server)) != 0) {
        tt_close(*out);
        *out = TT_NO_SOCKET;
    }
    return rc != 0 ? ttcp_client_problem(c, TTCP_CLIENT_CONNECT, rc) : 0;
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

/* Sends each stream's token datagram until the server says `udp_ready` for
 * it: every TOKEN_RESEND_MS, for at most CONTROL_NS. */
static int agree_udp(struct client *c)
{
    unsigned char ready[TTCP_STREAM_IDS];
    int64_t end = ttcp_client_wait_end(c, CONTROL_NS);
    int missing = 0, i;
    for (i = 0; i < c->ids; i++) {
        ready[i] = !in_use(c, i);
        missing += !ready[i];
    }
    while (missing > 0) {
        struct ttcp_message m;
        uint64_t id;
        if (tt_now_ns() >= end || tt_interrupted()) {
            snprintf(c->out->why, sizeof c->out->why, "no answer to the UDP datagrams: a "
                     "firewall may drop UDP to port %llu", (unsigned long long)c->opts->port);
            return ttcp_client_problem(c, TTCP_CLIENT_REFUSED, 0);
        }
        for (i = 0; i < c->ids; i++)
            if (!ready[i])
                send_token_datagram(c, i, c->socks[i]);
        if (tt_wait_readable(c->control, TOKEN_RESEND_MS) <= 0)
            continue;
        if (ttcp_client_receive_any(c, &m) != 0)
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

/* A data connection for one stream, to the address the control connection
 * reached, introduced by the test's token. */
static int open_data(struct client *c, int stream, int k, tt_socket *out)
{
    struct ttcp_frame f;
    int rc = tt_socket_open(c->server.family, 0, out);
    if (rc == 0 && bind_data(c, k, out) != 0)
        return -1;
    c->out->failure.op = TTCP_OP_CONNECT;
    if (rc != 0)
        return ttcp_client_problem(c, TTCP_CLIENT_CONNECT, rc);
    /* --mss before the SYN, which announces it: the server's end, accepted
     * already, sends no larger segments than this end announced; the mark
     * too, so the whole connection carries it (where the OS lets it) */
    if (c->local.mss != 0)
        rc = tt_setopt(*out, TT_OPT_MAXSEG, (int)c->local.mss);
    if (rc == 0 && c->local.tos_given)
        (void)tt_setopt(*out, TT_OPT_TOS, (int)c->local.tos);
    if (rc == 0)
        rc = ttcp_client_connect(c, *out, &c->server);
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
        return ttcp_client_problem(c, TTCP_CLIENT_CONNECT, rc);
    }
    /* a server that stalls ends the test after --idle-timeout */
    tt_setopt(*out, TT_OPT_RCVTIMEO_MS, (int)(c->local.idle_timeout_ns / 1000000));
    tt_setopt(*out, TT_OPT_SNDTIMEO_MS, (int)(c->local.idle_timeout_ns / 1000000));
    return 0;
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
        return ttcp_client_problem(c, TTCP_CLIENT_LOCAL, rc);
    }
    c->unconnected[id] = 1;
    c->out->why[0] = '\0';
    return 0;
}

int ttcp_client_open_streams(struct client *c)
{
    int i, k = 0, rc = 0;
    for (i = 0; i < c->ids && rc == 0; i++) {
        if (!in_use(c, i))
            continue;
        if (c->local.udp && c->opts->group != NULL && i % 2 == 1)
            rc = open_member(c, i, &c->socks[i]);
        else if (c->local.udp)
            rc = open_udp(c, k++, &c->socks[i]);
        else
            rc = open_data(c, i, k++, &c->socks[i]);
    }
    if (rc == 0 && c->local.udp)
        rc = agree_udp(c);
    return rc;
}
