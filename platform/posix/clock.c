/* Monotonic time and sleeping. */
#include <errno.h>
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
