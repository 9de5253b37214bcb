/* names.c - the case-insensitive name index (names.h). */
#include "base/names.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <strings.h>


/* ---- SipHash-2-4 ---------------------------------------------------------------------------- */

static uint64_t rotl64(uint64_t x, int b)
{
    return (x << b) | (x >> (64 - b));
}

static void sip_round(uint64_t v[4])
{
    v[0] += v[1], v[1] = rotl64(v[1], 13), v[1] ^= v[0], v[0] = rotl64(v[0], 32);
    v[2] += v[3], v[3] = rotl64(v[3], 16), v[3] ^= v[2];
    v[0] += v[3], v[3] = rotl64(v[3], 21), v[3] ^= v[0];
    v[2] += v[1], v[1] = rotl64(v[1], 17), v[1] ^= v[2], v[2] = rotl64(v[2], 32);
}

void tco_hash_begin(tco_hash *h, const uint64_t k[2])
{
    h->v[0] = k[0] ^ UINT64_C(0x736f6d6570736575);
    h->v[1] = k[1] ^ UINT64_C(0x646f72616e646f6d);
    h->v[2] = k[0] ^ UINT64_C(0x6c7967656e657261);
    h->v[3] = k[1] ^ UINT64_C(0x7465646279746573);
    h->m = 0;
    h->len = 0;
}

static void sip_block(tco_hash *h, uint64_t m)
{
    h->v[3] ^= m;
    sip_round(h->v);
    sip_round(h->v);
    h->v[0] ^= m;
}

void tco_hash_byte(tco_hash *h, unsigned char c)
{
    h->m |= (uint64_t)c << (8 * (h->len % 8));
    if (++h->len % 8 == 0) {
        sip_block(h, h->m);
        h->m = 0;
    }
}

uint64_t tco_hash_end(tco_hash *h)
{
    sip_block(h, h->m | (uint64_t)h->len << 56);
    h->v[2] ^= 0xff;
    for (int r = 0; r < 4; r++)
        sip_round(h->v);
    return h->v[0] ^ h->v[1] ^ h->v[2] ^ h->v[3];
}

void tco_hash_seed(uint64_t seed[2])
{
    if (getrandom(seed, 2 * sizeof *seed, GRND_NONBLOCK) != (ssize_t)(2 * sizeof *seed)) {
        /* No entropy yet (early boot): any key works; only collisions become plannable. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed[0] = (uint64_t)ts.tv_nsec * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)getpid();
        seed[1] = (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)seed;
    }
}

/* The fixed key of tco_fingerprint(): two arbitrary constants, the ASCII text "tco fing" and
 * "erprint." read as big-endian numbers.  Changing them changes every fingerprint ever written. */
static const uint64_t fingerprint_key[2] = {UINT64_C(0x74636f2066696e67), UINT64_C(0x65727072696e742e)};

void tco_fingerprint_begin(tco_hash *h)
{
    tco_hash_begin(h, fingerprint_key);
}

/* Feed the @p n bytes at @p s, ASCII letters lower-cased when @p lower: what tco_hash_byte() on each would
 * do, 8 bytes at a time once the current block is full. */
static void hash_bytes(tco_hash *h, const unsigned char *s, size_t n, bool lower)
{
#define HASH_LOWER(c) (lower && (c) >= 'A' && (c) <= 'Z' ? (unsigned char)((c) - 'A' + 'a') : (c))
    size_t i = 0;
    for (; i < n && h->len % 8 != 0; i++)
        tco_hash_byte(h, HASH_LOWER(s[i]));
    /* Whole blocks of 8 bytes, as tco_hash_byte() would gather them (little-endian). */
    for (; n - i >= 8; i += 8) {
        uint64_t m = 0;
        for (int b = 7; b >= 0; b--)
            m = m << 8 | HASH_LOWER(s[i + (size_t)b]);
        sip_block(h, m);
        h->len += 8;
    }
    if (i < n) { /* the last bytes start a block of their own (h->m is empty): gathered at once */
        uint64_t m = 0;
        for (size_t b = n; b-- > i;)
            m = m << 8 | HASH_LOWER(s[b]);
        h->m = m;
        h->len += n - i;
    }
#undef HASH_LOWER
}

/* 8 bytes at a time (was one tco_hash_byte() call per byte): a fifth of the instructions for the
 * template's 100 KB, the same 64 bits. */
uint64_t tco_fingerprint(const void *data, size_t n)
{
    tco_hash h;
    tco_fingerprint_begin(&h);
    hash_bytes(&h, data, n, false);
    return tco_hash_end(&h);
}

void tco_hash_lower(tco_hash *h, const char *s, size_t n)
{
    hash_bytes(h, (const unsigned char *)s, n, true);
}

uint64_t tco_hash_name(const uint64_t seed[2], const char *name)
{
    tco_hash h;
    tco_hash_begin(&h, seed);
    tco_hash_lower(&h, name, strlen(name));
    return tco_hash_end(&h);
}

/* ---- the index -------------------------------------------------------------------------------- */

/* Slot of @p key: where it is, or the empty slot where it would go (the table has one). */
static size_t slot_of(const tco_name_index *ix, const char *key)
{
    size_t mask = ix->cap - 1;
    for (size_t i = (size_t)tco_hash_name(ix->seed, key) & mask;; i = (i + 1) & mask)
        if (ix->keys[i] == NULL || strcasecmp(ix->keys[i], key) == 0)
            return i;
}

size_t *tco_name_index_put(tco_name_index *ix, const char *key, bool *added)
{
    if ((ix->n + 1) * 2 > ix->cap) { /* at most half full */
        size_t cap = ix->cap ? ix->cap * 2 : 64;
        tco_name_index grown = {calloc(cap, sizeof *grown.keys), calloc(cap, sizeof *grown.values), cap, ix->n,
                                {ix->seed[0], ix->seed[1]}};
        if (grown.keys == NULL || grown.values == NULL || cap < ix->cap) {
            free(grown.keys);
            free(grown.values);
            return NULL;
        }
        if (ix->cap == 0)
            tco_hash_seed(grown.seed);
        for (size_t i = 0; i < ix->cap; i++)
            if (ix->keys[i]) {
                size_t j = slot_of(&grown, ix->keys[i]);
                grown.keys[j] = ix->keys[i];
                grown.values[j] = ix->values[i];
            }
        free(ix->keys);
        free(ix->values);
        *ix = grown;
    }
    size_t i = slot_of(ix, key);
    bool fresh = ix->keys[i] == NULL;
    if (fresh) {
        ix->keys[i] = key;
        ix->values[i] = SIZE_MAX;
        ix->n++;
    }
    if (added)
        *added = fresh;
    return &ix->values[i];
}

bool tco_name_index_get(const tco_name_index *ix, const char *key, size_t *value)
{
    if (ix->cap == 0)
        return false;
    size_t i = slot_of(ix, key);
    if (ix->keys[i] == NULL)
        return false;
    if (value)
        *value = ix->values[i];
    return true;
}

void tco_name_index_free(tco_name_index *ix)
{
    free(ix->keys);
    free(ix->values);
    *ix = (tco_name_index){0};
}
