/* conventions.c - input status, capex by price status, the Conventions sheet's rows (conventions.h). */
#include "model/conventions.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/text.h"

static const char *const status_names[TCO_STATUS_COUNT_OF] = {
    [TCO_STATUS_ILLUSTRATIVE] = "illustrative", [TCO_STATUS_WHATIF] = "what-if",
    [TCO_STATUS_STATED] = "stated",             [TCO_STATUS_SEED] = "seed figure",
    [TCO_STATUS_MEASURED] = "measured",         [TCO_STATUS_QUOTE] = "quote",
};

static const char *const status_meanings[TCO_STATUS_COUNT_OF] = {
    [TCO_STATUS_QUOTE] = "priced by a vendor quote (--quotes, the Quotes sheet), valid on the as-of date",
    [TCO_STATUS_MEASURED] = "measured: its basis (KEY_source) starts \"measured\"",
    [TCO_STATUS_SEED] = "a figure of the seed guide (\"seed §N\"): docs/sources.md states each one by section",
    [TCO_STATUS_ILLUSTRATIVE] = "illustrative: a placeholder with no quote or seed figure behind it; replace it "
                                "with a quote or a measurement before relying on the result",
    [TCO_STATUS_WHATIF] = "what-if: given by --set for this run, not by the scenario or catalog files",
    [TCO_STATUS_STATED] = "stated by the scenario, catalog or template (a choice, a default, a statute or a unit "
                          "conversion), with no quote, measurement or seed figure",
};

const char *tco_status_name(tco_status s)
{
    return s >= 0 && s < TCO_STATUS_COUNT_OF ? status_names[s] : "stated";
}

const char *tco_status_meaning(tco_status s)
{
    return s >= 0 && s < TCO_STATUS_COUNT_OF ? status_meanings[s] : "";
}

/* The status a basis text gives, for a value a file (not --set, not a quote) gave. */
static tco_status of_basis(const char *basis)
{
    if (basis == NULL)
        return TCO_STATUS_STATED;
    while (*basis == ' ')
        basis++;
    if (strncasecmp(basis, "measured", 8) == 0)
        return TCO_STATUS_MEASURED;
    if (strncasecmp(basis, "seed \xC2\xA7", 7) == 0) /* "seed §" */
        return TCO_STATUS_SEED;
    for (const char *p = basis; *p; p++)
        if (strncasecmp(p, "illustrative", 12) == 0)
            return TCO_STATUS_ILLUSTRATIVE;
    return TCO_STATUS_STATED;
}

/* A value given by --set: measured when a --set basis says so, else a what-if. */
static tco_status of_set(const char *basis)
{
    return of_basis(basis) == TCO_STATUS_MEASURED ? TCO_STATUS_MEASURED : TCO_STATUS_WHATIF;
}

tco_status tco_status_of_input(const tco_item *it)
{
    if (it->quoted)
        return TCO_STATUS_QUOTE;
    if (it->source && strncmp(it->source, "--set ", 6) == 0)
        return of_set(it->basis);
    return of_basis(it->basis);
}

tco_status tco_status_of_tier_row(const tco_model *m, const tco_item *it, int row)
{
    if (row < 0 || row >= m->n_tiers)
        return TCO_STATUS_STATED;
    if (m->quotes && it->tier_quotes && it->tier_quotes[row] >= 0)
        return TCO_STATUS_QUOTE;
    const char *basis = it->tier_bases ? it->tier_bases[row] : NULL;
    if (it->tier_set && it->tier_set[row])
        return of_set(basis);
    return of_basis(basis);
}

bool tco_price_tier_lookup(const tco_model *m, int idx, int *tier_input, int *row_item)
{
    const tco_item *it = &m->items[idx];
    const tco_node *f = it->formula;
    if (it->kind != TCO_ITEM_LINE || f == NULL || f->kind != TCO_NODE_CALL || f->func != TCO_FN_INDEX ||
        f->nargs != 2 || f->args[0]->kind != TCO_NODE_NAME || f->args[0]->ref < 0 ||
        f->args[1]->kind != TCO_NODE_NAME || f->args[1]->ref < 0 || m->items[f->args[0]->ref].kind != TCO_ITEM_TIER_INPUT)
        return false;
    *tier_input = f->args[0]->ref;
    *row_item = f->args[1]->ref;
    return true;
}

tco_status tco_status_of_price(const tco_model *m, int idx)
{
    const tco_item *it = &m->items[idx];
    if (it->kind == TCO_ITEM_INPUT)
        return tco_status_of_input(it);
    /* A line INDEX(TIER_INPUT, ROW): the row of the tier table the model chose. */
    int tier_input, row_item;
    if (tco_price_tier_lookup(m, idx, &tier_input, &row_item)) {
        double row = m->items[row_item].value;
        if (isfinite(row) && row >= 1 && row <= m->n_tiers)
            return tco_status_of_tier_row(m, &m->items[tier_input], (int)row - 1);
    }
    return TCO_STATUS_STATED;
}

tco_status tco_capex_status(const tco_model *m, size_t k)
{
    const tco_capex_basis *c = &m->capex_basis[k];
    tco_status s = TCO_STATUS_QUOTE;
    bool estimated = false;
    for (size_t p = 0; p < c->n_prices; p++) {
        tco_status ps = tco_status_of_price(m, c->prices[p]);
        if (ps == TCO_STATUS_STATED)
            continue; /* a choice, a default or a statute, not an estimate: it weakens none */
        estimated = true;
        if (ps < s)
            s = ps;
    }
    return estimated ? s : TCO_STATUS_STATED;
}

static tco_error oom(tco_diag *diag)
{
    return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
}

/* [model] capex_prices = LINE:PRICE PRICE, ... */
static tco_error load_capex_prices(tco_model *m, const tco_ini *t, tco_diag *diag)
{
    const char *v = tco_ini_get(t, "model", "capex_prices");
    if (v == NULL)
        return TCO_OK;
    char **list;
    int n = tco_split_list(v, &list);
    if (n <= 0)
        return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = "capex_prices"},
                           "expected LINE:PRICE ..., ... found '%s'", v);
    m->capex_basis = calloc((size_t)n, sizeof *m->capex_basis);
    if (m->capex_basis == NULL) {
        tco_free_list(list, n);
        return oom(diag);
    }
    tco_error e = TCO_OK;
    for (int i = 0; i < n && e == TCO_OK; i++) {
        char *colon = strchr(list[i], ':');
        if (colon == NULL || colon == list[i] || colon[1] == '\0') {
            e = tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = "capex_prices"},
                            "expected LINE:PRICE ..., found '%s'", list[i]);
            break;
        }
        *colon = '\0';
        int line = tco_model_find(m, list[i]);
        if (line < 0 || m->items[line].kind != TCO_ITEM_LINE || m->items[line].text_line ||
            !tco_unit_is_money(m->items[line].unit)) {
            e = tco_diag_at(diag, TCO_ERR_UNKNOWN_NAME,
                            &(tco_place){.file = t->path, .section = "model", .key = "capex_prices"},
                            "expected a scalar line in money before ':', found '%s'", list[i]);
            break;
        }
        tco_capex_basis *c = &m->capex_basis[m->n_capex_basis++];
        c->line = line;
        /* The prices: names separated by blanks. */
        for (char *p = colon + 1; *p && e == TCO_OK;) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p == '\0')
                break;
            char *end = p;
            while (*end && *end != ' ' && *end != '\t')
                end++;
            char save = *end;
            *end = '\0';
            int idx = tco_model_find(m, p);
            if (idx < 0 || (m->items[idx].kind != TCO_ITEM_INPUT && m->items[idx].kind != TCO_ITEM_LINE))
                e = tco_diag_at(diag, TCO_ERR_UNKNOWN_NAME,
                                &(tco_place){.file = t->path, .section = "model", .key = "capex_prices"},
                                "line %s: expected the name of a price (an input or a line), found '%s'", list[i], p);
            else {
                int *grown = realloc(c->prices, (c->n_prices + 1) * sizeof *grown);
                if (grown == NULL)
                    e = oom(diag);
                else {
                    c->prices = grown;
                    c->prices[c->n_prices++] = idx;
                }
            }
            *end = save;
            p = end;
        }
        if (e == TCO_OK && c->n_prices == 0)
            e = tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = "model", .key = "capex_prices"},
                            "line %s names no price", list[i]);
    }
    /* Each LINE once (the loop left the lines in the list): a second would be a second basis for it. */
    if (e == TCO_OK)
        e = tco_list_check_set(list, n, TCO_ERR_DUPLICATE,
                               &(tco_place){.file = t->path, .section = "model", .key = "capex_prices"}, diag);
    tco_free_list(list, n);
    return e;
}

/* The [convention.NAME] sections, in template order. */
static tco_error load_rows(tco_model *m, const tco_ini *t, tco_diag *diag)
{
    for (int i = 0; i < tco_ini_section_count(t); i++) {
        const char *sec = tco_ini_section_name(t, i);
        if (strncmp(sec, "convention.", 11) != 0)
            continue;
        int nk;
        const char **keys = tco_ini_keys(t, sec, &nk);
        for (int k = 0; k < nk; k++) {
            const char *key = strchr(keys[k], ':') + 1;
            if (strcmp(key, "label") != 0 && strcmp(key, "value") != 0 && strcmp(key, "text") != 0) {
                tco_error e = tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = sec, .key = key},
                                          "unknown key; expected one of: label, value, text");
                free(keys);
                return e;
            }
        }
        free(keys);
        const char *label = tco_ini_get(t, sec, "label"), *value = tco_ini_get(t, sec, "value"),
                   *text = tco_ini_get(t, sec, "text");
        if (label == NULL || label[0] == '\0')
            return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = sec, .key = "label"},
                               "expected a label, found none");
        if ((value == NULL || value[0] == '\0') && (text == NULL || text[0] == '\0'))
            return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = t->path, .section = sec},
                               "expected a value (an input or line name) or a text");
        int idx = -1;
        if (value && value[0]) {
            idx = tco_model_find(m, value);
            if (idx < 0 || (m->items[idx].kind != TCO_ITEM_INPUT && m->items[idx].kind != TCO_ITEM_LINE))
                return tco_diag_at(diag, TCO_ERR_UNKNOWN_NAME,
                                   &(tco_place){.file = t->path, .section = sec, .key = "value"},
                                   "expected the name of a scalar input or line, found '%s'", value);
        }
        tco_convention *grown = realloc(m->conventions, (m->n_conventions + 1) * sizeof *grown);
        if (grown == NULL)
            return oom(diag);
        m->conventions = grown;
        tco_convention *c = &m->conventions[m->n_conventions];
        c->label = tco_strdup(label);
        c->value = idx;
        c->text = text && text[0] ? tco_strdup(text) : NULL;
        m->n_conventions++;
        if (c->label == NULL || (text && text[0] && c->text == NULL))
            return oom(diag);
    }
    return TCO_OK;
}

tco_error tco_conventions_load(tco_model *m, const tco_ini *t, tco_diag *diag)
{
    tco_error e = load_capex_prices(m, t, diag);
    return e != TCO_OK ? e : load_rows(m, t, diag);
}

void tco_conventions_free(tco_model *m)
{
    for (size_t k = 0; k < m->n_capex_basis; k++)
        free(m->capex_basis[k].prices);
    free(m->capex_basis);
    m->capex_basis = NULL;
    m->n_capex_basis = 0;
    for (size_t k = 0; k < m->n_conventions; k++) {
        free(m->conventions[k].label);
        free(m->conventions[k].text);
    }
    free(m->conventions);
    m->conventions = NULL;
    m->n_conventions = 0;
}
