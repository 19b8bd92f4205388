/* Winsock 2 behind the platform interface. */

/* The build targets Windows 7; SIO_TCP_INFO's declarations (Windows 10
 * 1703) are wanted here only, and the ioctl is tried at run time. */
#define NTDDI_VERSION 0x0A000003 /* NTDDI_WIN10_RS2 */

#include <string.h>
#include <winsock2.h>
#include <ws2tcpip.h>
#include <mstcpip.h>

#include "ttcp/platform.h"
#include "win.h"

#define LISTEN_BACKLOG 5
#define MAX_IO 0x40000000 /* Winsock lengths are int */

static SOCKET sock_of(tt_socket s)
{
    return (SOCKET)s;
}

static int check(int rc)
{
    return rc == SOCKET_ERROR ? tt_win_fail() : 0;
}

static int io_len(size_t len)
{
    return (int)(len > MAX_IO ? MAX_IO : len);
}

int tt_socket_open(int family, int udp, tt_socket *out)
{
    int af = family == TT_FAMILY_V4 ? AF_INET : AF_INET6;
    SOCKET s = socket(af, udp ? SOCK_DGRAM : SOCK_STREAM, udp ? IPPROTO_UDP : IPPROTO_TCP);
    DWORD v6only = family == TT_FAMILY_V6;

    if (s == INVALID_SOCKET)
        return tt_win_fail();
    /* TT_FAMILY_ANY is one IPv6 socket that takes IPv4 too. */
    if (af == AF_INET6 &&
        setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, (const char *)&v6only, sizeof v6only) != 0) {
        int rc = tt_win_fail();
        closesocket(s);
        return rc;
    }
    *out = (tt_socket)s;
    return 0;
}

static int set_int(tt_socket s, int level, int name, int value)
{
    return check(setsockopt(sock_of(s), level, name, (const char *)&value, sizeof value));
}

/* Delayed ACK off: one ACK per segment (Windows 8 and later; it stays set). */
static int set_ack_every_segment(tt_socket s)
{
    TCP_ACK_FREQUENCY_PARAMETERS every = {1};
    DWORD got = 0;
    if (WSAIoctl(sock_of(s), SIO_TCP_SET_ACK_FREQUENCY, &every, sizeof every, NULL, 0, &got,
                 NULL, NULL) != 0)
        return tt_win_fail();
    return 0;
}

int tt_setopt(tt_socket s, enum tt_sockopt opt, int value)
{
    DWORD ms = (DWORD)value;
    switch (opt) {
    case TT_OPT_SNDBUF: return set_int(s, SOL_SOCKET, SO_SNDBUF, value);
    case TT_OPT_RCVBUF: return set_int(s, SOL_SOCKET, SO_RCVBUF, value);
    case TT_OPT_NODELAY: return set_int(s, IPPROTO_TCP, TCP_NODELAY, value);
    case TT_OPT_DEBUG: return set_int(s, SOL_SOCKET, SO_DEBUG, value);
    case TT_OPT_REUSEADDR:
        /* Windows' SO_REUSEADDR would let a second receiver steal the port;
         * a listener is free to rebind here anyway. Keep the port ours. */
        return set_int(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, value);
    case TT_OPT_RCVTIMEO_MS:
        return check(setsockopt(sock_of(s), SOL_SOCKET, SO_RCVTIMEO, (const char *)&ms, sizeof ms));
    case TT_OPT_QUICKACK:
        return set_ack_every_segment(s);
    case TT_OPT_TIMESTAMPS:
        return TT_E_UNSUPPORTED; /* arrival is stamped at return instead */
    }
    return TT_E_UNSUPPORTED;
}

int tt_getopt(tt_socket s, enum tt_sockopt opt, int *value)
{
    int len = sizeof *value;
    int name = opt == TT_OPT_SNDBUF ? SO_SNDBUF : opt == TT_OPT_RCVBUF ? SO_RCVBUF : -1;
    if (name < 0)
        return TT_E_UNSUPPORTED;
    return check(getsockopt(sock_of(s), SOL_SOCKET, name, (char *)value, &len));
}

int tt_bind(tt_socket s, const struct tt_addr *a)
{
    return check(bind(sock_of(s), (const struct sockaddr *)a->storage.bytes, (int)a->len));
}

int tt_listen(tt_socket s)
{
    return check(listen(sock_of(s), LISTEN_BACKLOG));
}

int tt_accept(tt_socket s, tt_socket *out, struct tt_addr *peer)
{
    int len = (int)sizeof peer->storage.bytes;
    SOCKET c = accept(sock_of(s), (struct sockaddr *)peer->storage.bytes, &len);
    if (c == INVALID_SOCKET)
        return tt_win_fail();
    peer->len = (uint32_t)len;
    peer->family = ((struct sockaddr *)peer->storage.bytes)->sa_family == AF_INET6
                       ? TT_FAMILY_V6 : TT_FAMILY_V4;
    *out = (tt_socket)c;
    return 0;
}

int tt_connect(tt_socket s, const struct tt_addr *a)
{
    return check(connect(sock_of(s), (const struct sockaddr *)a->storage.bytes, (int)a->len));
}

/* A receive timeout (SO_RCVTIMEO) is WSAETIMEDOUT here, EAGAIN elsewhere. */
static int64_t recv_fail(void)
{
    return WSAGetLastError() == WSAETIMEDOUT ? TT_E_AGAIN : tt_win_fail();
}

int64_t tt_send(tt_socket s, const void *buf, size_t len)
{
    int n = send(sock_of(s), buf, io_len(len), 0);
    return n == SOCKET_ERROR ? tt_win_fail() : n;
}

int64_t tt_recv(tt_socket s, void *buf, size_t len)
{
    int n = recv(sock_of(s), buf, io_len(len), 0);
    return n == SOCKET_ERROR ? recv_fail() : n;
}

int64_t tt_sendto(tt_socket s, const void *buf, size_t len, const struct tt_addr *to)
{
    int n = sendto(sock_of(s), buf, io_len(len), 0, (const struct sockaddr *)to->storage.bytes,
                   (int)to->len);
    return n == SOCKET_ERROR ? tt_win_fail() : n;
}

/* A datagram longer than len fails with WSAEMSGSIZE after filling buf: it
 * is reported as len + 1 bytes, which the caller reads as "cut short". */
int64_t tt_recvfrom(tt_socket s, void *buf, size_t len, struct tt_addr *from)
{
    int fromlen = from ? (int)sizeof from->storage.bytes : 0;
    int n = recvfrom(sock_of(s), buf, io_len(len), 0,
                     from ? (struct sockaddr *)from->storage.bytes : NULL, from ? &fromlen : NULL);
    if (n == SOCKET_ERROR && WSAGetLastError() == WSAEMSGSIZE)
        return (int64_t)len + 1;
    if (n == SOCKET_ERROR)
        return recv_fail();
    if (from != NULL)
        from->len = (uint32_t)fromlen;
    return n;
}

int64_t tt_recv_discard(tt_socket s, void *buf, size_t len)
{
    (void)s; (void)buf; (void)len;
    return TT_E_UNSUPPORTED;
}

int tt_wait_readable(tt_socket s, int timeout_ms)
{
    fd_set readable;
    struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    int rc;
    FD_ZERO(&readable);
    FD_SET(sock_of(s), &readable);
    rc = select(0, &readable, NULL, NULL, &tv);
    return rc == SOCKET_ERROR ? tt_win_fail() : rc > 0;
}

int tt_shutdown_send(tt_socket s)
{
    return check(shutdown(sock_of(s), SD_SEND));
}

/* SIO_TCP_INFO: Windows 10 1703 and later; elsewhere, and under Wine, the
 * answer is "unsupported". */
static int query_tcp_info(tt_socket s, TCP_INFO_v0 *info)
{
    DWORD version = 0, got = 0;
    if (WSAIoctl(sock_of(s), SIO_TCP_INFO, &version, sizeof version, info, sizeof *info, &got,
                 NULL, NULL) != 0)
        return TT_E_UNSUPPORTED;
    return 0;
}

int64_t tt_unacked_bytes(tt_socket s)
{
    TCP_INFO_v0 info;
    int rc = query_tcp_info(s, &info);
    return rc != 0 ? rc : (int64_t)info.BytesInFlight;
}

int tt_tcp_info(tt_socket s, struct tt_tcp_info *out)
{
    TCP_INFO_v0 info;
    int rc = query_tcp_info(s, &info);
    memset(out, 0, sizeof *out);
    if (rc != 0)
        return rc;
    out->mss = info.Mss;
    out->snd_wnd = info.SndWnd;
    out->rcv_wnd = info.RcvWnd;
    out->cwnd = info.Cwnd;
    out->srtt_us = info.RttUs;
    out->retransmits = info.FastRetrans + info.TimeoutEpisodes;
    return 0;
}

void tt_close(tt_socket s)
{
    if (s != TT_NO_SOCKET)
        closesocket(sock_of(s));
}
