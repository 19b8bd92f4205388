/* HMAC-SHA256 by libsodium: the key file's challenge and response. */
#include <sodium.h>

#include "ttcp/platform.h"

int tt_hmac_sha256(const unsigned char *key, size_t key_len, const unsigned char *msg,
                   size_t msg_len, unsigned char out[TT_HMAC_LEN])
{
    crypto_auth_hmacsha256_state st;
    if (sodium_init() < 0 || crypto_auth_hmacsha256_init(&st, key, key_len) != 0 ||
        crypto_auth_hmacsha256_update(&st, msg, msg_len) != 0 ||
        crypto_auth_hmacsha256_final(&st, out) != 0)
        return TT_E_IO;
    sodium_memzero(&st, sizeof st);
    return 0;
}
