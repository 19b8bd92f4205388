#include "engine/buffer.h"

#include "ttcp/platform.h"

int ttcp_buffer_alloc(struct ttcp_buffer *b, size_t len, size_t align, size_t offset)
{
    uintptr_t start, skip = 0;

    b->block_len = len + align;
    b->block = tt_page_alloc(b->block_len);
    if (b->block == NULL)
        return TT_E_NOMEM;
    start = (uintptr_t)b->block;
    if (align != 0)
        skip = (align - start % align + offset) % align;
    b->data = (unsigned char *)b->block + skip;
    b->len = len;
    return 0;
}

void ttcp_buffer_free(struct ttcp_buffer *b)
{
    if (b->block != NULL)
        tt_page_free(b->block, b->block_len);
    b->block = NULL;
    b->data = NULL;
}
