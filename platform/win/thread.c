/* Threads and mutexes (Win32). */
#include <stdlib.h>
#include <windows.h>

#include "ttcp/platform.h"
#include "win.h"

struct tt_thread {
    HANDLE handle;
    void (*fn)(void *);
    void *arg;
};

struct tt_mutex {
    CRITICAL_SECTION cs;
};

static DWORD WINAPI trampoline(LPVOID p)
{
    struct tt_thread *t = p;
    t->fn(t->arg);
    return 0;
}

int tt_thread_start(struct tt_thread **out, void (*fn)(void *), void *arg)
{
    struct tt_thread *t = malloc(sizeof *t);
    if (t == NULL)
        return TT_E_NOMEM;
    t->fn = fn;
    t->arg = arg;
    t->handle = CreateThread(NULL, 0, trampoline, t, 0, NULL);
    if (t->handle == NULL) {
        int rc = tt_win_code((int)GetLastError());
        free(t);
        return rc;
    }
    *out = t;
    return 0;
}

void tt_thread_join(struct tt_thread *t)
{
    WaitForSingleObject(t->handle, INFINITE);
    CloseHandle(t->handle);
    free(t);
}

int tt_thread_pin(int cpu)
{
    /* a mask reaches the first 64 CPUs (the calling thread's processor group) */
    if (cpu < 0 || cpu >= (int)(sizeof(DWORD_PTR) * 8))
        return TT_E_INVAL;
    if (SetThreadAffinityMask(GetCurrentThread(), (DWORD_PTR)1 << cpu) == 0)
        return tt_win_code((int)GetLastError());
    return 0;
}

int tt_mutex_new(struct tt_mutex **out)
{
    struct tt_mutex *m = malloc(sizeof *m);
    if (m == NULL)
        return TT_E_NOMEM;
    InitializeCriticalSection(&m->cs);
    *out = m;
    return 0;
}

void tt_mutex_lock(struct tt_mutex *m)
{
    EnterCriticalSection(&m->cs);
}

void tt_mutex_unlock(struct tt_mutex *m)
{
    LeaveCriticalSection(&m->cs);
}

void tt_mutex_free(struct tt_mutex *m)
{
    if (m == NULL)
        return;
    DeleteCriticalSection(&m->cs);
    free(m);
}
