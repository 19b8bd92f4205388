/* --key-file: the pre-shared key, and the challenge and response that
 * prove both ends hold it without sending it (docs/PROTOCOL.md, section 3).
 * The MAC is the platform's HMAC-SHA256 (CNG, libsodium). */
#ifndef TTCP_REMOTE_AUTH_H
#define TTCP_REMOTE_AUTH_H

#include <stddef.h>

#define TTCP_KEY_MAX 64      /* bytes: up to 128 hex digits */
#define TTCP_KEY_MIN 16      /* bytes: at least 32 hex digits */
#define TTCP_NONCE_HEX 32    /* 16 random bytes */
#define TTCP_MAC_HEX 64      /* HMAC-SHA256 */

struct ttcp_key {
    unsigned char bytes[TTCP_KEY_MAX];
    size_t len;
};

/* Reads a key file: one line of 32 to 128 hex digits; refused when others
 * may read the file. 0, or -1 with a reason. */
int ttcp_key_load(const char *path, struct ttcp_key *key, char *why, size_t why_len);
/* Fresh random hex (len digits, len even) into out (len + 1 bytes). */
int ttcp_random_hex(char *out, size_t len);
/* The MAC one end sends: role "client" or "server", over both nonces. */
int ttcp_auth_mac(const struct ttcp_key *key, const char *role, const char *server_nonce,
                  const char *client_nonce, char out[TTCP_MAC_HEX + 1]);
/* Compares two MACs in a time that does not depend on where they differ. */
int ttcp_auth_equal(const char *a, const char *b);
/* Forgets the key. */
void ttcp_key_wipe(struct ttcp_key *key);

#endif
