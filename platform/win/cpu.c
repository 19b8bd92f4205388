/* Process CPU accounting (GetProcessTimes, GetProcessMemoryInfo) and the
 * platform's name. What Windows does not count stays 0 (docs/COMPAT.md);
 * the time waiting for a CPU and a CPU quota's hold (a job object's CPU
 * rate control) are not given: wait_given and throttle_given stay 0. */
#include <stdio.h>
#include <windows.h>
#include <psapi.h>

#include "ttcp/platform.h"
#include "win.h"

/* FILETIME counts 100 ns ticks: multiplied straight, never via SYSTEMTIME. */
static int64_t filetime_ns(FILETIME ft)
{
    ULARGE_INTEGER u;
    u.LowPart = ft.dwLowDateTime;
    u.HighPart = ft.dwHighDateTime;
    return (int64_t)u.QuadPart * 100;
}

int tt_cpu_times(struct tt_cpu *out)
{
    FILETIME created, exited, kernel, user;
    PROCESS_MEMORY_COUNTERS mem;

    memset(out, 0, sizeof *out);
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
        return tt_win_fail(); /* WSAGetLastError() is GetLastError() */
    out->user_ns = filetime_ns(user);
    out->sys_ns = filetime_ns(kernel);
    mem.cb = sizeof mem;
    if (GetProcessMemoryInfo(GetCurrentProcess(), &mem, sizeof mem)) {
        out->maxrss_kib = (int64_t)(mem.PeakWorkingSetSize / 1024);
        out->minflt = mem.PageFaultCount; /* soft and hard faults together */
    }
    return 0;
}

int tt_thread_cpu_times(struct tt_cpu *out)
{
    FILETIME created, exited, kernel, user;
    int rc = tt_cpu_times(out); /* memory and faults: the process's */
    if (rc != 0)
        return rc;
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user))
        return tt_win_fail();
    out->user_ns = filetime_ns(user);
    out->sys_ns = filetime_ns(kernel);
    return 0;
}

/* RtlGetVersion tells the truth where GetVersionEx may not. */
typedef LONG(WINAPI *rtl_get_version_fn)(OSVERSIONINFOW *);

const char *tt_platform_name(char *buf, size_t len)
{
    OSVERSIONINFOW v;
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    FARPROC fn = ntdll ? GetProcAddress(ntdll, "RtlGetVersion") : NULL;
    rtl_get_version_fn get_version;

    memset(&v, 0, sizeof v);
    v.dwOSVersionInfoSize = sizeof v;
    memcpy(&get_version, &fn, sizeof fn);
    if (get_version != NULL && get_version(&v) == 0)
        snprintf(buf, len, "Windows %lu.%lu build %lu, Winsock 2.2", v.dwMajorVersion,
                 v.dwMinorVersion, v.dwBuildNumber);
    else
        snprintf(buf, len, "Windows, Winsock 2.2");
    return buf;
}
