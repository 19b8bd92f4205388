/* Bounded number parsing. Hand-written digit loops because strtoul accepts
 * a leading '-' and wraps it, and atoi (classic ttcp) turns garbage into 0. */
#include "base/parse.h"

#include <stdio.h>

static int fail(char *why, size_t why_len, const char *fmt, const char *text)
{
    snprintf(why, why_len, fmt, text);
    return -1;
}

static int suffix_shift(char c, unsigned *shift)
{
    switch (c) {
    case 'k': case 'K': *shift = 10; return 0;
    case 'm': case 'M': *shift = 20; return 0;
    case 'g': case 'G': *shift = 30; return 0;
    default: return -1;
    }
}

/* Reads the leading decimal digits; returns how many, or -1 on overflow. */
static int read_digits(const char **p, uint64_t *value)
{
    int n = 0;
    *value = 0;
    for (; **p >= '0' && **p <= '9'; (*p)++, n++) {
        unsigned d = (unsigned)(**p - '0');
        if (*value > (UINT64_MAX - d) / 10)
            return -1;
        *value = *value * 10 + d;
    }
    return n;
}

int ttcp_parse_u64(const char *text, enum ttcp_suffix suffix, uint64_t min,
                   uint64_t max, uint64_t *out, char *why, size_t why_len)
{
    const char *p = text;
    uint64_t value;
    unsigned shift = 0;
    int digits;

    if (text == NULL || *text == '\0')
        return fail(why, why_len, "a number is missing%s", "");
    if (*p == '-')
        return fail(why, why_len, "'%s' is negative", text);
    if (*p == '+')
        p++;
    digits = read_digits(&p, &value);
    if (digits < 0)
        return fail(why, why_len, "'%s' is too large", text);
    if (digits == 0)
        return fail(why, why_len, "'%s' is not a number", text);
    if (*p != '\0') {
        if (suffix != TTCP_SUFFIX_BINARY || suffix_shift(*p, &shift) != 0 ||
            p[1] != '\0')
            return fail(why, why_len, "'%s' is not a number", text);
        if (value > (UINT64_MAX >> shift))
            return fail(why, why_len, "'%s' is too large", text);
        value <<= shift;
    }
    if (value < min || value > max) {
        snprintf(why, why_len, "'%s' is out of range (%llu to %llu)", text,
                 (unsigned long long)min, (unsigned long long)max);
        return -1;
    }
    *out = value;
    return 0;
}

int ttcp_parse_seconds(const char *text, int64_t min_ns, int64_t max_ns,
                       int64_t *out_ns, char *why, size_t why_len)
{
    const char *p = text;
    uint64_t whole, frac = 0, scale = 1000000000ull;
    int digits;

    if (text == NULL || *text == '\0')
        return fail(why, why_len, "a number of seconds is missing%s", "");
    if (*p == '-')
        return fail(why, why_len, "'%s' is negative", text);
    digits = read_digits(&p, &whole);
    if (digits < 0 || whole > (uint64_t)INT64_MAX / 1000000000ull)
        return fail(why, why_len, "'%s' is too large", text);
    if (*p == '.') {
        p++;
        for (; *p >= '0' && *p <= '9'; p++, digits++) {
            scale /= 10; /* digits past nanoseconds are dropped */
            frac += (uint64_t)(*p - '0') * scale;
        }
    }
    if (digits == 0 || *p != '\0')
        return fail(why, why_len, "'%s' is not a number of seconds", text);
    *out_ns = (int64_t)(whole * 1000000000ull + frac);
    if (*out_ns < min_ns || *out_ns > max_ns) {
        snprintf(why, why_len, "'%s' is out of range (%.3g to %.6g seconds)",
                 text, (double)min_ns / 1e9, (double)max_ns / 1e9);
        return -1;
    }
    return 0;
}

int ttcp_parse_rate(const char *text, uint64_t min, uint64_t max, uint64_t *out,
                    char *why, size_t why_len)
{
    const char *p = text;
    uint64_t whole, frac = 0, frac_scale = 1, multiplier = 1;
    int digits;

    if (text == NULL || *text == '\0')
        return fail(why, why_len, "a rate is missing%s", "");
    if (*p == '-')
        return fail(why, why_len, "'%s' is negative", text);
    digits = read_digits(&p, &whole);
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9' && frac_scale < 1000000000ull; p++, digits++) {
            frac = frac * 10 + (uint64_t)(*p - '0');
            frac_scale *= 10;
        }
    if (digits < 0 || whole > 1000000000000000ull)
        return fail(why, why_len, "'%s' is too large", text);
    switch (*p) {
    case 'k': case 'K': multiplier = 1000ull; p++; break;
    case 'm': case 'M': multiplier = 1000000ull; p++; break;
    case 'g': case 'G': multiplier = 1000000000ull; p++; break;
    default: break;
    }
    if (digits == 0 || *p != '\0')
        return fail(why, why_len, "'%s' is not a rate (bits per second, e.g. 56k, 100m)", text);
    /* whole is bounded above; frac * multiplier / frac_scale stays small */
    if (whole > UINT64_MAX / multiplier)
        return fail(why, why_len, "'%s' is too large", text);
    *out = whole * multiplier + frac * multiplier / frac_scale;
    if (*out < min || *out > max) {
        snprintf(why, why_len, "'%s' is out of range (%llu to %llu bits per second)", text,
                 (unsigned long long)min, (unsigned long long)max);
        return -1;
    }
    return 0;
}

/* a and b the same word, whatever the case of a's letters (b: lower case). */
static int same_word(const char *a, const char *b)
{
    for (; *a != '\0' && *b != '\0'; a++, b++)
        if ((*a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a) != *b)
            return 0;
    return *a == *b;
}

/* RFC 4594's names for the DSCP code points people mark with. */
static int dscp_name(const char *text)
{
    static const struct { const char *name; int dscp; } names[] = {
        {"be", 0}, {"default", 0}, {"le", 1}, {"ef", 46}, {"va", 44},
    };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (same_word(text, names[i].name))
            return names[i].dscp;
    if ((text[0] == 'c' || text[0] == 'C') && (text[1] == 's' || text[1] == 'S') &&
        text[2] >= '0' && text[2] <= '7' && text[3] == '\0')
        return 8 * (text[2] - '0'); /* class selector CS0..CS7 */
    if ((text[0] == 'a' || text[0] == 'A') && (text[1] == 'f' || text[1] == 'F') &&
        text[2] >= '1' && text[2] <= '4' && text[3] >= '1' && text[3] <= '3' && text[4] == '\0')
        return 8 * (text[2] - '0') + 2 * (text[3] - '0'); /* assured forwarding AFxy */
    return -1;
}

int ttcp_parse_dscp(const char *text, uint64_t *tos, char *reason, size_t reason_len)
{
    uint64_t dscp;
    int named = dscp_name(text);
    if (named >= 0) {
        *tos = (uint64_t)named << 2;
        return 0;
    }
    if (ttcp_parse_u64(text, TTCP_SUFFIX_NONE, 0, 63, &dscp, reason, reason_len) != 0) {
        snprintf(reason, reason_len, "'%.40s' is not a DSCP: a number 0-63 or a name (ef, af11 "
                 "to af43, cs0 to cs7, va, le, be)", text);
        return -1;
    }
    *tos = dscp << 2; /* the code point is the top six bits of the TOS byte */
    return 0;
}

int ttcp_parse_tos(const char *text, uint64_t *tos, char *reason, size_t reason_len)
{
    uint64_t v = 0;
    int base = 10, digits = 0;
    const char *p = text;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0' && p[1] != '\0') {
        base = 8;
        p++;
    }
    for (; *p != '\0' && v <= 255; p++, digits++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
                : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : 99;
        if (d >= base)
            break;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (digits == 0 || *p != '\0' || v > 255) {
        snprintf(reason, reason_len, "'%.40s' is not a TOS byte: 0 to 255 (decimal, 0x hex, 0 "
                 "octal)", text);
        return -1;
    }
    *tos = v;
    return 0;
}

int ttcp_parse_framing(const char *text, uint64_t *bytes, char *reason, size_t reason_len)
{
    if (same_word(text, "ethernet")) {
        *bytes = TTCP_FRAMING_ETHERNET;
        return 0;
    }
    if (same_word(text, "ppp")) {
        *bytes = TTCP_FRAMING_PPP;
        return 0;
    }
    if (ttcp_parse_u64(text, TTCP_SUFFIX_NONE, 0, TTCP_FRAMING_MAX, bytes, reason,
                       reason_len) != 0) {
        snprintf(reason, reason_len, "'%.40s' is not a framing: ethernet, ppp, or the bytes "
                 "each frame adds to a packet (0 to %d)", text, TTCP_FRAMING_MAX);
        return -1;
    }
    return 0;
}
