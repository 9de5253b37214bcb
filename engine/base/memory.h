/*
 * memory.h - the pages of a large array asked for before it is filled.
 */
#ifndef TCO_MEMORY_H
#define TCO_MEMORY_H

#include <stddef.h>

/** Smallest range tco_prefault() acts on (1 MiB: below it a system call costs more than the faults). */
#define TCO_PREFAULT_MIN ((size_t)1 << 20)

/**
 * Back the whole 4 KiB pages inside [@p p, @p p + @p bytes) with memory now, in one system call
 * (madvise() with MADV_POPULATE_WRITE, Linux 5.14 and later), instead of one page fault per page as
 * the array is first written.  For memory about to be filled front to back: the text of a large INI
 * file, its key index, the model's items.  On a virtual machine a page fault costs microseconds; the
 * load of a template of 28,100 lines took 22,300 of them (docs/performance.md).  A range shorter
 * than TCO_PREFAULT_MIN is left alone.  A hint only: where the kernel does not know the advice
 * (EINVAL) or has no memory for it now (ENOMEM), the pages are faulted in as they are written, as
 * without it; nothing is reported and nothing else changes.  @p p must lie in memory the caller
 * owns (a block from malloc()/realloc() of at least @p bytes).
 */
void tco_prefault(void *p, size_t bytes);

#endif
