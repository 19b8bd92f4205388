/* Rate units of -f: the classic 1.12 letters, all 1024-based, and the SI
 * bit rates network links are rated in, 1000-based. */
#ifndef TTCP_RATE_H
#define TTCP_RATE_H

#include <stddef.h>

enum ttcp_unit {
    TTCP_UNIT_KBIT,  /* k */
    TTCP_UNIT_KBYTE, /* K, the default */
    TTCP_UNIT_MBIT,  /* m */
    TTCP_UNIT_MBYTE, /* M */
    TTCP_UNIT_GBIT,  /* g */
    TTCP_UNIT_GBYTE, /* G */
    TTCP_UNIT_BPS,   /* bps: bits per second */
    TTCP_UNIT_KBPS,  /* kbps: 1000 bits per second */
    TTCP_UNIT_MBPS,  /* Mbps */
    TTCP_UNIT_GBPS   /* Gbps */
};

/* The words bps, kbps, Mbps, Gbps (any case) select an SI unit, and the
 * letters k K m M g G a classic one. Anything else is -1: 1.12 took the first
 * character and made anything unknown K, so "-f Mbit" silently meant M. */
int ttcp_unit_parse(const char *text);
#define TTCP_UNIT_NAMES "k K m M g G (1024-based), bps kbps Mbps Gbps (1000-based)"

/* The rate with its unit: "4.71 KB" (classic, then "/sec" follows) or
 * "38.577 kbps" (SI, complete as it is). */
const char *ttcp_unit_format(enum ttcp_unit unit, double bytes_per_sec,
                             char *buf, size_t len);

/* "/sec" after a classic unit, "" after an SI one (no "kbps/sec"). */
const char *ttcp_unit_per_sec(enum ttcp_unit unit);

/* A rate as a number of the unit, uncut ("KB": per second), and the unit's
 * name as printed: for a plot's axis. */
double ttcp_unit_value(enum ttcp_unit unit, double bytes_per_sec);
const char *ttcp_unit_name(enum ttcp_unit unit);
/* The SI unit that shows bits_per_sec with one to three digits before the
 * point (bps below 1000). */
enum ttcp_unit ttcp_unit_si(double bits_per_sec);

/* An SI bit rate for plain bits per second: "45.333 kbps". */
const char *ttcp_unit_format_bps(double bits_per_sec, char *buf, size_t len);

#endif
