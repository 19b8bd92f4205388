/* Little-endian 64-bit numbers in byte buffers, as ttcp's own wire formats
 * (the UDP sequence header, the random pattern's preamble) carry them. */
#ifndef TTCP_LE64_H
#define TTCP_LE64_H

#include <stdint.h>

static inline void ttcp_le64_put(unsigned char *p, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t ttcp_le64_get(const unsigned char *p)
{
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

#endif
