/* load.c - the model from its INI files (load.h): the public entry points, and load_all(), which runs the
 * loader's parts in order (loader.h: the catalog and its ref keys, the --set overrides, the template's
 * inputs and lines, the workbook's shape, the cash flow and the budget, and the checks of what nothing
 * read), adds the totals of per-year and per-month lines and the built-in names, and binds and orders
 * the model (model/bind.h).  It does not evaluate: the caller does (model/evaluate.h). */
#include "model/model.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/bind.h"
#include "read/ini.h"
#include "base/memory.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "load/loader.h"
#include "load/load.h"

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
        return tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                           &(tco_place){.file = ld->template_ini->path, .section = "model", .key = key},
                           "no input or line named '%s'", v);
    if (ld->model->items[*out].on_schedule)
        return tco_diag_at(ld->diag, TCO_ERR_INI,
                           &(tco_place){.file = ld->template_ini->path, .section = "model", .key = key},
                           "'%s' is on the schedule sheet, which runs past Year N; name a line of the analysis period",
                           v);
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
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = scenario_path},
                           "expected a [scenario] section, found %s",
                           tco_ini_has_section(&ld->scenario, "compare")
                                ? "a comparison ([compare]): run it with tco --compare"
                                : "none");
    const char *title = tco_ini_get(&ld->scenario, "scenario", "title");
    m->scenario_title = tco_strdup(title && title[0] ? title : m->scenario_name);
    const char *tname = tco_ini_get(&ld->scenario, "scenario", "template");
    if (tname == NULL)
        tname = "tco";
    if (tname[0] == '\0')
        return tco_diag_at(ld->diag, TCO_ERR_INI,
                           &(tco_place){.file = scenario_path, .section = "scenario", .key = "template"},
                           "expected a template name from templates/ (e.g. tco), found an empty value");
    for (const char *p = tname; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '_') || p - tname >= 100)
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = scenario_path, .section = "scenario", .key = "template"},
                               "expected a template name from templates/ (at most 100 "
                               "letters, digits, '-', '_'), found '%s'", tname);
    char rel[300];
    snprintf(rel, sizeof rel, "templates/%s.ini", tname);
    m->template_path = tco_path_join(ld->root, rel);
    if (m->scenario_title == NULL || m->template_path == NULL)
        return oom(ld);
    m->scenario_shown = shown_in_book(ld, m->scenario_path);
    m->template_shown = shown_in_book(ld, m->template_path);
    if ((e = tco_ini_cache_load(ld->cache, m->template_path, NULL, &ld->template_ini, ld->diag)) != TCO_OK)
        return e;
    m->template_fingerprint = ld->template_ini->fingerprint;
    if ((m->template_file = tco_strdup(rel)) == NULL)
        return oom(ld);
    if ((e = load_catalog(ld)) != TCO_OK)
        return e;
    const tco_ini *t = ld->template_ini;
    if (!tco_ini_has_section(t, "model"))
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path},
                           "expected a [model] section, found none");
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
            return tco_diag_at(ld->diag, TCO_ERR_INI,
                               &(tco_place){.file = ld->scenario.path, .section = "scenario", .key = "kind"},
                               "the template %s has no [model] %s for kind '%s'", t->path, key, kind);
        if ((m->kind = tco_strdup(kind)) == NULL)
            return oom(ld);
    }

    if ((e = load_shared(ld)) != TCO_OK)
        return e;
    /* Room for an item and its total for each section (a hint); the pages of one item a section asked
     * for at once (memory.h). */
    if (!tco_model_reserve_items(m, m->n_items + 2 * (size_t)tco_ini_section_count(t)))
        return oom(ld);
    tco_prefault(m->items + m->n_items, (size_t)tco_ini_section_count(t) * sizeof *m->items);
    /* Inputs first, then lines, each in file order (the lines' formulas parsed ahead in a large template). */
    lines_ahead_start(ld);
    for (int pass = 0; pass < 2 && e == TCO_OK; pass++)
        for (int i = 0; i < tco_ini_section_count(t) && e == TCO_OK; i++) {
            const char *sec = tco_ini_section_name(t, i);
            if (pass == 0 && strncmp(sec, "input.", 6) == 0)
                e = load_input(ld, i);
            else if (pass == 1 && strncmp(sec, "line.", 5) == 0)
                e = load_line(ld, i);
            else if (pass == 0 && strcmp(sec, "model") != 0 && strncmp(sec, "input.", 6) != 0 &&
                     strncmp(sec, "line.", 5) != 0 && strncmp(sec, "chart.", 6) != 0 &&
                     strncmp(sec, "convention.", 11) != 0)
                e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = sec},
                                "unknown section; expected [model], [input.NAME], [line.NAME], [chart.NAME] "
                                "or [convention.NAME]");
        }
    lines_ahead_finish(ld);
    if (e != TCO_OK)
        return e;
    if ((e = check_catalog_ranges(ld)) != TCO_OK || (e = check_scenario_consumed(ld)) != TCO_OK ||
        (e = check_shared(ld)) != TCO_OK)
        return e;
    bool any_line = false;
    for (size_t i = 0; i < m->n_items; i++)
        any_line |= m->items[i].kind == TCO_ITEM_LINE || m->items[i].kind == TCO_ITEM_YEARLY;
    if (!any_line)
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path},
                           "expected at least one [line.NAME] section, found none");

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
        char section[TCO_NAME_MAX_LEN + 16];
        tco_place at;
        if (clash >= 0)
            return tco_diag_at(ld->diag, TCO_ERR_DUPLICATE,
                               item_place(&at, section, sizeof section, t, "line.", name, NULL),
                               "name '%s' is taken by the per-year or per-month line '%s', whose total it names", name,
                               m->items[i].name);
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
        tco_strbuf_append(&w, monthly ? "total of per-month line " : "total of per-year line ");
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
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path},
                               "per-year lines need an input named 'years' with integer = yes (the number of "
                               "year columns)");
        double years = m->items[yi].value;
        if (!(years >= 1 && years <= 100))
            return value_refused(ld, &m->items[yi], "expected 1 to 100 year columns, found %g", years);
        m->n_years = (int)years;
        m->first_year = 1;
        const char *fy = tco_ini_get(t, "model", "first_year");
        if (fy != NULL) {
            if (strcmp(fy, "0") != 0 && strcmp(fy, "1") != 0)
                return tco_diag_at(ld->diag, TCO_ERR_INI,
                                   &(tco_place){.file = t->path, .section = "model", .key = "first_year"},
                                   "expected 0 (Year 0, the purchase, then Year 1 to N) or 1 (Year 1 to N), found '%s'",
                                   fy);
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
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path},
                           "per-month lines need per-year lines and the 'years' input "
                           "(the months are the years' months)");
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
        char section[TCO_NAME_MAX_LEN + 16];
        tco_place at;
        if (q < 0 || tco_item_dim(&m->items[q]) != 0 || m->items[q].text != NULL || m->items[q].kind == TCO_ITEM_YEAR_INDEX)
            return tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                               item_place(&at, section, sizeof section, t, "input.", it->name, "quote_qty"),
                               "expected the name of a number input or scalar line, found '%s'", it->quote_qty);
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
