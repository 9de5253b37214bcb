/* model.c - the model's items: add one, find one by name, what a set of items needs, whether two models
 * have one shape, the year of a month, whether a unit is money, and freeing the whole model.  The core
 * every floor above uses (model.h); loading is load/, evaluating evaluate.c. */
#include "model/model.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"

int tco_model_find(const tco_model *model, const char *name)
{
    size_t i;
    if (model->names.cap == 0) { /* a model not built by tco_model_add_item() */
        for (i = 0; i < model->n_items; i++)
            if (strcasecmp(model->items[i].name, name) == 0)
                return (int)i;
        return -1;
    }
    return tco_name_index_get(&model->names, name, &i) ? (int)i : -1;
}

bool tco_model_reserve_items(tco_model *m, size_t n)
{
    if (n <= m->cap_items)
        return true;
    tco_item *grown = realloc(m->items, n * sizeof *grown);
    if (grown == NULL)
        return false;
    m->items = grown;
    m->cap_items = n;
    return true;
}

tco_item *tco_model_add_item(tco_model *m, tco_item_kind kind, const char *name)
{
    if (m->n_items == m->cap_items && !tco_model_reserve_items(m, m->cap_items ? m->cap_items * 2 : 256))
        return NULL;
    tco_item *it = &m->items[m->n_items];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->partner = -1;
    it->min = it->max = it->least = NAN;
    it->name = tco_strdup(name);
    if (it->name == NULL)
        return NULL;
    for (char *p = it->name; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    bool added;
    size_t *slot = tco_name_index_put(&m->names, it->name, &added); /* the first item of a name keeps it */
    if (slot == NULL) {
        free(it->name);
        return NULL;
    }
    if (added)
        *slot = m->n_items;
    m->n_items++;
    return it;
}

int tco_model_year_of_month(const tco_model *m, int month)
{
    return month / 12 + (m->first_year == 0 ? 1 : 0);
}

/* Mark in @p needed every item a NAME of @p n stands for. */
static void mark_names(const tco_node *n, unsigned char *needed)
{
    if (n->kind == TCO_NODE_NAME && n->ref >= 0)
        needed[n->ref] = 1;
    for (size_t i = 0; i < n->nargs; i++)
        mark_names(n->args[i], needed);
}

void tco_model_needed(const tco_model *m, const int *targets, size_t n, unsigned char *needed)
{
    memset(needed, 0, m->n_items ? m->n_items : 1);
    for (size_t k = 0; k < n; k++)
        if (targets[k] >= 0 && (size_t)targets[k] < m->n_items)
            needed[targets[k]] = 1;
    /* One pass back through the dependency order: the names of an item come before it. */
    for (size_t k = m->n_order; k-- > 0;) {
        const tco_item *it = &m->items[m->order[k]];
        if (!needed[m->order[k]])
            continue;
        if (it->formula)
            mark_names(it->formula, needed);
        if (it->kind == TCO_ITEM_TOTAL && it->partner >= 0)
            needed[it->partner] = 1;
    }
}

/* The same formula: node by node, the same kinds, operators, functions, constants (to the bit),
 * names and their bindings. */
static bool same_node(const tco_node *x, const tco_node *y)
{
    if (x == NULL || y == NULL)
        return x == y;
    if (x->kind != y->kind || x->op != y->op || x->func != y->func || x->ref != y->ref || x->nargs != y->nargs ||
        memcmp(&x->number, &y->number, sizeof x->number) != 0 || (x->name == NULL) != (y->name == NULL) ||
        (x->name && strcmp(x->name, y->name) != 0))
        return false;
    for (size_t i = 0; i < x->nargs; i++)
        if (!same_node(x->args[i], y->args[i]))
            return false;
    return true;
}

bool tco_model_same_shape(const tco_model *a, const tco_model *b)
{
    if (a->n_items != b->n_items || a->n_order != b->n_order || a->n_tiers != b->n_tiers ||
        a->n_periods != b->n_periods || a->n_schedule_periods != b->n_schedule_periods || a->n_months != b->n_months ||
        a->first_year != b->first_year || a->n_years != b->n_years ||
        (a->n_order && memcmp(a->order, b->order, a->n_order * sizeof *a->order) != 0))
        return false;
    for (int r = 0; r < a->n_tiers; r++)
        if (strcmp(a->tier_names[r], b->tier_names[r]) != 0)
            return false;
    for (size_t i = 0; i < a->n_items; i++) {
        const tco_item *x = &a->items[i], *y = &b->items[i];
        bool input = x->kind == TCO_ITEM_INPUT || x->kind == TCO_ITEM_ERROR_COUNT; /* a line's text is a result */
        if (x->kind != y->kind || x->partner != y->partner || x->on_schedule != y->on_schedule ||
            (input && (x->text == NULL) != (y->text == NULL)) || (x->tier_texts == NULL) != (y->tier_texts == NULL) ||
            strcmp(x->name, y->name) != 0 || !same_node(x->formula, y->formula))
            return false;
    }
    return true;
}

bool tco_unit_is_money(const char *unit)
{
    return unit && strncmp(unit, "CNY", 3) == 0 && (unit[3] == '\0' || unit[3] == '/');
}

bool tco_place_keep(tco_place *dst, char **text, const tco_place *src)
{
    const char *const from[] = {src->file, src->column_name, src->section, src->key, src->arg, src->part};
    size_t need = 0;
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++)
        need += from[i] ? strlen(from[i]) + 1 : 0;
    *dst = (tco_place){0};
    *text = need ? malloc(need) : NULL;
    if (need && *text == NULL)
        return false;
    const char *to[sizeof from / sizeof from[0]] = {NULL};
    char *at = *text;
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++)
        if (from[i]) {
            size_t n = strlen(from[i]) + 1;
            memcpy(at, from[i], n);
            to[i] = at;
            at += n;
        }
    *dst = (tco_place){.file = to[0], .line = src->line, .column = src->column, .column_name = to[1],
                       .section = to[2], .key = to[3], .char_column = src->char_column, .arg = to[4],
                       .part = to[5]};
    return true;
}
