/* Process set-up, the interrupt flag, and stdin/stdout as byte streams. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "posix.h"
#include "ttcp/platform.h"

#define WAIT_SLICE_MS 100 /* longest wait for input between two looks at Ctrl+C */

/* The platform's Ctrl+C state (docs/DESIGN.md, "The platform rule"): this
 * flag, set by the handler, and `told` below. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* No SA_RESTART: a blocking call returns EINTR and the test ends. */
static int catch_signal(int sig, int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    return sigaction(sig, &sa, NULL);
}

int tt_init(void)
{
    signal(SIGPIPE, SIG_IGN); /* a vanished peer is an error code, not death */
    /* A second Ctrl+C stops the program outright (SA_RESETHAND). SIGTERM
     * is never escalated: timeout(1) sends it to the process and to its
     * group, so one request arrives twice and must still print figures. */
    if (catch_signal(SIGINT, SA_RESETHAND) != 0 || catch_signal(SIGTERM, 0) != 0)
        return tt_posix_fail();
    return 0;
}

void tt_cleanup(void)
{
}

/* Set once tt_interrupted() has said yes: the core knows of the Ctrl+C.
 * A server's or client's threads all set and read it: atomically. */
static int told;

int tt_interrupted(void)
{
    if (!interrupted)
        return 0;
    __atomic_store_n(&told, 1, __ATOMIC_RELAXED);
    return 1;
}

int tt_stdio_binary(enum tt_stream stream)
{
    (void)stream;
    return 0; /* POSIX streams never translate bytes */
}

int tt_stdin_is_console(void)
{
    return isatty(STDIN_FILENO);
}

/* A terminal window stays open after a program ends. */
int tt_console_is_own(void)
{
    return 0;
}

/* A POSIX word that starts with / is a path. */
int tt_slash_switches(void)
{
    return 0;
}

/* Waits for input in slices, looking at the flag between them, so that a
 * Ctrl+C the core has not been told of ends the wait even when its signal
 * arrived just before read() would have blocked. A read the core begins
 * knowing of the Ctrl+C waits as ever (platform.h). */
int64_t tt_stdin_read(void *buf, size_t len)
{
    int armed = !__atomic_load_n(&told, __ATOMIC_RELAXED);
    ssize_t n;
    for (;;) {
        struct pollfd p = {STDIN_FILENO, POLLIN, 0};
        int rc;
        if (armed && interrupted) {
            errno = EINTR;
            return TT_E_INTR;
        }
        rc = poll(&p, 1, WAIT_SLICE_MS);
        if (rc > 0 || (rc < 0 && errno != EINTR))
            break; /* input, its end, or an error: read() tells which */
    }
    n = read(STDIN_FILENO, buf, len);
    return n < 0 ? tt_posix_fail() : (int64_t)n;
}

int64_t tt_stdout_write(const void *buf, size_t len)
{
    const char *p = buf;
    size_t left = len;
    while (left > 0) {
        ssize_t n = write(STDOUT_FILENO, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return tt_posix_fail();
        p += n;
        left -= (size_t)n;
    }
    return (int64_t)len;
}
