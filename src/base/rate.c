/* Rate units. The letters are exactly 1.12's outfmt(): every unit 1024-based,
 * the bit units too (the Cisco note warns users to recompute kbps by hand).
 * The SI words are 1000-based with three decimals, as the note computes
 * "38.577 kbps". */
#include "base/rate.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>

struct unit_def {
    const char *key;  /* the letter, or the SI word */
    const char *name; /* as printed */
    double base;      /* multiple of bytes (letters) or bits (SI) */
    int bits;         /* counts bits: times 8 */
};

static const struct unit_def units[] = {
    [TTCP_UNIT_KBIT] = {"k", "Kbit", 1024.0, 1},
    [TTCP_UNIT_KBYTE] = {"K", "KB", 1024.0, 0},
    [TTCP_UNIT_MBIT] = {"m", "Mbit", 1024.0 * 1024.0, 1},
    [TTCP_UNIT_MBYTE] = {"M", "MB", 1024.0 * 1024.0, 0},
    [TTCP_UNIT_GBIT] = {"g", "Gbit", 1024.0 * 1024.0 * 1024.0, 1},
    [TTCP_UNIT_GBYTE] = {"G", "GB", 1024.0 * 1024.0 * 1024.0, 0},
    [TTCP_UNIT_BPS] = {"bps", "bps", 1.0, 1},
    [TTCP_UNIT_KBPS] = {"kbps", "kbps", 1e3, 1},
    [TTCP_UNIT_MBPS] = {"Mbps", "Mbps", 1e6, 1},
    [TTCP_UNIT_GBPS] = {"Gbps", "Gbps", 1e9, 1},
};

#define UNIT_COUNT (sizeof units / sizeof units[0])

static int is_si(enum ttcp_unit unit)
{
    return unit >= TTCP_UNIT_BPS;
}

static int same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int ttcp_unit_parse(const char *text)
{
    size_t i;
    if (text == NULL)
        return -1;
    for (i = TTCP_UNIT_BPS; i < UNIT_COUNT; i++)
        if (same_word(text, units[i].key))
            return (int)i;
    for (i = 0; i < TTCP_UNIT_BPS; i++)
        if (text[0] == units[i].key[0] && text[1] == '\0')
            return (int)i;
    return -1;
}

const char *ttcp_unit_format(enum ttcp_unit unit, double bytes_per_sec,
                             char *buf, size_t len)
{
    const struct unit_def *u = &units[unit];
    if (is_si(unit)) {
        /* Cut, not rounded, at the third decimal: a rate is never shown
         * higher than measured (and 409600 bytes in 84.94 s reads 38.577
         * kbps, as the Cisco note works it out). The tiny bias keeps an
         * exact 20.000 from showing as 19.999 after float division. */
        double value = floor(bytes_per_sec * 8.0 / u->base * 1000.0 + 1e-6) / 1000.0;
        snprintf(buf, len, "%.3f %s", value, u->name);
        return buf;
    }
    /* Same order of operations as 1.12 (b / KILO * 8.0), so the last
     * printed digit rounds the same way. */
    snprintf(buf, len, "%.2f %s", bytes_per_sec / u->base * (u->bits ? 8.0 : 1.0), u->name);
    return buf;
}

const char *ttcp_unit_per_sec(enum ttcp_unit unit)
{
    return is_si(unit) ? "" : "/sec";
}

double ttcp_unit_value(enum ttcp_unit unit, double bytes_per_sec)
{
    const struct unit_def *u = &units[unit];
    return bytes_per_sec * (u->bits ? 8.0 : 1.0) / u->base;
}

const char *ttcp_unit_name(enum ttcp_unit unit)
{
    return units[unit].name;
}

enum ttcp_unit ttcp_unit_si(double bits_per_sec)
{
    return bits_per_sec >= 1e9   ? TTCP_UNIT_GBPS
           : bits_per_sec >= 1e6 ? TTCP_UNIT_MBPS
           : bits_per_sec >= 1e3 ? TTCP_UNIT_KBPS
                                 : TTCP_UNIT_BPS;
}

const char *ttcp_unit_format_bps(double bits_per_sec, char *buf, size_t len)
{
    return ttcp_unit_format(ttcp_unit_si(bits_per_sec), bits_per_sec / 8.0, buf, len);
}
