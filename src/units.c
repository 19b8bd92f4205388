/* Rate units, exactly as 1.12's outfmt(): every unit is 1024-based, the bit
 * units too (the Cisco note warns users to recompute kbps by hand). */
#include "units.h"

#include <stdio.h>

struct unit_def {
    char letter;
    const char *name;
    double base; /* 1024-based multiple of bytes */
    int bits;    /* the unit counts bits: times 8 */
};

static const struct unit_def units[] = {
    [TTCP_UNIT_KBIT] = {'k', "Kbit", 1024.0, 1},
    [TTCP_UNIT_KBYTE] = {'K', "KB", 1024.0, 0},
    [TTCP_UNIT_MBIT] = {'m', "Mbit", 1024.0 * 1024.0, 1},
    [TTCP_UNIT_MBYTE] = {'M', "MB", 1024.0 * 1024.0, 0},
    [TTCP_UNIT_GBIT] = {'g', "Gbit", 1024.0 * 1024.0 * 1024.0, 1},
    [TTCP_UNIT_GBYTE] = {'G', "GB", 1024.0 * 1024.0 * 1024.0, 0},
};

enum ttcp_unit ttcp_unit_parse(const char *text)
{
    size_t i;
    for (i = 0; i < sizeof units / sizeof units[0]; i++)
        if (text != NULL && text[0] == units[i].letter)
            return (enum ttcp_unit)i;
    return TTCP_UNIT_KBYTE;
}

const char *ttcp_unit_format(enum ttcp_unit unit, double bytes_per_sec,
                             char *buf, size_t len)
{
    const struct unit_def *u = &units[unit];
    /* Same order of operations as 1.12 (b / KILO * 8.0), so the last
     * printed digit rounds the same way. */
    double value = bytes_per_sec / u->base * (u->bits ? 8.0 : 1.0);
    snprintf(buf, len, "%.2f %s", value, u->name);
    return buf;
}
