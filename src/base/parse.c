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
