/* Threads and mutexes (POSIX threads). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "posix.h"
#include "ttcp/platform.h"

struct tt_thread {
    pthread_t id;
    void (*fn)(void *);
    void *arg;
};

struct tt_mutex {
    pthread_mutex_t m;
};

static void *trampoline(void *p)
{
    struct tt_thread *t = p;
    t->fn(t->arg);
    return NULL;
}

int tt_thread_start(struct tt_thread **out, void (*fn)(void *), void *arg)
{
    struct tt_thread *t = malloc(sizeof *t);
    int rc;
    if (t == NULL)
        return TT_E_NOMEM;
    t->fn = fn;
    t->arg = arg;
    rc = pthread_create(&t->id, NULL, trampoline, t);
    if (rc != 0) {
        free(t);
        errno = rc;
        return tt_posix_fail();
    }
    *out = t;
    return 0;
}

void tt_thread_join(struct tt_thread *t)
{
    pthread_join(t->id, NULL);
    free(t);
}

int tt_thread_pin(int cpu)
{
#ifdef __linux__
    cpu_set_t set;
    if (cpu < 0 || cpu >= CPU_SETSIZE)
        return TT_E_INVAL;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) /* 0: the calling thread */
        return tt_posix_fail();
    return 0;
#else
    (void)cpu;
    return TT_E_UNSUPPORTED;
#endif
}

int tt_mutex_new(struct tt_mutex **out)
{
    struct tt_mutex *m = malloc(sizeof *m);
    if (m == NULL)
        return TT_E_NOMEM;
    pthread_mutex_init(&m->m, NULL);
    *out = m;
    return 0;
}

void tt_mutex_lock(struct tt_mutex *m)
{
    pthread_mutex_lock(&m->m);
}

void tt_mutex_unlock(struct tt_mutex *m)
{
    pthread_mutex_unlock(&m->m);
}

void tt_mutex_free(struct tt_mutex *m)
{
    if (m == NULL)
        return;
    pthread_mutex_destroy(&m->m);
    free(m);
}
