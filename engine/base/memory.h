/*
 * memory.h - the pages of a large array asked for before it is filled, and arenas: memory handed
 * out in pieces and given back whole.
 */
#ifndef TCO_MEMORY_H
#define TCO_MEMORY_H

#include <stdbool.h>
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

/**
 * Ask for transparent huge pages (2 MiB) for the next @p bytes of the process's main heap, where
 * malloc() puts its small blocks: a workbook of a template ten times the shipped one takes some
 * 40,000 page faults of 4 KiB as libxlsxwriter makes its cells, each costing microseconds on a
 * virtual machine, and its pages fill the processor's address cache (docs/performance.md, "huge
 * pages for the heap").  What glibc's own `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` does, from within
 * the program: the heap is grown by @p bytes at once (blocks of 16 MiB from malloc(), below the mmap
 * threshold), that range advised MADV_HUGEPAGE, and the blocks given back; the heap keeps the range
 * (M_TRIM_THRESHOLD), so the small blocks of the run come from it, and a 2 MiB page is only
 * cleared when something in it is first written.  Blocks of less than 32 MiB come from the heap
 * from then on (M_MMAP_THRESHOLD).  Call once, at the start, before any thread.
 *
 * A hint only, with nothing reported: it does nothing without glibc or MADV_HUGEPAGE, in a
 * sanitizer build, when GLIBC_TUNABLES already sets malloc's behaviour (the user's choice), when the
 * address space or the data segment is limited (RLIMIT_AS, RLIMIT_DATA: a reserved range would
 * count against the limit), when the kernel counts committed memory strictly
 * (vm.overcommit_memory = 2), or when the heap cannot grow by @p bytes now.  Where the kernel's
 * transparent huge pages are off ("never"), the advice is ignored and the pages are 4 KiB as before.
 * Returns whether a range was advised.
 */
bool tco_heap_huge_pages(size_t bytes);

/** One block of an arena (memory.c). */
typedef struct tco_arena_block tco_arena_block;

/**
 * Memory handed out in pieces and given back whole: for the many small things that live exactly as
 * long as what owns them (an INI file's names and values, a model's formula trees), where one
 * malloc() and one free() each cost more than the thing itself.  Blocks start at 64 KiB and double up
 * to 4 MiB (a larger piece gets a block of its own); a block of 1 MiB or more has its pages asked for
 * at once (tco_prefault()).  A zeroed tco_arena is empty and ready.  Not thread-safe: one thread per
 * arena (two threads fill two arenas, and one adopts the other's blocks, tco_arena_adopt()).
 */
typedef struct tco_arena {
    tco_arena_block *head; /* the newest block, the one handed out from; NULL when empty */
    size_t next_size;      /* the size of the next block; 0 before the first */
} tco_arena;

/** @p n bytes of @p a, aligned for any type (max_align_t); NULL when out of memory. */
void *tco_arena_alloc(tco_arena *a, size_t n);

/** @p n bytes of @p a for text (no alignment); NULL when out of memory. */
char *tco_arena_alloc_text(tco_arena *a, size_t n);

/** Move every block of @p from into @p into, behind @p into's newest block (which keeps handing out
 *  its room); @p from is empty afterwards.  The pieces keep their addresses. */
void tco_arena_adopt(tco_arena *into, tco_arena *from);

/** Give back every block of @p a (every piece it handed out); @p a is empty afterwards. */
void tco_arena_free(tco_arena *a);

#endif
