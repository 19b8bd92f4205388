/* The data sockets of a nuttcp client's test on ttcp -S (serve.h): the
 * transmitter opens them, stream i on the data port + i. The client
 * sends: its connections, by the server's accept_data (the shared port's
 * told apart by the client's address), or for UDP a socket on the port;
 * the server sends: ours to the client's address alone. */
#include <stdio.h>
#include <string.h>

#include "peers/nuttcp/serve.h"

#define CONNECT_RETRY_NS 20000000ll /* the client's data port not listening yet */
#define UDP_BIND_WAIT_NS 100000000ll

static int open_fail(struct nuttcp_serve *v, unsigned i, int rc)
{
    v->res[i].failure.code = rc;
    snprintf(v->why, sizeof v->why, "data port %u", v->p.port + i);
    return -1;
}

/* The server sends: to the client's address, port + i (TCP: retried while
 * refused, for the client binds its ports as it can). */
static int connect_back(struct nuttcp_serve *v, unsigned i, int64_t end)
{
    const struct tt_addr *to = &v->to[i];
    int rc;
    do {
        tt_socket s = TT_NO_SOCKET;
        rc = tt_socket_open(to->family, v->p.udp, &s);
        if (rc == 0 && v->p.datamss && !v->p.udp)
            tt_setopt(s, TT_OPT_MAXSEG, (int)v->p.datamss);
        if (rc == 0)
            rc = v->p.udp ? tt_connect(s, to) : nuttcp_connect_by(s, to, end);
        if (rc == 0) {
            v->socks[i] = s;
            return 0;
        }
        if (s != TT_NO_SOCKET)
            tt_close(s);
        if (rc != TT_E_CONNREFUSED || tt_interrupted())
            break;
        tt_sleep_ns(CONNECT_RETRY_NS);
    } while (tt_now_ns() < end);
    return open_fail(v, i, rc);
}

static int on_shared(const struct nuttcp_serve *v, unsigned i)
{
    return v->p.port + i == v->s->server->port;
}

/* The client sends: stream i's socket on a port that is not the shared
 * one, at the address it reached, bound before the OK goes (TCP: a
 * listener). 0, or -1 with why. */
static int bind_own(struct nuttcp_serve *v, unsigned i)
{
    struct tt_addr local;
    tt_socket s = TT_NO_SOCKET;
    int rc = tt_local_addr(v->s->control, &local), family = v->s->server->family;
    if (rc == 0 && local.family == TT_FAMILY_V4)
        family = TT_FAMILY_V4; /* else the server's: a dual-stack one binds IPv4-mapped */
    if (rc == 0)
        rc = tt_socket_open(family, v->p.udp, &s);
    if (rc == 0 && !v->p.udp)
        tt_setopt(s, TT_OPT_REUSEADDR, 1);
    if (rc == 0 && v->whole.sockbufsize)
        tt_setopt(s, TT_OPT_RCVBUF, (int)v->whole.sockbufsize);
    tt_addr_set_port(&local, (uint16_t)(v->p.port + i));
    if (rc == 0 && (rc = tt_bind(s, &local)) == 0 && !v->p.udp)
        rc = tt_listen(s, 1);
    if (rc != 0) {
        if (s != TT_NO_SOCKET)
            tt_close(s);
        snprintf(v->why, sizeof v->why, "data port %u cannot be had on this server",
                 v->p.port + i);
        return -1;
    }
    v->socks[i] = s;
    return 0;
}

int nuttcp_serve_listen(struct nuttcp_serve *v)
{
    unsigned i;
    for (i = 0; i < v->n; i++)
        if (!v->transmit && !on_shared(v, i) && bind_own(v, i) != 0)
            return -1;
    return 0;
}

/* The client's connection on our own listener (from its address alone). */
static int accept_own(struct nuttcp_serve *v, unsigned i, int64_t end)
{
    tt_socket listener = v->socks[i], conn;
    struct tt_addr from;
    unsigned char a[16], b[16];
    int n = tt_addr_ip(&v->s->client, a);
    v->socks[i] = TT_NO_SOCKET;
    while (tt_now_ns() < end && !tt_interrupted()) {
        if (tt_wait_readable(listener, 100) <= 0 || tt_accept(listener, &conn, &from) != 0)
            continue;
        if (tt_addr_ip(&from, b) == n && memcmp(a, b, (size_t)n) == 0) {
            v->socks[i] = conn;
            break;
        }
        tt_close(conn); /* the test's data comes from its client only */
    }
    tt_close(listener);
    return v->socks[i] != TT_NO_SOCKET ? 0 : open_fail(v, i, TT_E_TIMEDOUT);
}

/* The client sends: stream i's socket (the shared port's, by the server). */
static int take_in(struct nuttcp_serve *v, unsigned i, int64_t end)
{
    int code = 0;
    if (!on_shared(v, i))
        return v->p.udp ? 0 : accept_own(v, i, end); /* UDP: bound already */
    if (v->p.udp ? v->s->udp_data(v->s, v->p.port + i, end, &v->socks[i], &v->to[i], &code)
                 : v->s->accept_data(v->s, v->p.port + i, 1, end, &v->socks[i], &code))
        return open_fail(v, i, code);
    return 0;
}

/* The client's address at port + i, as a socket of its own family
 * reaches it (an IPv4 client of a dual-stack listener: plain IPv4). */
static void aim(struct nuttcp_serve *v, unsigned i)
{
    struct tt_addr_list list;
    char text[80];
    uint16_t port = (uint16_t)(v->p.port + i);
    v->to[i] = v->s->client;
    tt_addr_set_port(&v->to[i], port);
    if (v->transmit && tt_addr_text(&v->s->client, text, sizeof text) != NULL &&
        tt_resolve(text, port, TT_FAMILY_ANY, v->p.udp, &list) == 0 && list.count > 0)
        v->to[i] = list.addr[0]; /* the same IP, numeric */
}

int nuttcp_serve_open(struct nuttcp_serve *v)
{
    int64_t end = tt_now_ns() + NUTTCP_SERVE_DATA_NS;
    unsigned i;
    int rc = 0;
    if (v->transmit && v->p.udp) /* 6.1.2's client binds its UDP ports after the OK */
        tt_sleep_ns(UDP_BIND_WAIT_NS);
    for (i = 0; i < v->n && rc == 0; i++) {
        aim(v, i);
        if (v->transmit)
            rc = connect_back(v, i, end);
        else
            rc = take_in(v, i, end);
        if (rc == 0) { /* a stalled client ends the test after --idle-timeout */
            int idle_ms = (int)(v->whole.idle_timeout_ns / 1000000);
            if (!v->p.udp)
                tt_setopt(v->socks[i], TT_OPT_RCVTIMEO_MS, idle_ms);
            tt_setopt(v->socks[i], TT_OPT_SNDTIMEO_MS, idle_ms);
        }
    }
    return rc;
}
