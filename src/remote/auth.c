/* The key file and the challenge-response MACs. */
#include "remote/auth.h"

#include <stdio.h>
#include <string.h>

#include "ttcp/platform.h"

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void to_hex(const unsigned char *p, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) {
        out[2 * i] = digits[p[i] >> 4];
        out[2 * i + 1] = digits[p[i] & 15];
    }
    out[2 * n] = '\0';
}

/* The line's hex digits into key; trailing spaces and the line end are fine. */
static int parse_key(const char *line, struct ttcp_key *key)
{
    size_t n = strcspn(line, " \t\r\n"), i;
    if (line[n + strspn(line + n, " \t\r\n")] != '\0' || n % 2 != 0 ||
        n < 2 * TTCP_KEY_MIN || n > 2 * TTCP_KEY_MAX)
        return -1;
    for (i = 0; i < n; i += 2) {
        int hi = hex_value(line[i]), lo = hex_value(line[i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        key->bytes[i / 2] = (unsigned char)(hi << 4 | lo);
    }
    key->len = n / 2;
    return 0;
}

int ttcp_key_load(const char *path, struct ttcp_key *key, char *why, size_t why_len)
{
    char line[2 * TTCP_KEY_MAX + 8];
    int private_file = tt_file_private(path), rc, c;
    FILE *f;

    memset(key, 0, sizeof *key);
    if (private_file < 0 || (f = fopen(path, "r")) == NULL) {
        snprintf(why, why_len, "--key-file: %.200s cannot be read", path);
        return -1;
    }
    if (private_file == 0) {
        fclose(f);
        snprintf(why, why_len, "--key-file: %.200s may be read by others: chmod 600 it", path);
        return -1;
    }
    rc = fgets(line, sizeof line, f) != NULL ? parse_key(line, key) : -1;
    while (rc == 0 && (c = fgetc(f)) != EOF) /* one line only, blank lines aside */
        if (c != '\n' && c != '\r' && c != ' ' && c != '\t')
            rc = -1;
    fclose(f);
    memset(line, 0, sizeof line);
    if (rc != 0) {
        ttcp_key_wipe(key);
        snprintf(why, why_len, "--key-file: %.200s must hold one line of 32 to 128 hex digits "
                 "(openssl rand -hex 32)", path);
    }
    return rc;
}

int ttcp_random_hex(char *out, size_t len)
{
    unsigned char raw[64];
    if (len % 2 != 0 || len / 2 > sizeof raw || tt_random_bytes(raw, len / 2) != 0)
        return -1;
    to_hex(raw, len / 2, out);
    return 0;
}

int ttcp_auth_mac(const struct ttcp_key *key, const char *role, const char *server_nonce,
                  const char *client_nonce, char out[TTCP_MAC_HEX + 1])
{
    char msg[160];
    unsigned char mac[TT_HMAC_LEN];
    int n = snprintf(msg, sizeof msg, "ttcp-auth-v1 %s %s %s", role, server_nonce, client_nonce);
    if (n < 0 || (size_t)n >= sizeof msg ||
        tt_hmac_sha256(key->bytes, key->len, (const unsigned char *)msg, (size_t)n, mac) != 0)
        return -1;
    to_hex(mac, sizeof mac, out);
    return 0;
}

int ttcp_auth_equal(const char *a, const char *b)
{
    size_t i;
    unsigned diff = 0;
    if (strlen(a) != TTCP_MAC_HEX || strlen(b) != TTCP_MAC_HEX)
        return 0;
    for (i = 0; i < TTCP_MAC_HEX; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

void ttcp_key_wipe(struct ttcp_key *key)
{
    volatile unsigned char *p = key->bytes;
    size_t i;
    for (i = 0; i < sizeof key->bytes; i++)
        p[i] = 0;
    key->len = 0;
}
