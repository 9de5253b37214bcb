/* checks.c - what a load read nothing from: the scenario's unknown sections and keys (each named with
 * the nearest the template reads, or the --set that gave it), catalog ranges that belong to no value
 * read, and [model] shared sections no input reads. */
#include "load/loader.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"
#include "load/load.h"

tco_error check_shared(loader *ld)
{
    for (int k = 0; k < ld->n_shared; k++) {
        char lower[256];
        snprintf(lower, sizeof lower, "%s", ld->shared[k]);
        for (char *c = lower; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (strchr(lower, '.') != NULL || !name_set_has(&ld->from_sections, lower))
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = ld->template_ini->path, .section = "model", .key = "shared"},
                               "'%s' is not the section of any input's from key (from = SECTION.KEY)", ld->shared[k]);
    }
    return TCO_OK;
}

static bool is_ref_key(const loader *ld, const char *key)
{
    for (size_t r = 0; r < ld->n_refs; r++)
        if (strcasecmp(key, ld->refs[r].key) == 0)
            return true;
    return false;
}

/* True if the template reads anything from scenario section @p sec: from = SEC.KEY,
 * or from = card.KEY when @p sec is the catalog entry the scenario's card key names. */
static bool section_is_read(const loader *ld, const char *sec)
{
    for (size_t r = 0; r < ld->n_refs; r++)
        if (strcasecmp(sec, ld->refs[r].value) == 0)
            return true;
    /* per-tier inputs read every tier row: every section of the tier catalog */
    if (ld->model->n_tiers > 0 && ld->tier_file >= 0 && tco_ini_has_section(ld->catalog[ld->tier_file], sec))
        return true;
    if (is_ref_key(ld, sec) || strcasecmp(sec, "tier") == 0)
        return false; /* from = card.KEY reads the entry the card key names, not a [card] section */
    char *lower = tco_strdup(sec);
    if (lower == NULL)
        return true; /* out of memory: not the moment to refuse the scenario */
    for (char *p = lower; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    bool read = name_set_has(&ld->from_sections, lower);
    free(lower);
    return read;
}

/* The suffix of @p key that makes it a key beside a value's range (_range, _dist, _range_source, _range_kind), or
 * NULL. */
static const char *range_suffix(const char *key)
{
    size_t n = strlen(key);
    for (int x = 1; tco_ini_beside_suffixes[x]; x++) {
        size_t sl = strlen(tco_ini_beside_suffixes[x]);
        if (n > sl && strcmp(key + n - sl, tco_ini_beside_suffixes[x]) == 0)
            return key + n - sl;
    }
    return NULL;
}

/* True if an input read the value [@p sec] KEY, KEY the first @p kl bytes of @p key (ld->values_read). */
static bool value_read(const loader *ld, const char *sec, const char *key, size_t kl)
{
    size_t sl = strlen(sec);
    char entry[2 * TCO_INI_MAX_LINE + 2]; /* a section and a key, each from one line */
    if (sl + 1 + kl >= sizeof entry)
        return false; /* longer than any name the index holds */
    memcpy(entry, sec, sl);
    entry[sl] = ':';
    memcpy(entry + sl + 1, key, kl);
    entry[sl + 1 + kl] = '\0';
    return name_set_has(&ld->values_read, entry);
}

/* True if @p key (@p kl bytes) is KEY_range, KEY_dist, KEY_range_source or KEY_range_kind of a value KEY read in
 * [@p sec]. */
static bool beside_value_read(const loader *ld, const char *sec, const char *key, size_t kl)
{
    for (int x = 1; tco_ini_beside_suffixes[x]; x++) {
        size_t sl = strlen(tco_ini_beside_suffixes[x]);
        if (kl > sl && strcmp(key + kl - sl, tco_ini_beside_suffixes[x]) == 0 && value_read(ld, sec, key, kl - sl))
            return true;
    }
    return false;
}

tco_error check_catalog_ranges(loader *ld)
{
    for (size_t f = 0; f < ld->n_catalog; f++) {
        const tco_ini *cat = ld->catalog[f];
        for (int s = 0; s < tco_ini_section_count(cat); s++) {
            const char *sec = tco_ini_section_name(cat, s);
            if (!name_set_has(&ld->range_sections, sec))
                continue;
            int n = tco_ini_key_count(cat, s);
            /* Whether each key is a value read here, looked up once (the did-you-mean below asks n times). */
            bool *read = calloc(n > 0 ? (size_t)n : 1, sizeof *read);
            if (read == NULL)
                return oom(ld);
            for (int k = 0; k < n; k++) {
                const char *key = tco_ini_key_at(cat, s, k);
                read[k] = value_read(ld, sec, key, strlen(key));
            }
            tco_error e = TCO_OK;
            for (int k = 0; k < n && e == TCO_OK; k++) {
                const char *key = tco_ini_key_at(cat, s, k), *suffix = range_suffix(key);
                size_t kl = strlen(key), sl = strlen("_source");
                if (read[k] || beside_value_read(ld, sec, key, kl) ||
                    (kl > sl && strcmp(key + kl - sl, "_source") == 0 && value_read(ld, sec, key, kl - sl)))
                    continue; /* a range key of a value read, a value read, or a value's basis */
                /* The nearest key beside a value an input reads here. */
                char best[300] = "";
                size_t best_d = 3;
                for (int j = 0; j < n; j++) {
                    const char *base = tco_ini_key_at(cat, s, j);
                    for (int x = 1; read[j] && range_suffix(base) == NULL && tco_ini_beside_suffixes[x]; x++) {
                        char cand[300];
                        snprintf(cand, sizeof cand, "%s%s", base, tco_ini_beside_suffixes[x]);
                        size_t d = tco_edit_distance(key, cand);
                        if (d < best_d)
                            best_d = d, snprintf(best, sizeof best, "%s", cand);
                    }
                }
                const char *shown = tco_ini_section_as_written(cat, sec);
                if (suffix != NULL)
                    e = tco_diag_at(ld->diag, TCO_ERR_INI,
                                    &(tco_place){.file = cat->path, .section = shown, .key = key},
                                    "no input reads [%s] %.*s, so this range belongs to no value%s%s%s", shown,
                                    (int)(suffix - key), key, best[0] ? " (did you mean '" : "", best,
                                    best[0] ? "'?)" : "");
                else if (best[0])
                    e = tco_diag_at(ld->diag, TCO_ERR_INI,
                                    &(tco_place){.file = cat->path, .section = shown, .key = key},
                                    "unknown key (did you mean '%s'?)", best);
            }
            free(read);
            if (e != TCO_OK)
                return e;
        }
    }
    return TCO_OK;
}

tco_error collect_from_sections(loader *ld)
{
    if (ld->from_sections_done)
        return TCO_OK;
    ld->from_sections_done = true;
    const tco_ini *t = ld->template_ini;
    for (int j = 0; j < tco_ini_section_count(t); j++) {
        const char *from = tco_ini_get_in(t, j, "from"); /* by number: no hash of each section's name */
        for (const char *dot = from ? strchr(from, '.') : NULL; dot; dot = strchr(dot + 1, '.')) {
            size_t n = (size_t)(dot - from);
            char *sec = malloc(n + 1);
            if (sec == NULL)
                return oom(ld);
            for (size_t k = 0; k < n; k++)
                sec[k] = (char)tolower((unsigned char)from[k]);
            sec[n] = '\0';
            if (!name_set_add(&ld->from_sections, sec))
                return oom(ld);
        }
    }
    return TCO_OK;
}

tco_error check_scenario_consumed(loader *ld)
{
    const char *const *own = scenario_own_keys;
    const tco_ini *s = &ld->scenario;
    tco_error fe = collect_from_sections(ld);
    if (fe != TCO_OK)
        return fe;
    for (int i = 0; i < tco_ini_section_count(s); i++) {
        const char *sec = tco_ini_section_name(s, i);
        if (ld->skip_section && strcmp(sec, ld->skip_section) == 0)
            continue;
        if (strcmp(sec, "scenario") != 0 && !section_is_read(ld, sec)) {
            for (size_t o = 0; o < ld->n_overrides; o++)
                if (strcasecmp(override_section(ld, &ld->overrides[o]), sec) == 0)
                    return tco_diag_at_set(ld->diag, TCO_ERR_INI, ld->overrides[o].arg, ld->overrides[o].section,
                                           ld->overrides[o].key, "no input reads section [%s]",
                                           ld->overrides[o].section);
            const char *best = NULL;
            size_t best_d = 3;
            const tco_ini *t = ld->template_ini;
            for (int j = 0; j < tco_ini_section_count(t); j++) {
                const char *from = tco_ini_get_in(t, j, "from");
                const char *dot = from ? strchr(from, '.') : NULL;
                if (dot == NULL)
                    continue;
                char cand[256];
                snprintf(cand, sizeof cand, "%.*s", (int)(dot - from), from);
                size_t d = tco_edit_distance(sec, cand);
                if (d < best_d && strcasecmp(cand, "scenario") != 0 && !is_ref_key(ld, cand))
                    best_d = d, best = from;
            }
            if (best) {
                const char *dot = strchr(best, '.');
                return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = s->path, .section = sec},
                                   "unknown section (did you mean [%.*s]?)", (int)(dot - best), best);
            }
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = s->path, .section = sec},
                               "unknown section; the template %s reads nothing from it", ld->template_ini->path);
        }
        int n;
        const char **keys = tco_ini_keys(s, sec, &n);
        for (int k = 0; k < n; k++) {
            const char *key = strchr(keys[k], ':') + 1;
            bool ok = is_consumed(ld, keys[k]);
            if (strcmp(sec, "scenario") == 0)
                for (const char *const *o = own; *o && !ok; o++)
                    ok = strcmp(key, *o) == 0;
            if (ok)
                continue;
            /* Suggest the nearest key the template reads from this section. */
            /* Keys read from this section: from = SECTION.KEY, or from = card.KEY when the
             * section is the catalog entry the scenario's card key names. */
            const char *prefix = sec;
            for (size_t r = 0; r < ld->n_refs; r++)
                if (strcasecmp(sec, ld->refs[r].value) == 0)
                    prefix = ld->refs[r].key;
            const char *best = NULL;
            char best_buf[300];
            size_t best_d = 3;
            const tco_ini *t = ld->template_ini;
            for (int j = 0; j < tco_ini_section_count(t); j++) {
                const char *from = tco_ini_get_in(t, j, "from");
                if (from == NULL)
                    continue;
                size_t sl = strlen(prefix);
                /* The key itself or a key beside its value (KEY_source, KEY_range, ...). */
                for (int x = -1; strncasecmp(from, prefix, sl) == 0 && from[sl] == '.' && (x < 0 || tco_ini_beside_suffixes[x]);
                     x++) {
                    char cand[300];
                    snprintf(cand, sizeof cand, "%s%s", from + sl + 1, x < 0 ? "" : tco_ini_beside_suffixes[x]);
                    size_t d = tco_edit_distance(key, cand);
                    if (d < best_d) {
                        best_d = d;
                        snprintf(best_buf, sizeof best_buf, "%s", cand);
                        best = best_buf;
                    }
                }
                /* The input's own name for its key ("card_count = 32", the input card_count, for cards). */
                const char *tsec = tco_ini_section_name(t, j);
                if (strncasecmp(from, prefix, sl) == 0 && from[sl] == '.' && strncasecmp(tsec, "input.", 6) == 0) {
                    size_t d = tco_edit_distance(key, tsec + 6);
                    if (d < best_d) {
                        best_d = d;
                        snprintf(best_buf, sizeof best_buf, "%s", from + sl + 1);
                        best = best_buf;
                    }
                }
            }
            tco_error e;
            int ov = override_of(ld, sec, key);
            size_t kl = strlen(key);
            if (best && strcasecmp(best, key) == 0 && kl > 7 && strcmp(key + kl - 7, "_source") == 0) {
                /* A basis beside no value of its own layer: what it describes is missing, not misspelt. */
                if (ov >= 0)
                    e = tco_diag_at_set(ld->diag, TCO_ERR_INI, ld->overrides[ov].arg, sec, key,
                                        "a basis describes the value it is given with: give --set %s.%.*s=VALUE too",
                                        ld->overrides[ov].section, (int)(kl - 7), key);
                else
                    e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = s->path, .section = sec, .key = key},
                                    "a basis beside no value: expected %.*s = VALUE in the same section", (int)(kl - 7),
                                    key);
            } else if (ov >= 0 && best)
                e = tco_diag_at_set(ld->diag, TCO_ERR_INI, ld->overrides[ov].arg, sec, key,
                                    "unknown key '%s' (did you mean '%s'?)", key, best);
            else if (ov >= 0)
                e = tco_diag_at_set(ld->diag, TCO_ERR_INI, ld->overrides[ov].arg, sec, key, "no input reads [%s] %s",
                                    sec, key);
            else if (best)
                e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = s->path, .section = sec, .key = key},
                                "unknown key (did you mean '%s'?)", best);
            else
                e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = s->path, .section = sec, .key = key},
                                "unknown key; the template %s reads no such input", ld->template_ini->path);
            free(keys);
            return e;
        }
        free(keys);
    }
    return TCO_OK;
}
