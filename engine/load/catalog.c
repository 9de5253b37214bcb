/* catalog.c - the catalog (pricing/ *.ini), the scenario's ref keys into it (card = D-M names a section of
 * pricing/cards.ini; load.h's tco_model_ref_entry()) and the tier table ([model] tiers = FILE). */
#include "load/loader.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "load/load.h"

tco_error load_catalog(loader *ld)
{
    char *pattern = tco_path_join(ld->root, "pricing/*.ini");
    if (pattern == NULL)
        return oom(ld);
    glob_t g;
    int rc = glob(pattern, 0, NULL, &g);
    free(pattern);
    if (rc != 0) {
        char *dir = tco_path_join(ld->root, "pricing/");
        tco_error e = tco_diag_at(ld->diag, TCO_ERR_NOINPUT, &(tco_place){.file = dir ? dir : "pricing/"},
                                  "no pricing catalog (*.ini) found; "
                                  "run tco from the project directory or pass --root DIR");
        free(dir);
        if (rc != GLOB_NOMATCH)
            globfree(&g);
        return e;
    }
    ld->catalog = calloc(g.gl_pathc, sizeof *ld->catalog);
    if (ld->catalog == NULL) {
        globfree(&g);
        return oom(ld);
    }
    tco_error e = TCO_OK;
    for (size_t i = 0; i < g.gl_pathc && e == TCO_OK; i++) {
        const char *base = strrchr(g.gl_pathv[i], '/');
        base = base ? base + 1 : g.gl_pathv[i];
        char rel[512];
        snprintf(rel, sizeof rel, "pricing/%s", base);
        char *display = tco_path_join(ld->root, rel);
        if (display == NULL) {
            e = oom(ld);
            break;
        }
        e = tco_ini_cache_load(ld->cache, g.gl_pathv[i], display, &ld->catalog[i], ld->diag);
        free(display);
        if (e == TCO_OK)
            ld->n_catalog++;
    }
    globfree(&g);
    if (e != TCO_OK)
        return e;
    /* A section name must be unique across the catalog. */
    for (size_t f = 0; f < ld->n_catalog; f++)
        for (int s = 0; s < tco_ini_section_count(ld->catalog[f]); s++) {
            const char *name = tco_ini_section_name(ld->catalog[f], s);
            for (size_t g2 = 0; g2 < f; g2++)
                if (tco_ini_has_section(ld->catalog[g2], name))
                    return tco_diag_at(ld->diag, TCO_ERR_DUPLICATE,
                                       &(tco_place){.file = ld->catalog[f]->path, .section = name},
                                       "section also defined in %s; catalog sections must be unique",
                                       ld->catalog[g2]->path);
        }
    return TCO_OK;
}

static int catalog_file_index(const loader *ld, const char *stem)
{
    for (size_t i = 0; i < ld->n_catalog; i++) {
        const char *base = strrchr(ld->catalog[i]->path, '/');
        base = base ? base + 1 : ld->catalog[i]->path;
        size_t n = strlen(stem);
        if (strncmp(base, stem, n) == 0 && strcmp(base + n, ".ini") == 0)
            return (int)i;
    }
    return -1;
}

tco_error load_refs(loader *ld, const char *spec)
{
    char **list;
    int n = tco_split_list(spec, &list);
    if (n < 0)
        return tco_diag_at(ld->diag, TCO_ERR_INI,
                           &(tco_place){.file = ld->template_ini->path, .section = "model", .key = "refs"},
                           "expected KEY:FILE, ... found '%s'", spec);
    ld->refs = calloc((size_t)n, sizeof *ld->refs);
    if (ld->refs == NULL) {
        tco_free_list(list, n);
        return oom(ld);
    }
    tco_error e = TCO_OK;
    for (int i = 0; i < n && e == TCO_OK; i++) {
        char *colon = strchr(list[i], ':');
        if (colon == NULL || colon == list[i] || colon[1] == '\0') {
            e = tco_diag_at(ld->diag, TCO_ERR_INI,
                            &(tco_place){.file = ld->template_ini->path, .section = "model", .key = "refs"},
                            "expected KEY:FILE, found '%s'", list[i]);
            break;
        }
        *colon = '\0';
        ref_key *r = &ld->refs[ld->n_refs++];
        r->key = tco_strdup(list[i]);
        r->file = tco_strdup(colon + 1);
        if (r->key == NULL || r->file == NULL) {
            e = oom(ld);
            break;
        }
        r->file_index = catalog_file_index(ld, r->file);
        if (r->file_index < 0) {
            e = tco_diag_at(ld->diag, TCO_ERR_NOINPUT,
                            &(tco_place){.file = ld->template_ini->path, .section = "model", .key = "refs"},
                            "catalog file pricing/%s.ini not found", r->file);
            break;
        }
        const char *v = tco_ini_get(&ld->scenario, "scenario", r->key);
        if (v == NULL || v[0] == '\0') {
            /* "hosts = dc8" for host: a misspelling, as for a missing input value ("cards = 32" is not). */
            const char *near = v == NULL ? tco_ini_near_key(&ld->scenario, "scenario", r->key, false, key_has_meaning,
                                                            &(key_owner){ld, "scenario"})
                                         : NULL;
            e = tco_diag_at(ld->diag, TCO_ERR_INI,
                            &(tco_place){.file = ld->scenario.path, .section = "scenario", .key = r->key},
                            "expected an entry of %s, found %s%s%s%s", ld->catalog[r->file_index]->path,
                            v == NULL ? "no such key" : "an empty value", near ? " (the section has '" : "",
                            near ? near : "", near ? "': a misspelling?)" : "");
            break;
        }
        const tco_ini *cat = ld->catalog[r->file_index];
        if (strchr(v, ':') != NULL || !tco_ini_has_section(cat, v)) {
            tco_strbuf names = {0};
            const char *best = NULL;
            size_t best_d = 3;
            for (int s = 0; s < tco_ini_section_count(cat); s++) {
                const char *sn = tco_ini_section_as_written(cat, tco_ini_section_name(cat, s));
                tco_strbuf_printf(&names, "%s%s", s ? ", " : "", sn);
                size_t d = tco_edit_distance(v, sn);
                if (d < best_d)
                    best_d = d, best = sn;
            }
            if (best)
                e = tco_diag_at(ld->diag, TCO_ERR_INI,
                                &(tco_place){.file = ld->scenario.path, .section = "scenario", .key = r->key},
                                "no entry '%s' in %s (did you mean '%s'?)", v, cat->path, best);
            else
                e = tco_diag_at(ld->diag, TCO_ERR_INI,
                                &(tco_place){.file = ld->scenario.path, .section = "scenario", .key = r->key},
                                "no entry '%s' in %s; expected one of: %s", v, cat->path, tco_strbuf_str(&names));
            tco_strbuf_free(&names);
            break;
        }
        r->value = tco_strdup(v);
        if (r->value == NULL || !mark_consumed(ld, "scenario", r->key))
            e = oom(ld);
    }
    /* Each entry's KEY (what the loop left of it) once: a second would read the same scenario key. */
    if (e == TCO_OK)
        e = tco_list_check_set(list, n, TCO_ERR_DUPLICATE,
                               &(tco_place){.file = ld->template_ini->path, .section = "model", .key = "refs"},
                               ld->diag);
    tco_free_list(list, n);
    /* Kept on the model: a comparison asks which entry each option's --set card.price would change. */
    tco_model *m = ld->model;
    if (e == TCO_OK && ld->n_refs > 0) {
        m->ref_keys = calloc(ld->n_refs, sizeof *m->ref_keys);
        m->ref_entries = calloc(ld->n_refs, sizeof *m->ref_entries);
        if (m->ref_keys == NULL || m->ref_entries == NULL)
            return oom(ld);
        for (size_t r = 0; r < ld->n_refs; r++, m->n_refs++)
            if ((m->ref_keys[r] = tco_strdup(ld->refs[r].key)) == NULL ||
                (m->ref_entries[r] = tco_strdup(ld->refs[r].value)) == NULL)
                return oom(ld);
    }
    return e;
}

const char *tco_model_ref_entry(const tco_model *m, const char *key)
{
    for (size_t r = 0; r < m->n_refs; r++)
        if (strcasecmp(m->ref_keys[r], key) == 0)
            return m->ref_entries[r];
    return NULL;
}

static int casecmp_names(const void *a, const void *b)
{
    return tco_utf8_casecmp(*(const char *const *)a, *(const char *const *)b);
}

tco_error load_tiers(loader *ld)
{
    tco_model *m = ld->model;
    ld->tier_file = -1;
    const char *stem = tco_ini_get(ld->template_ini, "model", "tiers");
    if (stem == NULL)
        return TCO_OK;
    ld->tier_file = catalog_file_index(ld, stem);
    if (ld->tier_file < 0)
        return tco_diag_at(ld->diag, TCO_ERR_NOINPUT,
                           &(tco_place){.file = ld->template_ini->path, .section = "model", .key = "tiers"},
                           "catalog file pricing/%s.ini not found", stem);
    const tco_ini *cat = ld->catalog[ld->tier_file];
    int n = tco_ini_section_count(cat);
    if (n <= 0)
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = cat->path},
                           "expected at least one section (one per tier), found none");
    m->tier_names = calloc((size_t)n, sizeof *m->tier_names);
    m->tier_path = tco_strdup(shown_in_book(ld, cat->path));
    if (m->tier_names == NULL || m->tier_path == NULL)
        return oom(ld);
    for (int i = 0; i < n; i++) {
        /* iniparser keeps sections in file order; show them as written (D-M, not d-m). */
        m->tier_names[i] = tco_strdup(tco_ini_section_as_written(cat, tco_ini_section_name(cat, i)));
        if (m->tier_names[i] == NULL)
            return oom(ld);
        m->n_tiers++;
    }
    /* MATCH(card_tier, tier, 0) finds the first code equal in any script's case (as Excel, LibreOffice
     * and Gnumeric compare text): two codes that differ only so would make the later one unreachable. */
    const char **sorted = malloc((size_t)n * sizeof *sorted);
    if (sorted == NULL)
        return oom(ld);
    for (int i = 0; i < n; i++)
        sorted[i] = m->tier_names[i];
    qsort(sorted, (size_t)n, sizeof *sorted, casecmp_names);
    tco_error e = TCO_OK;
    for (int i = 1; i < n && e == TCO_OK; i++)
        if (tco_utf8_casecmp(sorted[i - 1], sorted[i]) == 0)
            e = tco_diag_at(ld->diag, TCO_ERR_DUPLICATE, &(tco_place){.file = cat->path},
                            "tiers [%s] and [%s] differ only in case; a lookup of "
                            "the tier code (MATCH, as the workbook does) cannot tell them apart: rename one",
                            sorted[i - 1], sorted[i]);
    free(sorted);
    return e;
}
