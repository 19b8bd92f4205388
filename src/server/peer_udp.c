/* Other tools' clients that come to the shared UDP port with datagrams
 * alone (iperf2's -u: no connection, and every datagram carries the
 * client's header): the classic receiver's claim asks here first. A
 * datagram a tool's row says START to begins a test of its own for its
 * sender's address and port, on a socket of the port connected there, so
 * that the kernel hands that sender's next datagrams to the test, not to
 * the classic receiver; what the receiver still reads of that sender
 * before the test has looked is kept for it (bounded), after that dropped
 * (both ends count it lost). A sender whose test is over or was refused is
 * remembered until it has been quiet for --idle-timeout: its late
 * datagrams start nothing. */
#include <stdlib.h>
#include <string.h>

#include "engine/local.h"
#include "server/internal.h"

/* The same sender: address and port. */
static int same_flow(const struct tt_addr *a, const struct tt_addr *b)
{
    return a->len != 0 && a->len == b->len &&
           memcmp(a->storage.bytes, b->storage.bytes, a->len) == 0;
}

/* Under the lock: a copy of d for the slot's test, while it has not taken
 * them and there is room. */
static void keep(struct slot *sl, const struct tt_datagram *d)
{
    size_t len = d->len;
    if (!sl->prior_open || sl->prior_bytes == NULL || sl->prior_count == UDP_PRIOR_MAX ||
        len > TTCP_UDP_MAX_BUFLEN || len > UDP_PRIOR_BYTES - sl->prior_used)
        return;
    memcpy(sl->prior_bytes + sl->prior_used, d->buf, len);
    sl->prior[sl->prior_count] = *d;
    sl->prior[sl->prior_count].buf = sl->prior_bytes + sl->prior_used;
    sl->prior_used += len;
    sl->prior_count++;
}

/* Under the lock: the sender's test runs (its datagram kept or dropped),
 * or it is remembered as over (dropped, remembered longer): 1; else 0. */
static int known(struct ttcp_server *sv, const struct tt_datagram *d, int64_t now)
{
    int i;
    for (i = 0; i < SLOTS_MAX; i++) {
        struct slot *sl = &sv->slots[i];
        if (sl->kind == SLOT_PEER && sl->udp_flow && !sl->done && same_flow(&sl->peer, &d->from)) {
            keep(sl, d);
            return 1;
        }
    }
    for (i = 0; i < UDP_ENDED_MAX; i++)
        if (sv->udp_ended[i].until_ns > now && same_flow(&sv->udp_ended[i].from, &d->from)) {
            sv->udp_ended[i].until_ns = now + sv->opts->idle_timeout_ns;
            return 1;
        }
    return 0;
}

void ttcp_peer_udp_ended(struct ttcp_server *sv, const struct tt_addr *from)
{
    int64_t now = tt_now_ns();
    int i, pick = 0;
    tt_mutex_lock(sv->lock);
    for (i = 1; i < UDP_ENDED_MAX; i++) /* a free entry, else the one forgotten soonest */
        if (sv->udp_ended[i].until_ns < sv->udp_ended[pick].until_ns)
            pick = i;
    sv->udp_ended[pick].from = *from;
    sv->udp_ended[pick].until_ns = now + sv->opts->idle_timeout_ns;
    tt_mutex_unlock(sv->lock);
}

/* A UDP socket on the server's port (beside the classic receiver's, which
 * a connected one outranks), bound as that one is (-S --bind, else any),
 * of the sender's family, connected to the sender. 0, or a TT_E_*. */
static int open_flow(struct ttcp_server *sv, const struct tt_addr *from, tt_socket *out)
{
    struct tt_addr local;
    uint16_t port = (uint16_t)sv->opts->port;
    int family = from->family == TT_FAMILY_V4 ? TT_FAMILY_V4 : sv->opts->family, rc;
    *out = TT_NO_SOCKET;
    if (sv->opts->bind != NULL && (rc = ttcp_local_address(sv->opts, &family, port, &local)) != 0)
        return rc;
    rc = tt_socket_open(family, 1, out);
    if (rc == TT_E_AFNOSUPPORT && family == TT_FAMILY_ANY)
        rc = tt_socket_open(family = TT_FAMILY_V4, 1, out);
    if (rc != 0)
        return rc;
    tt_setopt(*out, TT_OPT_SHARE_PORT, 1);
    if (sv->opts->bind == NULL)
        tt_addr_any(family, port, &local);
    if ((rc = tt_bind(*out, &local)) == 0)
        rc = tt_connect(*out, from);
    if (rc != 0) {
        tt_close(*out);
        *out = TT_NO_SOCKET;
    }
    return rc;
}

/* A tool's new client: refused (--key-file, --max-clients, no socket: the
 * sender remembered, nothing sent back), or a slot of its own. */
static void start_flow(struct ttcp_server *sv, const struct ttcp_peer *tool,
                       const struct tt_datagram *d)
{
    struct slot *sl;
    tt_socket s;
    if (sv->auth && !sv->opts->peers_keyless) { /* the tool cannot prove the key */
        ttcp_server_notice(sv, TTCP_NOTICE_AUTH_FAILED, &d->from);
        ttcp_peer_udp_ended(sv, &d->from);
        return;
    }
    if (open_flow(sv, &d->from, &s) != 0) {
        ttcp_peer_udp_ended(sv, &d->from);
        return;
    }
    sl = ttcp_server_claim(sv, SLOT_PEER);
    if (sl == NULL) {
        tt_close(s);
        ttcp_server_notice(sv, TTCP_NOTICE_BUSY, &d->from);
        ttcp_peer_udp_ended(sv, &d->from);
        return;
    }
    tt_mutex_lock(sv->lock);
    sl->control = s;
    sl->peer = d->from;
    sl->tool = tool;
    sl->udp_flow = 1;
    sl->prior_bytes = malloc(UDP_PRIOR_BYTES);
    sl->prior_open = 1;
    keep(sl, d);
    tt_mutex_unlock(sv->lock);
    ttcp_server_launch(sv, sl);
}

int ttcp_peer_claim_udp(struct ttcp_server *sv, const struct tt_datagram *d)
{
    const struct ttcp_peer *tool = NULL;
    enum ttcp_peer_udp_verdict v = TTCP_PEER_UDP_NO;
    size_t k, len = d->len > TTCP_UDP_MAX_BUFLEN ? TTCP_UDP_MAX_BUFLEN : d->len;
    int taken;
    /* the rows' rule first, without the lock: a classic datagram costs no
     * more (every datagram of such a client carries what the rule reads) */
    for (k = 0; k < sv->obs->peer_count && v == TTCP_PEER_UDP_NO; k++) {
        tool = &sv->obs->peers[k];
        if (tool->serve_udp != NULL && tool->recognise_udp != NULL)
            v = tool->recognise_udp(d->buf, len);
    }
    if (v == TTCP_PEER_UDP_NO)
        return 0;
    tt_mutex_lock(sv->lock);
    taken = known(sv, d, tt_now_ns());
    tt_mutex_unlock(sv->lock);
    if (!taken && v == TTCP_PEER_UDP_START)
        start_flow(sv, tool, d);
    return 1; /* a late end of a test that is over, or of none: dropped */
}

int ttcp_peer_udp_prior(struct slot *sl, const struct tt_datagram **prior)
{
    int n;
    tt_mutex_lock(sl->server->lock);
    sl->prior_open = 0; /* the receiver keeps no more */
    n = sl->prior_count;
    tt_mutex_unlock(sl->server->lock);
    *prior = sl->prior;
    return n;
}
