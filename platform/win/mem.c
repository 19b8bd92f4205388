/* Page-aligned, zeroed I/O buffers from VirtualAlloc. */
#include <windows.h>

#include "ttcp/platform.h"

void *tt_page_alloc(size_t len)
{
    void *p = VirtualAlloc(NULL, len, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
    return p; /* on failure GetLastError(), which tt_last_error() reads, says why */
}

void tt_page_free(void *p, size_t len)
{
    (void)len;
    VirtualFree(p, 0, MEM_RELEASE);
}
