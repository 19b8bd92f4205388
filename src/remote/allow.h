/* Address prefixes: who may connect, to a server (-S --allow) or to the
 * exporter (its allow-list), and where a server's third-party tests may go
 * (-S --third-party); matched against an address. */
#ifndef TTCP_REMOTE_ALLOW_H
#define TTCP_REMOTE_ALLOW_H

#include "config/options.h"
#include "ttcp/platform.h"

struct ttcp_prefix {
    unsigned char ip[16];
    int len;  /* 4 or 16 bytes */
    int bits; /* prefix length */
};

struct ttcp_allow {
    struct ttcp_prefix prefix[TTCP_ALLOW_MAX];
    int count; /* 0: anyone */
};

/* Reads "10.0.0.0/8", "::1", "2001:db8::/32" (no names: nothing is looked up).
 * 0, or -1 with a reason. */
int ttcp_prefix_parse(const char *text, struct ttcp_prefix *out, char *why, size_t why_len);
int ttcp_allow_parse(const struct ttcp_options *o, struct ttcp_allow *out, char *why,
                     size_t why_len);
/* -S --third-party: the targets a third party's test may go to (count 0:
 * none; ttcp_allow_match's "anyone" does not hold for it). */
int ttcp_third_party_parse(const struct ttcp_options *o, struct ttcp_allow *out, char *why,
                           size_t why_len);
/* 1 when peer may connect. */
int ttcp_allow_match(const struct ttcp_allow *a, const struct tt_addr *peer);

#endif
