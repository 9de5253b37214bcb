/* budget.c - the cash flow and the budget of the JSON report: [model] cash_flow, and budget_start,
 * fiscal_year_start, budget and budget_total (the months of the per-month lines). */
#include "load/loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "model/bind.h"

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
        return tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = key_name},
                           "expected KEY:LINE, ... found '%s'", spec);
    *keys = calloc((size_t)n, sizeof **keys);
    *items = calloc((size_t)n, sizeof **items);
    tco_error e = *keys && *items ? TCO_OK : oom(ld);
    for (int i = 0; i < n && e == TCO_OK; i++) {
        char *colon = strchr(list[i], ':');
        int idx = colon ? tco_model_find(m, colon + 1) : -1;
        if (colon == NULL || colon == list[i] || strspn(list[i], "abcdefghijklmnopqrstuvwxyz_") != (size_t)(colon - list[i]))
            e = tco_diag_at(ld->diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = key_name},
                            "expected KEY:LINE with KEY in a-z and _, found '%s'", list[i]);
        else if (idx < 0 || m->items[idx].kind != kind || m->items[idx].on_schedule)
            e = tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                            &(tco_place){.file = t->path, .section = "model", .key = key_name},
                            "'%s' is not a %s line%s", colon + 1, kind == TCO_ITEM_MONTHLY ? "per-month" : "per-year",
                            idx >= 0 && m->items[idx].on_schedule ? " of the analysis period (it is on the schedule "
                                                                     "sheet, which runs past Year N)" : "");
        else {
            *colon = '\0';
            for (const char *const *r = reserved; e == TCO_OK && *r; r++)
                if (strcmp(list[i], *r) == 0)
                    e = tco_diag_at(ld->diag, TCO_ERR_INI,
                                    &(tco_place){.file = t->path, .section = "model", .key = key_name},
                                    "'%s' is a key of its own and cannot name a line", list[i]);
            if (e == TCO_OK && ((*keys)[*n_out] = tco_strdup(list[i])) == NULL)
                e = oom(ld);
            if (e == TCO_OK)
                (*items)[(*n_out)++] = idx;
        }
    }
    /* Each KEY once (the loop left the keys in the list): the JSON object would hold it twice. */
    if (e == TCO_OK)
        e = tco_list_check_set(list, n, TCO_ERR_DUPLICATE,
                               &(tco_place){.file = t->path, .section = "model", .key = key_name}, ld->diag);
    tco_free_list(list, n);
    return e;
}

tco_error load_cash_flow(loader *ld)
{
    static const char *const reserved[] = {"periods", NULL};
    tco_model *m = ld->model;
    return load_key_lines(ld, "cash_flow", TCO_ITEM_YEARLY, reserved, &m->cash_flow_keys, &m->cash_flow_items,
                          &m->n_cash_flow);
}

tco_error load_budget(loader *ld)
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
            return tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                               &(tco_place){.file = t->path, .section = "model", .key = "budget_start"},
                               "expected the name of a text input (YYYY-MM), found '%s'", start);
        if (strlen(v) != 7 || sscanf(v, "%4d-%2d%c", &y, &mo, &tail) != 2 || v[4] != '-' ||
            strspn(v, "0123456789") != 4 || strspn(v + 5, "0123456789") != 2 || y < 1900 || y > 9999 || mo < 1 ||
            mo > 12)
            return value_refused(ld, &m->items[i], "expected the first month as YYYY-MM (e.g. 2027-01), found '%s'",
                                 v);
        /* The last month, and the last fiscal year's label, must stay within four-digit years. */
        long last = (long)y * 12 + (mo - 1) + m->n_months; /* one past the last month; fiscal year may end a year on */
        if (last / 12 > 9998)
            return value_refused(ld, &m->items[i], "the budget's %d months from %s would run past 9998-12 (months and "
                                 "fiscal years are written with four-digit years)", m->n_months, v);
        m->start_year = y;
        m->start_month = mo;
    }
    const char *fy = tco_ini_get(t, "model", "fiscal_year_start");
    if (fy != NULL) {
        int i = tco_model_find(m, fy);
        if (i < 0 || m->items[i].kind != TCO_ITEM_INPUT || m->items[i].text != NULL || !m->items[i].integer ||
            m->items[i].value < 1 || m->items[i].value > 12)
            return tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                               &(tco_place){.file = t->path, .section = "model", .key = "fiscal_year_start"},
                               "expected the name of a whole-number input from 1 to 12, found '%s'", fy);
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
            return tco_diag_at(ld->diag, TCO_ERR_UNKNOWN_NAME,
                               &(tco_place){.file = t->path, .section = "model", .key = "budget_total"},
                               "expected the name of a scalar line or total, found '%s'", total);
    }
    return TCO_OK;
}
