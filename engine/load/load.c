/* model.c - load the cost model from its INI files (bind.c binds and orders it, evaluate.c evaluates it). */
#include "model/model.h"

#include <ctype.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <strings.h>

#include "model/bind.h"
#include "model/conventions.h"
#include "model/program.h"
#include "read/ini.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "load/load.h"
#include "model/evaluate.h"
#include "model/ranges.h"

/* A scenario key that names a catalog section: `card = D-M` names a section of pricing/cards.ini. */
typedef struct ref_key {
    char *key;      /* scenario [scenario] key, e.g. "card" */
    char *file;     /* catalog file stem, e.g. "cards" */
    char *value;    /* the scenario's value as written, e.g. "D-M" */
    int file_index; /* index into loader.catalog */
} ref_key;

/* A set of strings (heap, owned), each once: the strings in v, looked up through a name index. */
typedef struct name_set {
    char **v;
    size_t n, cap;
    tco_name_index ix;
} name_set;

/* Everything open while loading; freed by loader_free(). */
typedef struct loader {
    const char *root;
    tco_ini scenario;
    /* The template and the catalog files, read once per process through the cache (never changed:
     * --set values go to the scenario). */
    tco_ini_cache *cache;
    const tco_ini *template_ini;
    const tco_ini **catalog;
    size_t n_catalog;
    ref_key *refs;
    size_t n_refs;
    int tier_file; /* catalog index of [model] tiers, -1 without */
    const tco_override *overrides;
    size_t n_overrides;
    char **originals; /* per override: the value it replaced (heap), or NULL */
    name_set consumed; /* "section:key" of the scenario that the model used (lower case) */
    name_set from_sections; /* SEC of every template from = SEC.KEY (lower case; each prefix ending at a '.') */
    name_set values_read;    /* "section:KEY" of every input value read (lower case): its KEY_range, KEY_dist and
                              * KEY_range_source belong to it (check_catalog_ranges()) */
    name_set range_sections; /* every section an input value was read from (lower case) */
    char **shared;          /* [model] shared: the site and finance sections a comparison shares */
    int n_shared;
    const char *skip_section; /* lower case: a scenario section another consumer reads (tco_load_options.skip_section) */
    tco_model *model;
    tco_diag *diag;
} loader;

/* ---- small helpers ---------------------------------------------------------- */

static tco_error oom(loader *ld)
{
    return tco_diag_set(ld->diag, TCO_ERR_NOMEM, "out of memory while loading the model");
}

/* A section of a loaded file found once for its keys (tco_ini_section_index(); index -1 when absent), so
 * that the dozen keys a loader reads from it cost no hash of the section's name each.  @p name is the
 * section as the messages name it. */
typedef struct ini_sec {
    const tco_ini *ini;
    const char *name;
    int index;
} ini_sec;

static ini_sec sec_named(const tco_ini *ini, const char *name)
{
    return (ini_sec){ini, name, tco_ini_section_index(ini, name)};
}

static const char *sec_get(const ini_sec *s, const char *key)
{
    return tco_ini_get_in(s->ini, s->index, key);
}

static bool name_set_has(const name_set *set, const char *text)
{
    return tco_name_index_get(&set->ix, text, NULL);
}

/* Add heap string @p text, which @p set does not hold, to @p set, which takes it; false on allocation
 * failure (@p text freed). */
static bool name_set_insert(name_set *set, char *text)
{
    if (set->n == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 64;
        char **grown = realloc(set->v, cap * sizeof *grown);
        if (grown == NULL) {
            free(text);
            return false;
        }
        set->v = grown;
        set->cap = cap;
    }
    size_t *slot = tco_name_index_put(&set->ix, text, NULL);
    if (slot == NULL) {
        free(text);
        return false;
    }
    *slot = set->n;
    set->v[set->n++] = text;
    return true;
}

/* Add heap string @p text to @p set, which takes it (and frees it when it has it); false on allocation
 * failure (@p text freed). */
static bool name_set_add(name_set *set, char *text)
{
    if (name_set_has(set, text)) {
        free(text);
        return true;
    }
    return name_set_insert(set, text);
}

static void name_set_free(name_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        free(set->v[i]);
    free(set->v);
    tco_name_index_free(&set->ix);
    *set = (name_set){0};
}

/* Add "section:key" (or "section" when @p key is NULL), in lower case, to @p set.  Copied, not printed,
 * and looked up before it is copied to the heap (about a thousand of these on each load, most of the
 * sections already there). */
static bool name_set_add_lower(name_set *set, const char *section, const char *key)
{
    size_t sl = strlen(section), kl = key ? strlen(key) : 0, n = sl + (key ? 1 + kl : 0);
    char local[512];
    char *s = n < sizeof local ? local : malloc(n + 1);
    if (s == NULL)
        return false;
    for (size_t i = 0; i < sl; i++)
        s[i] = (char)tolower((unsigned char)section[i]);
    if (key) {
        s[sl] = ':';
        for (size_t i = 0; i < kl; i++)
            s[sl + 1 + i] = (char)tolower((unsigned char)key[i]);
    }
    s[n] = '\0';
    if (name_set_has(set, s)) {
        if (s != local)
            free(s);
        return true;
    }
    if (s == local && (s = malloc(n + 1)) != NULL)
        memcpy(s, local, n + 1);
    return s != NULL && name_set_insert(set, s);
}

static bool mark_consumed(loader *ld, const char *section, const char *key)
{
    return name_set_add_lower(&ld->consumed, section, key);
}

static bool is_consumed(const loader *ld, const char *entry)
{
    return name_set_has(&ld->consumed, entry);
}

static tco_item *add_item(loader *ld, tco_item_kind kind, const char *name)
{
    return tco_model_add_item(ld->model, kind, name);
}

static tco_format format_for_unit(const char *unit, bool integer)
{
    static const char *const counts[] = {"cards", "hosts", "racks", "switches", "links", "ports", "years",
                                         "U",     "optics/link", "cards/host", "ports/host", "ports/switch",
                                         "U/rack", "W", "h/yr"};
    if (strncmp(unit, "CNY", 3) == 0)
        return TCO_FMT_MONEY;
    if (strcmp(unit, "kW") == 0 || strcmp(unit, "kVA") == 0 || strcmp(unit, "kW/rack") == 0)
        return TCO_FMT_KW;
    if (strncmp(unit, "share", 5) == 0)
        return TCO_FMT_PERCENT;
    if (strcmp(unit, "ratio") == 0)
        return TCO_FMT_RATIO;
    if (integer)
        return TCO_FMT_COUNT;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (strcmp(unit, counts[i]) == 0)
            return TCO_FMT_COUNT;
    return TCO_FMT_NUMBER;
}

static tco_error parse_format(loader *ld, const char *section, const char *text, tco_format *out)
{
    static const struct {
        const char *name;
        tco_format fmt;
    } table[] = {{"money", TCO_FMT_MONEY},     {"kw", TCO_FMT_KW},       {"percent", TCO_FMT_PERCENT},
                 {"count", TCO_FMT_COUNT},     {"ratio", TCO_FMT_RATIO}, {"number", TCO_FMT_NUMBER},
                 {"yesno", TCO_FMT_YESNO}, {"never", TCO_FMT_NEVER}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcasecmp(text, table[i].name) == 0) {
            *out = table[i].fmt;
            return TCO_OK;
        }
    return tco_diag_set(ld->diag, TCO_ERR_INI,
                        "%s [%s] format: expected money, kw, percent, count, ratio, number, yesno or never, found '%s'",
                        ld->template_ini->path, section, text);
}

/* Check that every key of section @p s is one of @p allowed (NULL-terminated). */
static tco_error check_keys(loader *ld, const ini_sec *s, const char *const *allowed)
{
    const tco_ini *ini = s->ini;
    const char *section = s->name;
    int n = tco_ini_key_count(ini, s->index);
    tco_error e = TCO_OK;
    for (int i = 0; i < n && e == TCO_OK; i++) {
        const char *key = tco_ini_key_at(ini, s->index, i);
        bool ok = false;
        const char *best = NULL;
        size_t best_d = 3;
        for (const char *const *a = allowed; *a && !ok; a++) {
            size_t al = strlen(*a);
            if (strcmp(key, *a) == 0 || ((*a)[al - 1] == '*' && strncmp(key, *a, al - 1) == 0))
                ok = true; /* "summary_*" allows any key starting "summary_" */
        }
        for (const char *const *a = allowed; *a && !ok; a++) { /* the nearest, for the message */
            size_t d = tco_edit_distance(key, *a);
            if (d < best_d)
                best_d = d, best = *a;
        }
        if (!ok) {
            tco_strbuf list = {0};
            for (const char *const *a = allowed; *a; a++)
                tco_strbuf_printf(&list, "%s%s", a == allowed ? "" : ", ", *a);
            if (best)
                e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] %s: unknown key (did you mean '%s'?)",
                                 ini->path, section, key, best);
            else
                e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] %s: unknown key; expected one of: %s",
                                 ini->path, section, key, tco_strbuf_str(&list));
            tco_strbuf_free(&list);
        }
    }
    return e;
}

/* Longest unit, in UTF-16 units after Excel's escapes: a unit goes into the data-validation
 * message of its input ("Expected a number from 0 to 1 (UNIT).", at most 255 characters). */
#define TCO_UNIT_MAX 64

/* [section] unit of @p ini: at most TCO_UNIT_MAX characters. */
static tco_error check_unit(loader *ld, const tco_ini *ini, const char *section, const char *unit)
{
    size_t n = tco_xlsx_text_units(unit);
    if (n > TCO_UNIT_MAX)
        return tco_diag_set(ld->diag, TCO_ERR_INI,
                            "%s [%s] unit: %zu characters; a unit is at most %d (it is shown in each input's "
                            "data-validation message, which Excel limits to 255)",
                            ini->path, section, n, TCO_UNIT_MAX);
    return TCO_OK;
}

/* Name prefixes tco itself defines in a workbook: fx_CCY, the exchange rates quotes add. */
static const char *const reserved_prefixes[] = {"fx_", NULL};

/* @p name of [section] in @p ini may not start with a prefix tco reserves. */
static tco_error check_reserved(loader *ld, const tco_ini *ini, const char *section, const char *name)
{
    for (const char *const *p = reserved_prefixes; *p; p++)
        if (strncasecmp(name, *p, strlen(*p)) == 0)
            return tco_diag_set(ld->diag, TCO_ERR_BAD_NAME,
                                "%s [%s]: the name '%s' starts with '%s', which tco reserves for the names it adds "
                                "(exchange rates fx_usd, fx_eur, ... for quotes); rename it",
                                ini->path, section, name, *p);
    return TCO_OK;
}

static tco_error need_string(loader *ld, const ini_sec *s, const char *key, const char **out)
{
    *out = sec_get(s, key);
    if (*out == NULL || (*out)[0] == '\0')
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] %s: expected a value, found %s", s->ini->path, s->name,
                            key, *out == NULL ? "no such key" : "an empty value");
    return TCO_OK;
}

/* The required keys @p keys (NULL-terminated) of section @p s: their values in @p out, in order. */
static tco_error need_strings(loader *ld, const ini_sec *s, const char *const *keys, const char **out)
{
    for (size_t i = 0; keys[i]; i++) {
        tco_error e = need_string(ld, s, keys[i], &out[i]);
        if (e != TCO_OK)
            return e;
    }
    return TCO_OK;
}

/* ---- catalog ------------------------------------------------------------------- */

static tco_error load_catalog(loader *ld)
{
    char *pattern = tco_path_join(ld->root, "pricing/*.ini");
    if (pattern == NULL)
        return oom(ld);
    glob_t g;
    int rc = glob(pattern, 0, NULL, &g);
    free(pattern);
    if (rc != 0) {
        char *dir = tco_path_join(ld->root, "pricing/");
        tco_error e = tco_diag_set(ld->diag, TCO_ERR_NOINPUT, "%s: no pricing catalog (*.ini) found; "
                                   "run tco from the project directory or pass --root DIR", dir ? dir : "pricing/");
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
                    return tco_diag_set(ld->diag, TCO_ERR_DUPLICATE,
                                        "%s [%s]: section also defined in %s; catalog sections must be unique",
                                        ld->catalog[f]->path, name, ld->catalog[g2]->path);
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

/* Parse [model] refs = card:cards, host:hosts and resolve each against the scenario. */
static tco_error load_refs(loader *ld, const char *spec)
{
    char **list;
    int n = tco_split_list(spec, &list);
    if (n < 0)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] refs: expected KEY:FILE, ... found '%s'",
                            ld->template_ini->path, spec);
    ld->refs = calloc((size_t)n, sizeof *ld->refs);
    if (ld->refs == NULL) {
        tco_free_list(list, n);
        return oom(ld);
    }
    tco_error e = TCO_OK;
    for (int i = 0; i < n && e == TCO_OK; i++) {
        char *colon = strchr(list[i], ':');
        if (colon == NULL || colon == list[i] || colon[1] == '\0') {
            e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] refs: expected KEY:FILE, found '%s'",
                             ld->template_ini->path, list[i]);
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
            e = tco_diag_set(ld->diag, TCO_ERR_NOINPUT, "%s [model] refs: catalog file pricing/%s.ini not found",
                             ld->template_ini->path, r->file);
            break;
        }
        const char *v = tco_ini_get(&ld->scenario, "scenario", r->key);
        if (v == NULL || v[0] == '\0') {
            e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [scenario] %s: expected an entry of %s, found %s",
                             ld->scenario.path, r->key, ld->catalog[r->file_index]->path,
                             v == NULL ? "no such key" : "an empty value");
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
                e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [scenario] %s: no entry '%s' in %s (did you mean '%s'?)",
                                 ld->scenario.path, r->key, v, cat->path, best);
            else
                e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [scenario] %s: no entry '%s' in %s; expected one of: %s",
                                 ld->scenario.path, r->key, v, cat->path, tco_strbuf_str(&names));
            tco_strbuf_free(&names);
            break;
        }
        r->value = tco_strdup(v);
        if (r->value == NULL || !mark_consumed(ld, "scenario", r->key))
            e = oom(ld);
    }
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

/* Section an override names: a ref key (card) stands for the entry it names (D-M). */
static const char *override_section(const loader *ld, const tco_override *o)
{
    for (size_t r = 0; r < ld->n_refs; r++)
        if (strcasecmp(o->section, ld->refs[r].key) == 0)
            return ld->refs[r].value;
    return o->section;
}

/* Apply --set values to the scenario as if its file said them; remember what each replaced.
 * Phase 0 (before anything is read): [scenario] keys such as card or template; phase 1 (once
 * the refs are known, so card.price names [D-M] price): every other section. */
static tco_error apply_overrides(loader *ld, int phase)
{
    if (ld->n_overrides == 0)
        return TCO_OK;
    if (ld->originals == NULL && (ld->originals = calloc(ld->n_overrides, sizeof *ld->originals)) == NULL)
        return oom(ld);
    for (size_t i = 0; i < ld->n_overrides; i++) {
        const tco_override *o = &ld->overrides[i];
        if ((strcasecmp(o->section, "scenario") == 0) != (phase == 0))
            continue;
        free(ld->originals[i]);
        ld->originals[i] = NULL;
        const char *sec = override_section(ld, o);
        const char *before = tco_ini_get(&ld->scenario, sec, o->key);
        /* A key set twice: "was" is the value before the first --set, not the first --set's. */
        for (size_t j = 0; j < i; j++)
            if (strcasecmp(override_section(ld, &ld->overrides[j]), sec) == 0 &&
                strcasecmp(ld->overrides[j].key, o->key) == 0) {
                before = ld->originals[j];
                break;
            }
        for (size_t f = 0; f < ld->n_catalog && before == NULL; f++)
            before = tco_ini_get(ld->catalog[f], sec, o->key);
        if (before && (ld->originals[i] = tco_strdup(before)) == NULL)
            return oom(ld);
        if (!tco_ini_set(&ld->scenario, sec, o->key, o->value))
            return oom(ld);
    }
    return TCO_OK;
}

/* The override that set [section] key, if any. */
static int override_of(const loader *ld, const char *section, const char *key)
{
    /* The last --set of a key is the one in effect. */
    for (size_t i = ld->n_overrides; i-- > 0;)
        if (strcasecmp(override_section(ld, &ld->overrides[i]), section) == 0 &&
            strcasecmp(ld->overrides[i].key, key) == 0)
            return (int)i;
    return -1;
}

tco_error tco_override_parse(const char *arg, tco_override *out, tco_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->arg = arg;
    const char *colon = strchr(arg, ':'), *first_dot = strchr(arg, '.');
    if (colon != NULL && (first_dot == NULL || colon < first_dot)) { /* OPTION:SECTION.KEY=VALUE */
        if (colon == arg || (size_t)(colon - arg) >= sizeof out->option)
            return tco_diag_set(diag, TCO_ERR_USAGE, "--set %s: expected OPTION:SECTION.KEY=VALUE with the name of "
                                "an option of the comparison before ':'", arg);
        snprintf(out->option, sizeof out->option, "%.*s", (int)(colon - arg), arg);
        arg = colon + 1;
    }
    const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
    if (dot == NULL || eq == NULL || dot > eq || dot == arg || eq == dot + 1)
        return tco_diag_set(diag, TCO_ERR_USAGE, "--set %s: expected SECTION.KEY=VALUE, e.g. facility.pue=1.2 or "
                            "card.price=80000", arg);
    if ((size_t)(dot - arg) >= sizeof out->section || (size_t)(eq - dot - 1) >= sizeof out->key ||
        strlen(eq + 1) >= sizeof out->value)
        return tco_diag_set(diag, TCO_ERR_USAGE,
                            "--set %.*s...: too long; expected a section and a key of at most %zu bytes each and a "
                            "value of at most %zu bytes",
                            (int)tco_utf8_prefix(arg, 60), arg, sizeof out->section - 1, sizeof out->value - 1);
    /* The value may reach the workbook (a text input, the note on Inputs): text a workbook holds.
     * The message shows the argument up to the bad byte only. */
    size_t bad = 0;
    long cp = 0;
    bool xml_ok = tco_xml_text_valid(arg, strlen(arg), &bad, &cp);
    const char *ctl = strpbrk(arg, "\t\r\n");
    if (xml_ok && ctl != NULL)
        bad = (size_t)(ctl - arg), cp = (unsigned char)*ctl;
    if (!xml_ok || ctl != NULL)
        return tco_diag_set(diag, TCO_ERR_USAGE, "--set %.*s...: %s at byte %zu; expected UTF-8 text without control "
                            "characters, U+FFFE or U+FFFF",
                            (int)tco_utf8_prefix(arg, bad < 60 ? bad : 60), arg,
                            cp < 0 ? "not valid UTF-8" : cp < 0x20 ? "a control character" : "a non-character",
                            bad + 1);
    snprintf(out->section, sizeof out->section, "%.*s", (int)(dot - arg), arg);
    snprintf(out->key, sizeof out->key, "%.*s", (int)(eq - dot - 1), dot + 1);
    const char *v = eq + 1;
    while (*v == ' ' || *v == '\t') /* as a value in a file: surrounding blanks are not part of it */
        v++;
    snprintf(out->value, sizeof out->value, "%s", v);
    for (char *p = out->value + strlen(out->value); p > out->value && (p[-1] == ' ' || p[-1] == '\t');)
        *--p = '\0';
    return TCO_OK;
}

static int casecmp_names(const void *a, const void *b)
{
    return tco_utf8_casecmp(*(const char *const *)a, *(const char *const *)b);
}

/* [model] tiers = FILE: the rows of per-tier inputs and lines are the sections of pricing/FILE.ini. */
static tco_error load_tiers(loader *ld)
{
    tco_model *m = ld->model;
    ld->tier_file = -1;
    const char *stem = tco_ini_get(ld->template_ini, "model", "tiers");
    if (stem == NULL)
        return TCO_OK;
    ld->tier_file = catalog_file_index(ld, stem);
    if (ld->tier_file < 0)
        return tco_diag_set(ld->diag, TCO_ERR_NOINPUT, "%s [model] tiers: catalog file pricing/%s.ini not found",
                            ld->template_ini->path, stem);
    const tco_ini *cat = ld->catalog[ld->tier_file];
    int n = tco_ini_section_count(cat);
    if (n <= 0)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: expected at least one section (one per tier), found none",
                            cat->path);
    m->tier_names = calloc((size_t)n, sizeof *m->tier_names);
    m->tier_path = tco_strdup(cat->path);
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
            e = tco_diag_set(ld->diag, TCO_ERR_DUPLICATE, "%s: tiers [%s] and [%s] differ only in case; a lookup of "
                             "the tier code (MATCH, as the workbook does) cannot tell them apart: rename one",
                             cat->path, sorted[i - 1], sorted[i]);
    free(sorted);
    return e;
}

/* ---- inputs ---------------------------------------------------------------------- */

/* Find the value of `from = A.B`; sets the INI it came from, its section and a display section. */
static tco_error resolve_from(loader *ld, const char *input_section, const char *from, const tco_ini **ini,
                              char *section, size_t section_size, char *shown, size_t shown_size,
                              const char **key)
{
    const char *dot = strchr(from, '.');
    if (dot == NULL || dot == from || dot[1] == '\0')
        return tco_diag_set(ld->diag, TCO_ERR_INI,
                            "%s [%s] from: expected SECTION.KEY (e.g. facility.pue or card.price), found '%s'",
                            ld->template_ini->path, input_section, from);
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
    return tco_diag_set(ld->diag, TCO_ERR_INI,
                        "%s [%s] from: no section [%s] in the scenario or in pricing/*.ini (from = '%s')",
                        ld->template_ini->path, input_section, section, from);
}

static const char *const input_keys[] = {"label", "unit", "from", "min", "max", "integer", "format", "note",
                                         "structural", "per", "type", "values", "values_from", "default", "quote",
                                         "quote_qty", NULL};

/* A yes/no key of template section @p s; absent means no. */
static tco_error yes_no(loader *ld, const ini_sec *s, const char *key, bool *out)
{
    const char *section = s->name;
    const char *v = sec_get(s, key);
    *out = false;
    if (v == NULL || strcasecmp(v, "no") == 0)
        return TCO_OK;
    if (strcasecmp(v, "yes") == 0) {
        *out = true;
        return TCO_OK;
    }
    return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] %s: expected yes or no, found '%s'",
                        ld->template_ini->path, section, key, v);
}

/* Parse and check one input value @p text found at src [shown] key.  Numbers: strict, within
 * min/max, whole if integer.  Text: one of the choices when the input lists them (stored in
 * the choice's spelling).  On success sets *number or *text_out (heap). */
static tco_error input_value(loader *ld, const tco_item *it, const char *place, const char *text, double *number,
                             char **text_out)
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
                tco_error e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s: expected one of %s, found '%s'", place,
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

/* Values of a per-tier input: `from = tier.KEY` read from every tier row (the scenario's
 * [ROW] KEY overrides the catalog's); a row without the key takes `default` if given. */
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

/* Where a value came from, for messages: "--set ARG" when a --set gave it, else "FILE [SHOWN] KEY"
 * (@p sec is the section looked up, @p shown the section as the message names it). */
static void value_place(loader *ld, const tco_ini *src, const char *sec, const char *shown, const char *key,
                        char *out, size_t size)
{
    int ov = src == &ld->scenario ? override_of(ld, sec, key) : -1;
    if (ov >= 0)
        tco_str_cat(out, size, "--set ", ld->overrides[ov].arg, NULL);
    else
        tco_str_cat(out, size, src->path, " [", shown, "] ", key, NULL);
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

/* The suffixes of the keys beside a value KEY: its basis, range, distribution and the range's basis. */
static const char *const beside_suffixes[] = {"_source", "_range", "_dist", "_range_source", NULL};

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
    char k_range[BESIDE_KEY_MAX], k_dist[BESIDE_KEY_MAX], k_basis[BESIDE_KEY_MAX], place[700];
    tco_str_cat(k_range, sizeof k_range, key, "_range", NULL);
    tco_str_cat(k_dist, sizeof k_dist, key, "_dist", NULL);
    tco_str_cat(k_basis, sizeof k_basis, key, "_range_source", NULL);
    const char *keys[] = {k_range, k_dist, k_basis};
    for (int k = 0; k < 3; k++)
        if (tco_ini_get_in(&ld->scenario, ss, keys[k]) != NULL && !mark_consumed(ld, sec, keys[k]))
            return oom(ld);
    int l_range = layer, l_other = layer;
    const tco_ini *s_range = NULL, *s_other = NULL;
    const char *range = key_at_layer(ld, cat, sec, ss, cs, k_range, layer, &l_range, &s_range);
    int min = range ? l_range : layer; /* a distribution or basis given for this range, or nearer */
    const char *dist = key_at_layer(ld, cat, sec, ss, cs, k_dist, min, &l_other, &s_other);
    const tco_ini *s_dist = s_other;
    const char *basis = key_at_layer(ld, cat, sec, ss, cs, k_basis, min, &l_other, &s_other);
    if (range == NULL) {
        if (dist == NULL && basis == NULL)
            return TCO_OK;
        value_place(ld, dist ? s_dist : s_other, sec, shown, dist ? k_dist : k_basis, place, sizeof place);
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: a %s needs a range beside the value: expected %s = LOW, HIGH "
                            "in the same place (a range describes the value it is given with)", place,
                            dist ? "distribution" : "range basis", k_range);
    }
    value_place(ld, s_range, sec, shown, k_range, place, sizeof place);
    if (!number)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: input %s (%s) is text; a range is for a number input", place,
                            it->name, it->label);
    if (it->structural)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: input %s fixes the workbook's shape (structural) and takes no "
                            "range", place, it->name);
    tco_dist d = TCO_DIST_TRIANGULAR;
    if (dist != NULL && (d = tco_dist_parse(dist)) == TCO_DIST_NONE) {
        char dplace[700];
        value_place(ld, s_dist, sec, shown, k_dist, dplace, sizeof dplace);
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: expected triangular, uniform, pert, normal or lognormal, "
                            "found '%s'", dplace, dist);
    }
    tco_error e = tco_range_parse(it, place, range, point, d, out, ld->diag);
    if (e != TCO_OK)
        return e;
    out->by_set = l_range == LAYER_SET;
    if ((out->given = tco_strdup(place)) == NULL || (basis && basis[0] && (out->basis = tco_strdup(basis)) == NULL))
        return oom(ld);
    return TCO_OK;
}

static tco_error load_tier_input(loader *ld, tco_item *it, const ini_sec *ts, const char *from, bool text)
{
    const tco_ini *t = ld->template_ini;
    const char *section = ts->name;
    tco_model *m = ld->model;
    if (strncasecmp(from, "tier.", 5) != 0 || from[5] == '\0')
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] from: a per-tier input reads tier.KEY, found '%s'",
                            t->path, section, from);
    if (m->n_tiers == 0)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] per: per = tier needs [model] tiers = FILE", t->path,
                            section);
    const char *key = from + 5;
    const char *def = sec_get(ts, "default");
    it->tiers = calloc((size_t)m->n_tiers, sizeof *it->tiers);
    if (text)
        it->tier_texts = calloc((size_t)m->n_tiers, sizeof *it->tier_texts);
    if (it->tiers == NULL || (text && it->tier_texts == NULL))
        return oom(ld);
    const tco_ini *cat = ld->catalog[ld->tier_file];
    tco_strbuf notes = {0}, bases = {0};
    size_t untold = 0, unbased = 0; /* rows past the note budgets */
    char basis_key[BESIDE_KEY_MAX];
    tco_str_cat(basis_key, sizeof basis_key, key, "_source", NULL);
    tco_error e = TCO_OK;
    for (int r = 0; r < m->n_tiers && e == TCO_OK; r++) {
        const char *row = m->tier_names[r];
        const tco_ini *src = tco_ini_get(&ld->scenario, row, key) ? &ld->scenario : cat;
        const char *value = tco_ini_get(src, row, key);
        /* Each row's basis (KEY_source), as a scalar input shows its own: the card's price basis
         * stays on the workbook now that card_price is looked up from this table. */
        const char *basis = value ? tco_ini_get(src, row, basis_key) : NULL;
        if (basis && basis[0])
            tier_note(&bases, &unbased, "%s%s: %s", bases.len ? "; " : "", row, basis);
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
        if (value == NULL) {
            if (def == NULL) {
                e = tco_diag_set(ld->diag, TCO_ERR_INI,
                                 "%s [%s] %s: expected a value (%s, input %s), found no such key (or give the "
                                 "template's [%s] a default)",
                                 cat->path, row, key, it->label, it->name, section);
                break;
            }
            value = def;
            tier_note(&notes, &untold, "%s%s: not in the catalog, %s", notes.len ? "; " : "", row, def);
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
            value_place(ld, src, row, row, key, place, sizeof place);
            e = input_value(ld, it, place, value, &it->tiers[r], text ? &it->tier_texts[r] : NULL);
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
    tco_strbuf b = {0};
    tco_strbuf_printf(&b, "%s, key %s of each tier", cat->path, key);
    if (untold)
        tco_strbuf_printf(&notes, "; %zu more rows not from the catalog (see the tier table)", untold);
    if (notes.len)
        tco_strbuf_printf(&b, " (%s)", tco_strbuf_str(&notes));
    if (unbased)
        tco_strbuf_printf(&bases, "; %zu more rows' bases in %s", unbased, cat->path);
    if (bases.len)
        tco_strbuf_printf(&b, ". Basis: %s", tco_strbuf_str(&bases));
    if (notes.failed || bases.failed)
        b.failed = true;
    tco_strbuf_free(&notes);
    tco_strbuf_free(&bases);
    const char *note = sec_get(ts, "note");
    if (note && note[0])
        tco_strbuf_printf(&b, ". %s", note);
    it->source = tco_strbuf_take(&b);
    return e != TCO_OK ? e : it->source ? TCO_OK : oom(ld);
}

/* Template section number @p index, an [input.NAME]. */
static tco_error load_input(loader *ld, int index)
{
    const tco_ini *t = ld->template_ini;
    const char *section = tco_ini_section_name(t, index);
    const ini_sec ts = {t, section, index};
    const char *name = section + strlen("input.");
    char where[600];
    tco_str_cat(where, sizeof where, t->path, " [", section, "]", NULL);
    tco_error e = tco_name_check(name, where, ld->diag);
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
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s per: an input is per = tier or has no per key, found '%s'",
                            where, per);
    const char *type = sec_get(&ts, "type");
    if (type != NULL && strcasecmp(type, "text") != 0 && strcasecmp(type, "number") != 0)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s type: expected number or text, found '%s'", where, type);
    bool text = type != NULL && strcasecmp(type, "text") == 0;
    if (tco_model_find(ld->model, name) >= 0)
        return tco_diag_set(ld->diag, TCO_ERR_DUPLICATE, "%s: name '%s' is defined twice", where, name);
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
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] max: expected a number >= min (%g), found %g", t->path,
                            section, it->min, it->max);
    if ((e = yes_no(ld, &ts, "integer", &it->integer)) != TCO_OK ||
        (e = yes_no(ld, &ts, "structural", &it->structural)) != TCO_OK)
        return e;
    const char *values = sec_get(&ts, "values");
    const char *values_from = sec_get(&ts, "values_from");
    if (values_from != NULL) {
        /* values_from = tier: one of the tier codes (the workbook's drop-down lists them). */
        if (!text || values != NULL)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s values_from: only a text input (type = text) without a "
                                "values key takes its values from the tier table", where);
        if (strcasecmp(values_from, "tier") != 0 || ld->model->n_tiers == 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s values_from: expected 'tier' (the codes of [model] tiers), "
                                "found '%s'%s", where, values_from,
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
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s values: only a text input (type = text) lists values",
                                where);
        int n = tco_split_list(values, &it->choices);
        if (n <= 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s values: expected a comma-separated list, found '%s'", where,
                                values);
        it->n_choices = (size_t)n;
        /* The list becomes the cell's drop-down: Excel's list formula is "a,b,c", at most 255
         * characters, and libxlsxwriter copies it into 255 bytes; a '"' would end it early. */
        size_t bytes = 0;
        for (int c = 0; c < n; c++) {
            bytes += strlen(it->choices[c]) + (c ? 1 : 0);
            if (strchr(it->choices[c], '"') != NULL)
                return tco_diag_set(ld->diag, TCO_ERR_INI, "%s values: item '%s' holds '\"', which a drop-down list "
                                    "cannot show", where, it->choices[c]);
        }
        if (bytes > 255)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s values: the list is %zu bytes as the drop-down's "
                                "\"a,b,c\" text; at most 255 fit (Excel's limit; a character outside ASCII takes "
                                "2 to 4 bytes)", where, bytes);
    }
    const char *fmt = sec_get(&ts, "format");
    it->format = format_for_unit(unit, it->integer);
    if (fmt != NULL && (e = parse_format(ld, section, fmt, &it->format)) != TCO_OK)
        return e;
    const char *quote = sec_get(&ts, "quote");
    const char *quote_qty = sec_get(&ts, "quote_qty");
    if ((quote == NULL) != (quote_qty == NULL) || (quote && (quote[0] == '\0' || text)))
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: a quoted price needs both quote = ITEM and quote_qty = NAME "
                            "(a number input)", where);
    if (per != NULL) {
        /* A per-tier price is quoted row by row: quote = tier. */
        if (quote != NULL && strcasecmp(quote, "tier") != 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s quote: a per-tier input is quoted with quote = tier, found '%s'",
                                where, quote);
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
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s from: cannot resolve '%s'", where, from);
    const char *value = tco_ini_get(src, sec, key);
    const char *def = sec_get(&ts, "default");
    bool defaulted = false;
    if (value == NULL && def != NULL) {
        value = def; /* the template's default: noted in the source */
        defaulted = true;
    }
    if (value == NULL) {
        const char *near = tco_ini_near_key(src, sec, key);
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] %s: expected %s (%s, input %s), found no such key%s%s%s",
                            src->path, shown, key, text ? "a value" : "a number", label, name,
                            near ? " (the section has '" : "", near ? near : "", near ? "': a misspelling?)" : "");
    }
    int ov = src == &ld->scenario ? override_of(ld, sec, key) : -1;
    char place[700];
    value_place(ld, src, sec, shown, key, place, sizeof place);
    if ((e = input_value(ld, it, place, value, &it->value, text ? &it->text : NULL)) != TCO_OK)
        return e;
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
        tco_strbuf_append(&b, src->path);
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
    return TCO_OK;
}

/* ---- lines ------------------------------------------------------------------------ */

static const char *const line_keys[] = {"sheet", "label", "unit", "formula", "source", "per", "format", "total", "sum",
                                        "warning", "warning_if", "type", NULL};

/* Template section number @p index, a [line.NAME]. */
static tco_error load_line(loader *ld, int index)
{
    const tco_ini *t = ld->template_ini;
    const char *section = tco_ini_section_name(t, index);
    const ini_sec ts = {t, section, index};
    const char *name = section + strlen("line.");
    char where[600];
    tco_str_cat(where, sizeof where, t->path, " [", section, "]", NULL);
    tco_error e = tco_name_check(name, where, ld->diag);
    if (e == TCO_OK)
        e = check_keys(ld, &ts, line_keys);
    static const char *const required[] = {"sheet", "label", "unit", "formula", NULL};
    const char *v[4];
    if (e == TCO_OK)
        e = need_strings(ld, &ts, required, v);
    if (e != TCO_OK)
        return e;
    const char *sheet = v[0], *label = v[1], *unit = v[2], *formula = v[3];
    if ((e = check_unit(ld, t, section, unit)) != TCO_OK || (e = check_reserved(ld, t, section, name)) != TCO_OK)
        return e;
    const char *per = sec_get(&ts, "per");
    bool yearly = false, tiered = false, monthly = false;
    if (per != NULL) {
        yearly = strcasecmp(per, "year") == 0;
        tiered = strcasecmp(per, "tier") == 0;
        monthly = strcasecmp(per, "month") == 0;
        if (!yearly && !tiered && !monthly)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s per: expected 'year', 'month', 'tier' (or no key), found "
                                "'%s'", where, per);
        if (tiered && ld->model->n_tiers == 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s per: per = tier needs [model] tiers = FILE", where);
    }
    if (tco_model_find(ld->model, name) >= 0)
        return tco_diag_set(ld->diag, TCO_ERR_DUPLICATE, "%s: name '%s' is defined twice", where, name);
    if ((yearly || monthly) && strlen(name) > TCO_NAME_MAX_LEN - strlen("_total"))
        return tco_diag_set(ld->diag, TCO_ERR_BAD_NAME, "%s: per-year and per-month line names are limited to %zu "
                            "characters (tco adds '_total')", where, TCO_NAME_MAX_LEN - strlen("_total"));
    tco_item *it = add_item(ld, yearly    ? TCO_ITEM_YEARLY
                                : monthly ? TCO_ITEM_MONTHLY
                                : tiered  ? TCO_ITEM_TIER_LINE
                                          : TCO_ITEM_LINE,
                            name);
    if (it == NULL)
        return oom(ld);
    if (tiered && (it->tiers = calloc((size_t)ld->model->n_tiers, sizeof *it->tiers)) == NULL)
        return oom(ld);
    const char *source = sec_get(&ts, "source");
    tco_strbuf w = {0}; /* appended, not printed: once for each line */
    tco_strbuf_append(&w, where);
    tco_strbuf_append(&w, " formula");
    it->where = tco_strbuf_take(&w);
    if (it->where == NULL || (it->label = tco_strdup(label)) == NULL || (it->unit = tco_strdup(unit)) == NULL ||
        (it->sheet = tco_strdup(sheet)) == NULL || (it->source = tco_strdup(source ? source : "")) == NULL)
        return oom(ld);
    it->format = format_for_unit(unit, false);
    if ((e = yes_no(ld, &ts, "total", &it->emphasis)) != TCO_OK)
        return e;
    const char *sum = sec_get(&ts, "sum");
    if (sum != NULL) {
        if (!yearly && !monthly)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s sum: only a per-year or per-month line has a total", where);
        if (strcasecmp(sum, "no") == 0)
            it->no_total = true;
        else if (strcasecmp(sum, "yes") != 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s sum: expected yes or no, found '%s'", where, sum);
    }
    const char *fmt = sec_get(&ts, "format");
    if (fmt != NULL && (e = parse_format(ld, section, fmt, &it->format)) != TCO_OK)
        return e;
    const char *type = sec_get(&ts, "type");
    if (type != NULL && (strcasecmp(type, "text") != 0 || yearly || tiered || monthly))
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s type: expected text on a scalar line (or no key), found '%s'",
                            where, type);
    it->text_line = type != NULL;
    const char *warning = sec_get(&ts, "warning");
    if (warning != NULL && (yearly || tiered || monthly))
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s warning: only a scalar line (no per key) can warn", where);
    if (warning != NULL && warning[0] != '\0' && (it->warning = tco_strdup(warning)) == NULL)
        return oom(ld);
    if (sec_get(&ts, "warning_if") != NULL && it->warning == NULL)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s warning_if: needs a warning key beside it", where);
    return tco_formula_parse(formula, it->where, &it->formula, ld->diag);
}


/* A built-in name (year, tier, error_cells): no cell of its own to show on Summary or Compare. */
static bool builtin(const tco_item *it)
{
    return it->kind == TCO_ITEM_YEAR_INDEX || it->kind == TCO_ITEM_TIER_CODE || it->kind == TCO_ITEM_ERROR_COUNT ||
           it->kind == TCO_ITEM_MONTH_INDEX;
}

/* A scalar number item (input, line or per-year total), for warnings. */
static bool scalar_number(const tco_item *it)
{
    return tco_item_dim(it) == 0 && it->kind != TCO_ITEM_YEAR_INDEX && !it->text_line &&
           !(it->kind == TCO_ITEM_INPUT && it->text != NULL);
}

/* Add the built-in name @p name (what it is: @p what), which no input or line may take. */
static tco_error add_builtin(loader *ld, tco_item_kind kind, const char *name, const char *what, const char *label,
                             const char *unit, const char *source)
{
    if (tco_model_find(ld->model, name) >= 0)
        return tco_diag_set(ld->diag, TCO_ERR_DUPLICATE, "%s: '%s' is built in (%s) and cannot be an input or line "
                            "name", ld->template_ini->path, name, what);
    tco_item *it = add_item(ld, kind, name);
    if (it == NULL || (it->label = tco_strdup(label)) == NULL || (it->unit = tco_strdup(unit)) == NULL ||
        (source && (it->source = tco_strdup(source)) == NULL))
        return oom(ld);
    return TCO_OK;
}

/* [model] KEY_NAME = KEY:LINE, ...: the arrays of a JSON object (cash_flow, budget), each a line of
 * @p kind (per-year or per-month); @p reserved keys name the object's own fields. */
static tco_error load_key_lines(loader *ld, const char *key_name, tco_item_kind kind, const char *const *reserved,
                                char ***keys, int **items, size_t *n_out)
{
    tco_model *m = ld->model;
    const tco_ini *t = ld->template_ini;
    const char *spec = tco_ini_get(t, "model", key_name);
    if (spec == NULL)
        return TCO_OK;
    char **list;
    int n = tco_split_list(spec, &list);
    if (n <= 0)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] %s: expected KEY:LINE, ... found '%s'", t->path,
                            key_name, spec);
    *keys = calloc((size_t)n, sizeof **keys);
    *items = calloc((size_t)n, sizeof **items);
    tco_error e = *keys && *items ? TCO_OK : oom(ld);
    for (int i = 0; i < n && e == TCO_OK; i++) {
        char *colon = strchr(list[i], ':');
        int idx = colon ? tco_model_find(m, colon + 1) : -1;
        if (colon == NULL || colon == list[i] || strspn(list[i], "abcdefghijklmnopqrstuvwxyz_") != (size_t)(colon - list[i]))
            e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] %s: expected KEY:LINE with KEY in a-z and _, found "
                             "'%s'", t->path, key_name, list[i]);
        else if (idx < 0 || m->items[idx].kind != kind || m->items[idx].on_schedule)
            e = tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME, "%s [model] %s: '%s' is not a %s line%s", t->path,
                             key_name, colon + 1, kind == TCO_ITEM_MONTHLY ? "per-month" : "per-year",
                             idx >= 0 && m->items[idx].on_schedule ? " of the analysis period (it is on the schedule "
                                                                     "sheet, which runs past Year N)" : "");
        else {
            *colon = '\0';
            for (size_t k = 0; k < *n_out && e == TCO_OK; k++)
                if (strcmp((*keys)[k], list[i]) == 0)
                    e = tco_diag_set(ld->diag, TCO_ERR_DUPLICATE, "%s [model] %s: key '%s' is given twice", t->path,
                                     key_name, list[i]);
            for (const char *const *r = reserved; e == TCO_OK && *r; r++)
                if (strcmp(list[i], *r) == 0)
                    e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] %s: '%s' is a key of its own and cannot "
                                     "name a line", t->path, key_name, list[i]);
            if (e == TCO_OK && ((*keys)[*n_out] = tco_strdup(list[i])) == NULL)
                e = oom(ld);
            if (e == TCO_OK)
                (*items)[(*n_out)++] = idx;
        }
    }
    tco_free_list(list, n);
    return e;
}

/* [model] cash_flow = KEY:LINE, ...: the JSON cash_flow object's arrays, each a per-year line. */
static tco_error load_cash_flow(loader *ld)
{
    static const char *const reserved[] = {"periods", NULL};
    tco_model *m = ld->model;
    return load_key_lines(ld, "cash_flow", TCO_ITEM_YEARLY, reserved, &m->cash_flow_keys, &m->cash_flow_items,
                          &m->n_cash_flow);
}

/* The months of the per-month lines: [model] budget_start names a text input YYYY-MM (Month 1),
 * fiscal_year_start an input 1..12 (the fiscal year's first month); [model] budget = KEY:LINE, ...
 * and budget_total = NAME give the JSON budget object. */
static tco_error load_budget(loader *ld)
{
    tco_model *m = ld->model;
    const tco_ini *t = ld->template_ini;
    m->budget_total = -1;
    m->start_year = 2000;
    m->start_month = 1;
    m->fiscal_start_month = 1;
    const char *start = tco_ini_get(t, "model", "budget_start");
    if (start != NULL) {
        int i = tco_model_find(m, start);
        const char *v = i >= 0 && m->items[i].kind == TCO_ITEM_INPUT ? m->items[i].text : NULL;
        int y = 0, mo = 0;
        char tail = 0;
        if (v == NULL)
            return tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME, "%s [model] budget_start: expected the name of a text "
                                "input (YYYY-MM), found '%s'", t->path, start);
        if (strlen(v) != 7 || sscanf(v, "%4d-%2d%c", &y, &mo, &tail) != 2 || v[4] != '-' ||
            strspn(v, "0123456789") != 4 || strspn(v + 5, "0123456789") != 2 || y < 1900 || y > 9999 || mo < 1 ||
            mo > 12)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: expected the first month as YYYY-MM (e.g. 2027-01), found "
                                "'%s'", m->items[i].source, v);
        /* The last month, and the last fiscal year's label, must stay within four-digit years. */
        long last = (long)y * 12 + (mo - 1) + m->n_months; /* one past the last month; fiscal year may end a year on */
        if (last / 12 > 9998)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: the budget's %d months from %s would run past 9998-12 "
                                "(months and fiscal years are written with four-digit years)", m->items[i].source,
                                m->n_months, v);
        m->start_year = y;
        m->start_month = mo;
    }
    const char *fy = tco_ini_get(t, "model", "fiscal_year_start");
    if (fy != NULL) {
        int i = tco_model_find(m, fy);
        if (i < 0 || m->items[i].kind != TCO_ITEM_INPUT || m->items[i].text != NULL || !m->items[i].integer ||
            m->items[i].value < 1 || m->items[i].value > 12)
            return tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME, "%s [model] fiscal_year_start: expected the name of a "
                                "whole-number input from 1 to 12, found '%s'", t->path, fy);
        m->fiscal_start_month = (int)m->items[i].value;
    }
    static const char *const reserved[] = {"months", "total", NULL};
    tco_error e = load_key_lines(ld, "budget", TCO_ITEM_MONTHLY, reserved, &m->budget_keys, &m->budget_items,
                                 &m->n_budget);
    if (e != TCO_OK)
        return e;
    const char *total = tco_ini_get(t, "model", "budget_total");
    if (total != NULL) {
        m->budget_total = tco_model_find(m, total);
        if (m->budget_total < 0 || tco_item_dim(&m->items[m->budget_total]) != 0 || builtin(&m->items[m->budget_total]))
            return tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME, "%s [model] budget_total: expected the name of a "
                                "scalar line or total, found '%s'", t->path, total);
    }
    return TCO_OK;
}

/* Resolve each line's warning_if and check that every {NAME} in its warning names a scalar item. */
static tco_error bind_warnings(loader *ld)
{
    tco_model *m = ld->model;
    const tco_ini *t = ld->template_ini;
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        it->warning_if = -1;
        if (it->warning == NULL)
            continue;
        char section[160];
        snprintf(section, sizeof section, "line.%s", it->name);
        const char *cond = tco_ini_get(t, section, "warning_if");
        if (cond != NULL) {
            int c = tco_model_find(m, cond);
            if (c < 0 || !scalar_number(&m->items[c]))
                return tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME,
                                    "%s [%s] warning_if: expected the name of a number input or scalar line, found '%s'",
                                    t->path, section, cond);
            it->warning_if = c;
        }
        for (const char *p = it->warning; (p = strchr(p, '{')) != NULL;) {
            const char *end = strchr(p, '}');
            char name[TCO_NAME_MAX_LEN + 1];
            size_t n = end ? (size_t)(end - p - 1) : 0;
            if (end == NULL || n == 0 || n > TCO_NAME_MAX_LEN)
                return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] warning: expected {NAME} (a name of at most %d "
                                    "characters in braces) at '%.*s'", t->path, section, TCO_NAME_MAX_LEN,
                                    (int)tco_utf8_prefix(p, 40), p);
            memcpy(name, p + 1, n);
            name[n] = '\0';
            int idx = tco_model_find(m, name);
            if (idx < 0 || !(scalar_number(&m->items[idx]) || m->items[idx].kind == TCO_ITEM_INPUT))
                return tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME,
                                    "%s [%s] warning: {%s} is not the name of an input or scalar line", t->path,
                                    section, name);
            p = end + 1;
        }
    }
    return TCO_OK;
}

/* ---- the loader ----------------------------------------------------------------------------- */

/* [model] shared = SEC, SEC, ...: the sections of the site and finance inputs (pricing/site.ini's facility,
 * finance, tax, staffing) that a comparison writes once for every option (tco_item.site_wide). */
static tco_error load_shared(loader *ld)
{
    const tco_ini *t = ld->template_ini;
    const char *list = tco_ini_get(t, "model", "shared");
    if (list == NULL)
        return TCO_OK;
    ld->n_shared = tco_split_list(list, &ld->shared);
    if (ld->n_shared > 0)
        return TCO_OK;
    ld->n_shared = 0;
    return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] shared: expected a comma-separated list of the sections "
                        "of from keys (facility, finance, ...), found '%s'", t->path, list);
}

/* Each section [model] shared names must be the section of some input's from key (after
 * collect_from_sections()). */
static tco_error check_shared(loader *ld)
{
    for (int k = 0; k < ld->n_shared; k++) {
        char lower[256];
        snprintf(lower, sizeof lower, "%s", ld->shared[k]);
        for (char *c = lower; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (strchr(lower, '.') != NULL || !name_set_has(&ld->from_sections, lower))
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] shared: '%s' is not the section of any input's "
                                "from key (from = SECTION.KEY)", ld->template_ini->path, ld->shared[k]);
    }
    return TCO_OK;
}

/* [model] schedule = SHEET:INPUT: the per-year lines of SHEET run from Year first_year to Year
 * max(N, INPUT) (tco_model.schedule_sheet), so that a depreciation schedule reaches the end of a book life
 * longer than the analysis period.  INPUT is a whole-number scalar input fixed by the scenario
 * (structural = yes: it sets columns, as `years` does) of 1 to 100.  After the years are known, before the
 * per-year values are allocated. */
static tco_error load_schedule(loader *ld)
{
    tco_model *m = ld->model;
    const tco_ini *t = ld->template_ini;
    m->n_schedule_periods = m->n_periods;
    const char *spec = tco_ini_get(t, "model", "schedule");
    if (spec == NULL)
        return TCO_OK;
    const char *colon = strchr(spec, ':');
    char sheet[256];
    int in = -1;
    if (colon != NULL && (size_t)(colon - spec) < sizeof sheet) {
        snprintf(sheet, sizeof sheet, "%.*s", (int)(colon - spec), spec);
        char *end = sheet + strlen(sheet);
        while (end > sheet && end[-1] == ' ')
            *--end = '\0';
        const char *name = colon + 1;
        while (*name == ' ')
            name++;
        in = tco_model_find(m, name);
    }
    if (in < 0)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] schedule: expected SHEET:INPUT (a sheet of per-year "
                            "lines and the input giving its last year, e.g. Depreciation:book_life_years), found '%s'",
                            t->path, spec);
    const tco_item *len = &m->items[in];
    if (len->kind != TCO_ITEM_INPUT || !len->integer || !len->structural || len->text != NULL)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] schedule: '%s' sets the schedule's columns, so it "
                            "must be a whole-number input fixed by the scenario (integer = yes, structural = yes)",
                            t->path, len->name);
    if (!(len->value >= 1 && len->value <= 100))
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: expected 1 to 100 years for the schedule sheet, found %g",
                            len->source, len->value);
    size_t on = 0;
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        if (it->kind == TCO_ITEM_YEARLY && it->sheet && tco_utf8_casecmp(it->sheet, sheet) == 0) {
            it->on_schedule = true;
            if (it->partner >= 0)
                m->items[it->partner].on_schedule = true;
            on++;
        }
    }
    if (on == 0)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] schedule: no per-year line is on sheet '%s'", t->path,
                            sheet);
    int last = (int)len->value > m->n_years ? (int)len->value : m->n_years;
    m->n_schedule_periods = last + 1 - m->first_year;
    return TCO_OK;
}

static const char *const model_keys[] = {"title", "sheets", "summary", "refs", "shared", "schedule", "capex", "opex", "tco", "first_year",
                                         "cash_flow", "capex_prices", "budget_start", "fiscal_year_start", "budget", "budget_total",
                                         "per_card_year", "tiers", "summary_*", "checks", "compare", "compare_*", "npv",
                                         "unit_cost", "unit_cost_*", NULL};

static tco_error role(loader *ld, const char *key, int *out)
{
    *out = -1;
    const char *v = tco_ini_get(ld->template_ini, "model", key);
    if (v == NULL)
        return TCO_OK;
    *out = tco_model_find(ld->model, v);
    if (*out >= 0 && builtin(&ld->model->items[*out]))
        *out = -1;
    if (*out < 0)
        return tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME, "%s [model] %s: no input or line named '%s'",
                            ld->template_ini->path, key, v);
    if (ld->model->items[*out].on_schedule)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] %s: '%s' is on the schedule sheet, which runs past "
                            "Year N; name a line of the analysis period", ld->template_ini->path, key, v);
    return TCO_OK;
}


/* [chart.NAME] type = column_stacked | line | pie, title, series = names. */
static tco_error load_charts(loader *ld)
{
    static const char *const chart_keys[] = {"type", "title", "series", NULL};
    tco_model *m = ld->model;
    const tco_ini *t = ld->template_ini;
    for (int i = 0; i < tco_ini_section_count(t); i++) {
        const char *sec = tco_ini_section_name(t, i);
        if (strncmp(sec, "chart.", 6) != 0)
            continue;
        const ini_sec cs = {t, sec, i};
        tco_error e = check_keys(ld, &cs, chart_keys);
        static const char *const required[] = {"type", "title", "series", NULL};
        const char *v[3];
        if (e == TCO_OK)
            e = need_strings(ld, &cs, required, v);
        if (e != TCO_OK)
            return e;
        const char *type = v[0], *title = v[1], *series = v[2];
        tco_chart c = {0};
        if (strcasecmp(type, "column_stacked") == 0)
            c.type = TCO_CHART_COLUMN_STACKED;
        else if (strcasecmp(type, "line") == 0)
            c.type = TCO_CHART_LINE;
        else if (strcasecmp(type, "pie") == 0)
            c.type = TCO_CHART_PIE;
        else
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] type: expected column_stacked, line or pie, found '%s'",
                                t->path, sec, type);
        char **list;
        int n = tco_split_list(series, &list);
        if (n <= 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] series: expected a comma-separated list, found '%s'",
                                t->path, sec, series);
        if (n > TCO_MAX_CHART_SERIES) {
            tco_free_list(list, n);
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] series: %d series; a chart holds at most %d (Excel's "
                                "limit)", t->path, sec, n, TCO_MAX_CHART_SERIES);
        }
        tco_chart *grown = realloc(m->charts, (m->n_charts + 1) * sizeof *grown);
        c.series = calloc((size_t)n, sizeof *c.series);
        c.title = tco_strdup(title);
        if (grown)
            m->charts = grown;
        if (grown == NULL || c.series == NULL || c.title == NULL) {
            free(c.series);
            free(c.title);
            tco_free_list(list, n);
            return oom(ld);
        }
        m->charts[m->n_charts++] = c;
        tco_chart *ch = &m->charts[m->n_charts - 1];
        for (int k = 0; k < n && e == TCO_OK; k++) {
            int idx = tco_model_find(m, list[k]);
            bool yearly = idx >= 0 && m->items[idx].kind == TCO_ITEM_YEARLY;
            bool scalar = idx >= 0 && tco_item_dim(&m->items[idx]) == 0 && m->items[idx].text == NULL;
            if (idx < 0 || (ch->type == TCO_CHART_PIE ? !scalar : !yearly))
                e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] series: expected %s, found '%s'", t->path, sec,
                                 ch->type == TCO_CHART_PIE ? "names of scalar numbers for a pie"
                                                           : "names of per-year lines",
                                 list[k]);
            else
                ch->series[ch->n_series++] = idx;
        }
        tco_free_list(list, n);
        if (e != TCO_OK)
            return e;
    }
    return TCO_OK;
}

/* A sheet name every application reads the same way in a reference: starts
 * with a letter; letters (any script), digits, spaces, '-', '_'; not readable
 * as a cell reference; not one of the built-in sheets.  (libxlsxwriter writes
 * print titles without quoting, so 2024!$4:$4 must never be needed.) */
static bool sheet_name_ok(const char *nm)
{
    /* 29 UTF-16 units, as Excel counts (an emoji is 2): Excel allows 31, and a comparison
     * prefixes "A ".  No "_xHHHH_", which Excel would decode in the name. */
    if (tco_utf16_units(nm) == 0 || tco_utf16_units(nm) > 29 || tco_xlsx_text_units(nm) != tco_utf16_units(nm))
        return false;
    /* tco's own sheets, and History, which Excel reserves for change tracking. */
    static const char *const builtin[] = {"Summary", "Inputs", "Quotes", "Charts", "Conventions", "Compare", "History"};
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (strcasecmp(nm, builtin[i]) == 0)
            return false;
    if (!(isalpha((unsigned char)nm[0]) || (unsigned char)nm[0] >= 0x80))
        return false;
    for (const char *p = nm; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == ' ' || *p == '-' || *p == '_' || (unsigned char)*p >= 0x80))
            return false;
    return !tco_looks_like_reference(nm);
}

/* Every line names a listed sheet ([model] sheets = @p sheets, as written); the lines of a sheet are all
 * scalar, all per year or all per tier; each item takes its sheet's listed spelling.  @p sheet_of: each
 * item's sheet (-1: none of them). */
static tco_error check_sheets(loader *ld, const char *sheets, const int *sheet_of)
{
    tco_model *m = ld->model;
    const tco_ini *t = ld->template_ini;
    static const char *const per_words[] = {"no per key", "per = year", "per = tier", "per = month"};
    for (size_t s = 0; s < m->n_sheets; s++) {
        int first = -1;
        for (size_t i = 0; i < m->n_items; i++) {
            const tco_item *it = &m->items[i];
            if (it->sheet == NULL || it->kind == TCO_ITEM_TOTAL || sheet_of[i] != (int)s)
                continue;
            if (first < 0)
                first = (int)i;
            else if (tco_item_dim(it) != tco_item_dim(&m->items[first]))
                return tco_diag_set(ld->diag, TCO_ERR_INI,
                                    "%s [line.%s] sheet: sheet '%s' holds lines with %s (e.g. %s), so every line on "
                                    "it needs %s",
                                    t->path, it->name, m->sheets[s].name, per_words[tco_item_dim(&m->items[first])],
                                    m->items[first].name, per_words[tco_item_dim(&m->items[first])]);
        }
        m->sheets[s].yearly = first >= 0 && tco_item_dim(&m->items[first]) == 1;
        m->sheets[s].tiered = first >= 0 && tco_item_dim(&m->items[first]) == 2;
        m->sheets[s].monthly = first >= 0 && tco_item_dim(&m->items[first]) == 3;
        m->sheets[s].schedule = first >= 0 && m->items[first].on_schedule;
        /* A per-tier sheet has a column per line: Excel's 16,384 columns, less the label columns. */
        size_t columns = 0;
        for (size_t i = 0; i < m->n_items && m->sheets[s].tiered; i++)
            if (m->items[i].kind == TCO_ITEM_TIER_LINE && sheet_of[i] == (int)s && ++columns > TCO_MAX_TIER_COLUMNS)
                return tco_diag_set(ld->diag, TCO_ERR_INI,
                                    "%s [line.%s] sheet: sheet '%s' would hold more than %d per-tier lines, one "
                                    "column each (Excel has 16,384 columns); put the rest on another sheet",
                                    t->path, m->items[i].name, m->sheets[s].name, TCO_MAX_TIER_COLUMNS);
    }
    /* The tier table on Inputs has a column per per-tier input. */
    size_t tier_inputs = 0;
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].kind == TCO_ITEM_TIER_INPUT && ++tier_inputs > TCO_MAX_TIER_COLUMNS)
            return tco_diag_set(ld->diag, TCO_ERR_INI,
                                "%s [input.%s]: more than %d per-tier inputs, one column each in the tier table "
                                "(Excel has 16,384 columns)",
                                t->path, m->items[i].name, TCO_MAX_TIER_COLUMNS);
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        if (it->sheet == NULL)
            continue;
        if (sheet_of[i] < 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [line.%s] sheet: expected one of [model] sheets (%s), found '%s'",
                                t->path, it->name, sheets, it->sheet);
        const char *listed = m->sheets[sheet_of[i]].name;
        if (strcmp(it->sheet, listed) == 0)
            continue; /* spelt as listed already */
        free(it->sheet);
        it->sheet = tco_strdup(listed); /* canonical spelling */
        if (it->sheet == NULL)
            return oom(ld);
    }
    return TCO_OK;
}

static tco_error load_sheets_and_summary(loader *ld)
{
    tco_model *m = ld->model;
    const tco_ini *t = ld->template_ini;
    const char *sheets;
    const ini_sec model = sec_named(t, "model");
    tco_error e = need_string(ld, &model, "sheets", &sheets);
    if (e != TCO_OK)
        return e;
    char **list;
    int n = tco_split_list(sheets, &list);
    if (n < 0)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] sheets: expected a comma-separated list, found '%s'",
                            t->path, sheets);
    m->sheets = calloc((size_t)n, sizeof *m->sheets);
    if (m->sheets == NULL) {
        tco_free_list(list, n);
        return oom(ld);
    }
    for (int i = 0; i < n; i++) {
        m->sheets[i].name = list[i];
        list[i] = NULL;
        m->n_sheets++;
        const char *nm = m->sheets[i].name;
        if (!sheet_name_ok(nm))
            e = tco_diag_set(ld->diag, TCO_ERR_INI,
                             "%s [model] sheets: '%s' cannot be a sheet name (expected at most 29 letters, digits, "
                             "spaces, '-' or '_', counted as Excel does (a character beyond U+FFFF, such as an "
                             "emoji, counts 2), starting with a letter, not a cell reference such as A1, no "
                             "'_xHHHH_', and not Summary, Inputs, Quotes, Charts or Compare, which are built in, "
                             "or History, which Excel reserves)",
                             t->path, nm);
        for (int j = 0; j < i && e == TCO_OK; j++)
            if (tco_utf8_casecmp(m->sheets[j].name, nm) == 0) /* Excel: case-insensitive in any script */
                e = tco_diag_set(ld->diag, TCO_ERR_DUPLICATE, "%s [model] sheets: '%s' is listed twice", t->path, nm);
    }
    tco_free_list(list, n);
    if (e != TCO_OK)
        return e;
    /* Each item's sheet among them, found once (-1: none), for the checks below, which go sheet by sheet:
     * by strcmp() when spelt as listed (most), else by tco_utf8_casecmp(), Excel's comparison, under
     * which the listed sheets all differ (so at most one matches).  Was a comparison per sheet and item
     * in each of three loops: 100 copies of the template's lines made that 160M instructions. */
    int *sheet_of = malloc((m->n_items ? m->n_items : 1) * sizeof *sheet_of);
    if (sheet_of == NULL)
        return oom(ld);
    for (size_t i = 0; i < m->n_items; i++) {
        const char *sheet = m->items[i].sheet;
        sheet_of[i] = -1;
        for (size_t s = 0; sheet && s < m->n_sheets && sheet_of[i] < 0; s++)
            if (strcmp(sheet, m->sheets[s].name) == 0)
                sheet_of[i] = (int)s;
        for (size_t s = 0; sheet && s < m->n_sheets && sheet_of[i] < 0; s++)
            if (tco_utf8_casecmp(sheet, m->sheets[s].name) == 0)
                sheet_of[i] = (int)s;
    }
    e = check_sheets(ld, sheets, sheet_of);
    free(sheet_of);
    if (e != TCO_OK)
        return e;
    if ((e = load_charts(ld)) != TCO_OK)
        return e;
    if ((e = tco_conventions_load(m, t, ld->diag)) != TCO_OK)
        return e;
    /* Compare sheet rows: [model] compare, then compare_KIND for the scenario's kind. */
    char ckey[300] = "";
    if (m->kind)
        snprintf(ckey, sizeof ckey, "compare_%s", m->kind);
    const char *ckeys[2] = {"compare", ckey};
    for (int k = 0; k < 2; k++) {
        const char *compare = ckeys[k][0] ? tco_ini_get(t, "model", ckeys[k]) : NULL;
        if (compare == NULL)
            continue;
        n = tco_split_list(compare, &list);
        if (n < 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] %s: expected a comma-separated list, found '%s'",
                                t->path, ckeys[k], compare);
        int *grown = realloc(m->compare, (m->n_compare + (size_t)n) * sizeof *grown);
        if (grown)
            m->compare = grown;
        for (int i = 0; i < n && e == TCO_OK; i++) {
            int idx = tco_model_find(m, list[i]);
            if (grown == NULL)
                e = oom(ld);
            else if (idx < 0 || tco_item_dim(&m->items[idx]) != 0 || m->items[idx].text != NULL ||
                     m->items[idx].text_line || builtin(&m->items[idx]))
                e = tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME,
                                 "%s [model] compare: expected the name of a scalar number, found '%s'", t->path, list[i]);
            else
                m->compare[m->n_compare++] = idx;
        }
        tco_free_list(list, n);
        if (e != TCO_OK)
            return e;
    }
    const char *checks = tco_ini_get(t, "model", "checks");
    if (checks != NULL) {
        n = tco_split_list(checks, &list);
        if (n < 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] checks: expected a comma-separated list, found '%s'",
                                t->path, checks);
        m->checks = calloc((size_t)n, sizeof *m->checks);
        for (int i = 0; i < n && e == TCO_OK; i++) {
            int idx = tco_model_find(m, list[i]);
            if (m->checks == NULL)
                e = oom(ld);
            else if (idx < 0 || m->items[idx].kind != TCO_ITEM_LINE)
                e = tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME, "%s [model] checks: expected a scalar line, found '%s'",
                                 t->path, list[i]);
            else
                m->checks[m->n_checks++] = idx;
        }
        tco_free_list(list, n);
        if (e != TCO_OK)
            return e;
    }
    /* Summary: [model] summary, then summary_KIND for the scenario's kind. */
    char kind_key[300] = "";
    if (m->kind)
        snprintf(kind_key, sizeof kind_key, "summary_%s", m->kind);
    const char *keys[2] = {"summary", kind_key};
    for (int k = 0; k < 2 && e == TCO_OK; k++) {
        const char *summary = keys[k][0] ? tco_ini_get(t, "model", keys[k]) : NULL;
        if (summary == NULL)
            continue;
        n = tco_split_list(summary, &list);
        if (n < 0)
            return tco_diag_set(ld->diag, TCO_ERR_INI,
                                "%s [model] %s: expected a comma-separated list of names, found '%s'", t->path,
                                keys[k], summary);
        int *grown = realloc(m->summary, (m->n_summary + (size_t)n) * sizeof *grown);
        if (grown == NULL) {
            tco_free_list(list, n);
            return oom(ld);
        }
        m->summary = grown;
        for (int i = 0; i < n && e == TCO_OK; i++) {
            int idx = tco_model_find(m, list[i]);
            if (idx >= 0 && (builtin(&m->items[idx]) || tco_item_dim(&m->items[idx]) >= 2 ||
                             (m->items[idx].kind == TCO_ITEM_YEARLY && m->items[idx].on_schedule)))
                e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] %s: '%s' is %s, not one figure to show", t->path,
                                 keys[k], list[i],
                                 m->items[idx].kind == TCO_ITEM_YEAR_INDEX   ? "the year number of per-year lines"
                                 : m->items[idx].kind == TCO_ITEM_ERROR_COUNT ? "built in (the count behind a check)"
                                 : tco_item_dim(&m->items[idx]) == 3              ? "a per-month row"
                                 : tco_item_dim(&m->items[idx]) == 1
                                     ? "a row of the schedule sheet, past Year N (show its _total)"
                                     : "a per-tier column");
            else if (idx < 0)
                e = tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME, "%s [model] %s: no input or line named '%s'",
                                 t->path, keys[k], list[i]);
            else
                m->summary[m->n_summary++] = idx;
        }
        tco_free_list(list, n);
    }
    return e;
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

/* The suffix of @p key that makes it a key beside a value's range (_range, _dist, _range_source), or NULL. */
static const char *range_suffix(const char *key)
{
    size_t n = strlen(key);
    for (int x = 1; beside_suffixes[x]; x++) {
        size_t sl = strlen(beside_suffixes[x]);
        if (n > sl && strcmp(key + n - sl, beside_suffixes[x]) == 0)
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

/* True if @p key (@p kl bytes) is KEY_range, KEY_dist or KEY_range_source of a value KEY read in [@p sec]. */
static bool beside_value_read(const loader *ld, const char *sec, const char *key, size_t kl)
{
    for (int x = 1; beside_suffixes[x]; x++) {
        size_t sl = strlen(beside_suffixes[x]);
        if (kl > sl && strcmp(key + kl - sl, beside_suffixes[x]) == 0 && value_read(ld, sec, key, kl - sl))
            return true;
    }
    return false;
}

/* The catalog may hold keys no template reads, but not a range that belongs to nothing: in every catalog
 * section an input value was read from, each KEY_range, KEY_dist and KEY_range_source is one beside an
 * input's KEY, and no other key is within two edits of one (a misspelt range would otherwise be ignored
 * without a word).  The keys of values read and their KEY_source are not compared. */
static tco_error check_catalog_ranges(loader *ld)
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
                    for (int x = 1; read[j] && range_suffix(base) == NULL && beside_suffixes[x]; x++) {
                        char cand[300];
                        snprintf(cand, sizeof cand, "%s%s", base, beside_suffixes[x]);
                        size_t d = tco_edit_distance(key, cand);
                        if (d < best_d)
                            best_d = d, snprintf(best, sizeof best, "%s", cand);
                    }
                }
                const char *shown = tco_ini_section_as_written(cat, sec);
                if (suffix != NULL)
                    e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] %s: no input reads [%s] %.*s, so this range "
                                     "belongs to no value%s%s%s", cat->path, shown, key, shown, (int)(suffix - key), key,
                                     best[0] ? " (did you mean '" : "", best, best[0] ? "'?)" : "");
                else if (best[0])
                    e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] %s: unknown key (did you mean '%s'?)", cat->path,
                                     shown, key, best);
            }
            free(read);
            if (e != TCO_OK)
                return e;
        }
    }
    return TCO_OK;
}

/* Fill ld->from_sections from the template's from keys (a hash set, so that checking each scenario section
 * does not scan the whole template). */
static tco_error collect_from_sections(loader *ld)
{
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

/* Every key in the scenario must have been used: a typo must not fall back to a default silently. */
static tco_error check_scenario_consumed(loader *ld)
{
    static const char *const own[] = {"title", "template", "description", "kind", NULL};
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
                    return tco_diag_set(ld->diag, TCO_ERR_INI, "--set %s: no input reads section [%s]",
                                        ld->overrides[o].arg, ld->overrides[o].section);
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
                return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s]: unknown section (did you mean [%.*s]?)", s->path,
                                    sec, (int)(dot - best), best);
            }
            return tco_diag_set(ld->diag, TCO_ERR_INI,
                                "%s [%s]: unknown section; the template %s reads nothing from it", s->path, sec,
                                ld->template_ini->path);
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
                for (int x = -1; strncasecmp(from, prefix, sl) == 0 && from[sl] == '.' && (x < 0 || beside_suffixes[x]);
                     x++) {
                    char cand[300];
                    snprintf(cand, sizeof cand, "%s%s", from + sl + 1, x < 0 ? "" : beside_suffixes[x]);
                    size_t d = tco_edit_distance(key, cand);
                    if (d < best_d) {
                        best_d = d;
                        snprintf(best_buf, sizeof best_buf, "%s", cand);
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
                    e = tco_diag_set(ld->diag, TCO_ERR_INI, "--set %s: a basis describes the value it is given with: "
                                     "give --set %s.%.*s=VALUE too", ld->overrides[ov].arg, ld->overrides[ov].section,
                                     (int)(kl - 7), key);
                else
                    e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] %s: a basis beside no value: expected %.*s = "
                                     "VALUE in the same section", s->path, sec, key, (int)(kl - 7), key);
            } else if (ov >= 0 && best)
                e = tco_diag_set(ld->diag, TCO_ERR_INI, "--set %s: unknown key '%s' (did you mean '%s'?)",
                                 ld->overrides[ov].arg, key, best);
            else if (ov >= 0)
                e = tco_diag_set(ld->diag, TCO_ERR_INI, "--set %s: no input reads [%s] %s",
                                 ld->overrides[ov].arg, sec, key);
            else if (best)
                e = tco_diag_set(ld->diag, TCO_ERR_INI, "%s [%s] %s: unknown key (did you mean '%s'?)", s->path, sec,
                                 key, best);
            else
                e = tco_diag_set(ld->diag, TCO_ERR_INI,
                                 "%s [%s] %s: unknown key; the template %s reads no such input", s->path, sec, key,
                                 ld->template_ini->path);
            free(keys);
            return e;
        }
        free(keys);
    }
    return TCO_OK;
}

static tco_error load_all(loader *ld, const char *scenario_path)
{
    tco_model *m = ld->model;
    tco_error e = tco_ini_load(scenario_path, NULL, &ld->scenario, ld->diag);
    if (e != TCO_OK)
        return e;
    const char *base = strrchr(scenario_path, '/');
    base = base ? base + 1 : scenario_path;
    size_t bl = strlen(base);
    if (bl > 4 && strcmp(base + bl - 4, ".ini") == 0)
        bl -= 4;
    m->scenario_name = tco_strndup_trim(base, bl);
    m->scenario_path = tco_strdup(scenario_path);
    if (m->scenario_name == NULL || m->scenario_path == NULL)
        return oom(ld);
    /* The scenario's path and the project root are shown in the workbook (notes, footer,
     * Compare columns, document properties): they must be text a workbook can hold. */
    if ((e = tco_shown_path_check(scenario_path, "scenario's path", ld->diag)) != TCO_OK ||
        (ld->root && (e = tco_shown_path_check(ld->root, "project root's path", ld->diag)) != TCO_OK))
        return e;
    if ((e = apply_overrides(ld, 0)) != TCO_OK)
        return e;
    if (!tco_ini_has_section(&ld->scenario, "scenario"))
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: expected a [scenario] section, found %s", scenario_path,
                            tco_ini_has_section(&ld->scenario, "compare")
                                ? "a comparison ([compare]): run it with tco --compare"
                                : "none");
    const char *title = tco_ini_get(&ld->scenario, "scenario", "title");
    m->scenario_title = tco_strdup(title && title[0] ? title : m->scenario_name);
    const char *tname = tco_ini_get(&ld->scenario, "scenario", "template");
    if (tname == NULL)
        tname = "tco";
    if (tname[0] == '\0')
        return tco_diag_set(ld->diag, TCO_ERR_INI,
                            "%s [scenario] template: expected a template name from templates/ (e.g. tco), found an "
                            "empty value",
                            scenario_path);
    for (const char *p = tname; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '_') || p - tname >= 100)
            return tco_diag_set(ld->diag, TCO_ERR_INI,
                                "%s [scenario] template: expected a template name from templates/ (at most 100 "
                                "letters, digits, '-', '_'), found '%s'",
                                scenario_path, tname);
    char rel[300];
    snprintf(rel, sizeof rel, "templates/%s.ini", tname);
    m->template_path = tco_path_join(ld->root, rel);
    if (m->scenario_title == NULL || m->template_path == NULL)
        return oom(ld);
    if ((e = tco_ini_cache_load(ld->cache, m->template_path, NULL, &ld->template_ini, ld->diag)) != TCO_OK)
        return e;
    m->template_fingerprint = ld->template_ini->fingerprint;
    if ((m->template_file = tco_strdup(rel)) == NULL)
        return oom(ld);
    if ((e = load_catalog(ld)) != TCO_OK)
        return e;
    const tco_ini *t = ld->template_ini;
    if (!tco_ini_has_section(t, "model"))
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: expected a [model] section, found none", t->path);
    const ini_sec model = sec_named(t, "model");
    if ((e = check_keys(ld, &model, model_keys)) != TCO_OK)
        return e;
    const char *mt = tco_ini_get(t, "model", "title");
    m->title = tco_strdup(mt ? mt : "Total cost of ownership");
    if (m->title == NULL)
        return oom(ld);
    const char *refs = tco_ini_get(t, "model", "refs");
    if (refs != NULL && (e = load_refs(ld, refs)) != TCO_OK)
        return e;
    if ((e = load_tiers(ld)) != TCO_OK)
        return e;
    if ((e = apply_overrides(ld, 1)) != TCO_OK)
        return e;
    const char *kind = tco_ini_get(&ld->scenario, "scenario", "kind");
    if (kind != NULL) {
        char key[300];
        snprintf(key, sizeof key, "summary_%s", kind);
        if (kind[0] == '\0' || tco_ini_get(t, "model", key) == NULL)
            return tco_diag_set(ld->diag, TCO_ERR_INI,
                                "%s [scenario] kind: the template %s has no [model] %s for kind '%s'",
                                ld->scenario.path, t->path, key, kind);
        if ((m->kind = tco_strdup(kind)) == NULL)
            return oom(ld);
    }

    if ((e = load_shared(ld)) != TCO_OK)
        return e;
    /* Inputs first, then lines, each in file order. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < tco_ini_section_count(t); i++) {
            const char *sec = tco_ini_section_name(t, i);
            if (pass == 0 && strncmp(sec, "input.", 6) == 0)
                e = load_input(ld, i);
            else if (pass == 1 && strncmp(sec, "line.", 5) == 0)
                e = load_line(ld, i);
            else if (pass == 0 && strcmp(sec, "model") != 0 && strncmp(sec, "input.", 6) != 0 &&
                     strncmp(sec, "line.", 5) != 0 && strncmp(sec, "chart.", 6) != 0 &&
                     strncmp(sec, "convention.", 11) != 0)
                e = tco_diag_set(ld->diag, TCO_ERR_INI,
                                 "%s [%s]: unknown section; expected [model], [input.NAME], [line.NAME], [chart.NAME] "
                                 "or [convention.NAME]",
                                 t->path, sec);
            if (e != TCO_OK)
                return e;
        }
    if ((e = check_catalog_ranges(ld)) != TCO_OK || (e = check_scenario_consumed(ld)) != TCO_OK ||
        (e = check_shared(ld)) != TCO_OK)
        return e;
    bool any_line = false;
    for (size_t i = 0; i < m->n_items; i++)
        any_line |= m->items[i].kind == TCO_ITEM_LINE || m->items[i].kind == TCO_ITEM_YEARLY;
    if (!any_line)
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: expected at least one [line.NAME] section, found none",
                            t->path);

    /* Totals of per-year lines, and the year index. */
    size_t n_lines = m->n_items;
    bool any_yearly = false;
    bool any_monthly = false;
    for (size_t i = 0; i < n_lines; i++) {
        if (m->items[i].kind != TCO_ITEM_YEARLY && m->items[i].kind != TCO_ITEM_MONTHLY)
            continue;
        bool monthly = m->items[i].kind == TCO_ITEM_MONTHLY;
        any_yearly |= !monthly;
        any_monthly |= monthly;
        if (m->items[i].no_total)
            continue;
        char name[TCO_NAME_MAX_LEN + 8];
        snprintf(name, sizeof name, "%s_total", m->items[i].name);
        int clash = tco_model_find(m, name);
        if (clash >= 0)
            return tco_diag_set(ld->diag, TCO_ERR_DUPLICATE,
                                "%s [line.%s]: name '%s' is taken by the per-year or per-month line '%s', whose "
                                "total it names",
                                t->path, name, name, m->items[i].name);
        tco_item *tot = add_item(ld, TCO_ITEM_TOTAL, name);
        if (tot == NULL)
            return oom(ld);
        tco_item *src = &m->items[i]; /* after add_item's realloc */
        tot->partner = (int)i;
        src->partner = (int)(m->n_items - 1);
        tot->format = src->format;
        tot->emphasis = src->emphasis;
        tot->sheet = tco_strdup(src->sheet);
        tco_strbuf lb = {0};
        tco_strbuf_append(&lb, src->label); /* appended, not printed: once for each total */
        tco_strbuf_append(&lb, monthly ? " (all months)" : " (all years)");
        tot->label = tco_strbuf_take(&lb);
        tco_strbuf u = {0};
        /* "CNY/yr" per year totals to "CNY", "CNY/month" per month too. */
        const char *per_unit = monthly ? "/month" : "/yr";
        const char *slash = strstr(src->unit, per_unit);
        if (slash && slash[strlen(per_unit)] == '\0')
            tco_strbuf_append_n(&u, src->unit, (size_t)(slash - src->unit));
        else
            tco_strbuf_append(&u, src->unit);
        tot->unit = tco_strbuf_take(&u);
        tco_strbuf w = {0};
        tco_strbuf_append(&w, "total of per-year line ");
        tco_strbuf_append(&w, src->name);
        tot->source = tco_strbuf_take(&w);
        if (tot->sheet == NULL || tot->label == NULL || tot->unit == NULL || tot->source == NULL)
            return oom(ld);
    }
    if ((e = add_builtin(ld, TCO_ITEM_ERROR_COUNT, "error_cells", "the number of calculation cells holding an error",
                         "Calculation cells holding an error", "cells", "built in")) != TCO_OK)
        return e;
    if (m->n_tiers > 0 &&
        (e = add_builtin(ld, TCO_ITEM_TIER_CODE, "tier", "the tier codes, the tier table's first column", "Tier",
                         "text", m->tier_path)) != TCO_OK)
        return e;
    if (any_yearly) {
        if ((e = add_builtin(ld, TCO_ITEM_YEAR_INDEX, "year", "the year number in per-year lines", "Year number",
                             "year", NULL)) != TCO_OK)
            return e;
        int yi = tco_model_find(m, "years");
        if (yi < 0 || m->items[yi].kind != TCO_ITEM_INPUT || !m->items[yi].integer)
            return tco_diag_set(ld->diag, TCO_ERR_INI,
                                "%s: per-year lines need an input named 'years' with integer = yes (the number of "
                                "year columns)",
                                t->path);
        double years = m->items[yi].value;
        if (!(years >= 1 && years <= 100))
            return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: expected 1 to 100 year columns, found %g",
                                m->items[yi].source, years);
        m->n_years = (int)years;
        m->first_year = 1;
        const char *fy = tco_ini_get(t, "model", "first_year");
        if (fy != NULL) {
            if (strcmp(fy, "0") != 0 && strcmp(fy, "1") != 0)
                return tco_diag_set(ld->diag, TCO_ERR_INI, "%s [model] first_year: expected 0 (Year 0, the purchase, "
                                    "then Year 1 to N) or 1 (Year 1 to N), found '%s'", t->path, fy);
            m->first_year = fy[0] - '0';
        }
        m->n_periods = m->n_years + 1 - m->first_year;
        m->n_months = any_monthly ? m->n_years * 12 : 0;
        if ((e = load_schedule(ld)) != TCO_OK)
            return e;
        for (size_t i = 0; i < m->n_items; i++)
            if (m->items[i].kind == TCO_ITEM_YEARLY || m->items[i].kind == TCO_ITEM_MONTHLY) {
                m->items[i].years = calloc((size_t)tco_item_periods(m, &m->items[i]), sizeof(double));
                if (m->items[i].years == NULL)
                    return oom(ld);
            }
    } else if (any_monthly) {
        return tco_diag_set(ld->diag, TCO_ERR_INI, "%s: per-month lines need per-year lines and the 'years' input "
                            "(the months are the years' months)", t->path);
    }
    if (any_monthly && (e = add_builtin(ld, TCO_ITEM_MONTH_INDEX, "month", "the month number in per-month lines",
                                        "Month number", "month", NULL)) != TCO_OK)
        return e;
    if ((e = tco_model_bind(m, ld->diag)) != TCO_OK)
        return e;
    if ((e = load_sheets_and_summary(ld)) != TCO_OK)
        return e;
    if ((e = role(ld, "capex", &m->role_capex)) != TCO_OK || (e = role(ld, "opex", &m->role_opex)) != TCO_OK ||
        (e = role(ld, "tco", &m->role_tco)) != TCO_OK ||
        (e = role(ld, "per_card_year", &m->role_per_card_year)) != TCO_OK || (e = role(ld, "npv", &m->role_npv)) != TCO_OK)
        return e;
    /* The headline unit cost: [model] unit_cost_KIND for the scenario's kind, else unit_cost. */
    char unit_key[300] = "unit_cost";
    if (m->kind && snprintf(unit_key, sizeof unit_key, "unit_cost_%s", m->kind) < (int)sizeof unit_key &&
        tco_ini_get(ld->template_ini, "model", unit_key) == NULL)
        snprintf(unit_key, sizeof unit_key, "unit_cost");
    if ((e = role(ld, unit_key, &m->role_unit_cost)) != TCO_OK)
        return e;
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        if (it->quote_qty == NULL)
            continue;
        int q = tco_model_find(m, it->quote_qty);
        if (q < 0 || tco_item_dim(&m->items[q]) != 0 || m->items[q].text != NULL || m->items[q].kind == TCO_ITEM_YEAR_INDEX)
            return tco_diag_set(ld->diag, TCO_ERR_UNKNOWN_NAME,
                                "%s [input.%s] quote_qty: expected the name of a number input or scalar line, found '%s'",
                                t->path, it->name, it->quote_qty);
    }
    if ((e = bind_warnings(ld)) != TCO_OK || (e = load_cash_flow(ld)) != TCO_OK || (e = load_budget(ld)) != TCO_OK ||
        (e = tco_model_order(m, ld->diag)) != TCO_OK)
        return e;
    return TCO_OK;
}

static void loader_free(loader *ld)
{
    tco_ini_free(&ld->scenario);
    free(ld->catalog);
    for (size_t i = 0; i < ld->n_refs; i++) {
        free(ld->refs[i].key);
        free(ld->refs[i].file);
        free(ld->refs[i].value);
    }
    free(ld->refs);
    name_set_free(&ld->consumed);
    name_set_free(&ld->from_sections);
    name_set_free(&ld->values_read);
    name_set_free(&ld->range_sections);
    tco_free_list(ld->shared, ld->n_shared);
    for (size_t i = 0; ld->originals && i < ld->n_overrides; i++)
        free(ld->originals[i]);
    free(ld->originals);
}

tco_error tco_model_load(const char *root, const char *scenario_path, const tco_load_options *opts, tco_model **out,
                         tco_diag *diag)
{
    static const tco_load_options plain = {0};
    if (opts == NULL)
        opts = &plain;
    *out = NULL;
    tco_model *m = calloc(1, sizeof *m);
    if (m == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    m->role_capex = m->role_opex = m->role_tco = m->role_per_card_year = m->role_npv = m->role_unit_cost = -1;
    tco_ini_cache own = {0}; /* without a cache given, the files are read for this load alone */
    loader ld = {.root = root, .model = m, .diag = diag, .tier_file = -1, .overrides = opts->overrides,
                 .n_overrides = opts->n_overrides, .cache = opts->files ? opts->files : &own,
                 .skip_section = opts->skip_section};
    tco_error e = load_all(&ld, scenario_path);
    loader_free(&ld);
    tco_ini_cache_free(&own);
    if (e != TCO_OK) {
        tco_model_free(m);
        return e;
    }
    *out = m;
    return TCO_OK;
}
