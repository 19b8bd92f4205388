/* Page-aligned I/O buffers straight from the kernel: zeroed, and aligned
 * for any -A up to the page size without wasting a copy. */
#include <sys/mman.h>

#include "ttcp/platform.h"

void *tt_page_alloc(size_t len)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void tt_page_free(void *p, size_t len)
{
    munmap(p, len);
}
