/* ini.c - iniparser wrapper with strict values, located diagnostics and a hash index. */
#define _GNU_SOURCE /* memfd_create */
#include "read/ini.h"
#include "read/root.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <iniparser/iniparser.h>

#include "base/memory.h"
#include "base/names.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"

/* iniparser reports syntax errors through a process-wide callback with no
 * context pointer; this buffer is the only way to hand the message back.  Each
 * thread that runs iniparser_load() has its own (parse_values() may use two),
 * cleared before the call and read right after it. */
static _Thread_local char parser_message[512];

static int capture_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int capture_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[sizeof parser_message];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* Keep the first message (the failing line); flatten newlines. */
    if (parser_message[0] == '\0') {
        for (char *p = buf; *p; p++)
            if (*p == '\n')
                *p = ' ';
        snprintf(parser_message, sizeof parser_message, "%s", buf);
    }
    return n;
}

/* iniparser 4.1's dictionary_set() compares the new name's hash with every
 * slot of its dictionary (128 at first, doubling when full), so one
 * iniparser_load() of n entries (sections plus keys) costs about n^2/2
 * comparisons: 1.8 s for 80,000 keys, minutes for a million.  It is handed runs
 * of whole sections of at most this many entries (a section is never split;
 * TCO_INI_MAX_SECTION_KEYS bounds it), which keeps the dictionary at its first
 * 128 slots (a smaller run saves no comparison and costs one more opening of
 * the in-memory file). */
#define INI_CHUNK_ENTRIES 128

/* ---- the index: "section" and "section:key" to their records -------------- */

/* A lower-case name and its hash; the first member of both records below, so
 * one table serves both. */
typedef struct ini_name {
    char *s; /* in the index's arena, NUL-terminated */
    size_t len;
    uint64_t hash;
} ini_name;

typedef struct ini_key {
    ini_name name; /* "section:key" */
    char *value;   /* in the arena, or heap when set by tco_ini_set(); NULL until iniparser has read the line */
    int line;      /* 0 when added by tco_ini_set() */
    int section;
    bool value_heap; /* value is tco_ini_set()'s heap copy */
} ini_key;

typedef struct ini_section {
    ini_name name;
    int line;      /* of the header; 0 when added by tco_ini_set() */
    size_t offset; /* of the header line in the checked text */
    int *keys;     /* indices into keys[], in file order */
    int n_keys, cap_keys;
    bool range_keys; /* a key ends in _range, _dist or _range_source (tco_ini_has_range_keys()) */
} ini_section;

/* Open addressing with linear probing, at most half full; a slot holds a record's
 * index + 1 (0 when empty) and the high 32 bits of its hash, so that a probe past
 * another name rarely reads that name's record. */
typedef struct ini_slot {
    uint32_t index;
    uint32_t tag;
} ini_slot;

typedef struct ini_table {
    ini_slot *slot;
    size_t cap; /* 0 or a power of two */
    size_t n;   /* records in the table */
} ini_table;

struct tco_ini_index {
    /* SipHash key, random for each file, so that no file can be written whose
     * names all collide (which would make every lookup linear again). */
    uint64_t seed[2];
    ini_section *secs;
    int n_secs, cap_secs;
    int cap_written; /* of tco_ini.sections, which has n_secs entries too */
    ini_key *keys;
    int n_keys, cap_keys;
    ini_table sec_table, key_table;
    tco_arena arena; /* the names and values (one allocation per block, not per string) */
};

/* Room for @p n bytes in @p x's own arena. */
static char *arena_alloc(struct tco_ini_index *x, size_t n)
{
    return tco_arena_alloc_text(&x->arena, n);
}

/* iniparser lower-cases names with tolower() in the C locale: ASCII letters only. */
static unsigned char ascii_lower(char c)
{
    return (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

/* A name given in pieces: the section (@p sl bytes) and, unless @p key is NULL, ':' and the key. */
typedef struct name_ref {
    const char *sec;
    size_t sl;
    const char *key;
    size_t kl;
} name_ref;

static size_t ref_len(const name_ref *r)
{
    return r->sl + (r->key ? 1 + r->kl : 0);
}

static uint64_t ref_hash(const uint64_t seed[2], const name_ref *r)
{
    tco_hash h;
    tco_hash_begin(&h, seed);
    tco_hash_lower(&h, r->sec, r->sl);
    if (r->key) {
        tco_hash_byte(&h, ':');
        tco_hash_lower(&h, r->key, r->kl);
    }
    return tco_hash_end(&h);
}

static bool ref_equals(const ini_name *n, const name_ref *r)
{
    if (n->len != ref_len(r))
        return false;
    for (size_t i = 0; i < r->sl; i++)
        if ((unsigned char)n->s[i] != ascii_lower(r->sec[i]))
            return false;
    if (r->key == NULL)
        return true;
    if (n->s[r->sl] != ':')
        return false;
    for (size_t i = 0; i < r->kl; i++)
        if ((unsigned char)n->s[r->sl + 1 + i] != ascii_lower(r->key[i]))
            return false;
    return true;
}

/* The lower-case section name @p sec (@p sl bytes, hash @p hash) as a record name, copied to @p x's arena;
 * false on allocation failure.  (A key's name is made by key_make().) */
static bool name_make(ini_name *n, struct tco_ini_index *x, const char *sec, size_t sl, uint64_t hash)
{
    n->len = sl;
    if ((n->s = arena_alloc(x, sl + 1)) == NULL)
        return false;
    for (size_t i = 0; i < sl; i++)
        n->s[i] = (char)ascii_lower(sec[i]);
    n->s[sl] = '\0';
    n->hash = hash;
    return true;
}

/* The name "section:key" of key @p key (@p kl bytes) of section @p sec, copied to @p x's arena with the
 * key lower-cased (the section's name is lower case already: copied as it is); hash 0 (table_add_key()
 * makes one when the key goes into the table).  False on allocation failure. */
static bool key_make(ini_name *n, struct tco_ini_index *x, const ini_name *sec, const char *key, size_t kl)
{
    n->len = sec->len + 1 + kl;
    if ((n->s = arena_alloc(x, n->len + 1)) == NULL)
        return false;
    memcpy(n->s, sec->s, sec->len);
    n->s[sec->len] = ':';
    for (size_t i = 0; i < kl; i++)
        n->s[sec->len + 1 + i] = (char)ascii_lower(key[i]);
    n->s[n->len] = '\0';
    n->hash = 0;
    return true;
}

/* Record @p i of an array of records of @p stride bytes that begin with an ini_name. */
static const ini_name *record(const void *base, size_t stride, size_t i)
{
    return (const ini_name *)(const void *)((const char *)base + i * stride);
}

/* Index of the record named @p r (hash @p h), or -1. */
static long table_find(const ini_table *t, const void *base, size_t stride, const name_ref *r, uint64_t h)
{
    if (t->cap == 0)
        return -1;
    uint32_t tag = (uint32_t)(h >> 32);
    for (size_t i = (size_t)h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        ini_slot v = t->slot[i];
        if (v.index == 0)
            return -1;
        if (v.tag != tag)
            continue;
        const ini_name *n = record(base, stride, v.index - 1);
        if (n->hash == h && ref_equals(n, r))
            return (long)(v.index - 1);
    }
}

/* Put record @p index (hash @p h) in a table with room for it (table_reserve()). */
static void table_put(ini_table *t, uint64_t h, size_t index)
{
    size_t i = (size_t)h & (t->cap - 1);
    while (t->slot[i].index != 0)
        i = (i + 1) & (t->cap - 1);
    t->slot[i] = (ini_slot){(uint32_t)index + 1, (uint32_t)(h >> 32)};
    t->n++;
}

/* Room for @p more records: grows the table (of records of @p stride bytes at @p base) to stay at most
 * half full. */
static bool table_reserve(ini_table *t, const void *base, size_t stride, size_t more)
{
    if ((t->n + more + 1) * 2 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap * 2 : 64;
    while ((t->n + more + 1) * 2 > cap)
        cap *= 2;
    ini_table grown = {calloc(cap, sizeof *grown.slot), cap, 0};
    if (grown.slot == NULL)
        return false;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].index != 0)
            table_put(&grown, record(base, stride, t->slot[i].index - 1)->hash, t->slot[i].index - 1);
    free(t->slot);
    *t = grown;
    return true;
}

/* @p array (of @p *cap elements of @p size bytes) grown to hold at least @p need elements;
 * NULL on allocation failure, with @p array and @p *cap unchanged. */
static void *grow(void *array, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return array;
    int n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *grown = realloc(array, (size_t)n * size);
    if (grown != NULL)
        *cap = n;
    return grown;
}

static struct tco_ini_index *index_new(void)
{
    struct tco_ini_index *x = calloc(1, sizeof *x);
    if (x == NULL)
        return NULL;
    tco_hash_seed(x->seed);
    return x;
}

static void index_free(struct tco_ini_index *x)
{
    if (x == NULL)
        return;
    for (int i = 0; i < x->n_secs; i++)
        free(x->secs[i].keys);
    for (int i = 0; i < x->n_keys; i++)
        if (x->keys[i].value_heap)
            free(x->keys[i].value);
    tco_arena_free(&x->arena);
    free(x->secs);
    free(x->keys);
    free(x->sec_table.slot);
    free(x->key_table.slot);
    free(x);
}

static long find_section_hashed(const struct tco_ini_index *x, const name_ref *r, uint64_t h)
{
    return table_find(&x->sec_table, x->secs, sizeof *x->secs, r, h);
}

static long find_section(const struct tco_ini_index *x, const char *name, size_t len)
{
    name_ref r = {name, len, NULL, 0};
    return find_section_hashed(x, &r, ref_hash(x->seed, &r));
}

/* A section of at most this many keys keeps them out of the table of keys: they are looked up among the
 * section's own keys, which lie together in a few cache lines (a loader asks a section for a dozen keys in
 * a row), where each probe of the table of a large file is a cache miss.  A larger section's keys are in
 * the table, so a lookup compares at most this many names or probes the table. */
#define INI_SCAN_KEYS 16

/* Key @p key (@p kl bytes) of section @p s (an index), or -1.  Among a small section's keys only the
 * part after "section:" is compared (every one of them begins with the section's name), and only for a
 * name of the right length: the section's name is not compared again for each key. */
static long section_key(const struct tco_ini_index *x, long s, const char *key, size_t kl)
{
    const ini_section *sec = &x->secs[s];
    if (sec->n_keys > INI_SCAN_KEYS) {
        name_ref r = {sec->name.s, sec->name.len, key, kl};
        return table_find(&x->key_table, x->keys, sizeof *x->keys, &r, ref_hash(x->seed, &r));
    }
    size_t at = sec->name.len + 1;
    for (int i = 0; i < sec->n_keys; i++) {
        const ini_name *n = &x->keys[sec->keys[i]].name;
        if (n->len != at + kl)
            continue;
        size_t j = 0;
        while (j < kl && (unsigned char)n->s[at + j] == ascii_lower(key[j]))
            j++;
        if (j == kl)
            return sec->keys[i];
    }
    return -1;
}

static long find_key(const struct tco_ini_index *x, const char *sec, size_t sl, const char *key, size_t kl)
{
    long s = find_section(x, sec, sl);
    return s < 0 ? -1 : section_key(x, s, key, kl);
}

/* Append section @p written (@p len bytes, as written; its lower-case form, of hash @p hash, must be
 * new) to @p ini; returns its index, or -1 on allocation failure with @p ini unchanged. */
static long add_section(tco_ini *ini, const char *written, size_t len, uint64_t hash, int line, size_t offset)
{
    struct tco_ini_index *x = ini->index;
    int n = x->n_secs;
    ini_section s = {.line = line, .offset = offset};
    char *copy = malloc(len + 1);
    if (copy == NULL || !name_make(&s.name, x, written, len, hash))
        goto fail;
    ini_section *secs = grow(x->secs, &x->cap_secs, n + 1, sizeof *secs);
    if (secs == NULL)
        goto fail;
    x->secs = secs;
    char **written_names = grow(ini->sections, &x->cap_written, n + 1, sizeof *written_names);
    if (written_names == NULL)
        goto fail;
    ini->sections = written_names;
    if (!table_reserve(&x->sec_table, x->secs, sizeof *x->secs, 1))
        goto fail;
    memcpy(copy, written, len);
    copy[len] = '\0';
    x->secs[n] = s;
    ini->sections[n] = copy;
    x->n_secs = ini->n_sections = n + 1;
    table_put(&x->sec_table, s.name.hash, (size_t)n);
    return n;
fail:
    free(copy); /* the name stays in the arena, unused */
    return -1;
}

/* Put key @p k in the table of keys, which has room for it (its hash is made now: a key of a small
 * section has none). */
static void table_add_key(struct tco_ini_index *x, int k)
{
    ini_name *n = &x->keys[k].name;
    name_ref whole = {n->s, n->len, NULL, 0}; /* "section:key", lower case: the bytes ref_hash() hashes */
    n->hash = ref_hash(x->seed, &whole);
    table_put(&x->key_table, n->hash, (size_t)k);
}

/* True when the key part of "section:key" name @p n (section name @p sl bytes) ends in one of the
 * suffixes of the keys beside a value's range. */
static bool is_range_name(const ini_name *n, size_t sl)
{
    static const char *const suffixes[] = {"_range", "_dist", "_range_source", "_range_kind"};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t k = strlen(suffixes[i]);
        if (n->len - sl - 1 >= k && memcmp(n->s + n->len - k, suffixes[i], k) == 0)
            return true;
    }
    return false;
}

/* Append key @p name (in the arena) to section @p sec; returns its index or -1 (out of memory, the index
 * unchanged).  The section's keys go into the table of keys once it has more than INI_SCAN_KEYS. */
static long add_key(struct tco_ini_index *x, int sec, ini_name name, int line)
{
    ini_section *s = &x->secs[sec];
    int n = x->n_keys;
    ini_key *keys = grow(x->keys, &x->cap_keys, n + 1, sizeof *keys);
    if (keys != NULL)
        x->keys = keys;
    int *in_section = keys ? grow(s->keys, &s->cap_keys, s->n_keys + 1, sizeof *in_section) : NULL;
    if (in_section != NULL)
        s->keys = in_section;
    size_t to_table = s->n_keys == INI_SCAN_KEYS ? INI_SCAN_KEYS + 1 : s->n_keys > INI_SCAN_KEYS ? 1 : 0;
    if (in_section == NULL || !table_reserve(&x->key_table, x->keys, sizeof *x->keys, to_table))
        return -1;
    x->keys[n] = (ini_key){.name = name, .line = line, .section = sec};
    s->keys[s->n_keys++] = n;
    s->range_keys |= is_range_name(&name, s->name.len);
    x->n_keys = n + 1;
    if (to_table > 1)
        for (int i = 0; i < s->n_keys; i++)
            table_add_key(x, s->keys[i]);
    else if (to_table == 1)
        table_add_key(x, n);
    return n;
}

/* ---- checks before iniparser reads a file ------------------------------------ */

typedef struct lint {
    const char *display;
    tco_diag *diag;
    tco_ini *ini; /* receives the sections and keys, in file order */
    long section; /* the current section, -1 before the first */
} lint;

static const char *skip_blank(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Bytes of [p, end) to quote in a message: at most @p max, never ending inside a UTF-8 character. */
static int snip(const char *p, const char *end, size_t max)
{
    size_t n = (size_t)(end - p);
    return (int)tco_utf8_prefix(p, n < max ? n : max);
}

/* The place FILE:LINE: [SECTION] KEY of the key line [p, p + kl) as @p at, its key copied into @p key
 * (TCO_INI_MAX_LINE + 1 bytes: pass 1 has checked the line's length). */
static const tco_place *key_place(tco_place *at, const lint *l, int line, const char *section, const char *p, int kl,
                                  char *key)
{
    memcpy(key, p, (size_t)kl);
    key[kl] = '\0';
    *at = (tco_place){.file = l->display, .line = line, .section = section, .key = key};
    return at;
}

/* Check one line [p, end) of the file: line number @p line, starting at byte @p offset. */
static tco_error lint_line(lint *l, const char *p, const char *end, int line, size_t offset)
{
    struct tco_ini_index *x = l->ini->index;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    /* iniparser joins a line ending in '\' with the next, comment or not, and drops a
     * continued last line: either way a line would be lost or changed. */
    if (end > p && end[-1] == '\\')
        return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line},
                           "the line ends with '\\', which would join it to the next line (even in a comment); "
                           "tco does not continue lines: remove the '\\', write the value on one line, or put a value "
                           "that ends in '\\' in double quotes");
    p = skip_blank(p, end);
    if (p == end || *p == ';' || *p == '#')
        return TCO_OK;
    if (*p == '[') {
        const char *close = memchr(p, ']', (size_t)(end - p));
        if (close == NULL || close != end - 1)
            return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line},
                               "expected a section header '[name]', found '%.*s'", snip(p, end, 60), p);
        const char *n0 = skip_blank(p + 1, close), *n1 = close;
        while (n1 > n0 && (n1[-1] == ' ' || n1[-1] == '\t'))
            n1--;
        if (n0 == n1)
            return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line},
                               "empty section name '[]'");
        if (memchr(n0, ':', (size_t)(n1 - n0)) != NULL)
            return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line},
                               "section name [%.*s] may not contain ':'", (int)(n1 - n0), n0);
        name_ref sr = {n0, (size_t)(n1 - n0), NULL, 0};
        uint64_t sh = ref_hash(x->seed, &sr);
        long first = find_section_hashed(x, &sr, sh);
        if (first >= 0)
            return tco_diag_at(l->diag, TCO_ERR_DUPLICATE, &(tco_place){.file = l->display, .line = line},
                               "duplicate section [%.*s] (first at line %d)", (int)(n1 - n0), n0, x->secs[first].line);
        if (x->n_secs >= TCO_INI_MAX_SECTIONS)
            return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line},
                               "more than %d sections; that is the limit for one file (split it)", TCO_INI_MAX_SECTIONS);
        if ((l->section = add_section(l->ini, n0, (size_t)(n1 - n0), sh, line, offset)) < 0)
            return tco_diag_at(l->diag, TCO_ERR_NOMEM, &(tco_place){.file = l->display}, "out of memory");
        return TCO_OK;
    }
    const char *eq = memchr(p, '=', (size_t)(end - p));
    const char *k1 = eq;
    while (k1 && k1 > p && (k1[-1] == ' ' || k1[-1] == '\t'))
        k1--;
    if (eq == NULL || k1 == p)
        return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line},
                           "expected 'key = value', '[section]' or a comment, found '%.*s'", snip(p, end, 60), p);
    int kl = (int)(k1 - p);
    if (l->section < 0)
        return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line},
                           "key '%.*s' comes before any [section]", kl, p);
    const char *section = l->ini->sections[l->section];
    char key[TCO_INI_MAX_LINE + 1]; /* the key and its place, for the messages below */
    tco_place at;
    if (memchr(p, ':', (size_t)kl) != NULL)
        return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line, .section = section},
                           "key '%.*s' may not contain ':'", kl, p);
    const char *v = skip_blank(eq + 1, end);
    if (v < end && (*v == '"' || *v == '\'')) {
        /* iniparser takes what lies between the quote and the next one like it and
         * ignores the rest of the line, closing quote or not. */
        char q = *v;
        const char *close = memchr(v + 1, q, (size_t)(end - v - 1));
        if (close == NULL)
            return tco_diag_at(l->diag, TCO_ERR_INI, key_place(&at, l, line, section, p, kl, key),
                               "the value opens a %s quote (%c) that is not closed on this line; "
                               "add the closing %c, or remove the opening one",
                               q == '"' ? "double" : "single", q, q);
        const char *rest = skip_blank(close + 1, end);
        const char *lost = rest;
        while (lost < end && *lost != ';' && *lost != '#')
            lost++;
        while (lost > rest && (lost[-1] == ' ' || lost[-1] == '\t'))
            lost--;
        if (lost > rest && close == v + 1) /* iniparser reads "" followed by text as it stands, quotes and all */
            return tco_diag_at(l->diag, TCO_ERR_INI, key_place(&at, l, line, section, p, kl, key),
                               "the value %.*s has text after its closing quote, which iniparser "
                               "would read with the quotes; put the whole value inside the quotes, with nothing but "
                               "a comment (';' or '#') after them",
                               snip(v, lost, 100), v);
        if (lost > rest)
            return tco_diag_at(l->diag, TCO_ERR_INI, key_place(&at, l, line, section, p, kl, key),
                               "the value %.*s has text after its closing quote, which iniparser "
                               "would drop (it keeps only %.*s); put the whole value inside the quotes, with nothing "
                               "but a comment (';' or '#') after them",
                               snip(v, lost, 100), v, snip(v, close + 1, 80), v);
    } else if (v < end) {
        /* iniparser ends an unquoted value at ';' or '#' (its inline comment): the rest would be lost.
         * (memchr() for each: a byte loop testing both was a quarter of the checks' instructions.) */
        const char *semi = memchr(v, ';', (size_t)(end - v)), *hash = memchr(v, '#', (size_t)(end - v));
        const char *cut = semi && (!hash || semi < hash) ? semi : hash ? hash : end;
        if (cut < end)
            return tco_diag_at(l->diag, TCO_ERR_INI, key_place(&at, l, line, section, p, kl, key),
                               "the value holds '%c', where iniparser would cut it off (\"%.*s\" "
                               "would be lost); remove it or put the whole value in double quotes",
                               *cut, snip(cut, end, 40), cut);
    }
    ini_section *s = &x->secs[l->section];
    long first = section_key(x, l->section, p, (size_t)kl);
    if (first >= 0)
        return tco_diag_at(l->diag, TCO_ERR_DUPLICATE, key_place(&at, l, line, section, p, kl, key),
                           "duplicate key (first at line %d)", x->keys[first].line);
    if (s->n_keys >= TCO_INI_MAX_SECTION_KEYS)
        return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line, .section = section},
                           "has more than %d keys; that is the limit for one section (split it)",
                           TCO_INI_MAX_SECTION_KEYS);
    if (x->n_keys >= TCO_INI_MAX_KEYS)
        return tco_diag_at(l->diag, TCO_ERR_INI, &(tco_place){.file = l->display, .line = line},
                           "more than %d keys; that is the limit for one file (split it)", TCO_INI_MAX_KEYS);
    ini_name name;
    if (!key_make(&name, x, &s->name, p, (size_t)kl) || add_key(x, (int)l->section, name, line) < 0)
        return tco_diag_at(l->diag, TCO_ERR_NOMEM, &(tco_place){.file = l->display}, "out of memory");
    return TCO_OK;
}

/* Length of the run of printable ASCII (U+0020 to U+007E) and tabs that begins [p, p + len): eight bytes
 * at a time while none is a tab or outside that range ("Bit Twiddling Hacks", S. E. Anderson: hasless(x, 0x20)
 * and hasmore(x, 0x7E), exact for whether any byte is), then byte by byte.  (The byte loop alone was a
 * quarter of the checks' instructions: every byte of every file goes through it.) */
static size_t plain_prefix(const char *p, size_t len)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = ones * 0x80;
    size_t i = 0;
    for (uint64_t x; i + 8 <= len; i += 8) {
        memcpy(&x, p + i, 8);
        if ((((x - ones * 0x20) & ~x) | (x + ones) | x) & highs)
            break;
    }
    while (i < len && ((unsigned char)(p[i] - 0x20) < 0x5F || p[i] == '\t'))
        i++;
    return i;
}

/* Whole-file checks before iniparser sees it (see ini.h); builds the index of
 * sections and keys with their lines, the values still missing. */
static tco_error lint_file(const char *text, size_t size, const char *display, tco_ini *out, tco_diag *diag)
{
    /* Pass 1: every line is UTF-8 text of XML characters without controls, within the length limit;
     * and how many lines may be a key (neither blank nor a comment). */
    int line = 1, entries = 0;
    for (const char *p = text, *end = text + size; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        const char *first = skip_blank(p, p + len);
        entries += first < p + len && *first != ';' && *first != '#';
        int crlf = len > 0 && p[len - 1] == '\r';
        len -= (size_t)crlf;
        /* iniparser reads a line with its line end into 1,024 bytes: a CR takes one of them. */
        if (len > (size_t)(TCO_INI_MAX_LINE - crlf))
            return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = display, .line = line},
                               "line is %zu bytes long; at most %d are allowed%s", len, TCO_INI_MAX_LINE - crlf,
                               crlf ? " with CRLF line ends" : "");
        /* Printable ASCII and tabs (most lines) pass every check below: answered in one pass. */
        if (plain_prefix(p, len) == len) {
            p = nl ? nl + 1 : end;
            continue;
        }
        size_t bad = len;
        long cp = 0;
        bool ok = tco_xml_text_valid(p, len, &bad, &cp);
        if (ok)
            bad = len;
        /* XML allows CR, which would end the line in some readers, and DEL: neither belongs here;
         * nor U+FEFF past the file's start, an invisible byte-order mark left by joining files. */
        for (size_t i = 0; i < bad; i++)
            if (p[i] == '\r' || p[i] == 0x7F) {
                bad = i, cp = p[i], ok = false;
                break;
            } else if (i + 2 < len && memcmp(p + i, "\xEF\xBB\xBF", 3) == 0) {
                bad = i, cp = 0xFEFF, ok = false;
                break;
            }
        if (!ok) {
            size_t col = tco_utf8_chars_n(p, bad) + 1;
            if (cp < 0)
                return tco_diag_at(diag, TCO_ERR_INI,
                                   &(tco_place){.file = display, .line = line, .column = (long)col, .char_column = 1},
                                   "not valid UTF-8 (byte 0x%02X); save the file as UTF-8", (unsigned char)p[bad]);
            if (tco_is_control(cp))
                return tco_diag_at(diag, TCO_ERR_INI,
                                   &(tco_place){.file = display, .line = line, .column = (long)col, .char_column = 1},
                                   cp < 0x80 ? "control character 0x%02lX is not allowed"
                                             : "control character U+%04lX (C1) is not allowed", cp);
            if (cp == 0xFEFF)
                return tco_diag_at(diag, TCO_ERR_INI,
                                   &(tco_place){.file = display, .line = line, .column = (long)col, .char_column = 1},
                                   "U+FEFF (an invisible byte-order mark) is allowed only at the "
                                   "very start of the file; remove it");
            if (cp != 0xFFFE && cp != 0xFFFF)
                return tco_diag_at(diag, TCO_ERR_INI,
                                   &(tco_place){.file = display, .line = line, .column = (long)col, .char_column = 1},
                                   "U+%04lX is not allowed: it is a non-character, which Unicode keeps for a "
                                   "program's own use and never for text; remove it", cp);
            return tco_diag_at(diag, TCO_ERR_INI,
                               &(tco_place){.file = display, .line = line, .column = (long)col, .char_column = 1},
                               "U+%04lX is not allowed: it is not an XML character, so no "
                               "workbook can hold it; remove it", cp);
        }
        p = nl ? nl + 1 : end;
    }
    /* Pass 2: the shape of each line, building the index. */
    if ((out->index = index_new()) == NULL)
        return tco_diag_at(diag, TCO_ERR_NOMEM, &(tco_place){.file = display}, "out of memory");
    /* Room for a key on every line at once (the pages a realloc would copy as the index grows; those
     * never used are never touched): a hint, grow() goes on past it. */
    ini_key *keys = grow(NULL, &out->index->cap_keys, line, sizeof *keys);
    if (keys == NULL)
        return tco_diag_at(diag, TCO_ERR_NOMEM, &(tco_place){.file = display}, "out of memory");
    tco_prefault(keys, (size_t)entries * sizeof *keys); /* the keys' pages, at most */
    out->index->keys = keys;
    lint l = {.display = display, .diag = diag, .ini = out, .section = -1};
    tco_error e = TCO_OK;
    line = 1;
    for (const char *p = text, *end = text + size; p < end && e == TCO_OK; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        e = lint_line(&l, p, nl ? nl : end, line, (size_t)(p - text));
        p = nl ? nl + 1 : end;
    }
    return e;
}

/* ---- iniparser reads the values ----------------------------------------------- */

/* iniparser's message @p message (changed here) about the run of sections starting at file line
 * @p first_line, with the memfd's path replaced by the file's and iniparser's line number by the file's. */
static tco_error parser_failed(char *message, const char *display, const char *fdpath, int first_line,
                               tco_diag *diag)
{
    size_t n = strlen(message);
    while (n > 0 && isspace((unsigned char)message[n - 1]))
        message[--n] = '\0';
    char *at = strstr(message, fdpath);
    int rel = 0;
    if (at && sscanf(at + strlen(fdpath), " (%d)", &rel) == 1 && rel > 0) {
        /* "iniparser: WHAT in PATH (N)" and, for a syntax error, ": -> LINE" */
        const char *what = message, *said = strstr(at, "->");
        if (strncmp(what, "iniparser: ", 11) == 0)
            what += 11;
        int wl = (int)(at - what);
        if (wl >= 4 && strncmp(at - 4, " in ", 4) == 0)
            wl -= 4;
        return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = display, .line = first_line + rel - 1},
                           "iniparser could not read the line (%.*s)%s%s", wl > 0 ? wl : 0, what, said ? ": " : "",
                           said ? said + 2 : "");
    }
    if (at)
        memmove(at, at + strlen(fdpath), strlen(at + strlen(fdpath)) + 1);
    return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = display}, "not a valid INI file (%s)",
                       message[0] ? message : "iniparser could not read it");
}

/* Take the values of sections @p first..@p last from iniparser's dictionary @p d; every key
 * tco's check found must be there, and nothing else (a difference would be a value tco does
 * not see as iniparser does).  iniparser 4.1 adds its entries in the order it reads them, so
 * each is first compared with the next section or key in file order, and looked up by name
 * only when it is not that one.  The values' copies go to the arena @p arena (the index's
 * own, or a parsing thread's, parse_values()); the index is only read, and only these
 * sections' keys are written, so two runs of sections can be harvested at once. */
static tco_error harvest(tco_ini *ini, const dictionary *d, int first, int last, tco_arena *arena, tco_diag *diag)
{
    struct tco_ini_index *x = ini->index;
    int expected = 0, got = 0;
    for (int s = first; s <= last; s++)
        expected += x->secs[s].n_keys;
    int next_sec = first, next_key = -1; /* the next entry in file order: the header, then key 0, 1, ... */
    for (ssize_t i = 0; i < d->size; i++) {
        const char *name = d->key[i];
        if (name == NULL)
            continue;
        while (next_sec <= last && next_key >= x->secs[next_sec].n_keys)
            next_sec++, next_key = -1;
        long want = next_sec > last ? -1 : next_key < 0 ? next_sec : x->secs[next_sec].keys[next_key];
        const ini_name *wn = want < 0 ? NULL : next_key < 0 ? &x->secs[want].name : &x->keys[want].name;
        const char *colon = strchr(name, ':');
        long k;
        if (wn != NULL && (colon != NULL) == (next_key >= 0) && strcmp(name, wn->s) == 0) {
            k = want;
            next_key++;
        } else {
            k = colon ? find_key(x, name, (size_t)(colon - name), colon + 1, strlen(colon + 1))
                      : find_section(x, name, strlen(name));
        }
        long sec = k < 0 ? -1 : colon ? x->keys[k].section : k;
        if (sec < first || sec > last || (colon && x->keys[k].value != NULL))
            return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = ini->path, .line = x->secs[first].line},
                               "iniparser read an entry '%s' that tco's checks did not see (please report this file)",
                               name);
        if (colon == NULL)
            continue;
        const char *v = d->val[i] ? d->val[i] : "";
        size_t n = strlen(v) + 1;
        char *copy = tco_arena_alloc_text(arena, n);
        if (copy == NULL)
            return tco_diag_at(diag, TCO_ERR_NOMEM, &(tco_place){.file = ini->path}, "out of memory");
        x->keys[k].value = memcpy(copy, v, n);
        got++;
    }
    if (got != expected)
        for (int s = first; s <= last; s++)
            for (int j = 0; j < x->secs[s].n_keys; j++) {
                const ini_key *k = &x->keys[x->secs[s].keys[j]];
                if (k->value == NULL)
                    return tco_diag_at(diag, TCO_ERR_INI,
                                       &(tco_place){.file = ini->path, .line = k->line, .section = ini->sections[s],
                                                    .key = k->name.s + x->secs[s].name.len + 1},
                                       "iniparser did not read this key (please report this file)");
            }
    return TCO_OK;
}

/* A run of whole sections handed to one iniparser_load(): sections first..last. */
typedef struct ini_run {
    int first, last;
} ini_run;

/* Read run @p run of the checked text @p text (@p size bytes) with iniparser, through the in-memory file
 * @p fd (@p fdpath), and harvest its values into @p arena. */
static tco_error parse_run(tco_ini *ini, const char *text, size_t size, const ini_run *run, int fd, const char *fdpath,
                           tco_arena *arena, tco_diag *diag)
{
    const struct tco_ini_index *x = ini->index;
    size_t from = x->secs[run->first].offset, to = run->last + 1 < x->n_secs ? x->secs[run->last + 1].offset : size;
    bool ok = ftruncate(fd, 0) == 0;
    for (size_t done = from; ok && done < to;) {
        ssize_t n = pwrite(fd, text + done, to - done, (off_t)(done - from));
        if (n <= 0)
            ok = false;
        else
            done += (size_t)n;
    }
    if (!ok)
        return tco_diag_at(diag, TCO_ERR_NOMEM, &(tco_place){.file = ini->path}, "cannot buffer the file: %s",
                           strerror(errno));
    parser_message[0] = '\0';
    errno = 0;
    dictionary *d = iniparser_load(fdpath);
    int opened = errno;
    /* iniparser could not open the in-memory file (no file descriptor left): not the file's fault */
    if (d == NULL && strncmp(parser_message, "iniparser: cannot open", 22) == 0)
        return tco_diag_at(diag, TCO_ERR_NOMEM, &(tco_place){.file = ini->path}, "cannot buffer the file: %s",
                           opened ? strerror(opened) : "cannot open it again");
    if (d == NULL)
        return parser_failed(parser_message, ini->path, fdpath, x->secs[run->first].line, diag);
    tco_error e = harvest(ini, d, run->first, run->last, arena, diag);
    iniparser_freedict(d);
    return e;
}

/* The runs of a file read on two threads (parse_values()): which are done, the next to take, the first
 * that failed. */
typedef struct parse_share {
    tco_ini *ini;
    const char *text;
    size_t size;
    const ini_run *runs;
    unsigned char *done; /* per run: 1 once its values are in the index */
    int n_runs;
    atomic_int next;   /* the next run to take */
    atomic_int failed; /* the lowest run that failed so far; n_runs when none */
} parse_share;

/* One thread of parse_values(): its in-memory file and its arena of values. */
typedef struct parse_thread {
    parse_share *sh;
    int fd;
    tco_arena arena;
} parse_thread;

/* iniparser's process-wide message callback, set once to capture_error() (parser_message is per thread). */
static pthread_once_t callback_once = PTHREAD_ONCE_INIT;

static void set_callback(void)
{
    iniparser_set_error_callback(capture_error);
}

/* Take runs in file order until none is left or one fails (a thread stops at its first failure; the
 * runs past the lowest failure are not taken). */
static void *parse_runs(void *arg)
{
    parse_thread *t = arg;
    parse_share *sh = t->sh;
    char fdpath[64];
    snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", t->fd);
    tco_diag scratch = {0}; /* a failed run is read again on one thread, which reports it */
    for (;;) {
        int r = atomic_fetch_add(&sh->next, 1);
        if (r >= sh->n_runs || r > atomic_load(&sh->failed))
            break;
        if (parse_run(sh->ini, sh->text, sh->size, &sh->runs[r], t->fd, fdpath, &t->arena, &scratch) == TCO_OK) {
            sh->done[r] = 1;
            continue;
        }
        for (int seen = atomic_load(&sh->failed); r < seen && !atomic_compare_exchange_weak(&sh->failed, &seen, r);)
            ;
        break;
    }
    return NULL;
}

/* Hand the checked text to iniparser one run of whole sections at a time, through an in-memory file,
 * and fill the index with the values it read.  A file of more than PARSE_THREAD_ENTRIES entries is
 * first read on two threads, each taking the next run in file order (iniparser_load() keeps no state
 * between calls but its message callback); then, on this thread alone and in file order, every run
 * not read yet: after a failure (a line iniparser refuses, or no file descriptor left for a second
 * in-memory file), the error reported is the one of the first run that fails, as when the whole
 * file is read on one thread.  The values are the same either way. */
#define PARSE_THREAD_ENTRIES (32 * INI_CHUNK_ENTRIES)

static tco_error parse_values(tco_ini *ini, const char *text, size_t size, tco_diag *diag)
{
    struct tco_ini_index *x = ini->index;
    if (x->n_secs == 0)
        return TCO_OK; /* comments and blank lines only */
    ini_run *runs = malloc((size_t)x->n_secs * sizeof *runs);
    unsigned char *done = calloc((size_t)x->n_secs, 1);
    int fd = runs && done ? memfd_create("tco-ini", MFD_CLOEXEC) : -1;
    if (fd < 0) {
        tco_error e = runs && done ? tco_diag_at(diag, TCO_ERR_NOMEM, &(tco_place){.file = ini->path},
                                                 "cannot buffer the file: %s", strerror(errno))
                                   : tco_diag_at(diag, TCO_ERR_NOMEM, &(tco_place){.file = ini->path}, "out of memory");
        free(runs);
        free(done);
        return e;
    }
    int n_runs = 0;
    for (int first = 0; first < x->n_secs;) {
        int last = first;
        int entries = 1 + x->secs[first].n_keys;
        while (last + 1 < x->n_secs && entries + 1 + x->secs[last + 1].n_keys <= INI_CHUNK_ENTRIES)
            entries += 1 + x->secs[++last].n_keys;
        runs[n_runs++] = (ini_run){first, last};
        first = last + 1;
    }
    pthread_once(&callback_once, set_callback);
    if (x->n_secs + x->n_keys > PARSE_THREAD_ENTRIES) {
        parse_share sh = {.ini = ini, .text = text, .size = size, .runs = runs, .done = done, .n_runs = n_runs};
        atomic_init(&sh.next, 0);
        atomic_init(&sh.failed, n_runs);
        parse_thread th[2] = {{.sh = &sh, .fd = fd}, {.sh = &sh, .fd = memfd_create("tco-ini", MFD_CLOEXEC)}};
        pthread_t helper;
        bool two = th[1].fd >= 0 && pthread_create(&helper, NULL, parse_runs, &th[1]) == 0;
        if (two) {
            parse_runs(&th[0]);
            pthread_join(helper, NULL);
        }
        if (th[1].fd >= 0)
            close(th[1].fd);
        tco_arena_adopt(&x->arena, &th[0].arena);
        tco_arena_adopt(&x->arena, &th[1].arena);
    }
    tco_error e = TCO_OK;
    char fdpath[64];
    snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fd);
    for (int r = 0; r < n_runs && e == TCO_OK; r++) {
        if (done[r])
            continue;
        for (int s = runs[r].first; s <= runs[r].last; s++) /* what a failed reading left */
            for (int j = 0; j < x->secs[s].n_keys; j++)
                x->keys[x->secs[s].keys[j]].value = NULL;
        e = parse_run(ini, text, size, &runs[r], fd, fdpath, &x->arena, diag);
    }
    close(fd);
    free(runs);
    free(done);
    return e;
}

/* A file's fingerprint taken on a thread of its own while the file is checked (tco_ini_load()): a file of
 * FINGERPRINT_THREAD_BYTES or more (10 MB take 14 ms to hash, the checks four times as long). */
#define FINGERPRINT_THREAD_BYTES ((size_t)1 << 20)

typedef struct fingerprint_job {
    const char *text;
    size_t size;
    uint64_t value;
} fingerprint_job;

static void *fingerprint_run(void *arg)
{
    fingerprint_job *j = arg;
    j->value = tco_fingerprint(j->text, j->size);
    return NULL;
}

tco_error tco_ini_load(const char *path, const char *display, tco_ini *out, tco_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (display == NULL)
        display = path;
    struct stat st;
    if (stat(path, &st) != 0)
        return tco_diag_at(diag, TCO_ERR_NOINPUT, &(tco_place){.file = display}, "cannot open: %s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return tco_diag_at(diag, TCO_ERR_NOINPUT, &(tco_place){.file = display}, "%s", tco_not_file_reason(st.st_mode));
    if ((unsigned long long)st.st_size > TCO_INI_MAX_BYTES)
        return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = display},
                           "%lld bytes; INI files are limited to %u bytes (%u MiB)", (long long)st.st_size,
                           TCO_INI_MAX_BYTES, TCO_INI_MAX_BYTES >> 20);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return tco_diag_at(diag, TCO_ERR_NOINPUT, &(tco_place){.file = display}, "cannot open: %s", strerror(errno));
    char *text = malloc(TCO_INI_MAX_BYTES + 1);
    tco_prefault(text, (size_t)st.st_size); /* the pages the file's bytes will fill */
    size_t size = text ? fread(text, 1, TCO_INI_MAX_BYTES + 1, f) : 0;
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (text == NULL)
        return tco_diag_at(diag, TCO_ERR_NOMEM, &(tco_place){.file = display}, "out of memory");
    if (read_error || size > TCO_INI_MAX_BYTES) {
        free(text);
        return tco_diag_at(diag, read_error ? TCO_ERR_NOINPUT : TCO_ERR_INI, &(tco_place){.file = display}, "%s",
                           read_error ? "read error" : "file grew past the size limit while reading");
    }
    /* A UTF-8 byte-order mark (Windows editors add one) is dropped; UTF-16 is refused. */
    size_t skip = 0;
    if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        skip = 3;
    else if (size >= 2 && (memcmp(text, "\xFF\xFE", 2) == 0 || memcmp(text, "\xFE\xFF", 2) == 0)) {
        free(text);
        return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = display}, "the file is UTF-16; save it as UTF-8");
    }
    fingerprint_job fp = {.text = text, .size = size}; /* of the file's bytes as read, a mark and all */
    pthread_t fp_thread;
    bool fp_threaded = size >= FINGERPRINT_THREAD_BYTES && pthread_create(&fp_thread, NULL, fingerprint_run, &fp) == 0;
    if (!fp_threaded)
        fingerprint_run(&fp);
    tco_error e = (out->path = tco_strdup(display)) == NULL
                      ? tco_diag_at(diag, TCO_ERR_NOMEM, &(tco_place){.file = display}, "out of memory")
                      : lint_file(text + skip, size - skip, display, out, diag);
    if (fp_threaded)
        pthread_join(fp_thread, NULL); /* before iniparser's second thread starts */
    if (e == TCO_OK)
        e = parse_values(out, text + skip, size - skip, diag);
    out->fingerprint = fp.value;
    free(text);
    if (e != TCO_OK)
        tco_ini_free(out);
    return e;
}

void tco_ini_free(tco_ini *ini)
{
    index_free(ini->index);
    for (int i = 0; i < ini->n_sections; i++)
        free(ini->sections[i]);
    free(ini->sections);
    free(ini->path);
    memset(ini, 0, sizeof *ini);
}

/* One file of a tco_ini_cache. */
struct tco_ini_cached {
    char *path, *display; /* the name shown in messages (path when none was given) */
    tco_ini ini;
};

tco_error tco_ini_cache_load(tco_ini_cache *cache, const char *path, const char *display, const tco_ini **out,
                             tco_diag *diag)
{
    *out = NULL;
    if (display == NULL)
        display = path; /* as tco_ini_load() shows it */
    for (size_t i = 0; i < cache->n; i++) {
        const struct tco_ini_cached *f = cache->files[i];
        if (strcmp(f->path, path) == 0 && strcmp(f->display, display) == 0) {
            *out = &f->ini;
            return TCO_OK;
        }
    }
    if (cache->n == cache->cap) {
        size_t cap = cache->cap ? cache->cap * 2 : 16;
        struct tco_ini_cached **grown = realloc(cache->files, cap * sizeof *grown);
        if (grown == NULL)
            return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        cache->files = grown;
        cache->cap = cap;
    }
    struct tco_ini_cached *f = calloc(1, sizeof *f);
    if (f == NULL || (f->path = tco_strdup(path)) == NULL || (f->display = tco_strdup(display)) == NULL) {
        if (f)
            free(f->path);
        free(f);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    tco_error e = tco_ini_load(path, display, &f->ini, diag);
    if (e != TCO_OK) {
        free(f->path);
        free(f->display);
        free(f);
        return e;
    }
    cache->files[cache->n++] = f;
    *out = &f->ini;
    return TCO_OK;
}

void tco_ini_cache_free(tco_ini_cache *cache)
{
    for (size_t i = 0; i < cache->n; i++) {
        tco_ini_free(&cache->files[i]->ini);
        free(cache->files[i]->path);
        free(cache->files[i]->display);
        free(cache->files[i]);
    }
    free(cache->files);
    memset(cache, 0, sizeof *cache);
}

const char *tco_ini_get(const tco_ini *ini, const char *section, const char *key)
{
    return tco_ini_get_in(ini, tco_ini_section_index(ini, section), key);
}

int tco_ini_section_index(const tco_ini *ini, const char *section)
{
    return ini->index ? (int)find_section(ini->index, section, strlen(section)) : -1;
}

const char *tco_ini_get_in(const tco_ini *ini, int s, const char *key)
{
    if (ini->index == NULL || s < 0 || s >= ini->index->n_secs)
        return NULL;
    long k = section_key(ini->index, s, key, strlen(key));
    return k < 0 ? NULL : ini->index->keys[k].value;
}

int tco_ini_key_count(const tco_ini *ini, int s)
{
    return ini->index && s >= 0 && s < ini->index->n_secs ? ini->index->secs[s].n_keys : 0;
}

const char *tco_ini_key_at(const tco_ini *ini, int s, int j)
{
    if (j < 0 || j >= tco_ini_key_count(ini, s))
        return NULL;
    const ini_section *sec = &ini->index->secs[s];
    return ini->index->keys[sec->keys[j]].name.s + sec->name.len + 1;
}

bool tco_ini_has_range_keys(const tco_ini *ini, int s)
{
    return ini->index && s >= 0 && s < ini->index->n_secs && ini->index->secs[s].range_keys;
}

bool tco_ini_set(tco_ini *ini, const char *section, const char *key, const char *value)
{
    if (value == NULL || (ini->index == NULL && (ini->index = index_new()) == NULL))
        return false;
    struct tco_ini_index *x = ini->index;
    size_t sl = strlen(section), kl = strlen(key);
    char *copy = tco_strdup(value);
    if (copy == NULL)
        return false;
    long k = find_key(x, section, sl, key, kl);
    if (k >= 0) {
        if (x->keys[k].value_heap)
            free(x->keys[k].value);
        x->keys[k].value = copy;
        x->keys[k].value_heap = true;
        return true;
    }
    name_ref sr = {section, sl, NULL, 0};
    uint64_t sh = ref_hash(x->seed, &sr);
    long s = find_section_hashed(x, &sr, sh);
    if (s < 0 && (s = add_section(ini, section, sl, sh, 0, 0)) < 0) {
        free(copy);
        return false;
    }
    ini_name name;
    if (!key_make(&name, x, &x->secs[s].name, key, kl) || (k = add_key(x, (int)s, name, 0)) < 0) {
        free(copy);
        return false;
    }
    x->keys[k].value = copy;
    x->keys[k].value_heap = true;
    return true;
}

bool tco_ini_has_section(const tco_ini *ini, const char *section)
{
    return ini->index != NULL && find_section(ini->index, section, strlen(section)) >= 0;
}

int tco_ini_section_count(const tco_ini *ini)
{
    return ini->index ? ini->index->n_secs : 0;
}

const char *tco_ini_section_name(const tco_ini *ini, int i)
{
    if (ini->index == NULL || i < 0 || i >= ini->index->n_secs)
        return NULL;
    return ini->index->secs[i].name.s;
}

const char *tco_ini_section_as_written(const tco_ini *ini, const char *name)
{
    long s = ini->index ? find_section(ini->index, name, strlen(name)) : -1;
    return s < 0 ? name : ini->sections[s];
}

const char **tco_ini_keys(const tco_ini *ini, const char *section, int *count)
{
    *count = 0;
    long s = ini->index ? find_section(ini->index, section, strlen(section)) : -1;
    if (s < 0 || ini->index->secs[s].n_keys == 0)
        return NULL;
    const ini_section *sec = &ini->index->secs[s];
    const char **keys = calloc((size_t)sec->n_keys, sizeof *keys);
    if (keys == NULL)
        return NULL;
    for (int i = 0; i < sec->n_keys; i++)
        keys[i] = ini->index->keys[sec->keys[i]].name.s;
    *count = sec->n_keys;
    return keys;
}

/* The length of a key's stem, its first word ("card" of "card_count" and of "cards"): up to the
 * first '_', a plural 's' dropped; 0 when shorter than 3 characters (too short to say anything). */
static size_t key_stem(const char *k)
{
    size_t n = strcspn(k, "_");
    if (n > 3 && k[n - 1] == 's')
        n--;
    return n >= 3 ? n : 0;
}

/* Whether @p a and @p b are the same word written two ways: one holds the other ("card" in "cards",
 * "count" in "card_count"), or they share a stem ("cards" and "card_count"). */
static bool keys_related(const char *a, const char *b)
{
    if ((strlen(a) >= 3 && strstr(b, a) != NULL) || (strlen(b) >= 3 && strstr(a, b) != NULL))
        return true;
    size_t sa = key_stem(a);
    return sa > 0 && sa == key_stem(b) && strncmp(a, b, sa) == 0;
}

const char *const tco_ini_beside_suffixes[] = {"_source", "_range", "_dist", "_range_source", "_range_kind", NULL};

/* True if @p k is @p key (@p kl bytes) followed by one of tco_ini_beside_suffixes. */
static bool key_beside(const char *k, const char *key, size_t kl)
{
    if (strncmp(k, key, kl) != 0)
        return false;
    for (int x = 0; tco_ini_beside_suffixes[x]; x++)
        if (strcmp(k + kl, tco_ini_beside_suffixes[x]) == 0)
            return true;
    return false;
}

const char *tco_ini_near_key(const tco_ini *ini, const char *section, const char *key, bool number,
                             bool (*taken)(void *ctx, const char *key), void *ctx)
{
    int n = 0;
    const char **keys = tco_ini_keys(ini, section, &n);
    const char *best = NULL;
    int best_rank = 4;
    size_t best_d = 0, kl = strlen(key);
    for (int i = 0; i < n; i++) {
        const char *k = strchr(keys[i], ':') ? strchr(keys[i], ':') + 1 : keys[i];
        if (key_beside(k, key, kl) || (taken != NULL && taken(ctx, k)))
            continue; /* a key beside the one asked for (its _source, its _range): that one is missing */
        size_t d = tco_edit_distance(k, key);
        bool related = keys_related(k, key);
        if (d == 0 || (d >= 3 && !related))
            continue;
        /* Meaning first (a number where a number is expected: not "card = D-M" for a count), then
         * the same word written two ways, then the fewest edits. */
        double v;
        const char *value = tco_ini_get(ini, section, k);
        bool fits = !number || (value != NULL && tco_parse_number(value, &v));
        int rank = (fits ? 0 : 2) + (related ? 0 : 1);
        if (rank < best_rank || (rank == best_rank && d < best_d))
            best_rank = rank, best_d = d, best = k;
    }
    free(keys);
    return best;
}

double tco_decimal_value(const char *s)
{
    const char *p = s;
    bool neg = *p == '-';
    if (*p == '+' || *p == '-')
        p++;
    while (*p == '0')
        p++;
    uint64_t m = 0; /* wraps past 19 digits: then unused */
    int digits = 0, frac = 0;
    for (; (unsigned)(*p - '0') < 10; p++, digits++)
        m = m * 10 + (uint64_t)(*p - '0');
    if (*p == '.') {
        const char *f0 = ++p;
        for (; (unsigned)(*p - '0') < 10; p++)
            m = m * 10 + (uint64_t)(*p - '0');
        frac = (int)(p - f0);
        digits += frac;
    }
    double v;
    if (*p != '\0' || !tco_decimal_exact(m, digits, frac, &v))
        return strtod(s, NULL); /* an exponent, or too many digits */
    return neg ? -v : v;
}

bool tco_parse_number(const char *text, double *out)
{
    /* One to nine digits alone (a count, weeks, most keys): the number itself. */
    size_t d = 0;
    uint32_t whole = 0;
    while (d < 10 && text[d] >= '0' && text[d] <= '9')
        whole = whole * 10 + (uint32_t)(text[d++] - '0');
    if (d > 0 && d < 10 && text[d] == '\0') {
        *out = whole;
        return true;
    }
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *start = p;
    if (*p == '+' || *p == '-')
        p++;
    size_t digits = 0;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p))
            p++, digits++;
    }
    if (digits == 0)
        return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    const char *end = p;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '\0')
        return false;
    char buf[64];
    size_t len = (size_t)(end - start);
    if (len >= sizeof buf)
        return false;
    memcpy(buf, start, len);
    buf[len] = '\0';
    double v = tco_decimal_value(buf);
    if (!isfinite(v) || !tco_number_is_normal(buf, v))
        return false;
    *out = v + 0.0; /* "-0" is 0: no negative zero reaches a cell, the JSON or the CSV as "-0" */
    return true;
}

bool tco_number_tiny(const char *text)
{
    char *end;
    double v = strtod(text, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    return end != text && *end == '\0' && isfinite(v) && !tco_number_is_normal(text, v);
}

tco_error tco_ini_number(const tco_ini *ini, const char *section, const char *key, bool required,
                         double *out, bool *found, tco_diag *diag)
{
    return tco_ini_number_in(ini, tco_ini_section_index(ini, section), section, key, required, out, found, diag);
}

tco_error tco_ini_number_in(const tco_ini *ini, int sec, const char *section, const char *key, bool required,
                            double *out, bool *found, tco_diag *diag)
{
    const char *s = tco_ini_get_in(ini, sec, key);
    if (found)
        *found = s != NULL;
    if (s == NULL) {
        if (!required)
            return TCO_OK;
    {
        const char *near = tco_ini_near_key(ini, section, key, true, NULL, NULL);
        return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = ini->path, .section = section, .key = key},
                           "expected a number, found no such key%s%s%s", near ? " (the section has '" : "",
                           near ? near : "", near ? "': a misspelling?)" : "");
    }
    }
    if (!tco_parse_number(s, out))
        return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = ini->path, .section = section, .key = key},
                           "expected %s, found '%s'",
                           tco_number_tiny(s) ? TCO_NORMAL_EXPECTED
                                               : "a number (digits, '.' for decimals, no thousands separators)",
                           s);
    return TCO_OK;
}

/* Only the band |i - j| <= 2 of the table is computed, and the search stops at the first row whose
 * every cell is 3 or more: a pair costs at most 5 cells a character, and names that differ early a
 * few cells, so 11,000 names of 63 characters against 200 unknown ones take milliseconds. */
size_t tco_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64 || (la > lb ? la - lb : lb - la) > 2)
        return 3;
    size_t r0[65], r1[65], r2[65], *prev = r0, *cur = r1, *back = r2; /* rows i - 1, i and i - 2 */
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j < 3 ? j : 3;
    for (size_t i = 1; i <= la; i++) {
        size_t lo = i > 2 ? i - 2 : 1, hi = i + 2 < lb ? i + 2 : lb;
        cur[lo - 1] = lo == 1 ? (i < 3 ? i : 3) : 3; /* left of the band (or column 0) */
        if (hi + 1 <= lb)
            cur[hi + 1] = 3; /* right of the band: read by the next row */
        size_t row_min = cur[lo - 1];
        for (size_t j = lo; j <= hi; j++) {
            size_t v = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            if (prev[j] + 1 < v)
                v = prev[j] + 1;
            if (cur[j - 1] + 1 < v)
                v = cur[j - 1] + 1;
            /* Two neighbours swapped count one edit ("cluster23" is 1 from "cluster32", 2 from "cluster16"). */
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && back[j - 2] + 1 < v)
                v = back[j - 2] + 1;
            cur[j] = v < 3 ? v : 3;
            row_min = cur[j] < row_min ? cur[j] : row_min;
        }
        if (row_min >= 3)
            return 3;
        size_t *t = back;
        back = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}
