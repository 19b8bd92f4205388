/* Process and thread CPU accounting (getrusage) and the platform's name. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>

#include "posix.h"
#include "ttcp/platform.h"

static int64_t tv_ns(struct timeval tv)
{
    return (int64_t)tv.tv_sec * 1000000000ll + (int64_t)tv.tv_usec * 1000;
}

/* The run-queue wait of a task, from Linux's schedstat ("ran waited
 * slices", nanoseconds); elsewhere the file is not there: not given. */
static void read_wait(const char *path, struct tt_cpu *out)
{
    long long ran, waited;
    FILE *f = fopen(path, "r");
    out->wait_ns = 0;
    out->wait_given = 0;
    if (!f)
        return;
    if (fscanf(f, "%lld %lld", &ran, &waited) == 2 && waited >= 0) {
        out->wait_ns = waited;
        out->wait_given = 1;
    }
    fclose(f);
}

int tt_cpu_times(struct tt_cpu *out)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return tt_posix_fail();
    read_wait("/proc/self/schedstat", out);
    out->user_ns = tv_ns(ru.ru_utime);
    out->sys_ns = tv_ns(ru.ru_stime);
#ifdef __APPLE__
    out->maxrss_kib = ru.ru_maxrss / 1024; /* bytes there, KiB elsewhere */
#else
    out->maxrss_kib = ru.ru_maxrss;
#endif
    out->minflt = ru.ru_minflt;
    out->majflt = ru.ru_majflt;
    out->nvcsw = ru.ru_nvcsw;
    out->nivcsw = ru.ru_nivcsw;
    out->ixrss = ru.ru_ixrss;
    out->idrss_isrss = ru.ru_idrss + ru.ru_isrss;
    return 0;
}

int tt_thread_cpu_times(struct tt_cpu *out)
{
#ifdef RUSAGE_THREAD
    struct rusage ru;
    int rc = tt_cpu_times(out); /* maxrss and the like: the process's */
    if (rc != 0 || getrusage(RUSAGE_THREAD, &ru) != 0)
        return rc != 0 ? rc : tt_posix_fail();
    out->user_ns = tv_ns(ru.ru_utime);
    out->sys_ns = tv_ns(ru.ru_stime);
    out->nvcsw = ru.ru_nvcsw;
    out->nivcsw = ru.ru_nivcsw;
    read_wait("/proc/thread-self/schedstat", out);
    return 0;
#else
    struct timespec ts; /* user and system together: counted as user */
    int rc = tt_cpu_times(out);
    if (rc != 0 || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return rc != 0 ? rc : tt_posix_fail();
    out->user_ns = (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
    out->sys_ns = 0;
    read_wait("/proc/thread-self/schedstat", out);
    return 0;
#endif
}

const char *tt_platform_name(char *buf, size_t len)
{
    struct utsname u;
    if (uname(&u) != 0)
        snprintf(buf, len, "POSIX sockets");
    else
        snprintf(buf, len, "%s %s %s, POSIX sockets", u.sysname, u.release, u.machine);
    return buf;
}
