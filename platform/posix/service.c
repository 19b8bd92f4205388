/* How a server is started: inetd's connection on stdin, systemd's
 * listening sockets (LISTEN_FDS), a daemon of its own and its pid file. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "posix.h"
#include "ttcp/platform.h"

#define FIRST_INHERITED 3 /* SD_LISTEN_FDS_START */

/* The one state --daemon keeps: the pipe to the waiting parent. */
static int daemon_ready_fd = -1;

static int socket_type(int fd)
{
    int type = 0;
    socklen_t len = sizeof type;
    return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 ? type : -1;
}

static int listening(int fd)
{
    int on = 0;
    socklen_t len = sizeof on;
    return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &len) == 0 && on;
}

/* Blocking, and not inherited by anything this process starts. */
static void own_descriptor(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static void to_null(int fd)
{
    int null = open("/dev/null", O_RDWR);
    if (null >= 0 && null != fd) {
        dup2(null, fd);
        close(null);
    }
}

static int port_of(tt_socket s)
{
    struct tt_addr a;
    socklen_t len = sizeof a.storage.bytes;
    memset(&a, 0, sizeof a);
    if (getsockname((int)s, (struct sockaddr *)a.storage.bytes, &len) != 0)
        return -1;
    tt_posix_sender(&a, len);
    return tt_addr_port(&a);
}

int tt_stdin_socket(tt_socket *out, struct tt_addr *peer, int *port)
{
    socklen_t len = sizeof peer->storage.bytes;
    int fd;
    if (socket_type(STDIN_FILENO) != SOCK_STREAM || listening(STDIN_FILENO)) {
        errno = ENOTSOCK;
        return TT_E_INVAL;
    }
    memset(peer, 0, sizeof *peer);
    if (getpeername(STDIN_FILENO, (struct sockaddr *)peer->storage.bytes, &len) != 0)
        return tt_posix_fail();
    tt_posix_sender(peer, len);
    *port = port_of(STDIN_FILENO);
    fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, FIRST_INHERITED);
    if (fd < 0)
        return tt_posix_fail();
    own_descriptor(fd);
    to_null(STDIN_FILENO);
    to_null(STDOUT_FILENO); /* the server prints to stderr alone under inetd */
    if (socket_type(STDERR_FILENO) >= 0)
        to_null(STDERR_FILENO);
    *out = fd;
    return 0;
}

/* What LISTEN_FDS handed: a TCP listener, and perhaps a UDP socket. */
static int sort_inherited(int fd, tt_socket *tcp, tt_socket *udp, const char **why)
{
    int type = socket_type(fd);
    if (type == SOCK_STREAM && listening(fd) && *tcp == TT_NO_SOCKET) {
        *tcp = fd;
    } else if (type == SOCK_DGRAM && *udp == TT_NO_SOCKET) {
        *udp = fd;
    } else {
        *why = "LISTEN_FDS: the sockets must be one TCP listener (ListenStream) and at most "
               "one UDP socket (ListenDatagram)";
        return TT_E_INVAL;
    }
    own_descriptor(fd);
    return 0;
}

int tt_inherited_sockets(tt_socket *tcp, tt_socket *udp, int *port, const char **why)
{
    const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
    char *end;
    long for_pid, count, i;
    *tcp = *udp = TT_NO_SOCKET;
    if (pid == NULL || fds == NULL)
        return 0;
    for_pid = strtol(pid, &end, 10);
    if (*end != '\0' || for_pid != (long)getpid())
        return 0; /* meant for another process (a parent that did not clear it) */
    count = strtol(fds, &end, 10);
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    unsetenv("LISTEN_FDNAMES");
    if (*end != '\0' || count < 1 || count > 2) {
        *why = "LISTEN_FDS: expected 1 or 2 sockets (a TCP listener, perhaps a UDP socket)";
        return TT_E_INVAL;
    }
    for (i = 0; i < count; i++)
        if (sort_inherited(FIRST_INHERITED + (int)i, tcp, udp, why) != 0)
            return TT_E_INVAL;
    if (*tcp == TT_NO_SOCKET) {
        *why = "LISTEN_FDS: no TCP listener among the sockets (ListenStream)";
        return TT_E_INVAL;
    }
    *port = port_of(*tcp);
    if (*udp != TT_NO_SOCKET && port_of(*udp) != *port) {
        *why = "LISTEN_FDS: the UDP socket must be on the TCP listener's port";
        return TT_E_INVAL;
    }
    return (int)count;
}

int tt_daemon_start(void)
{
    int ends[2];
    pid_t pid;
    char byte;
    ssize_t n;
    if (pipe(ends) != 0)
        return tt_posix_fail();
    fflush(NULL); /* nothing buffered is written twice */
    pid = fork();
    if (pid < 0)
        return tt_posix_fail();
    if (pid > 0) { /* the parent: done once the child serves, or has failed */
        close(ends[1]);
        do
            n = read(ends[0], &byte, 1);
        while (n < 0 && errno == EINTR);
        _exit(n == 1 ? 0 : 1);
    }
    close(ends[0]);
    fcntl(ends[1], F_SETFD, FD_CLOEXEC);
    daemon_ready_fd = ends[1];
    if (setsid() < 0 || chdir("/") != 0)
        return tt_posix_fail();
    return 0;
}

int tt_daemon_ready(int keep_output)
{
    ssize_t n;
    to_null(STDIN_FILENO);
    if (!keep_output) {
        to_null(STDOUT_FILENO);
        to_null(STDERR_FILENO);
    }
    if (daemon_ready_fd < 0)
        return TT_E_INVAL;
    n = write(daemon_ready_fd, "1", 1);
    close(daemon_ready_fd);
    daemon_ready_fd = -1;
    return n == 1 ? 0 : tt_posix_fail();
}

/* The pid a pid file holds, or 0. */
static long pid_in(const char *path)
{
    char text[32];
    char *end;
    long pid;
    ssize_t n;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    pid = strtol(text, &end, 10);
    return (pid > 0 && (*end == '\n' || *end == '\0')) ? pid : 0;
}

int tt_pidfile_check(const char *path, long *holder)
{
    long pid = pid_in(path);
    if (pid > 0 && pid != (long)getpid() && (kill((pid_t)pid, 0) == 0 || errno == EPERM)) {
        *holder = pid;
        return TT_E_ADDRINUSE;
    }
    return 0;
}

int tt_pidfile_write(const char *path)
{
    char tmp[4096], text[32];
    int fd, len = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    if (snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return tt_posix_fail();
    }
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return tt_posix_fail();
    if (write(fd, text, (size_t)len) != len) {
        int rc = tt_posix_fail();
        close(fd);
        unlink(tmp);
        return rc;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        int rc = tt_posix_fail();
        unlink(tmp);
        return rc;
    }
    return 0;
}

void tt_pidfile_remove(const char *path)
{
    if (pid_in(path) == (long)getpid())
        unlink(path);
}
