/* names.c - the case-insensitive name index (names.h). */
#include "names.h"

#include <stdlib.h>
#include <strings.h>

#include "ini.h"

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
