/* The rusage line, computed as 1.12's prusage() does: integer centiseconds,
 * tenths truncated, "M:SS" or "H:MM:SS" elapsed. One deliberate change:
 * maxrss is printed in KiB as the OS reports it, not halved (docs/COMPAT.md). */
#include "report/rusage.h"

#include <stdio.h>

#define NS_PER_CS 10000000ll   /* centisecond */
#define NS_PER_DS 100000000ll  /* tenth of a second */
#define NS_PER_S 1000000000ll

/* "%d.%01d": whole seconds and truncated tenths. */
static void tenths(int64_t ns, char *buf, size_t len)
{
    snprintf(buf, len, "%lld.%01lld", (long long)(ns / NS_PER_S),
             (long long)(ns % NS_PER_S / NS_PER_DS));
}

/* 1.12's psecs(): "M:SS", or "H:MM:SS" from one hour on. */
static void elapsed(int64_t secs, char *buf, size_t len)
{
    if (secs >= 3600)
        snprintf(buf, len, "%lld:%02lld:%02lld", (long long)(secs / 3600),
                 (long long)(secs % 3600 / 60), (long long)(secs % 60));
    else
        snprintf(buf, len, "%lld:%02lld", (long long)(secs / 60), (long long)(secs % 60));
}

const char *ttcp_rusage_format(const struct tt_cpu *s, const struct tt_cpu *e,
                               int64_t real_ns, char *buf, size_t len)
{
    int64_t user = e->user_ns - s->user_ns, sys = e->sys_ns - s->sys_ns;
    int64_t cpu_cs = user / NS_PER_CS + sys / NS_PER_CS;
    int64_t real_cs = real_ns / NS_PER_CS;
    int64_t shared = cpu_cs ? (e->ixrss - s->ixrss) / cpu_cs : 0;
    int64_t unshared = cpu_cs ? (e->idrss_isrss - s->idrss_isrss) / cpu_cs : 0;
    char u[32], y[32], r[32];

    tenths(user, u, sizeof u);
    tenths(sys, y, sizeof y);
    elapsed(real_cs / 100, r, sizeof r);
    snprintf(buf, len,
             "%suser %ssys %sreal %lld%% %lldi+%lldd %lldmaxrss %lld+%lldpf %lld+%lldcsw",
             u, y, r, (long long)(cpu_cs * 100 / (real_cs ? real_cs : 1)),
             (long long)shared, (long long)unshared, (long long)e->maxrss_kib,
             (long long)(e->majflt - s->majflt), (long long)(e->minflt - s->minflt),
             (long long)(e->nvcsw - s->nvcsw), (long long)(e->nivcsw - s->nivcsw));
    return buf;
}
