/* QueryPerformanceCounter time, converted to nanoseconds without overflow,
 * and Sleep. */
#include <stdio.h>
#include <windows.h>

#include "ttcp/platform.h"

int64_t tt_now_ns(void)
{
    LARGE_INTEGER freq, now;
    int64_t whole, rest;
    QueryPerformanceFrequency(&freq); /* fixed at boot; cheap to ask */
    QueryPerformanceCounter(&now);
    /* ticks * 1e9 / freq overflows after ~15 min at 10 MHz: split it. */
    whole = now.QuadPart / freq.QuadPart;
    rest = now.QuadPart % freq.QuadPart;
    return whole * 1000000000ll + rest * 1000000000ll / freq.QuadPart;
}

void tt_sleep_ns(int64_t ns)
{
    int64_t ms = (ns + 999999) / 1000000; /* never shorter than asked */
    Sleep((DWORD)(ms > 0x7fffffff ? 0x7fffffff : ms));
}

size_t tt_wall_text(char *buf, size_t len)
{
    SYSTEMTIME t;
    int n;
    GetLocalTime(&t);
    n = snprintf(buf, len, "%04u-%02u-%02u %02u:%02u:%02u.%03u", t.wYear, t.wMonth, t.wDay,
                 t.wHour, t.wMinute, t.wSecond, t.wMilliseconds);
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}
