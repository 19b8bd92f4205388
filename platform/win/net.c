/* Winsock 2 behind the platform interface.
 *
 * Ctrl+C cannot interrupt a blocking Winsock call (the console handler runs
 * on a thread of its own), so every socket is non-blocking and each call
 * that would block waits in select() for at most WAIT_SLICE_MS at a time,
 * looking at the Ctrl+C flag between waits: it returns TT_E_INTR within
 * about that time after a Ctrl+C the core has not yet been told of. A call
 * the core begins knowing of the Ctrl+C waits as a blocking call would, so
 * what must still go out does: the UDP end markers. A call that can go
 * ahead makes the one system call it always made; a receive that waits
 * tries again after every slice, readable or not (receive_wait()). */

#define FD_SETSIZE 1024 /* a server polls up to TT_POLL_MAX sockets */
#include <string.h>
#include <winsock2.h>
#include <ws2tcpip.h>
#include <mstcpip.h>
#include <iphlpapi.h>
#include <netioapi.h>

#include "sockets.h"
#include "ttcp/platform.h"
#include "win.h"

#define LISTEN_BACKLOG 5
#define MAX_IO 0x40000000 /* Winsock lengths are int */
#define WAIT_SLICE_MS 100 /* longest wait between two looks at Ctrl+C */

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

static int set_nonblocking(SOCKET s)
{
    u_long on = 1;
    return ioctlsocket(s, FIONBIO, &on);
}

/* The call failed only because it would have had to wait. */
static int would_block(void)
{
    return WSAGetLastError() == WSAEWOULDBLOCK;
}

enum wait_for { FOR_READ, FOR_WRITE, FOR_CONNECT };

/* The slow path: waits until s can be read, written, or its connect has
 * ended, until deadline (tt_now_ns() time; 0 = no limit). Returns 1 when
 * ready, 0 at the deadline, TT_E_INTR when armed (the core had not been
 * told of a Ctrl+C when the call began) and Ctrl+C came, or a failure. */
static int wait_ready(SOCKET s, enum wait_for what, int64_t deadline, int armed)
{
    for (;;) {
        struct timeval tv = {0, WAIT_SLICE_MS * 1000};
        fd_set ready, failed;
        int rc;
        if (armed && tt_win_ctrl_c()) {
            WSASetLastError(WSAEINTR);
            return TT_E_INTR;
        }
        if (deadline != 0) {
            int64_t left_us = (deadline - tt_now_ns() + 999) / 1000;
            if (left_us <= 0)
                return 0;
            if (left_us < tv.tv_usec)
                tv.tv_usec = (long)left_us;
        }
        FD_ZERO(&ready);
        FD_SET(s, &ready);
        FD_ZERO(&failed);
        FD_SET(s, &failed); /* a connect that failed shows here, not as writable */
        rc = select(0, what == FOR_READ ? &ready : NULL, what == FOR_READ ? NULL : &ready,
                    what == FOR_CONNECT ? &failed : NULL, &tv);
        if (rc == SOCKET_ERROR)
            return tt_win_fail();
        if (rc > 0)
            return 1;
    }
}

/* When a receive that would block gives up: TT_OPT_RCVTIMEO_MS is kept as
 * SO_RCVTIMEO, which a non-blocking socket ignores; read back only here,
 * on the slow path. 0 = no limit. */
static int64_t deadline_of(SOCKET s, int option)
{
    DWORD ms = 0;
    int len = sizeof ms;
    if (getsockopt(s, SOL_SOCKET, option, (char *)&ms, &len) != 0 || ms == 0)
        return 0;
    return tt_now_ns() + (int64_t)ms * 1000000;
}

static int64_t receive_deadline(SOCKET s)
{
    return deadline_of(s, SO_RCVTIMEO);
}

/* Waits for a receive that would block, for one slice at most: 0 to try
 * the receive again, else the code to return (TT_E_AGAIN once the receive
 * timeout has passed, TT_E_INTR after Ctrl+C as wait_ready() says).
 *
 * The receive is tried again after every slice, whether select() saw
 * anything or not, because a socket shut down for receiving is not always
 * reported readable: tt_shutdown_both() from another thread is how a
 * blocked receive is woken (an iperf3 test's TEST_END), and Wine keeps
 * SD_RECEIVE as a flag of its own (it never shuts down the reading side of
 * the Linux socket underneath), so its select() waited on until the peer
 * sent or closed, which a client waiting for the results never does, or
 * until the receive timeout (a server's idle timeout, 30 s by default).
 * Winsock's own select() documentation does not count a local shutdown
 * among what makes a socket readable either. recv() says it on both: it
 * fails at once with WSAESHUTDOWN after shutdown(SD_RECEIVE or SD_BOTH)
 * (checked under Wine 8, and so documented for Windows), so the receive
 * ends within WAIT_SLICE_MS of the shutdown, for one system call per
 * slice spent waiting. */
static int receive_wait(SOCKET s, int64_t *deadline, int *asked, int armed)
{
    int64_t slice_end;
    int rc;
    if (!*asked) {
        *deadline = receive_deadline(s);
        *asked = 1;
    }
    slice_end = tt_now_ns() + (int64_t)WAIT_SLICE_MS * 1000000;
    rc = wait_ready(s, FOR_READ, *deadline != 0 && *deadline < slice_end ? *deadline : slice_end,
                    armed);
    if (rc == 0 && *deadline != 0 && tt_now_ns() >= *deadline) {
        WSASetLastError(WSAETIMEDOUT);
        return TT_E_AGAIN;
    }
    return rc < 0 ? rc : 0;
}

/* A receive that failed for good: after our own shutdown of the receiving
 * side (WSAESHUTDOWN, Winsock's only meaning of it on a receive), 0, the
 * end, as recv() gives after SHUT_RD on POSIX and the interface promises
 * after tt_shutdown_both(); anything else, its code. */
static int receive_failed(void)
{
    return WSAGetLastError() == WSAESHUTDOWN ? 0 : tt_win_fail();
}

int tt_socket_open(int family, int udp, tt_socket *out)
{
    int af = family == TT_FAMILY_V4 ? AF_INET : AF_INET6;
    SOCKET s = socket(af, udp ? SOCK_DGRAM : SOCK_STREAM, udp ? IPPROTO_UDP : IPPROTO_TCP);
    DWORD v6only = family == TT_FAMILY_V6;

    if (s == INVALID_SOCKET)
        return tt_win_fail();
    /* TT_FAMILY_ANY is one IPv6 socket that takes IPv4 too. */
    if ((af == AF_INET6 &&
         setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, (const char *)&v6only, sizeof v6only) != 0) ||
        set_nonblocking(s) != 0) {
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

/* The socket's address family (an unbound socket has one too). */
static int family_of(tt_socket s)
{
    WSAPROTOCOL_INFOW info;
    int len = sizeof info;
    if (getsockopt(sock_of(s), SOL_SOCKET, SO_PROTOCOL_INFOW, (char *)&info, &len) != 0)
        return AF_UNSPEC;
    return info.iAddressFamily;
}

/* TT_OPT_DONTFRAG: IP_DONTFRAGMENT, and IPV6_DONTFRAG on an IPv6 socket (a
 * dual-stack one sends IPv4 too: both). */
static int dont_fragment(tt_socket s, int value)
{
    if (family_of(s) == AF_INET6) {
        int rc = set_int(s, IPPROTO_IPV6, IPV6_DONTFRAG, value);
        if (rc != 0)
            return rc;
        (void)set_int(s, IPPROTO_IP, IP_DONTFRAGMENT, value); /* (an IPv6-only socket refuses) */
        return 0;
    }
    return set_int(s, IPPROTO_IP, IP_DONTFRAGMENT, value);
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
    case TT_OPT_SHARE_PORT: /* the server's UDP port: its tests' connected sockets share it */
        return set_int(s, SOL_SOCKET, SO_REUSEADDR, value);
    case TT_OPT_RCVTIMEO_MS: /* kept for receive_deadline() */
        return check(setsockopt(sock_of(s), SOL_SOCKET, SO_RCVTIMEO, (const char *)&ms, sizeof ms));
    case TT_OPT_SNDTIMEO_MS: /* kept for tt_send()'s slow path */
        return check(setsockopt(sock_of(s), SOL_SOCKET, SO_SNDTIMEO, (const char *)&ms, sizeof ms));
    case TT_OPT_QUICKACK:
        return set_ack_every_segment(s);
    case TT_OPT_TIMESTAMPS:
        return TT_E_UNSUPPORTED; /* arrival is stamped at return instead */
    case TT_OPT_RCVLOWAT:
        return TT_E_UNSUPPORTED; /* Winsock refuses SO_RCVLOWAT */
    case TT_OPT_MAXSEG:
        return TT_E_UNSUPPORTED; /* Winsock reads TCP_MAXSEG but does not set it */
    case TT_OPT_TOS:
        /* Winsock takes IP_TOS and ignores it: only a QoS policy of the
         * system's (New-NetQosPolicy -DSCPAction) marks a program's packets */
        return TT_E_UNSUPPORTED;
    case TT_OPT_DONTFRAG:
        return dont_fragment(s, value);
    case TT_OPT_PATH_MTU:
        return TT_E_UNSUPPORTED; /* read only */
    }
    return TT_E_UNSUPPORTED;
}

/* SIO_TCP_SET_ACK_FREQUENCY is a property of the socket: set once, kept. */
int tt_quickack_sticky(void)
{
    return 1;
}

int tt_getopt(tt_socket s, enum tt_sockopt opt, int *value)
{
    int len = sizeof *value;
    /* TT_OPT_TOS: unsupported, as in tt_setopt */
    int name = opt == TT_OPT_SNDBUF ? SO_SNDBUF : opt == TT_OPT_RCVBUF ? SO_RCVBUF : -1;
    if (opt == TT_OPT_PATH_MTU) { /* IP_MTU, Windows 10 and later (Wine: none) */
        int v6 = family_of(s) == AF_INET6, rc;
        DWORD mtu = 0;
        len = sizeof mtu;
        rc = getsockopt(sock_of(s), v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_MTU : IP_MTU,
                        (char *)&mtu, &len);
        if (rc != 0)
            return tt_win_fail(); /* WSAENOPROTOOPT: TT_E_UNSUPPORTED */
        *value = (int)mtu;
        return 0;
    }
    if (name < 0)
        return TT_E_UNSUPPORTED;
    return check(getsockopt(sock_of(s), SOL_SOCKET, name, (char *)value, &len));
}

int tt_bind(tt_socket s, const struct tt_addr *a)
{
    return check(bind(sock_of(s), (const struct sockaddr *)a->storage.bytes, (int)a->len));
}

int tt_listen(tt_socket s, int backlog)
{
    return check(listen(sock_of(s), backlog > 0 ? backlog : LISTEN_BACKLOG));
}

int tt_local_addr(tt_socket s, struct tt_addr *out)
{
    int len = (int)sizeof out->storage.bytes;
    memset(out, 0, sizeof *out);
    if (getsockname(sock_of(s), (struct sockaddr *)out->storage.bytes, &len) != 0)
        return tt_win_fail();
    out->len = (uint32_t)len;
    out->family = ((struct sockaddr *)out->storage.bytes)->sa_family == AF_INET6
                      ? TT_FAMILY_V6 : TT_FAMILY_V4;
    return 0;
}

int tt_accept(tt_socket s, tt_socket *out, struct tt_addr *peer)
{
    int armed = !tt_win_ctrl_c_told();
    SOCKET c;
    for (;;) {
        int len = (int)sizeof peer->storage.bytes, rc;
        c = accept(sock_of(s), (struct sockaddr *)peer->storage.bytes, &len);
        if (c != INVALID_SOCKET) {
            peer->len = (uint32_t)len;
            break;
        }
        if (!would_block())
            return tt_win_fail();
        rc = wait_ready(sock_of(s), FOR_READ, 0, armed);
        if (rc < 0)
            return rc;
    }
    if (set_nonblocking(c) != 0) {
        int rc = tt_win_fail();
        closesocket(c);
        return rc;
    }
    peer->family = ((struct sockaddr *)peer->storage.bytes)->sa_family == AF_INET6
                       ? TT_FAMILY_V6 : TT_FAMILY_V4;
    *out = (tt_socket)c;
    return 0;
}

/* A non-blocking connect goes on in the background: wait for it, then ask
 * how it ended. */
int tt_connect(tt_socket s, const struct tt_addr *a)
{
    int rc, err = 0, len = sizeof err, armed = !tt_win_ctrl_c_told();
    if (connect(sock_of(s), (const struct sockaddr *)a->storage.bytes, (int)a->len) == 0)
        return 0;
    if (!would_block())
        return tt_win_fail();
    rc = wait_ready(sock_of(s), FOR_CONNECT, deadline_of(sock_of(s), SO_SNDTIMEO), armed);
    if (rc == 0) { /* TT_OPT_SNDTIMEO_MS bounds a connect too */
        WSASetLastError(WSAETIMEDOUT);
        return TT_E_TIMEDOUT;
    }
    if (rc < 0)
        return rc;
    if (getsockopt(sock_of(s), SOL_SOCKET, SO_ERROR, (char *)&err, &len) != 0)
        return tt_win_fail();
    if (err != 0) {
        WSASetLastError(err);
        return tt_win_code(err);
    }
    return 0;
}

/* As a blocking send: returns when all of it went (one I/O call, however
 * many pieces the non-blocking socket took it in), or with what went before
 * Ctrl+C or a failure, which the next call then reports. */
int64_t tt_send(tt_socket s, const void *buf, size_t len)
{
    const char *p = buf;
    int want = io_len(len), done = 0, armed = !tt_win_ctrl_c_told(), asked = 0;
    int64_t deadline = 0;
    for (;;) {
        int n = send(sock_of(s), p + done, want - done, 0), rc;
        if (n != SOCKET_ERROR) {
            done += n;
            if (done == want)
                return done;
        } else if (!would_block()) {
            return done > 0 ? done : tt_win_fail();
        }
        if (!asked) {
            deadline = deadline_of(sock_of(s), SO_SNDTIMEO);
            asked = 1;
        }
        rc = wait_ready(sock_of(s), FOR_WRITE, deadline, armed);
        if (rc == 0) {
            WSASetLastError(WSAETIMEDOUT);
            rc = TT_E_AGAIN;
        }
        if (rc < 0)
            return done > 0 ? done : rc;
    }
}

/* A receive timeout is TT_E_AGAIN, as EAGAIN elsewhere. */
int64_t tt_recv(tt_socket s, void *buf, size_t len)
{
    int64_t deadline = 0;
    int asked = 0, armed = !tt_win_ctrl_c_told();
    for (;;) {
        int n = recv(sock_of(s), buf, io_len(len), 0), rc;
        if (n != SOCKET_ERROR)
            return n;
        if (!would_block())
            return receive_failed();
        rc = receive_wait(sock_of(s), &deadline, &asked, armed);
        if (rc != 0)
            return rc;
    }
}

int64_t tt_sendto(tt_socket s, const void *buf, size_t len, const struct tt_addr *to)
{
    int armed = !tt_win_ctrl_c_told();
    for (;;) {
        int n = sendto(sock_of(s), buf, io_len(len), 0,
                       to ? (const struct sockaddr *)to->storage.bytes : NULL, to ? (int)to->len : 0),
            rc;
        if (n != SOCKET_ERROR)
            return n;
        if (!would_block())
            return tt_win_fail();
        rc = wait_ready(sock_of(s), FOR_WRITE, 0, armed);
        if (rc < 0)
            return rc;
    }
}

/* A datagram longer than len fails with WSAEMSGSIZE after filling buf: it
 * is reported as len + 1 bytes, which the caller reads as "cut short". */
int64_t tt_recvfrom(tt_socket s, void *buf, size_t len, struct tt_addr *from)
{
    int64_t deadline = 0;
    int asked = 0, armed = !tt_win_ctrl_c_told();
    for (;;) {
        int fromlen = from ? (int)sizeof from->storage.bytes : 0, rc;
        int n = recvfrom(sock_of(s), buf, io_len(len), 0,
                         from ? (struct sockaddr *)from->storage.bytes : NULL,
                         from ? &fromlen : NULL);
        int64_t got = n == SOCKET_ERROR && WSAGetLastError() == WSAEMSGSIZE ? (int64_t)len + 1 : n;
        if (got != SOCKET_ERROR) {
            /* a length left as it was: no sender filled in (len 0: unknown) */
            if (from != NULL) {
                from->len = fromlen < (int)sizeof from->storage.bytes ? (uint32_t)fromlen : 0;
                from->family = ((struct sockaddr *)from->storage.bytes)->sa_family == AF_INET6
                                   ? TT_FAMILY_V6 : TT_FAMILY_V4;
            }
            return got;
        }
        if (!would_block())
            return tt_win_fail();
        rc = receive_wait(sock_of(s), &deadline, &asked, armed);
        if (rc != 0)
            return rc;
    }
}

int64_t tt_recv_discard(tt_socket s, void *buf, size_t len)
{
    (void)s; (void)buf; (void)len;
    return TT_E_UNSUPPORTED;
}

/* 1 when readable, 0 on timeout (0 ms: a look, no wait; < 0: no limit);
 * TT_E_INTR after Ctrl+C, as poll() gives EINTR on POSIX. */
int tt_wait_readable(tt_socket s, int timeout_ms)
{
    fd_set readable;
    struct timeval now = {0, 0};
    int rc;
    if (timeout_ms != 0)
        return wait_ready(sock_of(s), FOR_READ,
                          timeout_ms < 0 ? 0 : tt_now_ns() + (int64_t)timeout_ms * 1000000,
                          !tt_win_ctrl_c_told());
    FD_ZERO(&readable);
    FD_SET(sock_of(s), &readable);
    rc = select(0, &readable, NULL, NULL, &now);
    return rc == SOCKET_ERROR ? tt_win_fail() : rc > 0;
}

int64_t tt_recv_peek(tt_socket s, void *buf, size_t len)
{
    int n = recv(sock_of(s), buf, io_len(len), MSG_PEEK);
    if (n == SOCKET_ERROR && would_block())
        return TT_E_AGAIN;
    return n == SOCKET_ERROR ? tt_win_fail() : n;
}

int tt_poll_readable(const tt_socket *s, int count, int timeout_ms, unsigned char *ready)
{
    fd_set readable;
    struct timeval tv;
    int i, rc;
    if (count < 0 || count > TT_POLL_MAX || count > FD_SETSIZE)
        return TT_E_INVAL;
    FD_ZERO(&readable);
    for (i = 0; i < count; i++)
        FD_SET(sock_of(s[i]), &readable);
    tv.tv_sec = timeout_ms / 1000;
    tv.tv_usec = (timeout_ms % 1000) * 1000;
    if (count == 0) { /* select() with no sockets fails on Windows */
        Sleep((DWORD)timeout_ms);
        return 0;
    }
    rc = select(0, &readable, NULL, NULL, &tv);
    if (rc == SOCKET_ERROR)
        return tt_win_fail();
    for (i = 0; i < count; i++)
        ready[i] = FD_ISSET(sock_of(s[i]), &readable) != 0;
    return rc;
}

int tt_shutdown_send(tt_socket s)
{
    return check(shutdown(sock_of(s), SD_SEND));
}

/* A receive blocked on s then ends within a slice (receive_wait()) with
 * 0 (receive_failed()); what was still queued is dropped, as Winsock does
 * after SD_RECEIVE: the caller reads it first. */
int tt_shutdown_both(tt_socket s)
{
    return check(shutdown(sock_of(s), SD_BOTH));
}

void tt_close(tt_socket s)
{
    if (s != TT_NO_SOCKET)
        closesocket(sock_of(s));
}

/* Windows: an IPv4 address as it is; an index, or an interface's name
 * (if_nametoindex's kind), as the index, which IPv4's options also take in
 * the form 0.0.0.index. */
int tt_interface(const char *text, unsigned *index, struct in_addr *v4)
{
    *index = 0;
    v4->s_addr = htonl(INADDR_ANY);
    if (inet_pton(AF_INET, text, v4) == 1)
        return 0;
    if (text[0] != '\0' && strspn(text, "0123456789") == strlen(text))
        *index = (unsigned)strtoul(text, NULL, 10);
    else
        *index = if_nametoindex(text);
    if (*index == 0 || *index >= (1u << 24))
        return -1;
    v4->s_addr = htonl(*index);
    return 0;
}
