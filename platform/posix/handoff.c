/* A socket handed from one process to another of the same user, over a
 * local stream socket (SCM_RIGHTS): ttcp -S --inetd's data connections go
 * to the process that holds their test's control connection. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "posix.h"
#include "ttcp/platform.h"

/* Linux's flags; elsewhere SIGPIPE is ignored (tt_init) and nothing is exec'd. */
#ifndef SOCK_CLOEXEC
#define SOCK_CLOEXEC 0
#endif
#ifndef MSG_CMSG_CLOEXEC
#define MSG_CMSG_CLOEXEC 0
#endif
#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

#define HANDOFF_BACKLOG 64
#define TAKE_MS 1000 /* a giver sends at once after it connects */

struct tt_handoff {
    int fd;
    struct sockaddr_un addr;
    socklen_t len;
};

/* Linux: an abstract name (nothing on disk, gone with the socket);
 * elsewhere a socket file under /tmp. */
static int rendezvous(const char *name, struct sockaddr_un *sa, socklen_t *len)
{
    int n;
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
#ifdef __linux__
    n = snprintf(sa->sun_path + 1, sizeof sa->sun_path - 1, "ttcp-handoff-%s", name);
    if (n < 0 || (size_t)n >= sizeof sa->sun_path - 1)
        return TT_E_INVAL;
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
#else
    n = snprintf(sa->sun_path, sizeof sa->sun_path, "/tmp/ttcp-handoff-%s", name);
    if (n < 0 || (size_t)n >= sizeof sa->sun_path)
        return TT_E_INVAL;
    *len = (socklen_t)sizeof *sa;
#endif
    return 0;
}

int tt_handoff_open(const char *name, struct tt_handoff **out)
{
    struct tt_handoff *h = calloc(1, sizeof *h);
    int rc;
    if (h == NULL)
        return TT_E_NOMEM;
    rc = rendezvous(name, &h->addr, &h->len);
    if (rc == 0 && (h->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
        rc = tt_posix_fail();
    if (rc == 0 && (bind(h->fd, (struct sockaddr *)&h->addr, h->len) != 0 ||
                    listen(h->fd, HANDOFF_BACKLOG) != 0 ||
                    fcntl(h->fd, F_SETFL, fcntl(h->fd, F_GETFL) | O_NONBLOCK) != 0)) {
        rc = tt_posix_fail();
        close(h->fd);
    }
    if (rc != 0) {
        free(h);
        return rc;
    }
    *out = h;
    return 0;
}

/* Only a process of this user may hand a socket over. */
static int same_user(int fd)
{
#ifdef SO_PEERCRED
    struct ucred who;
    socklen_t len = sizeof who;
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &who, &len) == 0 && who.uid == geteuid();
#else
    uid_t uid;
    gid_t gid;
    return getpeereid(fd, &uid, &gid) == 0 && uid == geteuid();
#endif
}

/* The socket and the words of one giver. */
static int receive_socket(int conn, int *got, char *words, size_t cap)
{
    union {
        struct cmsghdr h;
        char room[CMSG_SPACE(sizeof(int))];
    } control;
    struct iovec iov = {words, cap - 1};
    struct msghdr msg;
    struct cmsghdr *c;
    ssize_t n;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.room;
    msg.msg_controllen = sizeof control.room;
    n = recvmsg(conn, &msg, MSG_CMSG_CLOEXEC);
    if (n <= 0)
        return n == 0 ? TT_E_PIPE : tt_posix_fail();
    words[n] = '\0';
    c = CMSG_FIRSTHDR(&msg);
    if (c == NULL || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
        c->cmsg_len != CMSG_LEN(sizeof(int)) || (msg.msg_flags & MSG_CTRUNC))
        return TT_E_INVAL;
    memcpy(got, CMSG_DATA(c), sizeof *got);
    return 0;
}

int tt_handoff_take(struct tt_handoff *h, tt_socket *s, struct tt_addr *peer, char *words,
                    size_t cap)
{
    struct timeval tv = {TAKE_MS / 1000, (TAKE_MS % 1000) * 1000};
    socklen_t len = sizeof peer->storage.bytes;
    int conn = accept(h->fd, NULL, NULL), fd = -1, rc;
    if (conn < 0)
        return (errno == EAGAIN || errno == EWOULDBLOCK) ? TT_E_AGAIN : tt_posix_fail();
    fcntl(conn, F_SETFL, fcntl(conn, F_GETFL) & ~O_NONBLOCK);
    setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    rc = same_user(conn) ? receive_socket(conn, &fd, words, cap) : TT_E_ACCES;
    close(conn);
    memset(peer, 0, sizeof *peer);
    if (rc == 0 && getpeername(fd, (struct sockaddr *)peer->storage.bytes, &len) != 0)
        rc = tt_posix_fail();
    if (rc != 0) {
        if (fd >= 0)
            close(fd);
        return rc;
    }
    tt_posix_sender(peer, len);
    *s = fd;
    return 0;
}

int tt_handoff_give(const char *name, tt_socket s, const char *words, int timeout_ms)
{
    union {
        struct cmsghdr h;
        char room[CMSG_SPACE(sizeof(int))];
    } control;
    struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    struct sockaddr_un sa;
    struct iovec iov = {(void *)words, strlen(words)};
    struct msghdr msg;
    struct cmsghdr *c;
    socklen_t len;
    int fd, sock = (int)s, rc = rendezvous(name, &sa, &len);
    if (rc != 0)
        return rc;
    if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
        return tt_posix_fail();
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    memset(&msg, 0, sizeof msg);
    memset(&control, 0, sizeof control);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.room;
    msg.msg_controllen = sizeof control.room;
    c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &sock, sizeof sock);
    if (connect(fd, (struct sockaddr *)&sa, len) != 0 || sendmsg(fd, &msg, MSG_NOSIGNAL) < 0)
        rc = tt_posix_fail();
    close(fd);
    return rc;
}

void tt_handoff_close(struct tt_handoff *h)
{
    if (h == NULL)
        return;
    close(h->fd);
#ifndef __linux__
    unlink(h->addr.sun_path);
#endif
    free(h);
}
