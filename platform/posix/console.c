/* Process set-up, the interrupt flag, and what the console is. Reading
 * stdin so that Ctrl+C cuts it short is stdio.c's. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "posix.h"
#include "ttcp/platform.h"

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

int tt_posix_ctrl_c(void)
{
    return interrupted != 0;
}

int tt_posix_ctrl_c_told(void)
{
    return __atomic_load_n(&told, __ATOMIC_RELAXED) != 0;
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
