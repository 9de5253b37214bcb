/* loader.c - the helpers every part of the loader shares (loader.h): the string sets of a load, a unit's
 * number format, and the checks of a template section's keys and values (known keys, required keys,
 * yes/no, units, reserved names). */
#include "load/loader.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"

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

bool name_set_add(name_set *set, char *text)
{
    if (name_set_has(set, text)) {
        free(text);
        return true;
    }
    return name_set_insert(set, text);
}

void name_set_free(name_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        free(set->v[i]);
    free(set->v);
    tco_name_index_free(&set->ix);
    *set = (name_set){0};
}

bool name_set_add_lower(name_set *set, const char *section, const char *key)
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

tco_format format_for_unit(const char *unit, bool integer)
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

tco_error parse_format(loader *ld, const char *section, const char *text, tco_format *out)
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
    return tco_diag_at(ld->diag, TCO_ERR_INI,
                       &(tco_place){.file = ld->template_ini->path, .section = section, .key = "format"},
                       "expected money, kw, percent, count, ratio, number, yesno or never, found '%s'", text);
}

const tco_place *item_place(tco_place *at, char *section, size_t size, const tco_ini *file, const char *prefix,
                            const char *name, const char *key)
{
    tco_str_cat(section, size, prefix, name, NULL);
    *at = (tco_place){.file = file->path, .section = section, .key = key};
    return at;
}

tco_error check_keys(loader *ld, const ini_sec *s, const char *const *allowed)
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
                e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = ini->path, .section = section, .key = key},
                                "unknown key (did you mean '%s'?)", best);
            else
                e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = ini->path, .section = section, .key = key},
                                "unknown key; expected one of: %s", tco_strbuf_str(&list));
            tco_strbuf_free(&list);
        }
    }
    return e;
}

/* Longest unit, in UTF-16 units after Excel's escapes: a unit goes into the data-validation
 * message of its input ("Expected a number from 0 to 1 (UNIT).", at most 255 characters). */
#define TCO_UNIT_MAX 64

tco_error check_unit(loader *ld, const tco_ini *ini, const char *section, const char *unit)
{
    size_t n = tco_xlsx_text_units(unit);
    if (n > TCO_UNIT_MAX)
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = ini->path, .section = section, .key = "unit"},
                           "%zu characters; a unit is at most %d (it is shown in each input's "
                           "data-validation message, which Excel limits to 255)", n, TCO_UNIT_MAX);
    return TCO_OK;
}

/* Name prefixes tco itself defines in a workbook: fx_CCY, the exchange rates quotes add. */
static const char *const reserved_prefixes[] = {"fx_", NULL};

tco_error check_reserved(loader *ld, const tco_ini *ini, const char *section, const char *name)
{
    for (const char *const *p = reserved_prefixes; *p; p++)
        if (strncasecmp(name, *p, strlen(*p)) == 0)
            return tco_diag_at(ld->diag, TCO_ERR_BAD_NAME, &(tco_place){.file = ini->path, .section = section},
                               "the name '%s' starts with '%s', which tco reserves for the names it adds "
                               "(exchange rates fx_usd, fx_eur, ... for quotes); rename it", name, *p);
    return TCO_OK;
}

tco_error need_string(loader *ld, const ini_sec *s, const char *key, const char **out)
{
    *out = sec_get(s, key);
    if (*out == NULL || (*out)[0] == '\0')
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = s->ini->path, .section = s->name, .key = key},
                           "expected a value, found %s", *out == NULL ? "no such key" : "an empty value");
    return TCO_OK;
}

tco_error need_strings(loader *ld, const ini_sec *s, const char *const *keys, const char **out)
{
    for (size_t i = 0; keys[i]; i++) {
        tco_error e = need_string(ld, s, keys[i], &out[i]);
        if (e != TCO_OK)
            return e;
    }
    return TCO_OK;
}

tco_error yes_no(loader *ld, const ini_sec *s, const char *key, bool *out)
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
    return tco_diag_at(ld->diag, TCO_ERR_INI,
                       &(tco_place){.file = ld->template_ini->path, .section = section, .key = key},
                       "expected yes or no, found '%s'", v);
}

const char *shown_in_book(const loader *ld, const char *path)
{
    const char *root = ld->root;
    size_t n = root ? strlen(root) : 0;
    while (n > 1 && root[n - 1] == '/')
        n--;
    if (n == 0 || strncmp(path, root, n) != 0) /* "." joins to "pricing/site.ini", not under "." as text */
        return path;
    if (!(n == 1 && root[0] == '/') && path[n] != '/')
        return path; /* "/srv/tco2/..." is not under "/srv/tco" */
    const char *rel = path + n;
    while (*rel == '/')
        rel++;
    return *rel != '\0' ? rel : path;
}

bool builtin(const tco_item *it)
{
    return it->kind == TCO_ITEM_YEAR_INDEX || it->kind == TCO_ITEM_TIER_CODE || it->kind == TCO_ITEM_ERROR_COUNT ||
           it->kind == TCO_ITEM_MONTH_INDEX;
}

const char *const scenario_own_keys[] = {"title", "template", "description", "kind", NULL};

bool key_has_meaning(void *ctx, const char *key)
{
    const key_owner *o = ctx;
    const loader *ld = o->ld;
    if (strcasecmp(o->section, "scenario") == 0) {
        for (const char *const *k = scenario_own_keys; *k; k++)
            if (strcasecmp(key, *k) == 0)
                return true;
        for (size_t r = 0; r < ld->n_refs; r++)
            if (strcasecmp(key, ld->refs[r].key) == 0)
                return true;
    }
    const tco_ini *t = ld->template_ini;
    size_t secl = strlen(o->section);
    for (int j = 0; j < tco_ini_section_count(t); j++) {
        const char *from = tco_ini_get_in(t, j, "from");
        const char *dot = from ? strchr(from, '.') : NULL;
        if (dot == NULL || strcasecmp(dot + 1, key) != 0)
            continue;
        size_t sl = (size_t)(dot - from);
        if (sl == secl && strncasecmp(from, o->section, sl) == 0)
            return true;
        for (size_t r = 0; r < ld->n_refs; r++)
            if (strlen(ld->refs[r].key) == sl && strncasecmp(from, ld->refs[r].key, sl) == 0 &&
                strcasecmp(ld->refs[r].value, o->section) == 0)
                return true;
    }
    return false;
}

tco_error value_refused(loader *ld, const tco_item *it, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (it->value_place.file || it->value_place.arg) {
        tco_diag_vat(ld->diag, TCO_ERR_INI, &it->value_place, fmt, ap);
    } else { /* an input not read from a file: named by its provenance text, no place as data */
        char text[TCO_DIAG_MAX];
        tco_vformat_cut(text, sizeof text, fmt, ap);
        tco_diag_set(ld->diag, TCO_ERR_INI, "%s: %s", it->source ? it->source : it->name, text);
    }
    va_end(ap);
    return TCO_ERR_INI;
}
