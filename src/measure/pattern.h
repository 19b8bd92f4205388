/* The classic sink-mode payload. */
#ifndef TTCP_PATTERN_H
#define TTCP_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* Fills buf with 1.12's pattern: the printable bytes 0x20..0x7E repeating,
 * starting at ' ' (the same buffer is then sent nbuf times). */
void ttcp_pattern_fill(unsigned char *buf, size_t len);
/* The pattern's byte at a buffer offset. */
unsigned char ttcp_pattern_byte(uint64_t offset);

#endif
