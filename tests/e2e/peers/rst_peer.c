/* rst_peer: a TCP peer that ends its one connection with a reset (SO_LINGER {1, 0} then
 * close), for the fault tests in tests/e2e/fault_reset.sh.
 *
 *   rst_peer listen PORT BYTES    listen on 127.0.0.1:PORT, accept one connection, read at
 *                                 least BYTES, then reset it (a receiver that goes away)
 *   rst_peer connect PORT BYTES   connect to 127.0.0.1:PORT, send BYTES, wait until the
 *                                 peer's kernel has them, then reset (a transmitter that
 *                                 goes away)
 *
 * Prints the number of bytes it read or sent on stdout and exits 0; any failure prints one
 * line on stderr and exits 1. Loopback only, no name lookups, one connection, and alarm(10):
 * it never lives longer than 10 seconds. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h> /* TIOCOUTQ: on a socket, the bytes not yet acknowledged */
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
    fprintf(stderr, "rst_peer: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void pause_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* close with an RST instead of a FIN, whatever is still queued either way */
static void reset_close(int fd)
{
    struct linger lg;
    lg.l_onoff = 1;
    lg.l_linger = 0;
    if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg) != 0)
        die("setsockopt: SO_LINGER");
    if (close(fd) != 0)
        die("close");
}

/* wait (up to 2 s) until the kernel has no unacknowledged data left to send, so that the
 * peer has the bytes before the reset; then a little more for it to read them */
static void drain(int fd)
{
#ifdef TIOCOUTQ
    int i, queued;
    for (i = 0; i < 200; i++) {
        if (ioctl(fd, TIOCOUTQ, &queued) != 0 || queued == 0)
            break;
        pause_ms(10);
    }
#else
    (void)fd;
#endif
    pause_ms(200);
}

int main(int argc, char **argv)
{
    struct sockaddr_in sa;
    static char buf[65536];
    long long want, done = 0;
    char *end;
    long port;
    int fd, one = 1;

    if (argc != 4 || (strcmp(argv[1], "listen") != 0 && strcmp(argv[1], "connect") != 0)) {
        fprintf(stderr, "usage: rst_peer listen|connect PORT BYTES\n");
        return 2;
    }
    port = strtol(argv[2], &end, 10);
    if (*end != '\0' || port < 1 || port > 65535) {
        fprintf(stderr, "rst_peer: bad port '%s'\n", argv[2]);
        return 2;
    }
    want = strtoll(argv[3], &end, 10);
    if (*end != '\0' || want < 1) {
        fprintf(stderr, "rst_peer: bad byte count '%s'\n", argv[3]);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    alarm(10); /* the bound: SIGALRM's default action ends the process */

    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        die("socket");

    if (strcmp(argv[1], "listen") == 0) {
        int c;
        if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0)
            die("setsockopt: SO_REUSEADDR");
        if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
            die("bind");
        if (listen(fd, 1) != 0)
            die("listen");
        c = accept(fd, NULL, NULL);
        if (c < 0)
            die("accept");
        close(fd);
        while (done < want) {
            ssize_t n = read(c, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                die("read");
            if (n == 0)
                break; /* the sender finished first: reset anyway */
            done += n;
        }
        reset_close(c); /* unread data is still queued: the kernel sends an RST */
    } else {
        if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
            die("connect");
        memset(buf, 'x', sizeof buf);
        while (done < want) {
            size_t len = want - done < (long long)sizeof buf ? (size_t)(want - done) : sizeof buf;
            ssize_t n = write(fd, buf, len);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                die("write");
            done += n;
        }
        drain(fd);
        reset_close(fd);
    }
    printf("%lld\n", done);
    return 0;
}
