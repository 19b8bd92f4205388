/* Name resolution and address text: the same BSD calls on every system. */
#include <stdio.h>
#include <string.h>

#include "sockets.h"
#include "ttcp/platform.h"

static int family_of(int af)
{
    return af == AF_INET6 ? TT_FAMILY_V6 : TT_FAMILY_V4;
}

/* An IPv4-mapped IPv6 address ("::ffff:10.0.0.1") names that IPv4 host:
 * kept as IPv4, so the socket opened for it can reach it (an IPv6 socket of
 * ttcp's is IPv6-only). Not when IPv6 alone was asked for (-6). */
static void mapped_as_v4(struct tt_addr *a)
{
    struct sockaddr_in6 in6;
    struct sockaddr_in in;
    memcpy(&in6, a->storage.bytes, sizeof in6);
    if (!IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr))
        return;
    memset(&in, 0, sizeof in);
    in.sin_family = AF_INET;
    in.sin_port = in6.sin6_port;
    memcpy(&in.sin_addr, &in6.sin6_addr.s6_addr[12], 4);
    memset(a->storage.bytes, 0, sizeof a->storage.bytes);
    memcpy(a->storage.bytes, &in, sizeof in);
    a->len = sizeof in;
    a->family = TT_FAMILY_V4;
}

int tt_resolve(const char *host, uint16_t port, int family, int udp, struct tt_addr_list *out)
{
    struct addrinfo hints, *res, *ai;
    char service[8];
    int rc;

    memset(&hints, 0, sizeof hints);
    hints.ai_family = family == TT_FAMILY_V4 ? AF_INET : family == TT_FAMILY_V6 ? AF_INET6 : AF_UNSPEC;
    hints.ai_socktype = udp ? SOCK_DGRAM : SOCK_STREAM;
    snprintf(service, sizeof service, "%u", (unsigned)port);
    rc = getaddrinfo(host, service, &hints, &res);
    if (rc != 0) {
        tt_set_native_error(rc); /* the resolver's code is the native error here */
        return TT_E_NOHOST;
    }
    out->count = 0;
    for (ai = res; ai != NULL && out->count < TT_MAX_ADDRS; ai = ai->ai_next) {
        struct tt_addr *a = &out->addr[out->count];
        if (ai->ai_addrlen > sizeof a->storage.bytes)
            continue;
        memcpy(a->storage.bytes, ai->ai_addr, ai->ai_addrlen);
        a->len = (uint32_t)ai->ai_addrlen;
        a->family = family_of(ai->ai_family);
        if (family != TT_FAMILY_V6 && ai->ai_family == AF_INET6)
            mapped_as_v4(a);
        out->count++;
    }
    freeaddrinfo(res);
    return 0;
}

int tt_addr_any(int family, uint16_t port, struct tt_addr *out)
{
    memset(out, 0, sizeof *out);
    out->family = family;
    if (family == TT_FAMILY_V4) {
        struct sockaddr_in *sin = (struct sockaddr_in *)out->storage.bytes;
        sin->sin_family = AF_INET; /* 1.12 forgot this; Solaris minded */
        sin->sin_addr.s_addr = htonl(INADDR_ANY);
        sin->sin_port = htons(port);
        out->len = sizeof *sin;
    } else {
        struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)out->storage.bytes;
        sin6->sin6_family = AF_INET6;
        sin6->sin6_addr = in6addr_any;
        sin6->sin6_port = htons(port);
        out->len = sizeof *sin6;
    }
    return 0;
}

int tt_addr_from_native(const void *sockaddr, struct tt_addr *out)
{
    const struct sockaddr *sa = sockaddr;
    size_t len;
    memset(out, 0, sizeof *out);
    if (sa == NULL || (sa->sa_family != AF_INET && sa->sa_family != AF_INET6))
        return TT_E_INVAL;
    len = sa->sa_family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
    memcpy(out->storage.bytes, sa, len);
    out->len = (uint32_t)len;
    out->family = family_of(sa->sa_family);
    return 0;
}

const char *tt_addr_text(const struct tt_addr *a, char *buf, size_t len)
{
    const struct sockaddr *sa = (const struct sockaddr *)a->storage.bytes;
    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, (void *)&((const struct sockaddr_in *)sa)->sin_addr, buf, (socklen_t)len);
    } else if (sa->sa_family == AF_INET6) {
        const struct in6_addr *in6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(in6)) /* a dual-stack socket's IPv4 peer */
            inet_ntop(AF_INET, (void *)&in6->s6_addr[12], buf, (socklen_t)len);
        else
            inet_ntop(AF_INET6, (void *)in6, buf, (socklen_t)len);
    } else {
        snprintf(buf, len, "?");
    }
    return buf;
}

int tt_addr_ip(const struct tt_addr *a, unsigned char out[16])
{
    const struct sockaddr *sa = (const struct sockaddr *)a->storage.bytes;
    if (sa->sa_family == AF_INET) {
        memcpy(out, &((const struct sockaddr_in *)sa)->sin_addr, 4);
        return 4;
    }
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *in6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(in6)) {
            memcpy(out, &in6->s6_addr[12], 4);
            return 4;
        }
        memcpy(out, in6->s6_addr, 16);
        return 16;
    }
    return 0;
}

uint16_t tt_addr_port(const struct tt_addr *a)
{
    const struct sockaddr *sa = (const struct sockaddr *)a->storage.bytes;
    if (sa->sa_family == AF_INET)
        return ntohs(((const struct sockaddr_in *)sa)->sin_port);
    if (sa->sa_family == AF_INET6)
        return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
    return 0;
}

void tt_addr_set_port(struct tt_addr *a, uint16_t port)
{
    struct sockaddr *sa = (struct sockaddr *)a->storage.bytes;
    if (sa->sa_family == AF_INET)
        ((struct sockaddr_in *)sa)->sin_port = htons(port);
    else if (sa->sa_family == AF_INET6)
        ((struct sockaddr_in6 *)sa)->sin6_port = htons(port);
}

int tt_ip_parse(const char *text, unsigned char out[16])
{
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, text, &v4) == 1) {
        memcpy(out, &v4, 4);
        return 4;
    }
    if (inet_pton(AF_INET6, text, &v6) == 1) {
        if (IN6_IS_ADDR_V4MAPPED(&v6)) {
            memcpy(out, &v6.s6_addr[12], 4);
            return 4;
        }
        memcpy(out, v6.s6_addr, 16);
        return 16;
    }
    return 0;
}
