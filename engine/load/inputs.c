/* inputs.c - the template's [input.NAME] sections: where each input's value comes from (the scenario,
 * the catalog, a --set or the template's default), its checks, its range (KEY_range, KEY_dist,
 * KEY_range_source) and its source text; per-tier inputs row by row; and [model] shared, the inputs a
 * comparison shares. */
#include "load/loader.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "load/load.h"
#include "model/formula.h"
#include "model/ranges.h"

tco_error load_shared(loader *ld)
{
    const tco_ini *t = ld->template_ini;
    const char *list = tco_ini_get(t, "model", "shared");
    if (list == NULL)
        return TCO_OK;
    ld->n_shared = tco_split_list(list, &ld->shared);
    if (ld->n_shared > 0)
        return tco_list_check_set(ld->shared, ld->n_shared, TCO_ERR_DUPLICATE,
                                  &(tco_place){.file = t->path, .section = "model", .key = "shared"}, ld->diag);
    ld->n_shared = 0;
    return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = "shared"},
                       "expected a comma-separated list of the sections "
                       "of from keys (facility, finance, ...), found '%s'", list);
}

/* Find the value of `from = A.B`; sets the INI it came from, its section and a display section. */
static tco_error resolve_from(loader *ld, const char *input_section, const char *from, const tco_ini **ini,
                              char *section, size_t section_size, char *shown, size_t shown_size,
                              const char **key)
{
    const char *dot = strchr(from, '.');
    if (dot == NULL || dot == from || dot[1] == '\0')
        return tco_diag_at(ld->diag, TCO_ERR_INI,
                           &(tco_place){.file = ld->template_ini->path, .section = input_section, .key = "from"},
                           "expected SECTION.KEY (e.g. facility.pue or card.price), found '%s'", from);
    /* Copied as snprintf() would cut them, without its format parsing (once for each input). */
    size_t sl = (size_t)(dot - from) < section_size - 1 ? (size_t)(dot - from) : section_size - 1;
    memcpy(section, from, sl);
    section[sl] = '\0';
    *key = dot + 1;
    tco_str_cat(shown, shown_size, section, NULL);
    if (strcasecmp(section, "scenario") == 0) {
        *ini = &ld->scenario;
        return TCO_OK;
    }
    for (size_t i = 0; i < ld->n_refs; i++)
        if (strcasecmp(section, ld->refs[i].key) == 0) {
            /* The scenario may override the chosen entry: [D-M] price = 80000. */
            bool overridden = tco_ini_get(&ld->scenario, ld->refs[i].value, *key) != NULL;
            *ini = overridden ? &ld->scenario : ld->catalog[ld->refs[i].file_index];
            tco_str_cat(section, section_size, ld->refs[i].value, NULL);
            tco_str_cat(shown, shown_size, ld->refs[i].value, NULL);
            return TCO_OK;
        }
    if (tco_ini_get(&ld->scenario, section, *key) != NULL) {
        *ini = &ld->scenario;
        return TCO_OK;
    }
    for (size_t i = 0; i < ld->n_catalog; i++)
        if (tco_ini_has_section(ld->catalog[i], section)) {
            *ini = ld->catalog[i];
            return TCO_OK;
        }
    return tco_diag_at(ld->diag, TCO_ERR_INI,
                       &(tco_place){.file = ld->template_ini->path, .section = input_section, .key = "from"},
                       "no section [%s] in the scenario or in pricing/*.ini (from = '%s')", section, from);
}

static const char *const input_keys[] = {"label", "unit", "from", "min", "max", "least", "integer", "format", "note",
                                         "structural", "per", "type", "values", "values_from", "default", "quote",
                                         "quote_qty", NULL};

/* Parse and check one input value @p text found at src [shown] key.  Numbers: strict, within
 * min/max, whole if integer.  Text: one of the choices when the input lists them (stored in
 * the choice's spelling).  On success sets *number or *text_out (heap). */
static tco_error input_value(loader *ld, const tco_item *it, const tco_place *place, const char *text,
                             double *number, char **text_out)
{
    if (it->choices != NULL || text_out != NULL) {
        const char *chosen = text;
        if (it->choices != NULL) {
            chosen = NULL;
            /* Case-insensitive in any script, as MATCH and the applications' text comparison are. */
            for (size_t c = 0; c < it->n_choices && chosen == NULL; c++)
                if (tco_utf8_casecmp(text, it->choices[c]) == 0)
                    chosen = it->choices[c];
            if (chosen == NULL) {
                tco_strbuf list = {0};
                for (size_t c = 0; c < it->n_choices; c++)
                    tco_strbuf_printf(&list, "%s%s", c ? ", " : "", it->choices[c]);
                tco_error e = tco_diag_at(ld->diag, TCO_ERR_INI, place, "expected one of %s, found '%s'",
                                          tco_strbuf_str(&list), text);
                tco_strbuf_free(&list);
                return e;
            }
        }
        *text_out = tco_strdup(chosen);
        return *text_out ? TCO_OK : oom(ld);
    }
    return tco_input_number(it, place, text, number, ld->diag);
}

/* Most UTF-16 units of the per-row notes in a per-tier input's source: the source shares a cell
 * with the label, the catalog path and the template's note (each at most one INI line). */
#define TIER_NOTES_MAX 8000

/* Append one per-row note to @p notes while they fit TIER_NOTES_MAX; otherwise count it in *@p untold. */
static void tier_note(tco_strbuf *notes, size_t *untold, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void tier_note(tco_strbuf *notes, size_t *untold, const char *fmt, ...)
{
    tco_strbuf one = {0};
    va_list ap;
    va_start(ap, fmt);
    tco_strbuf_vprintf(&one, fmt, ap);
    va_end(ap);
    if (one.failed)
        notes->failed = true;
    else
        tco_strbuf_append_capped(notes, tco_strbuf_str(&one), TIER_NOTES_MAX, untold);
    tco_strbuf_free(&one);
}

/* Where a value came from: "--set ARG" when a --set gave it, else "FILE [SHOWN] KEY" (@p sec is the
 * section looked up, @p shown the section as the message names it): as data in *@p at (for tco_diag_at();
 * it borrows @p out, @p shown, @p key and the file's path) and as text in @p out (a range's `given`). */
static void value_place(loader *ld, const tco_ini *src, const char *sec, const char *shown, const char *key,
                        tco_place *at, char *out, size_t size)
{
    int ov = src == &ld->scenario ? override_of(ld, sec, key) : -1;
    if (ov >= 0) {
        tco_str_cat(out, size, "--set ", ld->overrides[ov].arg, NULL);
        *at = (tco_place){.arg = out, .section = sec, .key = key};
    } else {
        tco_str_cat(out, size, src->path, " [", shown, "] ", key, NULL);
        *at = (tco_place){.file = src->path, .section = shown, .key = key};
    }
}

/* Layers a value comes from, nearest the user last: the template's default, a catalog file, the
 * scenario file, a --set.  A range belongs to its value: it is read from the value's layer or above. */
enum { LAYER_DEFAULT, LAYER_CATALOG, LAYER_FILE, LAYER_SET };

/* The layer of [@p sec] @p key read from @p src (NULL: the template's default). */
static int layer_of(const loader *ld, const tco_ini *src, const char *sec, const char *key)
{
    if (src == NULL)
        return LAYER_DEFAULT;
    if (src != &ld->scenario)
        return LAYER_CATALOG;
    return override_of(ld, sec, key) >= 0 ? LAYER_SET : LAYER_FILE;
}

/* [@p sec] @p key from the nearest layer at or above @p min: a --set or the scenario file (where the
 * section is number @p ss), else the catalog file @p cat (NULL: none; the section is number @p cs
 * there).  Sets *@p layer and *@p src when found. */
static const char *key_at_layer(const loader *ld, const tco_ini *cat, const char *sec, int ss, int cs,
                                const char *key, int min, int *layer, const tco_ini **src)
{
    const char *v = tco_ini_get_in(&ld->scenario, ss, key);
    int l = layer_of(ld, &ld->scenario, sec, key);
    if (v == NULL && cat != NULL && (v = tco_ini_get_in(cat, cs, key)) != NULL)
        l = LAYER_CATALOG;
    if (v == NULL || l < min)
        return NULL;
    *layer = l;
    *src = l == LAYER_CATALOG ? cat : &ld->scenario;
    return v;
}

/* Room for a value's key with a suffix beside it ("KEY_range_source"): the key comes from a template line. */
#define BESIDE_KEY_MAX (TCO_INI_MAX_LINE + 16)

/* The range of input @p it's value at [@p sec] @p key (shown as [@p shown]) of layer @p layer, @p point
 * (a number, unless @p number is false): KEY_range, KEY_dist and KEY_range_source read from that layer
 * or above (catalog file @p cat below the scenario; NULL for none) and checked into *@p out.  Each of
 * them the scenario holds is marked used (one a nearer --set value supersedes too). */
static tco_error load_range(loader *ld, const tco_item *it, const tco_ini *cat, const char *sec, const char *shown,
                            const char *key, int layer, double point, bool number, tco_range *out)
{
    if (!name_set_add_lower(&ld->values_read, sec, key) || !name_set_add_lower(&ld->range_sections, sec, NULL))
        return oom(ld);
    /* Most sections hold no range key at all: then none of the three is looked up, in either file (each
     * lookup would find nothing; two section lookups instead of up to nine key lookups). */
    int ss = tco_ini_section_index(&ld->scenario, sec), cs = cat ? tco_ini_section_index(cat, sec) : -1;
    if (!tco_ini_has_range_keys(&ld->scenario, ss) && !(cat && tco_ini_has_range_keys(cat, cs)))
        return TCO_OK;
    char k_range[BESIDE_KEY_MAX], k_dist[BESIDE_KEY_MAX], k_basis[BESIDE_KEY_MAX], k_kind[BESIDE_KEY_MAX];
    char place[700];
    tco_place at;
    tco_str_cat(k_range, sizeof k_range, key, "_range", NULL);
    tco_str_cat(k_dist, sizeof k_dist, key, "_dist", NULL);
    tco_str_cat(k_basis, sizeof k_basis, key, "_range_source", NULL);
    tco_str_cat(k_kind, sizeof k_kind, key, "_range_kind", NULL);
    const char *keys[] = {k_range, k_dist, k_basis, k_kind};
    for (int k = 0; k < 4; k++)
        if (tco_ini_get_in(&ld->scenario, ss, keys[k]) != NULL && !mark_consumed(ld, sec, keys[k]))
            return oom(ld);
    int l_range = layer, l_other = layer;
    const tco_ini *s_range = NULL, *s_other = NULL;
    const char *range = key_at_layer(ld, cat, sec, ss, cs, k_range, layer, &l_range, &s_range);
    int min = range ? l_range : layer; /* a distribution or basis given for this range, or nearer */
    const char *dist = key_at_layer(ld, cat, sec, ss, cs, k_dist, min, &l_other, &s_other);
    const tco_ini *s_dist = s_other;
    const char *basis = key_at_layer(ld, cat, sec, ss, cs, k_basis, min, &l_other, &s_other);
    const tco_ini *s_basis = s_other, *s_kind = NULL;
    int l_kind = layer;
    const char *kind = key_at_layer(ld, cat, sec, ss, cs, k_kind, min, &l_kind, &s_kind);
    if (range == NULL) {
        if (dist == NULL && basis == NULL && kind == NULL)
            return TCO_OK;
        const char *what = dist ? "distribution" : basis ? "range basis" : "range kind";
        value_place(ld, dist ? s_dist : basis ? s_basis : s_kind, sec, shown, dist ? k_dist : basis ? k_basis : k_kind,
                    &at, place, sizeof place);
        return tco_diag_at(ld->diag, TCO_ERR_INI, &at, "a %s needs a range beside the value: expected %s = LOW, HIGH "
                           "in the same place (a range describes the value it is given with)", what, k_range);
    }
    bool bounds = false;
    if (kind != NULL) {
        char kplace[700];
        tco_place kat;
        value_place(ld, s_kind, sec, shown, k_kind, &kat, kplace, sizeof kplace);
        if (strcasecmp(kind, "bounds") != 0 && strcasecmp(kind, "p5p95") != 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI, &kat, "expected p5p95 (LOW and HIGH are the 5th and 95th "
                               "percentiles, the default) or bounds (LOW and HIGH are the minimum and maximum), "
                               "found '%s'", kind);
        bounds = strcasecmp(kind, "bounds") == 0;
        tco_dist want = dist ? tco_dist_parse(dist) : TCO_DIST_TRIANGULAR;
        if (bounds && (want == TCO_DIST_NORMAL || want == TCO_DIST_LOGNORMAL))
            return tco_diag_at(ld->diag, TCO_ERR_INI, &kat, "bounds are a minimum and a maximum, which a %s "
                               "distribution has not: give %s = triangular, uniform or pert, or p5p95",
                               tco_dist_name(want), k_dist);
    }
    value_place(ld, s_range, sec, shown, k_range, &at, place, sizeof place);
    if (!number)
        return tco_diag_at(ld->diag, TCO_ERR_INI, &at, "input %s (%s) is text; a range is for a number input",
                           it->name, it->label);
    if (it->structural)
        return tco_diag_at(ld->diag, TCO_ERR_INI, &at,
                           "input %s fixes the workbook's shape (structural) and takes no range", it->name);
    tco_dist d = TCO_DIST_TRIANGULAR;
    if (dist != NULL && (d = tco_dist_parse(dist)) == TCO_DIST_NONE) {
        char dplace[700];
        tco_place dat;
        value_place(ld, s_dist, sec, shown, k_dist, &dat, dplace, sizeof dplace);
        return tco_diag_at(ld->diag, TCO_ERR_INI, &dat,
                           "expected triangular, uniform, pert, normal or lognormal, found '%s'", dist);
    }
    tco_error e = tco_range_parse(it, &at, range, point, d, out, ld->diag);
    if (e != TCO_OK)
        return e;
    out->by_set = l_range == LAYER_SET;
    out->bounds = bounds;
    if ((out->given = tco_strdup(place)) == NULL || (basis && basis[0] && (out->basis = tco_strdup(basis)) == NULL))
        return oom(ld);
    return TCO_OK;
}

/* Values of a per-tier input: `from = tier.KEY` read from every tier row (the scenario's
 * [ROW] KEY overrides the catalog's); a row without the key takes `default` if given. */
static tco_error load_tier_input(loader *ld, tco_item *it, const ini_sec *ts, const char *from, bool text)
{
    const tco_ini *t = ld->template_ini;
    const char *section = ts->name;
    tco_model *m = ld->model;
    if (strncasecmp(from, "tier.", 5) != 0 || from[5] == '\0')
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "from"},
                           "a per-tier input reads tier.KEY, found '%s'", from);
    if (m->n_tiers == 0)
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "per"},
                           "per = tier needs [model] tiers = FILE");
    const char *key = from + 5;
    const char *def = sec_get(ts, "default");
    it->tiers = calloc((size_t)m->n_tiers, sizeof *it->tiers);
    if (text)
        it->tier_texts = calloc((size_t)m->n_tiers, sizeof *it->tier_texts);
    if (it->tiers == NULL || (text && it->tier_texts == NULL))
        return oom(ld);
    const tco_ini *cat = ld->catalog[ld->tier_file];
    tco_strbuf notes = {0}, bases = {0}, defaulted = {0}; /* defaulted: the rows the catalog leaves out */
    size_t untold = 0, unbased = 0; /* rows past the note budgets */
    char basis_key[BESIDE_KEY_MAX];
    tco_str_cat(basis_key, sizeof basis_key, key, "_source", NULL);
    tco_error e = TCO_OK;
    /* Each row's basis text (borrowed from the file), told once for all the rows that share it. */
    const char **row_basis = calloc((size_t)m->n_tiers, sizeof *row_basis);
    if (row_basis == NULL)
        return oom(ld);
    for (int r = 0; r < m->n_tiers && e == TCO_OK; r++) {
        const char *row = m->tier_names[r];
        const tco_ini *src = tco_ini_get(&ld->scenario, row, key) ? &ld->scenario : cat;
        const char *value = tco_ini_get(src, row, key);
        /* Each row's basis (KEY_source), as a scalar input shows its own: the card's price basis
         * stays on the workbook now that card_price is looked up from this table. */
        const char *basis = value ? tco_ini_get(src, row, basis_key) : NULL;
        if (basis && basis[0])
            row_basis[r] = basis;
        /* The row's basis, for its status (conventions.h): a --set row's only from a --set. */
        if (basis && basis[0] && (src != &ld->scenario || override_of(ld, row, key) < 0 ||
                                  override_of(ld, row, basis_key) >= 0)) {
            if (it->tier_bases == NULL)
                it->tier_bases = calloc((size_t)m->n_tiers, sizeof *it->tier_bases);
            if (it->tier_bases == NULL || (it->tier_bases[r] = tco_strdup(basis)) == NULL) {
                e = oom(ld);
                break;
            }
        }
        int layer = value ? layer_of(ld, src, row, key) : LAYER_DEFAULT;
        if (value != NULL && (src != &ld->scenario || override_of(ld, row, key) < 0)) { /* for messages */
            if (it->tier_files == NULL && (it->tier_files = calloc((size_t)m->n_tiers, sizeof *it->tier_files)) == NULL) {
                e = oom(ld);
                break;
            }
            if (src == cat && m->tier_catalog_path == NULL && (m->tier_catalog_path = tco_strdup(cat->path)) == NULL) {
                e = oom(ld);
                break;
            }
            it->tier_files[r] = src == cat ? m->tier_catalog_path : m->scenario_path;
        }
        if (value == NULL) {
            if (def == NULL) {
                e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = cat->path, .section = row, .key = key},
                                "expected a value (%s, input %s), found no such key (or give the "
                                "template's [%s] a default)", it->label, it->name, section);
                break;
            }
            value = def;
            /* Told once for all such rows: "C30, C60, D-L: not in the catalog, 0". */
            tier_note(&defaulted, &untold, "%s%s", defaulted.len ? ", " : "", row);
        } else if (src == &ld->scenario) {
            int ov = override_of(ld, row, key);
            if (ov >= 0) { /* a --set: quotes do not replace this row (tco_model_apply_quotes) */
                if (it->tier_set == NULL)
                    it->tier_set = calloc((size_t)m->n_tiers, sizeof *it->tier_set);
                char *arg = it->tier_set ? tco_strdup(ld->overrides[ov].arg) : NULL;
                if (arg == NULL)
                    e = oom(ld);
                else {
                    free(it->tier_set[r]);
                    it->tier_set[r] = arg;
                    tier_note(&notes, &untold, "%s%s: --set %s", notes.len ? "; " : "", row, arg);
                }
            } else
                tier_note(&notes, &untold, "%s%s: scenario override", notes.len ? "; " : "", row);
            if (!mark_consumed(ld, row, key) || !mark_consumed(ld, row, basis_key))
                e = oom(ld);
        }
        if (e == TCO_OK) {
            /* A --set is named as itself, as for a scalar input: the scenario file has no such section. */
            char place[700];
            tco_place at;
            value_place(ld, src, row, row, key, &at, place, sizeof place);
            e = input_value(ld, it, &at, value, &it->tiers[r], text ? &it->tier_texts[r] : NULL);
        }
        tco_range range = {0};
        if (e == TCO_OK)
            e = load_range(ld, it, cat, row, row, key, layer, it->tiers[r], !text, &range);
        if (e == TCO_OK && range.dist != TCO_DIST_NONE) {
            if (it->tier_ranges == NULL && (it->tier_ranges = calloc((size_t)m->n_tiers, sizeof *it->tier_ranges)) == NULL)
                e = oom(ld);
            else {
                it->tier_ranges[r] = range;
                range = (tco_range){0};
            }
        }
        tco_range_clear(&range);
    }
    /* "C30, C60: basis; W-A: other basis": the rows of one basis together, in the order of the first. */
    for (int r = 0; r < m->n_tiers; r++) {
        if (row_basis[r] == NULL)
            continue;
        tco_strbuf rows = {0};
        for (int k = r; k < m->n_tiers; k++)
            if (row_basis[k] != NULL && (k == r || strcmp(row_basis[k], row_basis[r]) == 0)) {
                tco_strbuf_printf(&rows, "%s%s", rows.len ? ", " : "", m->tier_names[k]);
                if (k != r)
                    row_basis[k] = NULL;
            }
        tier_note(&bases, &unbased, "%s%s: %s", bases.len ? "; " : "", tco_strbuf_str(&rows), row_basis[r]);
        if (rows.failed)
            bases.failed = true;
        tco_strbuf_free(&rows);
    }
    free(row_basis);
    tco_strbuf b = {0};
    tco_strbuf_printf(&b, "%s, key %s of each tier", shown_in_book(ld, cat->path), key);
    if (untold)
        tco_strbuf_printf(&notes, "; %zu more rows not from the catalog (see the tier table)", untold);
    if (defaulted.len)
        tco_strbuf_printf(&b, " (%s: not in the catalog, %s%s%s)", tco_strbuf_str(&defaulted), def ? def : "",
                          notes.len ? "; " : "", tco_strbuf_str(&notes));
    else if (notes.len)
        tco_strbuf_printf(&b, " (%s)", tco_strbuf_str(&notes));
    if (unbased)
        tco_strbuf_printf(&bases, "; %zu more rows' bases in %s", unbased, shown_in_book(ld, cat->path));
    if (bases.len)
        tco_strbuf_printf(&b, ". Basis: %s", tco_strbuf_str(&bases));
    if (notes.failed || bases.failed || defaulted.failed)
        b.failed = true;
    tco_strbuf_free(&notes);
    tco_strbuf_free(&defaulted);
    tco_strbuf_free(&bases);
    const char *note = sec_get(ts, "note");
    if (note && note[0])
        tco_strbuf_printf(&b, ". %s", note);
    it->source = tco_strbuf_take(&b);
    return e != TCO_OK ? e : it->source ? TCO_OK : oom(ld);
}

/* Every other entry of the catalog file behind `from = REF.KEY` (REF a scenario's ref key, such as host:
 * the hosts the scenario does not choose): its value and range checked by the rules the chosen entry's are
 * (a catalog file is one file, and tco advise or a later scenario may choose any entry).  A bad value in an
 * entry no scenario chose passed in silence while the same value in the chosen one was refused. */
static tco_error check_other_entries(loader *ld, const tco_item *it, const tco_ini *t, const char *section,
                                     const char *from, bool text)
{
    const char *dot = strchr(from, '.');
    if (dot == NULL)
        return TCO_OK;
    const ref_key *ref = NULL;
    for (size_t r = 0; r < ld->n_refs && ref == NULL; r++)
        if (strlen(ld->refs[r].key) == (size_t)(dot - from) && strncasecmp(ld->refs[r].key, from, (size_t)(dot - from)) == 0)
            ref = &ld->refs[r];
    if (ref == NULL)
        return TCO_OK;
    const char *key = dot + 1, *def = tco_ini_get(t, section, "default");
    const tco_ini *cat = ld->catalog[ref->file_index];
    tco_error fe = collect_from_sections(ld);
    if (fe != TCO_OK)
        return fe;
    for (int s = 0; s < tco_ini_section_count(cat); s++) {
        const char *sec = tco_ini_section_name(cat, s);
        if (strcasecmp(sec, ref->value) == 0)
            continue; /* the chosen entry: load_input() read it */
        char lower[TCO_INI_MAX_LINE + 1];
        size_t n = strlen(sec) < sizeof lower - 1 ? strlen(sec) : sizeof lower - 1;
        for (size_t k = 0; k < n; k++)
            lower[k] = (char)tolower((unsigned char)sec[k]);
        lower[n] = '\0';
        if (name_set_has(&ld->from_sections, lower))
            continue; /* a section the template reads by name (from = site.rate): not an entry */
        const char *shown = tco_ini_section_as_written(cat, sec);
        const tco_place at = {.file = cat->path, .section = shown, .key = key};
        const char *value = tco_ini_get_in(cat, s, key);
        if (value == NULL && def == NULL) {
            const char *near = tco_ini_near_key(cat, sec, key, !text, key_has_meaning, &(key_owner){ld, sec});
            return tco_diag_at(ld->diag, TCO_ERR_INI, &at,
                               "expected %s (%s, input %s), found no such key%s%s%s", text ? "a value" : "a number",
                               it->label, it->name, near ? " (the section has '" : "", near ? near : "",
                               near ? "': a misspelling?)" : "");
        }
        double number = 0;
        char *chosen = NULL;
        tco_error e = input_value(ld, it, &at, value ? value : def, &number, text ? &chosen : NULL);
        free(chosen);
        tco_range range = {0};
        if (e == TCO_OK && value != NULL)
            e = load_range(ld, it, cat, sec, shown, key, LAYER_CATALOG, number, !text, &range);
        tco_range_clear(&range);
        if (e != TCO_OK)
            return e;
    }
    return TCO_OK;
}

tco_error load_input(loader *ld, int index)
{
    const tco_ini *t = ld->template_ini;
    const char *section = tco_ini_section_name(t, index);
    const ini_sec ts = {t, section, index};
    const char *name = section + strlen("input.");
    char where[600];
    tco_str_cat(where, sizeof where, t->path, " [", section, "]", NULL);
    tco_error e = tco_name_check(name, &(tco_place){.file = t->path, .section = section}, ld->diag);
    if (e == TCO_OK)
        e = check_keys(ld, &ts, input_keys);
    static const char *const required[] = {"label", "unit", "from", NULL};
    const char *v[3];
    if (e == TCO_OK)
        e = need_strings(ld, &ts, required, v);
    if (e != TCO_OK)
        return e;
    const char *label = v[0], *unit = v[1], *from = v[2];
    if ((e = check_unit(ld, t, section, unit)) != TCO_OK || (e = check_reserved(ld, t, section, name)) != TCO_OK)
        return e;
    const char *dot = strchr(from, '.');
    bool site_wide = false;
    for (int k = 0; dot && k < ld->n_shared; k++)
        site_wide |= strlen(ld->shared[k]) == (size_t)(dot - from) &&
                     strncasecmp(ld->shared[k], from, (size_t)(dot - from)) == 0;
    const char *per = sec_get(&ts, "per");
    if (per != NULL && strcasecmp(per, "tier") != 0)
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "per"},
                           "an input is per = tier or has no per key, found '%s'", per);
    const char *type = sec_get(&ts, "type");
    if (type != NULL && strcasecmp(type, "text") != 0 && strcasecmp(type, "number") != 0)
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "type"},
                           "expected number or text, found '%s'", type);
    bool text = type != NULL && strcasecmp(type, "text") == 0;
    if (tco_model_find(ld->model, name) >= 0)
        return tco_diag_at(ld->diag, TCO_ERR_DUPLICATE, &(tco_place){.file = t->path, .section = section},
                           "name '%s' is defined twice", name);
    tco_item *it = add_item(ld, per ? TCO_ITEM_TIER_INPUT : TCO_ITEM_INPUT, name);
    if (it == NULL || (it->label = tco_strdup(label)) == NULL || (it->unit = tco_strdup(unit)) == NULL ||
        (it->set_key = tco_strdup(per && strncasecmp(from, "tier.", 5) == 0 ? from + 5 : from)) == NULL)
        return oom(ld);
    it->site_wide = site_wide && per == NULL;
    bool found;
    if ((e = tco_ini_number_in(t, index, section, "min", false, &it->min, &found, ld->diag)) != TCO_OK ||
        (e = tco_ini_number_in(t, index, section, "max", false, &it->max, &found, ld->diag)) != TCO_OK)
        return e;
    if (!isnan(it->min) && !isnan(it->max) && it->min > it->max)
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "max"},
                           "expected a number >= min (%g), found %g", it->min, it->max);
    if ((e = tco_ini_number_in(t, index, section, "least", false, &it->least, &found, ld->diag)) != TCO_OK)
        return e;
    /* least: 0 or a value from least up, for a rate whose 0 means none (a card without FP16): min 0, least
     * above it and within max, and no money (a bound converted to another currency would move). */
    if (!isnan(it->least) && (isnan(it->min) || it->min != 0 || !(it->least > 0) ||
                              (!isnan(it->max) && it->least > it->max) || tco_unit_is_money(unit)))
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "least"},
                           "expected a number above 0 and <= max, on an input with min = 0 and a unit that is not "
                           "money (the least value above 0 it takes), found %g", it->least);
    if ((e = yes_no(ld, &ts, "integer", &it->integer)) != TCO_OK ||
        (e = yes_no(ld, &ts, "structural", &it->structural)) != TCO_OK)
        return e;
    const char *values = sec_get(&ts, "values");
    const char *values_from = sec_get(&ts, "values_from");
    if (values_from != NULL) {
        /* values_from = tier: one of the tier codes (the workbook's drop-down lists them). */
        if (!text || values != NULL)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = t->path, .section = section, .key = "values_from"},
                               "only a text input (type = text) without a "
                               "values key takes its values from the tier table");
        if (strcasecmp(values_from, "tier") != 0 || ld->model->n_tiers == 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = t->path, .section = section, .key = "values_from"},
                               "expected 'tier' (the codes of [model] tiers), found '%s'%s", values_from,
                               ld->model->n_tiers == 0 ? ", and the template has no [model] tiers" : "");
        it->choices = calloc((size_t)ld->model->n_tiers + 1, sizeof *it->choices);
        if (it->choices == NULL)
            return oom(ld);
        for (int r = 0; r < ld->model->n_tiers; r++, it->n_choices++)
            if ((it->choices[r] = tco_strdup(ld->model->tier_names[r])) == NULL)
                return oom(ld);
        it->choices_are_tiers = true;
    }
    if (values != NULL) {
        if (!text)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = t->path, .section = section, .key = "values"},
                               "only a text input (type = text) lists values");
        int n = tco_split_list(values, &it->choices);
        if (n <= 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = t->path, .section = section, .key = "values"},
                               "expected a comma-separated list, found '%s'", values);
        it->n_choices = (size_t)n;
        tco_error dup = tco_list_check_set(it->choices, n, TCO_ERR_DUPLICATE,
                                           &(tco_place){.file = t->path, .section = section, .key = "values"},
                                           ld->diag);
        if (dup != TCO_OK)
            return dup;
        /* The list becomes the cell's drop-down: Excel's list formula is "a,b,c", at most 255
         * characters, and libxlsxwriter copies it into 255 bytes; a '"' would end it early. */
        size_t bytes = 0;
        for (int c = 0; c < n; c++) {
            bytes += strlen(it->choices[c]) + (c ? 1 : 0);
            if (strchr(it->choices[c], '"') != NULL)
                return tco_diag_at(ld->diag, TCO_ERR_INI,
                                   &(tco_place){.file = t->path, .section = section, .key = "values"},
                                   "item '%s' holds '\"', which a drop-down list cannot show", it->choices[c]);
        }
        if (bytes > 255)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = t->path, .section = section, .key = "values"},
                               "the list is %zu bytes as the drop-down's "
                               "\"a,b,c\" text; at most 255 fit (Excel's limit; a character outside ASCII takes "
                               "2 to 4 bytes)", bytes);
    }
    const char *fmt = sec_get(&ts, "format");
    it->format = format_for_unit(unit, it->integer);
    if (fmt != NULL && (e = parse_format(ld, section, fmt, &it->format)) != TCO_OK)
        return e;
    const char *quote = sec_get(&ts, "quote");
    const char *quote_qty = sec_get(&ts, "quote_qty");
    if ((quote == NULL) != (quote_qty == NULL) || (quote && (quote[0] == '\0' || text)))
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section},
                           "a quoted price needs both quote = ITEM and quote_qty = NAME (a number input)");
    if (per != NULL) {
        /* A per-tier price is quoted row by row: quote = tier. */
        if (quote != NULL && strcasecmp(quote, "tier") != 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "quote"},
                               "a per-tier input is quoted with quote = tier, found '%s'", quote);
        if (quote != NULL && ((it->quote_item = tco_strdup("tier")) == NULL ||
                              (it->quote_qty = tco_strdup(quote_qty)) == NULL))
            return oom(ld);
        return load_tier_input(ld, it, &ts, from, text);
    }
    if (quote != NULL) {
        /* quote = card: the entry the scenario's card key names (D-M); otherwise a literal item id. */
        const char *item = quote;
        for (size_t r = 0; r < ld->n_refs; r++)
            if (strcasecmp(quote, ld->refs[r].key) == 0)
                item = ld->refs[r].value;
        if ((it->quote_item = tco_strdup(item)) == NULL || (it->quote_qty = tco_strdup(quote_qty)) == NULL)
            return oom(ld);
    }
    const tco_ini *src = NULL;
    char sec[256], shown[256];
    const char *key = NULL;
    if ((e = resolve_from(ld, section, from, &src, sec, sizeof sec, shown, sizeof shown, &key)) != TCO_OK)
        return e;
    if (src == NULL || key == NULL) /* resolve_from sets both on success */
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "from"},
                           "cannot resolve '%s'", from);
    const char *value = tco_ini_get(src, sec, key);
    const char *def = sec_get(&ts, "default");
    bool defaulted = false;
    if (value == NULL && def != NULL) {
        value = def; /* the template's default: noted in the source */
        defaulted = true;
    }
    if (value == NULL) {
        const char *near = tco_ini_near_key(src, sec, key, !text, key_has_meaning, &(key_owner){ld, sec});
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = src->path, .section = shown, .key = key},
                           "expected %s (%s, input %s), found no such key%s%s%s", text ? "a value" : "a number", label,
                           name, near ? " (the section has '" : "", near ? near : "", near ? "': a misspelling?)" : "");
    }
    int ov = src == &ld->scenario ? override_of(ld, sec, key) : -1;
    char place[700];
    tco_place at;
    value_place(ld, src, sec, shown, key, &at, place, sizeof place);
    if ((e = input_value(ld, it, &at, value, &it->value, text ? &it->text : NULL)) != TCO_OK)
        return e;
    if (!tco_place_keep(&it->value_place, &it->value_place_text, &at)) /* for checks of the value after loading */
        return oom(ld);
    if ((e = load_range(ld, it, src != &ld->scenario ? src : NULL, sec, shown, key,
                        defaulted ? LAYER_DEFAULT : layer_of(ld, src, sec, key), it->value, !text, &it->range)) != TCO_OK)
        return e;
    /* Provenance: file [section] key, and the basis text (KEY_source) when the file gives one (appended,
     * not printed: once for each input). */
    char basis_key[BESIDE_KEY_MAX];
    tco_str_cat(basis_key, sizeof basis_key, key, "_source", NULL);
    const char *basis = tco_ini_get(src, sec, basis_key);
    tco_strbuf b = {0};
    if (ov >= 0) {
        tco_strbuf_append(&b, "--set ");
        tco_strbuf_append(&b, ld->overrides[ov].arg);
        if (ld->originals[ov] && (it->original = tco_strdup(ld->originals[ov])) == NULL)
            return oom(ld);
    } else {
        tco_strbuf_append(&b, shown_in_book(ld, src->path));
        tco_strbuf_append(&b, " [");
        tco_strbuf_append(&b, shown);
        tco_strbuf_append(&b, "] ");
        tco_strbuf_append(&b, key);
    }
    if (defaulted) {
        tco_strbuf_append(&b, " not given: template default ");
        tco_strbuf_append(&b, def);
    }
    if (ov >= 0) {
        tco_strbuf_append(&b, " (was ");
        tco_strbuf_append(&b, it->original ? it->original : "not set");
        tco_strbuf_append(&b, ")");
    } else if (src == &ld->scenario && strcasecmp(sec, "scenario") != 0)
        tco_strbuf_append(&b, " (scenario override of the catalog)");
    if (basis && basis[0]) {
        tco_strbuf_append(&b, ": ");
        tco_strbuf_append(&b, basis);
    }
    const char *note = sec_get(&ts, "note");
    if (note && note[0]) {
        tco_strbuf_append(&b, b.len ? ". " : "");
        tco_strbuf_append(&b, note);
    }
    it->source = tco_strbuf_take(&b);
    if (it->source == NULL)
        return oom(ld);
    /* The basis of this value, for its status (conventions.h): a --set value's only from a --set. */
    if (basis && basis[0] && (ov < 0 || override_of(ld, sec, basis_key) >= 0) &&
        (it->basis = tco_strdup(basis)) == NULL)
        return oom(ld);
    if (src == &ld->scenario && !defaulted &&
        (!mark_consumed(ld, sec, key) || (basis && !mark_consumed(ld, sec, basis_key))))
        return oom(ld);
    return check_other_entries(ld, it, t, section, from, text);
}
