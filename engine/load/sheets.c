/* sheets.c - the workbook's shape from the template's [model] and [chart.NAME] sections: the calculation
 * sheets, the schedule sheet, the charts, and the rows of Summary, Compare and the checks. */
#include "load/loader.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"
#include "base/utf8.h"
#include "model/bind.h"
#include "model/conventions.h"
#include "model/formula.h"

tco_error load_schedule(loader *ld)
{
    tco_model *m = ld->model;
    const tco_ini *t = ld->template_ini;
    m->n_schedule_periods = m->n_periods;
    const char *spec = tco_ini_get(t, "model", "schedule");
    if (spec == NULL)
        return TCO_OK;
    const char *colon = strchr(spec, ':');
    char sheet[256];
    bool named = colon != NULL && (size_t)(colon - spec) < sizeof sheet;
    if (named) {
        snprintf(sheet, sizeof sheet, "%.*s", (int)(colon - spec), spec);
        char *end = sheet + strlen(sheet);
        while (end > sheet && end[-1] == ' ')
            *--end = '\0';
    }
    /* SHEET:INPUT[, INPUT...]: the schedule runs to the largest of the inputs (a book life per asset class). */
    int last = m->n_years;
    const char *p = named ? colon + 1 : NULL;
    do {
        int in = -1;
        char name[TCO_NAME_MAX_LEN + 1];
        if (p != NULL) {
            p += strspn(p, " ");
            size_t n = strcspn(p, ",");
            while (n > 0 && p[n - 1] == ' ')
                n--;
            if (n > 0 && n <= TCO_NAME_MAX_LEN) {
                memcpy(name, p, n);
                name[n] = '\0';
                in = tco_model_find(m, name);
            }
            p = strchr(p, ',');
            if (p != NULL)
                p++;
        }
        if (in < 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = t->path, .section = "model", .key = "schedule"},
                               "expected SHEET:INPUT[, INPUT...] (a sheet of per-year lines and the inputs whose "
                               "largest gives its last year, e.g. Depreciation:book_life_years), found '%s'",
                               spec);
        const tco_item *len = &m->items[in];
        if (len->kind != TCO_ITEM_INPUT || !len->integer || !len->structural || len->text != NULL)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = t->path, .section = "model", .key = "schedule"},
                               "'%s' sets the schedule's columns, so it "
                               "must be a whole-number input fixed by the scenario (integer = yes, structural = yes)",
                               len->name);
        if (!(len->value >= 1 && len->value <= 100))
            return value_refused(ld, len, "expected 1 to 100 years for the schedule sheet, found %g", len->value);
        if ((int)len->value > last)
            last = (int)len->value;
    } while (p != NULL);
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
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = "schedule"},
                           "no per-year line is on sheet '%s'", sheet);
    m->n_schedule_periods = last + 1 - m->first_year;
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
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = sec, .key = "type"},
                               "expected column_stacked, line or pie, found '%s'", type);
        char **list;
        int n = tco_split_list(series, &list);
        if (n <= 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = sec, .key = "series"},
                               "expected a comma-separated list, found '%s'", series);
        if (n > TCO_MAX_CHART_SERIES) {
            tco_free_list(list, n);
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = sec, .key = "series"},
                               "%d series; a chart holds at most %d (Excel's limit)", n, TCO_MAX_CHART_SERIES);
        }
        if ((e = tco_list_check_set(list, n, TCO_ERR_DUPLICATE,
                                    &(tco_place){.file = t->path, .section = sec, .key = "series"}, ld->diag)) != TCO_OK) {
            tco_free_list(list, n);
            return e;
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
                e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = sec, .key = "series"},
                                "expected %s, found '%s'",
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
    char section[TCO_NAME_MAX_LEN + 16]; /* a diagnostic's place: [line.NAME] or [input.NAME] */
    tco_place at;
    for (size_t s = 0; s < m->n_sheets; s++) {
        int first = -1;
        for (size_t i = 0; i < m->n_items; i++) {
            const tco_item *it = &m->items[i];
            if (it->sheet == NULL || it->kind == TCO_ITEM_TOTAL || sheet_of[i] != (int)s)
                continue;
            if (first < 0)
                first = (int)i;
            else if (tco_item_dim(it) != tco_item_dim(&m->items[first]))
                return tco_diag_at(ld->diag, TCO_ERR_INI,
                                   item_place(&at, section, sizeof section, t, "line.", it->name, "sheet"),
                                   "sheet '%s' holds lines with %s (e.g. %s), so every line on it needs %s",
                                   m->sheets[s].name, per_words[tco_item_dim(&m->items[first])],
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
                return tco_diag_at(ld->diag, TCO_ERR_INI,
                                   item_place(&at, section, sizeof section, t, "line.", m->items[i].name, "sheet"),
                                   "sheet '%s' would hold more than %d per-tier lines, one "
                                   "column each (Excel has 16,384 columns); put the rest on another sheet",
                                   m->sheets[s].name, TCO_MAX_TIER_COLUMNS);
    }
    /* The tier table on Inputs has a column per per-tier input. */
    size_t tier_inputs = 0;
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].kind == TCO_ITEM_TIER_INPUT && ++tier_inputs > TCO_MAX_TIER_COLUMNS)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               item_place(&at, section, sizeof section, t, "input.", m->items[i].name, NULL),
                               "more than %d per-tier inputs, one column each in the tier table "
                               "(Excel has 16,384 columns)",
                               TCO_MAX_TIER_COLUMNS);
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        if (it->sheet == NULL)
            continue;
        if (sheet_of[i] < 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               item_place(&at, section, sizeof section, t, "line.", it->name, "sheet"),
                               "expected one of [model] sheets (%s), found '%s'", sheets, it->sheet);
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

/* Whether item @p idx is among the first @p n of @p rows. */
static bool listed_in(const int *rows, size_t n, int idx)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i] == idx)
            return true;
    return false;
}

/* A name of [model] KEY_KIND (@p keys[1]) that [model] KEY (@p keys[0]) lists already: the row would show
 * twice.  Each list alone is a set (tco_list_check_set()); the two together are one list of rows. */
static tco_error listed_in_both(loader *ld, const char *const keys[2], const char *name)
{
    return tco_diag_at(ld->diag, TCO_ERR_DUPLICATE,
                       &(tco_place){.file = ld->template_ini->path, .section = "model", .key = keys[1]},
                       "'%s' is listed twice (in %s and in %s, whose rows are shown together)", name, keys[0], keys[1]);
}

tco_error load_sheets_and_summary(loader *ld)
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
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = "sheets"},
                           "expected a comma-separated list, found '%s'", sheets);
    /* Excel compares sheet names case-insensitively in any script, as tco_list_check_set() does. */
    if ((e = tco_list_check_set(list, n, TCO_ERR_DUPLICATE,
                                &(tco_place){.file = t->path, .section = "model", .key = "sheets"}, ld->diag)) != TCO_OK) {
        tco_free_list(list, n);
        return e;
    }
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
            e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = "sheets"},
                            "'%s' cannot be a sheet name (expected at most 29 letters, digits, "
                            "spaces, '-' or '_', counted as Excel does (a character beyond U+FFFF, such as an "
                            "emoji, counts 2), starting with a letter, not a cell reference such as A1, no "
                            "'_xHHHH_', and not Summary, Inputs, Quotes, Charts or Compare, which are built in, "
                            "or History, which Excel reserves)", nm);
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
        size_t n_first = k == 0 ? 0 : m->n_compare; /* the rows of [model] compare, for compare_KIND */
        const char *compare = ckeys[k][0] ? tco_ini_get(t, "model", ckeys[k]) : NULL;
        if (compare == NULL)
            continue;
        n = tco_split_list(compare, &list);
        if (n < 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = t->path, .section = "model", .key = ckeys[k]},
                               "expected a comma-separated list, found '%s'", compare);
        if ((e = tco_list_check_set(list, n, TCO_ERR_DUPLICATE,
                                    &(tco_place){.file = t->path, .section = "model", .key = ckeys[k]}, ld->diag)) !=
            TCO_OK) {
            tco_free_list(list, n);
            return e;
        }
        int *grown = realloc(m->compare, (m->n_compare + (size_t)n) * sizeof *grown);
        if (grown)
            m->compare = grown;
        for (int i = 0; i < n && e == TCO_OK; i++) {
            int idx = tco_model_find(m, list[i]);
            if (grown == NULL)
                e = oom(ld);
            else if (idx < 0 || tco_item_dim(&m->items[idx]) != 0 || m->items[idx].text != NULL ||
                     m->items[idx].text_line || builtin(&m->items[idx]))
                e = tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                                &(tco_place){.file = t->path, .section = "model", .key = "compare"},
                                "expected the name of a scalar number, found '%s'", list[i]);
            else if (listed_in(m->compare, n_first, idx))
                e = listed_in_both(ld, ckeys, list[i]);
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
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = t->path, .section = "model", .key = "checks"},
                               "expected a comma-separated list, found '%s'", checks);
        if ((e = tco_list_check_set(list, n, TCO_ERR_DUPLICATE,
                                    &(tco_place){.file = t->path, .section = "model", .key = "checks"}, ld->diag)) !=
            TCO_OK) {
            tco_free_list(list, n);
            return e;
        }
        m->checks = calloc((size_t)n, sizeof *m->checks);
        for (int i = 0; i < n && e == TCO_OK; i++) {
            int idx = tco_model_find(m, list[i]);
            if (m->checks == NULL)
                e = oom(ld);
            else if (idx < 0 || m->items[idx].kind != TCO_ITEM_LINE)
                e = tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                                &(tco_place){.file = t->path, .section = "model", .key = "checks"},
                                "expected a scalar line, found '%s'", list[i]);
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
        size_t n_first = k == 0 ? 0 : m->n_summary; /* the rows of [model] summary, for summary_KIND */
        const char *summary = keys[k][0] ? tco_ini_get(t, "model", keys[k]) : NULL;
        if (summary == NULL)
            continue;
        n = tco_split_list(summary, &list);
        if (n < 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = keys[k]},
                               "expected a comma-separated list of names, found '%s'", summary);
        if ((e = tco_list_check_set(list, n, TCO_ERR_DUPLICATE,
                                    &(tco_place){.file = t->path, .section = "model", .key = keys[k]}, ld->diag)) !=
            TCO_OK) {
            tco_free_list(list, n);
            return e;
        }
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
                e = tco_diag_at(ld->diag, TCO_ERR_INI,
                                &(tco_place){.file = t->path, .section = "model", .key = keys[k]},
                                "'%s' is %s, not one figure to show", list[i],
                                m->items[idx].kind == TCO_ITEM_YEAR_INDEX   ? "the year number of per-year lines"
                                : m->items[idx].kind == TCO_ITEM_ERROR_COUNT ? "built in (the count behind a check)"
                                : tco_item_dim(&m->items[idx]) == 3              ? "a per-month row"
                                : tco_item_dim(&m->items[idx]) == 1
                                     ? "a row of the schedule sheet, past Year N (show its _total)"
                                     : "a per-tier column");
            else if (idx < 0)
                e = tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                                &(tco_place){.file = t->path, .section = "model", .key = keys[k]},
                                "no input or line named '%s'", list[i]);
            else if (listed_in(m->summary, n_first, idx))
                e = listed_in_both(ld, keys, list[i]);
            else
                m->summary[m->n_summary++] = idx;
        }
        tco_free_list(list, n);
    }
    return e;
}
