#include "pattern.h"

#define FIRST_PRINTABLE 0x20
#define PRINTABLE_COUNT 95 /* 0x20 .. 0x7E */

void ttcp_pattern_fill(unsigned char *buf, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++)
        buf[i] = (unsigned char)(FIRST_PRINTABLE + i % PRINTABLE_COUNT);
}
