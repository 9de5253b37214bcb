/*
 * names.h - one hash index from a name to a number, for every lookup of a name
 * among many (model items, quoted items, scenario keys used).
 *
 * Names compare as Excel's defined names and INI keys do: case-insensitively
 * in ASCII.  The hash is SipHash under a random key per index (tco_hash_name()),
 * so no input can be written whose names all collide.  Open
 * addressing, at most half full: lookups and inserts in constant time.
 */
#ifndef TCO_NAMES_H
#define TCO_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * 2012), fed one byte at a time so that a name can be hashed in pieces
 * (ini.c hashes "section:key" without building it).  Use tco_hash_begin(),
 * tco_hash_byte() for each byte, tco_hash_end().
 */
typedef struct tco_hash {
    uint64_t v[4];
    uint64_t m; /* bytes of the current 8-byte block, little-endian */
    size_t len;
} tco_hash;

/** Start a hash under the key @p seed (from tco_hash_seed()). */
void tco_hash_begin(tco_hash *h, const uint64_t seed[2]);
/** Feed one byte. */
void tco_hash_byte(tco_hash *h, unsigned char c);
/** Feed the @p n bytes at @p s with ASCII letters lower-cased: the same as tco_hash_byte() on each,
 *  a block of 8 bytes at a time. */
void tco_hash_lower(tco_hash *h, const char *s, size_t n);
/** The 64-bit hash of the bytes fed. */
uint64_t tco_hash_end(tco_hash *h);

/** A random key (from getrandom(), else the clock), so that no input can be written whose names all
 *  collide in a table keyed by it. */
void tco_hash_seed(uint64_t seed[2]);

/**
 * A fingerprint of the @p n bytes at @p data: SipHash-2-4 under a fixed key written in names.c, so the
 * same bytes give the same 64 bits on every machine and in every run (unlike tco_hash_name(), whose key
 * is random).  It tells whether two files or two sets of figures are the same (a template changed
 * between two runs, a sheet computed from other inputs); it is no signature: anyone can make bytes
 * with a given fingerprint.
 */
uint64_t tco_fingerprint(const void *data, size_t n);

/** Start a hash under tco_fingerprint()'s fixed key, for a fingerprint fed in pieces (tco_hash_byte(),
 *  then tco_hash_end()): the inputs of a risk run (risk.h tco_model_fingerprint()). */
void tco_fingerprint_begin(tco_hash *h);

/** The hash of @p name with ASCII letters lower-cased, keyed by @p seed: two names equal under
 *  strcasecmp() hash alike. */
uint64_t tco_hash_name(const uint64_t seed[2], const char *name);

/**
 * Name -> size_t.  Keys are borrowed: each must outlive the index and not
 * change.  Zero-initialise ({0}); free with tco_name_index_free().
 */
typedef struct tco_name_index {
    const char **keys;
    size_t *values;
    size_t cap, n;    /* cap is 0 or a power of two */
    uint64_t seed[2]; /* set when the table is first made */
} tco_name_index;

/**
 * The value slot of @p key, inserting it with SIZE_MAX (and *@p added true, if
 * @p added is not NULL) when absent.  NULL when out of memory (the index is
 * unchanged).  The slot is valid until the next insert.
 */
size_t *tco_name_index_put(tco_name_index *ix, const char *key, bool *added);

/** True, with the value of @p key in *@p value (which may be NULL), when @p key is in the index. */
bool tco_name_index_get(const tco_name_index *ix, const char *key, size_t *value);

/** Release the table (not the keys) and reset @p ix to empty. */
void tco_name_index_free(tco_name_index *ix);

#endif /* TCO_NAMES_H */
