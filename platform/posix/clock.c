/* Monotonic time and sleeping. */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "ttcp/platform.h"

int64_t tt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

void tt_sleep_ns(int64_t ns)
{
    struct timespec left = {(time_t)(ns / 1000000000ll), (long)(ns % 1000000000ll)};
    while (nanosleep(&left, &left) != 0 && errno == EINTR)
        ; /* a signal only shortens the pause; the caller decides what it means */
}

size_t tt_wall_text(char *buf, size_t len)
{
    struct timespec ts;
    struct tm local;
    size_t n;
    time_t secs;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return 0;
    secs = ts.tv_sec;
    if (localtime_r(&secs, &local) == NULL ||
        (n = strftime(buf, len, "%Y-%m-%d %H:%M:%S", &local)) == 0)
        return 0;
    snprintf(buf + n, len - n, ".%03ld", ts.tv_nsec / 1000000);
    return n + 4 < len ? n + 4 : 0;
}
