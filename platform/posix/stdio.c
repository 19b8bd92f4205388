/* stdin and stdout as byte streams, and stdin reads that Ctrl+C cuts
 * short. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "posix.h"
#include "ttcp/platform.h"

#define WAIT_SLICE_MS 100 /* longest wait for input between two looks at Ctrl+C */

int tt_stdio_binary(enum tt_stream stream)
{
    (void)stream;
    return 0; /* POSIX streams never translate bytes */
}

/* Waits for input in slices, looking at the flag between them, so that a
 * Ctrl+C the core has not been told of ends the wait even when its signal
 * arrived just before read() would have blocked. A read the core begins
 * knowing of the Ctrl+C waits as ever (platform.h). */
int64_t tt_stdin_read(void *buf, size_t len)
{
    int armed = !tt_posix_ctrl_c_told();
    ssize_t n;
    for (;;) {
        struct pollfd p = {STDIN_FILENO, POLLIN, 0};
        int rc;
        if (armed && tt_posix_ctrl_c()) {
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

int tt_output_append(const char *path, int with_stdout)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644), rc = 0;
    if (fd < 0)
        return tt_posix_fail();
    fflush(stdout);
    fflush(stderr);
    if (dup2(fd, STDERR_FILENO) < 0 || (with_stdout && dup2(fd, STDOUT_FILENO) < 0))
        rc = tt_posix_fail();
    close(fd);
    return rc;
}
