/* Secrets: the secure random source (getentropy), HMAC-SHA256 by libsodium
 * for the key file's challenge and response (none in a build without it:
 * the key file is refused), and the key file's permissions. */
#include <sys/stat.h>
#include <unistd.h>
#ifdef TTCP_SODIUM
#include <sodium.h>
#endif

#include "posix.h"
#include "ttcp/platform.h"

int tt_random_bytes(void *buf, size_t len)
{
    unsigned char *p = buf;
    while (len > 0) {
        size_t n = len > 256 ? 256 : len; /* getentropy's most per call */
        if (getentropy(p, n) != 0)
            return tt_posix_fail();
        p += n;
        len -= n;
    }
    return 0;
}

int tt_hmac_sha256(const unsigned char *key, size_t key_len, const unsigned char *msg,
                   size_t msg_len, unsigned char out[TT_HMAC_LEN])
{
#ifdef TTCP_SODIUM
    crypto_auth_hmacsha256_state st;
    if (sodium_init() < 0 || crypto_auth_hmacsha256_init(&st, key, key_len) != 0 ||
        crypto_auth_hmacsha256_update(&st, msg, msg_len) != 0 ||
        crypto_auth_hmacsha256_final(&st, out) != 0)
        return TT_E_IO;
    sodium_memzero(&st, sizeof st);
    return 0;
#else
    (void)key, (void)key_len, (void)msg, (void)msg_len, (void)out;
    return TT_E_UNSUPPORTED;
#endif
}

int tt_file_private(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return tt_posix_fail();
    return (st.st_mode & (S_IRWXG | S_IRWXO)) == 0;
}
