/* memory.c - the pages of a large array asked for before it is filled (memory.h). */
#include "base/memory.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(MADV_POPULATE_WRITE) && defined(__linux__)
#define MADV_POPULATE_WRITE 23 /* linux/mman.h, Linux 5.14 */
#endif

void tco_prefault(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    if (p == NULL || bytes < TCO_PREFAULT_MIN)
        return;
    long page_size = sysconf(_SC_PAGESIZE);
    uintptr_t page = page_size > 0 ? (uintptr_t)page_size : 4096u;
    uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1), to = ((uintptr_t)p + bytes) & ~(page - 1);
    if (to > from)
        (void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)bytes;
#endif
}
