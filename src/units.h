/* Rate units of -f: the classic 1.12 letters, all 1024-based. */
#ifndef TTCP_UNITS_H
#define TTCP_UNITS_H

#include <stddef.h>

enum ttcp_unit {
    TTCP_UNIT_KBIT,  /* k */
    TTCP_UNIT_KBYTE, /* K, the default */
    TTCP_UNIT_MBIT,  /* m */
    TTCP_UNIT_MBYTE, /* M */
    TTCP_UNIT_GBIT,  /* g */
    TTCP_UNIT_GBYTE  /* G */
};

/* As 1.12: the first character selects the unit, anything unknown is K. */
enum ttcp_unit ttcp_unit_parse(const char *text);

/* "%.2f <unit>" for a rate in bytes per second, e.g. "4.71 KB". */
const char *ttcp_unit_format(enum ttcp_unit unit, double bytes_per_sec,
                             char *buf, size_t len);

#endif
