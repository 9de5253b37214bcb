/*
 * names.h - one hash index from a name to a number, for every lookup of a name
 * among many (model items, quoted items, scenario keys used).
 *
 * Names compare as Excel's defined names and INI keys do: case-insensitively
 * in ASCII.  The hash is SipHash under a random key per index (tco_hash_name()
 * in ini.h), so no input can be written whose names all collide.  Open
 * addressing, at most half full: lookups and inserts in constant time.
 */
#ifndef TCO_NAMES_H
#define TCO_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
