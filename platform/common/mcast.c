/* UDP multicast: the sender's hop limit and interface, a receiver's group
 * membership (any-source or source-specific). The same socket options on
 * every system; only finding an interface differs (each net.c). */
#include <string.h>

#include "sockets.h"
#include "ttcp/platform.h"

static const struct sockaddr *sa(const struct tt_addr *a)
{
    return (const struct sockaddr *)a->storage.bytes;
}

static int setopt(tt_socket s, int level, int name, const void *value, int len)
{
    /* Winsock takes a char pointer, POSIX a void one */
    if (setsockopt((int)s, level, name, (const char *)value, len) != 0)
        return tt_socket_fail();
    return 0;
}

/* ifname's index and IPv4 address; TT_E_INVAL when it names nothing here. */
static int find_interface(const char *ifname, unsigned *index, struct in_addr *v4)
{
    *index = 0;
    v4->s_addr = htonl(INADDR_ANY);
    if (ifname == NULL)
        return 0;
    if (tt_interface(ifname, index, v4) != 0) {
        tt_set_native_error(0);
        return TT_E_INVAL;
    }
    return 0;
}

int tt_mcast_sender(tt_socket s, int family, int ttl, const char *ifname)
{
    unsigned index;
    struct in_addr v4;
    int rc = find_interface(ifname, &index, &v4), on = 1;
    if (rc != 0)
        return rc;
    if (family == TT_FAMILY_V6) {
        rc = setopt(s, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &ttl, sizeof ttl);
        if (rc == 0)
            rc = setopt(s, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &on, sizeof on);
        if (rc == 0 && ifname != NULL)
            rc = setopt(s, IPPROTO_IPV6, IPV6_MULTICAST_IF, &index, sizeof index);
        return rc;
    }
    rc = setopt(s, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl);
    if (rc == 0)
        rc = setopt(s, IPPROTO_IP, IP_MULTICAST_LOOP, &on, sizeof on);
    if (rc == 0 && ifname != NULL)
        rc = setopt(s, IPPROTO_IP, IP_MULTICAST_IF, &v4, sizeof v4);
    return rc;
}

int tt_mcast_ttl(tt_socket s, int family, int *ttl)
{
    unsigned char small = 0;
    int value = 0;
    socklen_t len = sizeof value;
    int level = family == TT_FAMILY_V6 ? IPPROTO_IPV6 : IPPROTO_IP;
    int name = family == TT_FAMILY_V6 ? IPV6_MULTICAST_HOPS : IP_MULTICAST_TTL;
    if (getsockopt((int)s, level, name, (char *)&value, &len) != 0)
        return tt_socket_fail();
    if (len == 1) { /* some systems answer in one byte */
        memcpy(&small, &value, 1);
        value = small;
    }
    *ttl = value;
    return 0;
}

/* Source-specific, either family: the protocol-independent request. */
static int join_source(tt_socket s, const struct tt_addr *group, const struct tt_addr *source,
                       unsigned index)
{
    struct group_source_req req;
    int level = group->family == TT_FAMILY_V6 ? IPPROTO_IPV6 : IPPROTO_IP;
    memset(&req, 0, sizeof req);
    req.gsr_interface = index;
    memcpy(&req.gsr_group, group->storage.bytes, group->len);
    memcpy(&req.gsr_source, source->storage.bytes, source->len);
    return setopt(s, level, MCAST_JOIN_SOURCE_GROUP, &req, sizeof req);
}

int tt_mcast_join(tt_socket s, const struct tt_addr *group, const struct tt_addr *source,
                  const char *ifname)
{
    unsigned index;
    struct in_addr v4;
    int rc = find_interface(ifname, &index, &v4), off = 0;
    if (rc != 0)
        return rc;
#ifdef IP_MULTICAST_ALL
    /* Linux: a socket bound to a port gets the datagrams of every group any
     * socket joined, unless told to keep to its own */
    if (group->family == TT_FAMILY_V4)
        setopt(s, IPPROTO_IP, IP_MULTICAST_ALL, &off, sizeof off);
#endif
    (void)off;
    if (source != NULL && (source->family == TT_FAMILY_V6 || index != 0 || ifname == NULL))
        return join_source(s, group, source, index);
    if (source != NULL) { /* IPv4, an interface given by its address */
        struct ip_mreq_source req;
        memset(&req, 0, sizeof req);
        req.imr_multiaddr = ((const struct sockaddr_in *)sa(group))->sin_addr;
        req.imr_sourceaddr = ((const struct sockaddr_in *)sa(source))->sin_addr;
        req.imr_interface = v4;
        return setopt(s, IPPROTO_IP, IP_ADD_SOURCE_MEMBERSHIP, &req, sizeof req);
    }
    if (group->family == TT_FAMILY_V6) {
        struct ipv6_mreq req;
        memset(&req, 0, sizeof req);
        req.ipv6mr_multiaddr = ((const struct sockaddr_in6 *)sa(group))->sin6_addr;
        req.ipv6mr_interface = index;
        return setopt(s, IPPROTO_IPV6, IPV6_JOIN_GROUP, &req, sizeof req);
    }
    {
        struct ip_mreq req;
        memset(&req, 0, sizeof req);
        req.imr_multiaddr = ((const struct sockaddr_in *)sa(group))->sin_addr;
        req.imr_interface = v4;
        return setopt(s, IPPROTO_IP, IP_ADD_MEMBERSHIP, &req, sizeof req);
    }
}
