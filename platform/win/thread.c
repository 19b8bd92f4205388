/* Threads and mutexes (Win32), the secure random source and HMAC-SHA256
 * (CNG, bcrypt.dll), and the key file's permissions. */
#include <stdlib.h>
#include <windows.h>
#include <bcrypt.h>

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

int tt_random_bytes(void *buf, size_t len)
{
    NTSTATUS st = BCryptGenRandom(NULL, buf, (ULONG)len, BCRYPT_USE_SYSTEM_PREFERRED_RNG);
    return BCRYPT_SUCCESS(st) ? 0 : TT_E_IO;
}

int tt_hmac_sha256(const unsigned char *key, size_t key_len, const unsigned char *msg,
                   size_t msg_len, unsigned char out[TT_HMAC_LEN])
{
    BCRYPT_ALG_HANDLE alg = NULL;
    BCRYPT_HASH_HANDLE hash = NULL;
    NTSTATUS st;
    st = BCryptOpenAlgorithmProvider(&alg, BCRYPT_SHA256_ALGORITHM, NULL,
                                     BCRYPT_ALG_HANDLE_HMAC_FLAG);
    if (BCRYPT_SUCCESS(st))
        st = BCryptCreateHash(alg, &hash, NULL, 0, (PUCHAR)key, (ULONG)key_len, 0);
    if (BCRYPT_SUCCESS(st))
        st = BCryptHashData(hash, (PUCHAR)msg, (ULONG)msg_len, 0);
    if (BCRYPT_SUCCESS(st))
        st = BCryptFinishHash(hash, out, TT_HMAC_LEN, 0);
    if (hash != NULL)
        BCryptDestroyHash(hash);
    if (alg != NULL)
        BCryptCloseAlgorithmProvider(alg, 0);
    return BCRYPT_SUCCESS(st) ? 0 : TT_E_IO;
}

int tt_file_private(const char *path)
{
    /* Windows guards files by ACLs, which a user's profile already keeps
     * private; only that the file is there is checked here. */
    return GetFileAttributesA(path) == INVALID_FILE_ATTRIBUTES ? TT_E_IO : 1;
}
