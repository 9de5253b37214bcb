/* lines.c - the template's [line.NAME] sections (each line and its formula), the warnings of lines, and
 * the built-in names (year, month, tier, error_cells). */
#include "load/loader.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "model/bind.h"
#include "model/formula.h"

static const char *const line_keys[] = {"sheet", "label", "unit", "formula", "source", "per", "format", "total", "sum",
                                        "warning", "warning_if", "type", NULL};

/* ---- the formula trees, parsed ahead on a second thread ---------------------------------------------- */

/* Lines of a template from which its formulas are parsed on a second thread (a template ten times the
 * shipped one's 281 lines; parsing 28,100 formulas took 45 ms of its load, docs/performance.md). */
#define LINES_AHEAD_MIN 2048

struct trees_ahead {
    const tco_ini *t;
    tco_node **trees; /* per section: its tree, or NULL (not a line, or its formula did not parse) */
    tco_arena arena;  /* the second thread's: the trees' blocks */
    atomic_int done;  /* the sections before this one are parsed (or passed) */
    atomic_bool stop; /* the load ended before the last line */
    pthread_t thread;
};

static void *parse_ahead(void *arg)
{
    struct trees_ahead *a = arg;
    int n = tco_ini_section_count(a->t);
    for (int i = 0; i < n && !atomic_load_explicit(&a->stop, memory_order_relaxed); i++) {
        const char *formula = strncmp(tco_ini_section_name(a->t, i), "line.", 5) == 0
                                  ? tco_ini_get_in(a->t, i, "formula") : NULL;
        /* a formula that does not parse here is parsed again by load_line(), which reports it */
        if (formula != NULL && tco_formula_parse_in(formula, NULL, &a->arena, &a->trees[i], NULL) != TCO_OK)
            a->trees[i] = NULL;
        atomic_store_explicit(&a->done, i + 1, memory_order_release);
    }
    return NULL;
}

void lines_ahead_start(loader *ld)
{
    const tco_ini *t = ld->template_ini;
    int n = tco_ini_section_count(t), lines = 0;
    for (int i = 0; i < n; i++)
        lines += strncmp(tco_ini_section_name(t, i), "line.", 5) == 0;
    if (lines <= LINES_AHEAD_MIN)
        return;
    struct trees_ahead *a = calloc(1, sizeof *a);
    if (a == NULL || (a->trees = calloc((size_t)n, sizeof *a->trees)) == NULL) {
        free(a);
        return;
    }
    a->t = t;
    atomic_init(&a->done, 0);
    atomic_init(&a->stop, false);
    if (pthread_create(&a->thread, NULL, parse_ahead, a) != 0) {
        free(a->trees);
        free(a);
        return;
    }
    ld->ahead = a;
}

void lines_ahead_finish(loader *ld)
{
    struct trees_ahead *a = ld->ahead;
    if (a == NULL)
        return;
    atomic_store(&a->stop, true);
    pthread_join(a->thread, NULL);
    tco_arena_adopt(&ld->model->trees, &a->arena);
    free(a->trees);
    free(a);
    ld->ahead = NULL;
}

/* The tree of the formula of line section @p index parsed ahead, once the second thread has come to it;
 * NULL without one, or when the formula did not parse there. */
static tco_node *tree_ahead(loader *ld, int index)
{
    struct trees_ahead *a = ld->ahead;
    if (a == NULL)
        return NULL;
    while (atomic_load_explicit(&a->done, memory_order_acquire) <= index)
        sched_yield();
    tco_node *tree = a->trees[index];
    a->trees[index] = NULL;
    return tree;
}

tco_error load_line(loader *ld, int index)
{
    const tco_ini *t = ld->template_ini;
    const char *section = tco_ini_section_name(t, index);
    const ini_sec ts = {t, section, index};
    const char *name = section + strlen("line.");
    char where[600];
    tco_str_cat(where, sizeof where, t->path, " [", section, "]", NULL);
    tco_error e = tco_name_check(name, &(tco_place){.file = t->path, .section = section}, ld->diag);
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
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "per"},
                               "expected 'year', 'month', 'tier' (or no key), found '%s'", per);
        if (tiered && ld->model->n_tiers == 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "per"},
                               "per = tier needs [model] tiers = FILE");
    }
    if (tco_model_find(ld->model, name) >= 0)
        return tco_diag_at(ld->diag, TCO_ERR_DUPLICATE, &(tco_place){.file = t->path, .section = section},
                           "name '%s' is defined twice", name);
    if ((yearly || monthly) && strlen(name) > TCO_NAME_MAX_LEN - strlen("_total"))
        return tco_diag_at(ld->diag, TCO_ERR_BAD_NAME, &(tco_place){.file = t->path, .section = section},
                           "per-year and per-month line names are limited to %zu characters (tco adds '_total')",
                           TCO_NAME_MAX_LEN - strlen("_total"));
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
    bool placed = tco_place_keep(&it->place, &it->place_text,
                                 &(tco_place){.file = t->path, .section = section, .key = "formula"});
    if (it->where == NULL || !placed || (it->label = tco_strdup(label)) == NULL || (it->unit = tco_strdup(unit)) == NULL ||
        (it->sheet = tco_strdup(sheet)) == NULL || (it->source = tco_strdup(source ? source : "")) == NULL)
        return oom(ld);
    it->format = format_for_unit(unit, false);
    if ((e = yes_no(ld, &ts, "total", &it->emphasis)) != TCO_OK)
        return e;
    const char *sum = sec_get(&ts, "sum");
    if (sum != NULL) {
        if (!yearly && !monthly)
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "sum"},
                               "only a per-year or per-month line has a total");
        if (strcasecmp(sum, "no") == 0)
            it->no_total = true;
        else if (strcasecmp(sum, "yes") != 0)
            return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "sum"},
                               "expected yes or no, found '%s'", sum);
    }
    const char *fmt = sec_get(&ts, "format");
    if (fmt != NULL && (e = parse_format(ld, section, fmt, &it->format)) != TCO_OK)
        return e;
    const char *type = sec_get(&ts, "type");
    if (type != NULL && (strcasecmp(type, "text") != 0 || yearly || tiered || monthly))
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "type"},
                           "expected text on a scalar line (or no key), found '%s'", type);
    it->text_line = type != NULL;
    const char *warning = sec_get(&ts, "warning");
    if (warning != NULL && (yearly || tiered || monthly))
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = section, .key = "warning"},
                           "only a scalar line (no per key) can warn");
    if (warning != NULL && warning[0] != '\0' && (it->warning = tco_strdup(warning)) == NULL)
        return oom(ld);
    if (sec_get(&ts, "warning_if") != NULL && it->warning == NULL)
        return tco_diag_at(ld->diag, TCO_ERR_INI,
                           &(tco_place){.file = t->path, .section = section, .key = "warning_if"},
                           "needs a warning key beside it");
    if ((it->formula = tree_ahead(ld, index)) != NULL)
        return TCO_OK;
    return tco_formula_parse_in(formula, &it->place, &ld->model->trees, &it->formula, ld->diag);
}

/* A scalar number item (input, line or per-year total), for warnings. */
static bool scalar_number(const tco_item *it)
{
    return tco_item_dim(it) == 0 && it->kind != TCO_ITEM_YEAR_INDEX && !it->text_line &&
           !(it->kind == TCO_ITEM_INPUT && it->text != NULL);
}

tco_error add_builtin(loader *ld, tco_item_kind kind, const char *name, const char *what, const char *label,
                             const char *unit, const char *source)
{
    if (tco_model_find(ld->model, name) >= 0)
        return tco_diag_at(ld->diag, TCO_ERR_DUPLICATE, &(tco_place){.file = ld->template_ini->path},
                           "'%s' is built in (%s) and cannot be an input or line name", name, what);
    tco_item *it = add_item(ld, kind, name);
    if (it == NULL || (it->label = tco_strdup(label)) == NULL || (it->unit = tco_strdup(unit)) == NULL ||
        (source && (it->source = tco_strdup(source)) == NULL))
        return oom(ld);
    return TCO_OK;
}

tco_error bind_warnings(loader *ld)
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
                return tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                                   &(tco_place){.file = t->path, .section = section, .key = "warning_if"},
                                   "expected the name of a number input or scalar line, found '%s'", cond);
            it->warning_if = c;
        }
        for (const char *p = it->warning; (p = strchr(p, '{')) != NULL;) {
            const char *end = strchr(p, '}');
            char name[TCO_NAME_MAX_LEN + 1];
            size_t n = end ? (size_t)(end - p - 1) : 0;
            if (end == NULL || n == 0 || n > TCO_NAME_MAX_LEN)
                return tco_diag_at(ld->diag, TCO_ERR_INI,
                                   &(tco_place){.file = t->path, .section = section, .key = "warning"},
                                   "expected {NAME} (a name of at most %d characters in braces) at '%.*s'",
                                   TCO_NAME_MAX_LEN, (int)tco_utf8_prefix(p, 40), p);
            memcpy(name, p + 1, n);
            name[n] = '\0';
            int idx = tco_model_find(m, name);
            if (idx < 0 || !(scalar_number(&m->items[idx]) || m->items[idx].kind == TCO_ITEM_INPUT))
                return tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                                   &(tco_place){.file = t->path, .section = section, .key = "warning"},
                                   "{%s} is not the name of an input or scalar line", name);
            p = end + 1;
        }
    }
    return TCO_OK;
}
