/* Setting up each side: the socket, the classic socket options (with their
 * progress lines in 1.12's order), then connect or listen + accept. */
#include "engine/local.h"
#include "engine/phases.h"

#define ACCEPT_POLL_MS 250 /* how often a waiting receiver looks at Ctrl+C */
/* A UDP receiver's queue when -b does not set one: the OS default (208 KiB
 * on Linux, 64 KiB on Windows) holds a few hundred small datagrams, and an
 * unpaced sender overflows it whenever the receiver is off its CPU for a
 * moment, which is the receiver's loss, not the network's (issue 15: 0.5 to
 * 4 % of 64-byte datagrams lost on loopback, none with 2 MiB). The OS caps
 * it at its own limit (net.core.rmem_max on Linux). */
#define UDP_RECEIVE_QUEUE (4 << 20)

/* What the socket says of the marks: the TOS byte asked for, and for TCP
 * the congestion control in use (an accepted connection's, read again). */
static void read_marks(struct ttcp_session *s, tt_socket sock)
{
    const struct ttcp_options *o = s->opts;
    uint64_t rate = 0;
    s->res->marks_asked = (o->tos_given ? TTCP_MARK_TOS : 0u) |
                          (o->congestion != NULL ? TTCP_MARK_CONGESTION : 0u) |
                          (o->fq_rate_bps && o->transmit ? TTCP_MARK_FQ_RATE : 0u);
    if (o->tos_given)
        s->res->tos_valid = tt_getopt(sock, TT_OPT_TOS, &s->res->tos) == 0;
    if (o->fq_rate_bps && o->transmit && tt_pacing_get(sock, &rate) == 0) {
        s->res->fq_rate_valid = 1;
        s->res->fq_rate_bps = rate * 8;
    }
    if (!o->udp)
        s->res->congestion_valid = tt_congestion_get(sock, s->res->congestion,
                                                     sizeof s->res->congestion) == 0;
}

/* --tos / --dscp, --dont-fragment and --congestion, before connect or listen. A system that
 * lets no program mark its packets (Windows) gets a warning, not a failed
 * test; a congestion control the kernel refuses fails the test. */
static int apply_marks(struct ttcp_session *s, tt_socket sock, int announce)
{
    const struct ttcp_options *o = s->opts;
    int rc;
    if (o->tos_given) {
        rc = tt_setopt(sock, TT_OPT_TOS, (int)o->tos);
        if (rc == TT_E_UNSUPPORTED && announce)
            ttcp_warn(s, TTCP_WARN_TOS);
        else if (rc != 0 && rc != TT_E_UNSUPPORTED)
            return ttcp_fail(s, rc, TTCP_OP_TOS);
    }
    if (o->dont_fragment) {
        rc = tt_setopt(sock, TT_OPT_DONTFRAG, 1);
        if (rc != 0)
            return ttcp_fail(s, rc, TTCP_OP_DONTFRAG);
    }
    if (o->congestion != NULL && !o->udp) {
        rc = tt_congestion_set(sock, o->congestion);
        if (rc != 0)
            return ttcp_fail(s, rc, TTCP_OP_CONGESTION);
    }
    /* --fq-rate: the sender's packets, paced by the kernel (bits to bytes,
     * at least one a second) */
    if (o->fq_rate_bps && o->transmit) {
        rc = tt_pacing_set(sock, o->fq_rate_bps / 8 ? o->fq_rate_bps / 8 : 1);
        if (rc != 0)
            return ttcp_fail(s, rc, TTCP_OP_FQ_RATE);
        if (o->udp && announce)
            ttcp_warn(s, TTCP_WARN_FQ_UDP);
    }
    read_marks(s, sock);
    return 0;
}

/* -b, -D and -d. 1.12 dies when -b or -D cannot be set; SO_DEBUG needs
 * privileges on most systems today, so its failure is only a warning. */
static int apply_socket_options(struct ttcp_session *s, tt_socket sock, int announce)
{
    const struct ttcp_options *o = s->opts;
    int rc;

    if (o->sockbufsize != 0) {
        rc = tt_setopt(sock, o->transmit ? TT_OPT_SNDBUF : TT_OPT_RCVBUF, (int)o->sockbufsize);
        if (rc != 0)
            return ttcp_fail(s, rc, o->transmit ? TTCP_OP_SNDBUF : TTCP_OP_RCVBUF);
        if (announce)
            ttcp_emit(s, o->transmit ? TTCP_EV_SNDBUF : TTCP_EV_RCVBUF);
    } else if (o->udp && !o->transmit && o->rcvwnd == 0) {
        (void)tt_setopt(sock, TT_OPT_RCVBUF, UDP_RECEIVE_QUEUE); /* as much as the OS allows */
    }
    if (o->nodelay && (o->transmit || o->half_close) && !o->udp) {
        rc = tt_setopt(sock, TT_OPT_NODELAY, 1);
        if (rc != 0)
            return ttcp_fail(s, rc, TTCP_OP_NODELAY);
        if (announce)
            ttcp_emit(s, TTCP_EV_NODELAY);
    }
    if (o->rcvwnd != 0) {
        rc = tt_setopt(sock, TT_OPT_RCVBUF, (int)o->rcvwnd);
        if (rc != 0)
            return ttcp_fail(s, rc, TTCP_OP_RCVWND);
    }
    if (o->mss != 0 && !o->udp && (rc = tt_setopt(sock, TT_OPT_MAXSEG, (int)o->mss)) != 0)
        return ttcp_fail(s, rc, TTCP_OP_MSS);
    if (o->sodebug && !o->udp && tt_setopt(sock, TT_OPT_DEBUG, 1) != 0 && announce)
        ttcp_warn(s, TTCP_WARN_SODEBUG);
    return apply_marks(s, sock, announce);
}

/* Connection options that apply to the connected socket itself. */
static void tune_connection(struct ttcp_session *s)
{
    s->rearm_quickack = 0;
    if (s->opts->no_delayed_ack && tt_setopt(s->sock, TT_OPT_QUICKACK, 1) != 0)
        ttcp_warn(s, TTCP_WARN_QUICKACK);
    else if (s->opts->no_delayed_ack)
        s->rearm_quickack = !tt_quickack_sticky();
    read_marks(s, s->sock);
    ttcp_capture_tcp_info(s, 0);
    s->res->local_valid = tt_local_addr(s->sock, &s->res->local) == 0;
}

int ttcp_resolve_peer(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    int rc = tt_resolve(o->host, (uint16_t)o->port, o->family, o->udp, &s->peers);
    return rc != 0 ? ttcp_fail(s, rc, TTCP_OP_HOSTNAME) : 0;
}

/* -t to a group: its hop limit (1, as the OS's default, unless -m) and
 * interface, read back for the record. */
static int multicast_sender(struct ttcp_session *s, int family)
{
    const struct ttcp_options *o = s->opts;
    int rc = tt_mcast_sender(s->sock, family, o->mcast_ttl ? (int)o->mcast_ttl : 1, o->interface);
    if (rc != 0)
        return ttcp_fail(s, rc, TTCP_OP_MCAST);
    if (tt_mcast_ttl(s->sock, family, &s->res->mcast_ttl) != 0)
        s->res->mcast_ttl = -1;
    ttcp_emit(s, TTCP_EV_MULTICAST);
    return 0;
}

/* 1.12 sends each datagram with sendto(). A connected socket puts the same
 * datagrams on the wire and spares the kernel a route lookup per datagram
 * (about a tenth more 64-byte datagrams a second: issue 15). A group keeps
 * sendto(), and so does a socket the OS would not connect. */
static void udp_destination(struct ttcp_session *s, const struct tt_addr *to)
{
    if (s->opts->group == NULL && tt_connect(s->sock, to) == 0)
        return; /* s->dest stays empty: the socket knows where */
    s->dest = *to;
}

/* Tries each address the host resolved to, in the resolver's order. */
int ttcp_open_transmitter(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    const struct tt_addr_list *list = &s->peers;
    int i, rc;

    for (i = 0; i < list->count && !tt_interrupted(); i++) {
        rc = tt_socket_open(list->addr[i].family, o->udp, &s->sock);
        if (rc != 0) {
            ttcp_fail(s, rc, TTCP_OP_SOCKET);
            continue;
        }
        if (i == 0)
            ttcp_emit(s, TTCP_EV_SOCKET);
        rc = apply_socket_options(s, s->sock, i == 0);
        if (rc == 0 &&
            (rc = ttcp_bind_outgoing(s->sock, o, list->addr[i].family, (uint16_t)o->cport)) != 0)
            rc = ttcp_fail(s, rc, TTCP_OP_BIND);
        if (rc == 0 && o->group != NULL)
            rc = multicast_sender(s, list->addr[i].family);
        if (rc == 0 && o->udp) {
            udp_destination(s, &list->addr[i]);
            s->res->local_valid = tt_local_addr(s->sock, &s->res->local) == 0;
            return 0;
        }
        if (rc == 0) {
            rc = tt_connect(s->sock, &list->addr[i]);
            if (rc == 0) {
                tune_connection(s);
                ttcp_emit(s, TTCP_EV_CONNECT);
                return 0;
            }
            ttcp_fail(s, rc, TTCP_OP_CONNECT);
        }
        tt_close(s->sock);
        s->sock = TT_NO_SOCKET;
    }
    if (tt_interrupted())
        return ttcp_fail(s, TT_E_INTR, TTCP_OP_CONNECT);
    return s->res->failure.code;
}

/* Waits for one connection, looking at the interrupt flag between polls. */
int ttcp_accept_one(struct ttcp_session *s)
{
    int rc;

    for (;;) {
        if (tt_interrupted())
            return ttcp_fail(s, TT_E_INTR, TTCP_OP_ACCEPT);
        rc = tt_wait_readable(s->listener, ACCEPT_POLL_MS);
        if (rc > 0)
            break;
        if (rc < 0 && rc != TT_E_INTR)
            return ttcp_fail(s, rc, TTCP_OP_ACCEPT);
    }
    rc = tt_accept(s->listener, &s->sock, &s->res->peer);
    if (rc != 0)
        return ttcp_fail(s, rc, TTCP_OP_ACCEPT);
    s->res->peer_valid = 1;
    tune_connection(s);
    ttcp_emit(s, TTCP_EV_ACCEPT);
    return 0;
}

int ttcp_adopt_connection(struct ttcp_session *s, const struct tt_addr *peer, int accepted)
{
    int rc = apply_socket_options(s, s->sock, 1);
    if (rc != 0)
        return rc;
    if (peer != NULL) {
        s->res->peer = *peer;
        s->res->peer_valid = 1;
    }
    if (s->opts->udp) { /* a connected datagram socket: no TCP options, no connect line */
        s->res->local_valid = tt_local_addr(s->sock, &s->res->local) == 0;
        return 0;
    }
    tune_connection(s);
    ttcp_emit(s, accepted ? TTCP_EV_ACCEPT : TTCP_EV_CONNECT);
    return 0;
}

/* The receiver's socket: dual-stack unless -4/-6 or --bind says otherwise,
 * falling back to IPv4 where the system has no IPv6. */
static int open_bound(struct ttcp_session *s, tt_socket *out)
{
    const struct ttcp_options *o = s->opts;
    struct tt_addr local;
    int family = o->family, rc;

    if (o->bind != NULL &&
        (rc = ttcp_local_address(o, &family, (uint16_t)o->port, &local)) != 0)
        return ttcp_fail(s, rc, TTCP_OP_BIND);
    rc = tt_socket_open(family, o->udp, out);
    if (rc == TT_E_AFNOSUPPORT && family == TT_FAMILY_ANY) {
        family = TT_FAMILY_V4;
        rc = tt_socket_open(family, o->udp, out);
    }
    if (rc != 0)
        return ttcp_fail(s, rc, TTCP_OP_SOCKET);
    ttcp_emit(s, TTCP_EV_SOCKET);
    if (!o->udp)
        tt_setopt(*out, TT_OPT_REUSEADDR, 1); /* rerun at once on the same port */
    else if (o->share_port)
        tt_setopt(*out, TT_OPT_SHARE_PORT, 1);
    if (o->bind == NULL)
        tt_addr_any(family, (uint16_t)o->port, &local);
    rc = tt_bind(*out, &local);
    if (rc != 0)
        return ttcp_fail(s, rc, TTCP_OP_BIND);
    return apply_socket_options(s, *out, 1);
}

/* -r -g: a socket of the group's family on the port (shared, so several
 * receivers on one host each get every datagram), then the membership. */
static int open_member(struct ttcp_session *s)
{
    const struct ttcp_options *o = s->opts;
    struct tt_addr_list group, source;
    struct tt_addr any;
    int rc = tt_resolve(o->group, (uint16_t)o->port, TT_FAMILY_ANY, 1, &group);
    if (rc == 0 && o->source != NULL)
        rc = tt_resolve(o->source, 0, group.addr[0].family, 1, &source);
    if (rc != 0)
        return ttcp_fail(s, rc, TTCP_OP_JOIN);
    rc = tt_socket_open(group.addr[0].family, 1, &s->sock);
    if (rc != 0)
        return ttcp_fail(s, rc, TTCP_OP_SOCKET);
    ttcp_emit(s, TTCP_EV_SOCKET);
    tt_setopt(s->sock, TT_OPT_SHARE_PORT, 1);
    tt_addr_any(group.addr[0].family, (uint16_t)o->port, &any);
    rc = tt_bind(s->sock, &any);
    if (rc != 0)
        return ttcp_fail(s, rc, TTCP_OP_BIND);
    rc = apply_socket_options(s, s->sock, 1);
    if (rc != 0)
        return rc;
    rc = tt_mcast_join(s->sock, &group.addr[0], o->source ? &source.addr[0] : NULL, o->interface);
    if (rc != 0)
        return ttcp_fail(s, rc, TTCP_OP_JOIN);
    ttcp_emit(s, TTCP_EV_MULTICAST);
    return 0;
}

int ttcp_open_receiver(struct ttcp_session *s)
{
    int rc;

    if (s->opts->udp && s->opts->group != NULL)
        return open_member(s);
    if (s->opts->udp)
        return open_bound(s, &s->sock);
    rc = open_bound(s, &s->listener);
    if (rc != 0)
        return rc;
    rc = tt_listen(s->listener, 0);
    return rc != 0 ? ttcp_fail(s, rc, TTCP_OP_LISTEN) : 0;
}

int ttcp_system_rcvwnd(void)
{
    tt_socket sock;
    int value = 0;
    if (tt_socket_open(TT_FAMILY_V4, 0, &sock) != 0)
        return 0;
    if (tt_getopt(sock, TT_OPT_RCVBUF, &value) != 0)
        value = 0;
    tt_close(sock);
    return value;
}
