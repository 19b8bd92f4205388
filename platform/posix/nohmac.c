/* A build without libsodium: no authentication (the key file is refused). */
#include "ttcp/platform.h"

int tt_hmac_sha256(const unsigned char *key, size_t key_len, const unsigned char *msg,
                   size_t msg_len, unsigned char out[TT_HMAC_LEN])
{
    (void)key, (void)key_len, (void)msg, (void)msg_len, (void)out;
    return TT_E_UNSUPPORTED;
}
