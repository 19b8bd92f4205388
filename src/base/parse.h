/* Bounded number parsing for options: no atoi(), no silent garbage. */
#ifndef TTCP_PARSE_H
#define TTCP_PARSE_H

#include <stddef.h>
#include <stdint.h>

enum ttcp_suffix {
    TTCP_SUFFIX_NONE,   /* plain integer */
    TTCP_SUFFIX_BINARY  /* k, m, g = 2^10, 2^20, 2^30 (buffer and socket sizes) */
};

/* Parses text as an unsigned integer in [min, max]. On failure writes a
 * one-line reason (without the option name) into why and returns -1. */
int ttcp_parse_u64(const char *text, enum ttcp_suffix suffix, uint64_t min,
                   uint64_t max, uint64_t *out, char *why, size_t why_len);

/* Parses a decimal number of seconds (fractions allowed) into nanoseconds,
 * bounded to [min_ns, max_ns]. */
int ttcp_parse_seconds(const char *text, int64_t min_ns, int64_t max_ns,
                       int64_t *out_ns, char *why, size_t why_len);

/* A rate in bits per second: a decimal number with an optional SI suffix,
 * k, m or g (10^3, 10^6, 10^9, either case): "45333", "56k", "45.333k",
 * "100m". Bounded to [min, max] bits per second. */
int ttcp_parse_rate(const char *text, uint64_t min, uint64_t max, uint64_t *out,
                    char *why, size_t why_len);

/* --framing: the bytes a link adds to each IP packet on the wire, for RFC
 * 6349's frame rate. Ethernet: preamble and start 8, header 14, FCS 4, the
 * gap between frames 12 (RFC 6349's 1538 per 1500). PPP in HDLC-like
 * framing (RFC 1662) as a modem link sends it: flag 1, address 1, control 1,
 * protocol 2, FCS 2, a closing flag 1, no header compression; the octets
 * its stuffing adds depend on the data and are not counted. */
#define TTCP_FRAMING_ETHERNET 38
#define TTCP_FRAMING_PPP 8
#define TTCP_FRAMING_MAX 1000
/* "ethernet", "ppp" (any case) or a number of bytes 0-TTCP_FRAMING_MAX.
 * 0, or -1 with a reason. */
int ttcp_parse_framing(const char *text, uint64_t *bytes, char *reason, size_t reason_len);

/* --tos: 0 to 255, decimal, 0x hex or 0 octal (as iperf3's -S). 0, or -1
 * with a reason. */
int ttcp_parse_tos(const char *text, uint64_t *tos, char *reason, size_t reason_len);
/* --dscp: a code point by number (0-63) or by name (ef, af11 to af43, cs0 to
 * cs7, va, le, be, default; any case) -> the TOS byte it makes (dscp << 2).
 * 0, or -1 with a reason. */
int ttcp_parse_dscp(const char *text, uint64_t *tos, char *reason, size_t reason_len);

#endif
