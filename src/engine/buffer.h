/* The I/O buffer: page-allocated, then placed at -A/-O as 1.12 does. */
#ifndef TTCP_BUFFER_H
#define TTCP_BUFFER_H

#include <stddef.h>
#include <stdint.h>

struct ttcp_buffer {
    unsigned char *data; /* buflen bytes at the requested alignment */
    size_t len;
    void *block;         /* what was allocated */
    size_t block_len;
};

/* data % align == offset (align 0: no placement). Returns 0 or TT_E_NOMEM. */
int ttcp_buffer_alloc(struct ttcp_buffer *b, size_t len, size_t align, size_t offset);
void ttcp_buffer_free(struct ttcp_buffer *b);

#endif
