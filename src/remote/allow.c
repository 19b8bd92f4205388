/* --allow prefixes, IPv4 and IPv6 alike (an IPv4 peer on a dual-stack
 * socket is matched as IPv4). */
#include "remote/allow.h"

#include <stdio.h>
#include <string.h>

#include "base/parse.h"

/* A prefix of the option named (--allow, --third-party). */
static int parse_as(const char *option, const char *text, struct ttcp_prefix *out, char *why,
                    size_t why_len)
{
    char ip[64], reason[128];
    const char *slash = strchr(text, '/');
    size_t n = slash ? (size_t)(slash - text) : strlen(text);
    uint64_t bits;
    int i;

    memset(out, 0, sizeof *out);
    if (n == 0 || n >= sizeof ip) {
        snprintf(why, why_len, "%s: '%.64s' is not an address prefix", option, text);
        return -1;
    }
    memcpy(ip, text, n);
    ip[n] = '\0';
    out->len = tt_ip_parse(ip, out->ip);
    if (out->len == 0) {
        snprintf(why, why_len, "%s: '%.64s' is not a numeric IPv4 or IPv6 address", option, ip);
        return -1;
    }
    bits = (uint64_t)out->len * 8;
    if (slash && ttcp_parse_u64(slash + 1, TTCP_SUFFIX_NONE, 0, (uint64_t)out->len * 8, &bits,
                                reason, sizeof reason) != 0) {
        snprintf(why, why_len, "%s: %s: prefix length %s", option, text, reason);
        return -1;
    }
    out->bits = (int)bits;
    for (i = out->bits; i < out->len * 8; i++) /* host bits do not count */
        out->ip[i / 8] &= (unsigned char)~(0x80u >> (i % 8));
    return 0;
}

int ttcp_prefix_parse(const char *text, struct ttcp_prefix *out, char *why, size_t why_len)
{
    return parse_as("--allow", text, out, why, why_len);
}

static int parse_list(const char *option, const char *const *texts, int count,
                      struct ttcp_allow *out, char *why, size_t why_len)
{
    int i;
    out->count = 0;
    for (i = 0; i < count && i < TTCP_ALLOW_MAX; i++)
        if (parse_as(option, texts[i], &out->prefix[out->count++], why, why_len) != 0)
            return -1;
    return 0;
}

int ttcp_allow_parse(const struct ttcp_options *o, struct ttcp_allow *out, char *why,
                     size_t why_len)
{
    return parse_list("--allow", o->allow, o->allow_count, out, why, why_len);
}

int ttcp_third_party_parse(const struct ttcp_options *o, struct ttcp_allow *out, char *why,
                           size_t why_len)
{
    return parse_list("--third-party", o->third_party, o->third_party_count, out, why, why_len);
}

static int in_prefix(const struct ttcp_prefix *p, const unsigned char *ip, int len)
{
    int full = p->bits / 8, rest = p->bits % 8;
    if (len != p->len || memcmp(ip, p->ip, (size_t)full) != 0)
        return 0;
    return rest == 0 || ((ip[full] ^ p->ip[full]) & (0xFFu << (8 - rest)) & 0xFFu) == 0;
}

int ttcp_allow_match(const struct ttcp_allow *a, const struct tt_addr *peer)
{
    unsigned char ip[16];
    int len, i;
    if (a->count == 0)
        return 1;
    len = tt_addr_ip(peer, ip);
    for (i = 0; i < a->count; i++)
        if (in_prefix(&a->prefix[i], ip, len))
            return 1;
    return 0;
}
