/* memory.c - the pages of a large array asked for before it is filled, and arenas (memory.h). */
#include "base/memory.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

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

/* Sanitizer builds: their allocator is not glibc's heap. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TCO_OWN_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define TCO_OWN_ALLOCATOR 1
#endif
#endif

#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !defined(TCO_OWN_ALLOCATOR)
/* The heap's blocks (below the mmap threshold, HEAP_MMAP_THRESHOLD) and the huge page's size. */
enum { HEAP_BLOCK = 16 << 20, HEAP_MMAP_THRESHOLD = 32 << 20, HUGE_PAGE = 2 << 20, HEAP_BLOCKS_MAX = 64 };

/* Whether the machine leaves room for a reserved range: no limit on the address space or the data
 * segment, and no strict accounting of committed memory. */
static int heap_may_grow(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur != RLIM_INFINITY)
        return 0;
    if (getrlimit(RLIMIT_DATA, &rl) != 0 || rl.rlim_cur != RLIM_INFINITY)
        return 0;
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    int mode = 0;
    if (f != NULL) {
        if (fscanf(f, "%d", &mode) != 1)
            mode = 0;
        fclose(f);
    }
    return mode != 2;
}

bool tco_heap_huge_pages(size_t bytes)
{
    const char *tunables = getenv("GLIBC_TUNABLES");
    size_t n = bytes / HEAP_BLOCK;
    if (n == 0 || (tunables != NULL && strstr(tunables, "glibc.malloc.") != NULL) || !heap_may_grow())
        return false;
    if (n > HEAP_BLOCKS_MAX)
        n = HEAP_BLOCKS_MAX;
    if (mallopt(M_MMAP_THRESHOLD, HEAP_MMAP_THRESHOLD) == 0 ||
        mallopt(M_TRIM_THRESHOLD, (int)((n + 2) * (size_t)HEAP_BLOCK)) == 0)
        return false;
    void *block[HEAP_BLOCKS_MAX];
    size_t got = 0;
    while (got < n && (block[got] = malloc(HEAP_BLOCK)) != NULL)
        got++;
    /* The blocks follow one another in the heap (each behind the last, a chunk header apart); where
     * they do not (the heap met another mapping), each block is advised alone. */
    int joined = 1;
    for (size_t i = 1; i < got; i++)
        joined &= (char *)block[i] > (char *)block[i - 1] &&
                  (size_t)((char *)block[i] - (char *)block[i - 1]) <= HEAP_BLOCK + 64;
    bool advised = false;
    for (size_t i = 0; i < got; i = joined ? got : i + 1) {
        uintptr_t from = ((uintptr_t)block[i] + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        uintptr_t to = ((uintptr_t)block[joined ? got - 1 : i] + HEAP_BLOCK) & ~(uintptr_t)(HUGE_PAGE - 1);
        if (to > from && madvise((void *)from, to - from, MADV_HUGEPAGE) == 0)
            advised = true;
    }
    while (got > 0)
        free(block[--got]);
    return advised;
}
#else
bool tco_heap_huge_pages(size_t bytes)
{
    (void)bytes;
    return false;
}
#endif

struct tco_arena_block {
    tco_arena_block *next; /* the block made before this one */
    size_t used, size;     /* bytes handed out, and the room in data */
    alignas(max_align_t) unsigned char data[];
};

enum { ARENA_FIRST = 64 << 10, ARENA_MAX = 4 << 20 };

/* A new newest block of @p a with room for @p n bytes at least. */
static tco_arena_block *arena_grow(tco_arena *a, size_t n)
{
    size_t size = a->next_size ? a->next_size : ARENA_FIRST;
    if (size < ARENA_MAX)
        a->next_size = size * 2;
    else
        a->next_size = ARENA_MAX;
    if (size < n)
        size = n;
    if (size > SIZE_MAX - sizeof(tco_arena_block))
        return NULL;
    tco_arena_block *b = malloc(sizeof *b + size);
    if (b == NULL)
        return NULL;
    tco_prefault(b->data, size);
    b->used = 0;
    b->size = size;
    b->next = a->head;
    a->head = b;
    return b;
}

char *tco_arena_alloc_text(tco_arena *a, size_t n)
{
    tco_arena_block *b = a->head;
    if ((b == NULL || b->size - b->used < n) && (b = arena_grow(a, n)) == NULL)
        return NULL;
    char *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

void *tco_arena_alloc(tco_arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    tco_arena_block *b = a->head;
    if (b != NULL) {
        size_t pad = (align - b->used % align) % align;
        if (pad <= b->size - b->used)
            b->used += pad;
        else
            b->used = b->size;
    }
    if (n > SIZE_MAX - align)
        return NULL;
    /* a new block's data is aligned, so a piece rounded up keeps the next one aligned */
    return tco_arena_alloc_text(a, (n + align - 1) / align * align);
}

void tco_arena_adopt(tco_arena *into, tco_arena *from)
{
    tco_arena_block *last = from->head;
    if (last == NULL)
        return;
    while (last->next != NULL)
        last = last->next;
    if (into->head == NULL) {
        into->head = from->head;
    } else {
        last->next = into->head->next;
        into->head->next = from->head;
    }
    if (from->next_size > into->next_size)
        into->next_size = from->next_size;
    from->head = NULL;
    from->next_size = 0;
}

void tco_arena_free(tco_arena *a)
{
    for (tco_arena_block *b = a->head, *next; b != NULL; b = next) {
        next = b->next;
        free(b);
    }
    a->head = NULL;
    a->next_size = 0;
}
