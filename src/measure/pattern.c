#include "measure/pattern.h"

#define FIRST_PRINTABLE 0x20
#define PRINTABLE_COUNT 95 /* 0x20 .. 0x7E */

unsigned char ttcp_pattern_byte(uint64_t offset)
{
    return (unsigned char)(FIRST_PRINTABLE + offset % PRINTABLE_COUNT);
}

void ttcp_pattern_fill(unsigned char *buf, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++)
        buf[i] = ttcp_pattern_byte(i);
}
