/* test_strbuf.c - the growable buffer (engine/base/strbuf.c): growth, clear, take, printf; and
 * engine/base/memory.c: tco_prefault(), which asks for a large block's pages before it is filled, and the
 * arenas (tco_arena); tco_heap_huge_pages(). */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/memory.h"
#include "base/strbuf.h"
#include "suites.h"

static void test_growth_and_take(void)
{
    tco_strbuf b = {0};
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), ""); /* empty before anything is appended */
    for (int i = 0; i < 10000; i++)
        tco_strbuf_append(&b, "ab");
    CU_ASSERT_EQUAL(b.len, 20000);
    CU_ASSERT_FALSE(b.failed);
    CU_ASSERT_EQUAL(strncmp(tco_strbuf_str(&b), "abab", 4), 0);
    CU_ASSERT_EQUAL(tco_strbuf_str(&b)[19999], 'b');
    CU_ASSERT_EQUAL(tco_strbuf_str(&b)[20000], '\0');
    size_t cap = b.cap;
    tco_strbuf_clear(&b); /* empty, the allocation kept */
    CU_ASSERT_EQUAL(b.len, 0);
    CU_ASSERT_EQUAL(b.cap, cap);
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), "");
    tco_strbuf_append_n(&b, "D-M tier", 3);
    tco_strbuf_put(&b, "!", 1);
    char *s = tco_strbuf_take(&b);
    CU_ASSERT_STRING_EQUAL(s, "D-M!");
    CU_ASSERT_PTR_NULL(b.data); /* reset: the caller owns the text */
    CU_ASSERT_EQUAL(b.len, 0);
    free(s);
}

static void test_printf_appends(void)
{
    /* The seed's kind of line: 10 kW x 8,760 h x 0.7 CNY/kWh = 61,320 CNY/yr. */
    tco_strbuf b = {0};
    tco_strbuf_append(&b, "electricity: ");
    tco_strbuf_printf(&b, "%d kW x %d h x %.1f CNY/kWh = %.0f CNY/yr", 10, 8760, 0.7, 10 * 8760 * 0.7);
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), "electricity: 10 kW x 8760 h x 0.7 CNY/kWh = 61320 CNY/yr");
    tco_strbuf_free(&b);
    CU_ASSERT_PTR_NULL(b.data);
    CU_ASSERT_EQUAL(b.len, 0);
}

/* tco_prefault() changes no byte of the block, in or around the range, and leaves short ranges and NULL
 * alone; on Linux 5.14 or later the pages of a fresh mapping are resident after it (mincore()). */
static void test_prefault(void)
{
    size_t size = 3u * 1024 * 1024 + 123;
    unsigned char *block = malloc(size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(block);
    for (size_t i = 0; i < size; i++)
        block[i] = (unsigned char)(i * 31u + 7u);
    tco_prefault(block + 777, 2u * 1024 * 1024 + 555);
    tco_prefault(block, TCO_PREFAULT_MIN - 1);
    tco_prefault(NULL, size);
    size_t changed = 0;
    for (size_t i = 0; i < size; i++)
        changed += block[i] != (unsigned char)(i * 31u + 7u);
    CU_ASSERT_EQUAL(changed, 0);
    free(block);

    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = 1024; /* 4 MiB of 4 KiB pages, none touched */
    unsigned char *fresh = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CU_ASSERT_FATAL(fresh != MAP_FAILED);
    unsigned char *in_core = malloc(pages);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in_core);
    tco_prefault(fresh, pages * page);
    CU_ASSERT_EQUAL_FATAL(mincore(fresh, pages * page, in_core), 0);
    size_t resident = 0, zero = 0;
    for (size_t i = 0; i < pages; i++)
        resident += in_core[i] & 1;
    for (size_t i = 0; i < pages * page; i++)
        zero += fresh[i] == 0;
    CU_ASSERT_EQUAL(zero, pages * page); /* populated pages read as zero, as untouched ones do */
    struct utsname u;
    int major = 0, minor = 0;
    if (uname(&u) == 0 && sscanf(u.release, "%d.%d", &major, &minor) == 2 && (major > 5 || (major == 5 && minor >= 14)))
        CU_ASSERT_EQUAL(resident, pages); /* MADV_POPULATE_WRITE is known from Linux 5.14 */
    free(in_core);
    munmap(fresh, pages * page);
}

/* An arena hands out pieces that never overlap and keep their bytes: 20,000 pieces of 1 to 300 bytes
 * (every fifth for text, unaligned; the rest aligned for any type), one of 5 MiB (larger than any
 * block), in two arenas of which one adopts the other; each piece filled with its own number, and
 * every byte of every piece read back after all were handed out. */
static void test_arena(void)
{
    enum { N = 20000 };
    tco_arena a = {0}, b = {0};
    unsigned char **piece = calloc(N + 1, sizeof *piece);
    size_t *size = calloc(N + 1, sizeof *size);
    CU_ASSERT_FATAL(piece != NULL && size != NULL);
    size_t misaligned = 0;
    for (size_t i = 0; i < N; i++) {
        tco_arena *in = i % 2 ? &a : &b;
        size[i] = 1 + (i * 7919u) % 300;
        piece[i] = i % 5 == 0 ? (unsigned char *)tco_arena_alloc_text(in, size[i]) : tco_arena_alloc(in, size[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(piece[i]);
        misaligned += i % 5 != 0 && (uintptr_t)piece[i] % alignof(max_align_t) != 0;
        memset(piece[i], (int)(i % 251), size[i]);
    }
    size[N] = 5u << 20;
    piece[N] = tco_arena_alloc(&a, size[N]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(piece[N]);
    memset(piece[N], 7, size[N]);
    CU_ASSERT_EQUAL(misaligned, 0);
    tco_arena_adopt(&a, &b);
    CU_ASSERT_PTR_NULL(b.head);
    unsigned char *after = (unsigned char *)tco_arena_alloc_text(&a, 1000); /* after adopting, a still hands out */
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    memset(after, 9, 1000);
    size_t wrong = 0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < size[i]; j++)
            wrong += piece[i][j] != (unsigned char)(i % 251);
    for (size_t j = 0; j < size[N]; j++)
        wrong += piece[N][j] != 7;
    CU_ASSERT_EQUAL(wrong, 0);
    tco_arena_free(&a);
    CU_ASSERT_PTR_NULL(a.head);
    tco_arena_free(&b); /* empty: nothing to do */
    tco_arena empty = {0};
    tco_arena_adopt(&a, &empty);
    CU_ASSERT_PTR_NULL(a.head);
    free(piece);
    free(size);
}

/* The mappings of this process whose flags include huge-page advice ("hg" on the VmFlags line of
 * /proc/self/smaps, MADV_HUGEPAGE), up to @p max of them as [lo, hi) pairs; their number, or -1 when there is
 * no smaps to read. */
static int advised_mappings(uintptr_t (*range)[2], int max)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (f == NULL)
        return -1;
    char line[512];
    uintptr_t lo = 0, hi = 0;
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long a, b;
        const char *dash = strchr(line, '-'), *space = strchr(line, ' ');
        if (dash && space && dash < space && sscanf(line, "%lx-%lx ", &a, &b) == 2)
            lo = a, hi = b;
        else if (strncmp(line, "VmFlags:", 8) == 0 && strstr(line, " hg") != NULL && n < max) {
            range[n][0] = lo;
            range[n][1] = hi;
            n++;
        }
    }
    fclose(f);
    return n;
}

/* What a child process saw of tco_heap_huge_pages() (it changes the process's malloc: not in the runner). */
enum { HEAP_NOT_ADVISED = 10, HEAP_ADVISED = 11, HEAP_SMALL_OUTSIDE = 12, HEAP_NO_SMAPS = 13 };

static int heap_child(bool limit_address_space)
{
    if (limit_address_space) {
        struct rlimit rl = {.rlim_cur = (rlim_t)16 << 30, .rlim_max = (rlim_t)16 << 30};
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            return 1;
    }
    if (!tco_heap_huge_pages((size_t)64 << 20))
        return HEAP_NOT_ADVISED;
    /* 16 MiB of small blocks, as libxlsxwriter makes its cells.  The first may come from free blocks the heap
     * already had (the runner's earlier tests left some) or from below the first 2 MiB boundary of the range
     * (not advised); once those are used they come from the advised range: the last 4 MiB all do. */
    enum { CELL = 1024, CELLS = 16 * 1024, LAST = 4 * 1024 };
    static char *cell[CELLS];
    for (int i = 0; i < CELLS; i++)
        if ((cell[i] = malloc(CELL)) != NULL)
            memset(cell[i], 'x', CELL); /* kept: the next block lies above it */
    uintptr_t range[64][2];
    int n = advised_mappings(range, 64);
    if (n < 0)
        return HEAP_NO_SMAPS;
    for (int i = CELLS - LAST; i < CELLS; i++) {
        bool in = false;
        for (int r = 0; r < n && !in; r++)
            in = cell[i] && (uintptr_t)cell[i] >= range[r][0] && (uintptr_t)cell[i] + CELL <= range[r][1];
        if (!in)
            return HEAP_SMALL_OUTSIDE;
    }
    return HEAP_ADVISED;
}

static int heap_child_exit(bool limit_address_space)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(heap_child(limit_address_space));
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

/* tco_heap_huge_pages(64 MiB): the heap's next 64 MiB advised MADV_HUGEPAGE, and the small blocks malloc()
 * hands out afterwards (8,192 of 1 KiB) lie in that advised range; with the address space limited
 * (RLIMIT_AS: a reserved range would count against it) nothing is advised.  It does nothing, by design, in a
 * sanitizer build, without glibc, under GLIBC_TUNABLES setting malloc's behaviour, or with
 * vm.overcommit_memory = 2: then only the second half is checked. */
static void test_heap_huge_pages(void)
{
    int plain = heap_child_exit(false);
    const char *tunables = getenv("GLIBC_TUNABLES");
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    int overcommit = 0;
    if (f) {
        if (fscanf(f, "%d", &overcommit) != 1)
            overcommit = 0;
        fclose(f);
    }
    bool may = overcommit != 2 && !(tunables && strstr(tunables, "glibc.malloc."));
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || !defined(__GLIBC__)
    may = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    may = false;
#endif
#endif
    if (may && plain != HEAP_NO_SMAPS)
        CU_ASSERT_EQUAL(plain, HEAP_ADVISED);
    if (!may)
        CU_ASSERT_EQUAL(plain, HEAP_NOT_ADVISED);
    CU_ASSERT_EQUAL(heap_child_exit(true), HEAP_NOT_ADVISED);
}

CU_ErrorCode register_strbuf_suite(void)
{
    CU_pSuite s = CU_add_suite("strbuf", NULL, NULL);
    if (s == NULL ||
        !CU_add_test(s, "growth, clear and take", test_growth_and_take) ||
        !CU_add_test(s, "printf appends", test_printf_appends) ||
        !CU_add_test(s, "tco_prefault() asks for pages, changes no byte", test_prefault) ||
        !CU_add_test(s, "an arena's pieces keep their bytes and alignment", test_arena) ||
        !CU_add_test(s, "tco_heap_huge_pages() advises the range the small blocks come from", test_heap_huge_pages))
        return CU_get_error();
    return CUE_SUCCESS;
}
