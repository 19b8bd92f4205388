/* BSD sockets behind the platform interface. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "posix.h"
#include "sockets.h"
#include "ttcp/platform.h"

#define LISTEN_BACKLOG 5

static int fd_of(tt_socket s)
{
    return (int)s;
}

static int check(int rc)
{
    return rc < 0 ? tt_posix_fail() : 0;
}

int tt_socket_open(int family, int udp, tt_socket *out)
{
    int af = family == TT_FAMILY_V4 ? AF_INET : AF_INET6;
    int fd = socket(af, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
    int v6only = family == TT_FAMILY_V6;

    if (fd < 0)
        return tt_posix_fail();
    /* TT_FAMILY_ANY is one IPv6 socket that takes IPv4 too. */
    if (af == AF_INET6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only) != 0) {
        int rc = tt_posix_fail();
        close(fd);
        return rc;
    }
    *out = fd;
    return 0;
}

/* The socket's address family (an unbound socket has one too). */
static int family_of(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    memset(&ss, 0, sizeof ss);
    return getsockname(fd, (struct sockaddr *)&ss, &len) == 0 ? ss.ss_family : AF_UNSPEC;
}

/* TT_OPT_TOS: IPv4's TOS byte, or IPv6's traffic class. */
static int tos_level(int fd, int *name)
{
    if (family_of(fd) == AF_INET6) {
        *name = IPV6_TCLASS;
        return IPPROTO_IPV6;
    }
    *name = IP_TOS;
    return IPPROTO_IP;
}

/* TT_OPT_DONTFRAG: IP_PMTUDISC_DO never fragments (Linux); IPV6_DONTFRAG
 * elsewhere. A dual-stack IPv6 socket sends IPv4 too: both levels. */
static int dont_fragment(int fd, int value)
{
#if defined(IP_MTU_DISCOVER) && defined(IPV6_MTU_DISCOVER)
    int v4 = value ? IP_PMTUDISC_DO : IP_PMTUDISC_WANT;
    int v6 = value ? IPV6_PMTUDISC_DO : IPV6_PMTUDISC_WANT;
    if (family_of(fd) == AF_INET6 &&
        setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &v6, sizeof v6) != 0)
        return tt_posix_fail();
    return check(setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v4, sizeof v4));
#elif defined(IP_DONTFRAG) && defined(IPV6_DONTFRAG)
    if (family_of(fd) == AF_INET6)
        return check(setsockopt(fd, IPPROTO_IPV6, IPV6_DONTFRAG, &value, sizeof value));
    return check(setsockopt(fd, IPPROTO_IP, IP_DONTFRAG, &value, sizeof value));
#else
    (void)fd, (void)value;
    return TT_E_UNSUPPORTED;
#endif
}

/* TT_OPT_PATH_MTU: IP_MTU / IPV6_MTU of a connected socket (Linux). */
static int path_mtu(int fd, int *value)
{
#if defined(IP_MTU) && defined(IPV6_MTU)
    socklen_t len = sizeof *value;
    if (family_of(fd) == AF_INET6)
        return check(getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, value, &len));
    return check(getsockopt(fd, IPPROTO_IP, IP_MTU, value, &len));
#else
    (void)fd, (void)value;
    return TT_E_UNSUPPORTED;
#endif
}

int tt_setopt(tt_socket s, enum tt_sockopt opt, int value)
{
    int fd = fd_of(s);
    struct timeval tv;

    switch (opt) {
    case TT_OPT_SNDBUF:
        return check(setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &value, sizeof value));
    case TT_OPT_RCVBUF:
        return check(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &value, sizeof value));
    case TT_OPT_NODELAY:
        return check(setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &value, sizeof value));
    case TT_OPT_DEBUG:
        return check(setsockopt(fd, SOL_SOCKET, SO_DEBUG, &value, sizeof value));
    case TT_OPT_REUSEADDR:
    case TT_OPT_SHARE_PORT:
        return check(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &value, sizeof value));
    case TT_OPT_RCVTIMEO_MS:
        tv.tv_sec = value / 1000;
        tv.tv_usec = (value % 1000) * 1000;
        return check(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv));
    case TT_OPT_SNDTIMEO_MS:
        tv.tv_sec = value / 1000;
        tv.tv_usec = (value % 1000) * 1000;
        return check(setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv));
    case TT_OPT_QUICKACK:
#ifdef TCP_QUICKACK
        return check(setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &value, sizeof value));
#else
        return TT_E_UNSUPPORTED;
#endif
    case TT_OPT_RCVLOWAT:
        return check(setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &value, sizeof value));
    case TT_OPT_TIMESTAMPS:
#ifdef SO_TIMESTAMPNS
        return check(setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &value, sizeof value));
#else
        return TT_E_UNSUPPORTED;
#endif
    case TT_OPT_MAXSEG:
        return check(setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &value, sizeof value));
    case TT_OPT_TOS: {
        int name, level = tos_level(fd, &name);
        /* a dual-stack IPv6 socket's IPv4 packets (an accepted IPv4 client's,
         * a server's UDP stream to one) take IP_TOS, not the traffic class:
         * both, where the system lets an IPv6 socket have it */
        if (level == IPPROTO_IPV6)
            (void)setsockopt(fd, IPPROTO_IP, IP_TOS, &value, sizeof value);
        return check(setsockopt(fd, level, name, &value, sizeof value));
    }
    case TT_OPT_DONTFRAG:
        return dont_fragment(fd, value);
    case TT_OPT_PATH_MTU:
        return TT_E_UNSUPPORTED; /* read only */
    }
    return TT_E_UNSUPPORTED;
}

/* Linux clears TCP_QUICKACK after the next receive; where there is no
 * TCP_QUICKACK, setting it fails anyway. */
int tt_quickack_sticky(void)
{
    return 0;
}

int tt_getopt(tt_socket s, enum tt_sockopt opt, int *value)
{
    socklen_t len = sizeof *value;
    int name = opt == TT_OPT_SNDBUF ? SO_SNDBUF : opt == TT_OPT_RCVBUF ? SO_RCVBUF : -1;
    if (opt == TT_OPT_PATH_MTU)
        return path_mtu(fd_of(s), value);
    if (opt == TT_OPT_TOS) {
        int level = tos_level(fd_of(s), &name);
        return check(getsockopt(fd_of(s), level, name, value, &len));
    }
    if (name < 0)
        return TT_E_UNSUPPORTED;
    return check(getsockopt(fd_of(s), SOL_SOCKET, name, value, &len));
}

int tt_bind(tt_socket s, const struct tt_addr *a)
{
    return check(bind(fd_of(s), (const struct sockaddr *)a->storage.bytes, a->len));
}

int tt_listen(tt_socket s, int backlog)
{
    return check(listen(fd_of(s), backlog > 0 ? backlog : LISTEN_BACKLOG));
}

int tt_accept(tt_socket s, tt_socket *out, struct tt_addr *peer)
{
    socklen_t len = sizeof peer->storage.bytes;
    int fd = accept(fd_of(s), (struct sockaddr *)peer->storage.bytes, &len);
    if (fd < 0)
        return tt_posix_fail();
    peer->len = len;
    peer->family = ((struct sockaddr *)peer->storage.bytes)->sa_family == AF_INET6
                       ? TT_FAMILY_V6 : TT_FAMILY_V4;
    *out = fd;
    return 0;
}

int tt_local_addr(tt_socket s, struct tt_addr *out)
{
    socklen_t len = sizeof out->storage.bytes;
    memset(out, 0, sizeof *out);
    if (getsockname(fd_of(s), (struct sockaddr *)out->storage.bytes, &len) != 0)
        return tt_posix_fail();
    out->len = len;
    out->family = ((struct sockaddr *)out->storage.bytes)->sa_family == AF_INET6
                      ? TT_FAMILY_V6 : TT_FAMILY_V4;
    return 0;
}

/* The connect of a socket with TT_OPT_SNDTIMEO_MS set: non-blocking, then
 * a wait of at most that long (Linux's connect would honour SO_SNDTIMEO by
 * itself, the BSDs' would not: the same bound everywhere). */
static int connect_within(int fd, const struct tt_addr *a, const struct timeval *tv)
{
    struct pollfd p = {fd, POLLOUT, 0};
    int flags = fcntl(fd, F_GETFL), rc, err = 0, saved;
    socklen_t len = sizeof err;
    int64_t ms = (int64_t)tv->tv_sec * 1000 + (tv->tv_usec + 999) / 1000;
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)
        return tt_posix_fail();
    rc = connect(fd, (const struct sockaddr *)a->storage.bytes, a->len);
    if (rc != 0 && errno == EINPROGRESS) {
        rc = poll(&p, 1, ms > 0x7fffffff ? 0x7fffffff : (int)ms); /* EINTR: Ctrl+C */
        if (rc == 0) {
            errno = ETIMEDOUT;
            rc = -1;
        } else if (rc > 0) {
            rc = getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
            if (rc == 0 && err != 0) {
                errno = err;
                rc = -1;
            }
        }
    }
    saved = errno;
    fcntl(fd, F_SETFL, flags);
    errno = saved;
    return check(rc);
}

int tt_connect(tt_socket s, const struct tt_addr *a)
{
    struct timeval tv = {0, 0};
    socklen_t len = sizeof tv;
    int fd = fd_of(s);
    if (getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, &len) == 0 && (tv.tv_sec || tv.tv_usec))
        return connect_within(fd, a, &tv);
    return check(connect(fd, (const struct sockaddr *)a->storage.bytes, a->len));
}

int64_t tt_send(tt_socket s, const void *buf, size_t len)
{
    ssize_t n = send(fd_of(s), buf, len, MSG_NOSIGNAL);
    return n < 0 ? tt_posix_fail() : (int64_t)n;
}

int64_t tt_recv(tt_socket s, void *buf, size_t len)
{
    ssize_t n = recv(fd_of(s), buf, len, 0);
    return n < 0 ? tt_posix_fail() : (int64_t)n;
}

int64_t tt_recv_discard(tt_socket s, void *buf, size_t len)
{
#ifdef __linux__
    /* Linux's TCP takes MSG_TRUNC as "drop these bytes": no copy to user space */
    ssize_t n = recv(fd_of(s), buf, len, MSG_TRUNC);
    return n < 0 ? tt_posix_fail() : (int64_t)n;
#else
    (void)s; (void)buf; (void)len;
    return TT_E_UNSUPPORTED;
#endif
}

int64_t tt_sendto(tt_socket s, const void *buf, size_t len, const struct tt_addr *to)
{
    ssize_t n = sendto(fd_of(s), buf, len, 0,
                       to ? (const struct sockaddr *)to->storage.bytes : NULL, to ? to->len : 0);
    return n < 0 ? tt_posix_fail() : (int64_t)n;
}

void tt_posix_sender(struct tt_addr *from, unsigned len)
{
    from->len = len;
    from->family = ((struct sockaddr *)from->storage.bytes)->sa_family == AF_INET6 ? TT_FAMILY_V6
                                                                                 : TT_FAMILY_V4;
}

/* recvmsg so a datagram longer than len is noticed (MSG_TRUNC): it is
 * reported as len + 1 bytes, which the caller reads as "cut short". */
int64_t tt_recvfrom(tt_socket s, void *buf, size_t len, struct tt_addr *from)
{
    struct iovec iov = {buf, len};
    struct msghdr msg;
    ssize_t n;

    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (from != NULL) {
        msg.msg_name = from->storage.bytes;
        msg.msg_namelen = sizeof from->storage.bytes;
    }
    n = recvmsg(fd_of(s), &msg, 0);
    if (n < 0)
        return tt_posix_fail();
    if (from != NULL)
        tt_posix_sender(from, msg.msg_namelen);
    return (msg.msg_flags & MSG_TRUNC) ? (int64_t)len + 1 : (int64_t)n;
}

int tt_wait_readable(tt_socket s, int timeout_ms)
{
    struct pollfd p = {fd_of(s), POLLIN, 0};
    int rc = poll(&p, 1, timeout_ms);
    return rc < 0 ? tt_posix_fail() : rc > 0;
}

int64_t tt_recv_peek(tt_socket s, void *buf, size_t len)
{
    ssize_t n = recv(fd_of(s), buf, len, MSG_PEEK | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return TT_E_AGAIN;
    return n < 0 ? tt_posix_fail() : n;
}

int tt_poll_readable(const tt_socket *s, int count, int timeout_ms, unsigned char *ready)
{
    struct pollfd p[TT_POLL_MAX];
    int i, rc;
    if (count < 0 || count > TT_POLL_MAX)
        return TT_E_INVAL;
    for (i = 0; i < count; i++) {
        p[i].fd = fd_of(s[i]);
        p[i].events = POLLIN;
        p[i].revents = 0;
    }
    rc = poll(p, (nfds_t)count, timeout_ms);
    if (rc < 0)
        return tt_posix_fail();
    for (i = 0; i < count; i++)
        ready[i] = (p[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0;
    return rc;
}

int tt_shutdown_send(tt_socket s)
{
    return check(shutdown(fd_of(s), SHUT_WR));
}

int tt_shutdown_both(tt_socket s)
{
    return check(shutdown(fd_of(s), SHUT_RDWR));
}

void tt_close(tt_socket s)
{
    if (s != TT_NO_SOCKET)
        close(fd_of(s));
}

/* The first IPv4 address of interface name (or INADDR_ANY), and, when
 * name is NULL, the name of the interface that has address *v4. */
static void scan_interfaces(const char *name, struct in_addr *v4, unsigned *index)
{
    struct ifaddrs *list, *i;
    if (getifaddrs(&list) != 0)
        return;
    for (i = list; i != NULL; i = i->ifa_next) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)i->ifa_addr;
        if (a == NULL || a->sin_family != AF_INET)
            continue;
        if (name == NULL && a->sin_addr.s_addr == v4->s_addr) {
            *index = if_nametoindex(i->ifa_name);
            break;
        }
        if (name != NULL && strcmp(i->ifa_name, name) == 0) {
            *v4 = a->sin_addr;
            break;
        }
    }
    freeifaddrs(list);
}

int tt_interface(const char *text, unsigned *index, struct in_addr *v4)
{
    char name[IF_NAMESIZE];
    *index = 0;
    v4->s_addr = htonl(INADDR_ANY);
    if (inet_pton(AF_INET, text, v4) == 1) {
        scan_interfaces(NULL, v4, index);
        return 0; /* an address of no interface: the OS says so when it is used */
    }
    if (text[0] != '\0' && strspn(text, "0123456789") == strlen(text)) {
        *index = (unsigned)strtoul(text, NULL, 10);
        if (if_indextoname(*index, name) == NULL)
            return -1;
    } else {
        *index = if_nametoindex(text);
        if (*index == 0 || strlen(text) >= sizeof name)
            return -1;
        strcpy(name, text);
    }
    scan_interfaces(name, v4, index);
    return 0;
}
