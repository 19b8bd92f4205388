/* Secrets: the secure random source and HMAC-SHA256 (CNG, bcrypt.dll),
 * and the key file's permissions. */
#include <windows.h>
#include <bcrypt.h>

#include "ttcp/platform.h"

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
