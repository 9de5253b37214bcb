/* bind.c - bind the names in a loaded model's formulas to its items, and order the items so that each
 * comes after what it reads (bind.h). */
#include "model/bind.h"

#include <stdlib.h>

#include "model/formula.h"
#include "base/strbuf.h"

typedef struct bind_ctx {
    tco_model *m;
    tco_diag *diag;
    tco_item *owner;
} bind_ctx;

int tco_item_dim(const tco_item *it)
{
    switch (it->kind) {
    case TCO_ITEM_YEARLY: case TCO_ITEM_YEAR_INDEX: return 1;
    case TCO_ITEM_TIER_INPUT: case TCO_ITEM_TIER_LINE: case TCO_ITEM_TIER_CODE: return 2;
    case TCO_ITEM_MONTHLY: case TCO_ITEM_MONTH_INDEX: return 3;
    default: return 0;
    }
}

static const char *const dim_words[] = {"scalar", "per-year", "per-tier", "per-month"};

int tco_item_periods(const tco_model *m, const tco_item *it)
{
    if (it->kind == TCO_ITEM_TOTAL && it->partner >= 0)
        it = &m->items[it->partner];
    if (it->kind == TCO_ITEM_MONTHLY)
        return m->n_months;
    if (it->kind != TCO_ITEM_YEARLY)
        return 0;
    return it->on_schedule ? m->n_schedule_periods : m->n_periods;
}

/* The place of the character column @p n->col of @p owner's formula, for tco_diag_at(). */
#define AT_COL(owner, n) ((const tco_place[]){tco_place_column(&(owner)->place, (long)(n)->col)})

static tco_error bind_name(bind_ctx *bc, tco_node *n, bool aggregate)
{
    tco_model *m = bc->m;
    int idx = tco_model_find(m, n->name);
    if (idx < 0) {
        const char *best = NULL;
        size_t best_d = 3;
        for (size_t i = 0; i < m->n_items; i++) {
            size_t d = tco_edit_distance(n->name, m->items[i].name);
            if (d < best_d)
                best_d = d, best = m->items[i].name;
        }
        if (best)
            return tco_diag_at(bc->diag, TCO_ERR_UNKNOWN_NAME, AT_COL(bc->owner, n),
                               "unknown name '%s' (did you mean '%s'?)", n->name, best);
        return tco_diag_at(bc->diag, TCO_ERR_UNKNOWN_NAME, AT_COL(bc->owner, n),
                           "unknown name '%s'; it is neither an [input.%s] nor a [line.%s]",
                           n->name, n->name, n->name);
    }
    const tco_item *target = &m->items[idx];
    int own = tco_item_dim(bc->owner), dim = tco_item_dim(target);
    if (target->kind == TCO_ITEM_YEAR_INDEX && own != 1)
        return tco_diag_at(bc->diag, TCO_ERR_UNKNOWN_NAME, AT_COL(bc->owner, n),
                           "'year' is only defined in per-year lines (per = year; a per-month line "
                           "has 'month', and ROUNDUP(month / 12, 0) is its year)");
    if (target->kind == TCO_ITEM_MONTH_INDEX && own != 3)
        return tco_diag_at(bc->diag, TCO_ERR_UNKNOWN_NAME, AT_COL(bc->owner, n),
                           "'month' is only defined in per-month lines (per = month)");
    /* A schedule line runs past Year N: a per-year line that stops there has no value for it. */
    if (bc->owner->on_schedule && target->kind == TCO_ITEM_YEARLY && !target->on_schedule)
        return tco_diag_at(bc->diag, TCO_ERR_UNKNOWN_NAME, AT_COL(bc->owner, n),
                           "'%s' is a per-year line of the analysis period (to Year N), and this "
                           "line is on the schedule sheet, which runs past it; use a line of the schedule sheet, "
                           "or '%s_total'", n->name, target->name);
    /* A per-month line reads a per-year line in the year its month falls in. */
    bool year_in_month = own == 3 && dim == 1;
    if (dim != 0 && dim != own && !aggregate && !year_in_month) {
        if (target->kind == TCO_ITEM_YEARLY && own == 0)
            return tco_diag_at(bc->diag, TCO_ERR_UNKNOWN_NAME, AT_COL(bc->owner, n),
                               "'%s' is a per-year line and this line is not; use '%s_total' "
                               "for its total over all years",
                               n->name, target->name);
        return tco_diag_at(bc->diag, TCO_ERR_UNKNOWN_NAME, AT_COL(bc->owner, n),
                           "'%s' is %s and this line is %s; use SUM(%s), MIN(%s) or MAX(%s) "
                           "for its whole %s",
                           n->name, dim_words[dim], dim_words[own], n->name, n->name,
                           n->name, dim == 1 ? "row" : "column");
    }
    n->ref = idx;
    return TCO_OK;
}

/* Bind every name under @p node; a name that is the only argument of SUM/MIN/MAX may be a whole vector. */
static tco_error bind_node(bind_ctx *bc, tco_node *node, bool aggregate)
{
    if (node->kind == TCO_NODE_NAME)
        return bind_name(bc, node, aggregate);
    if (node->kind == TCO_NODE_CALL && node->func == TCO_FN_CUMSUM) {
        const tco_node *arg = node->args[0];
        int idx = arg->kind == TCO_NODE_NAME ? tco_model_find(bc->m, arg->name) : -1;
        if ((bc->owner->kind != TCO_ITEM_YEARLY && bc->owner->kind != TCO_ITEM_MONTHLY) || idx < 0 ||
            bc->m->items[idx].kind != bc->owner->kind ||
            bc->m->items[idx].on_schedule != bc->owner->on_schedule)
            return tco_diag_at(bc->diag, TCO_ERR_SYNTAX, AT_COL(bc->owner, node),
                               "CUMSUM takes the name of a per-year (per-month) line, inside a "
                               "per-year (per-month) line of the same time line (the schedule sheet's or the "
                               "analysis period's)");
        return bind_name(bc, node->args[0], true);
    }
    for (size_t i = 0; i < node->nargs; i++) {
        tco_error e = bind_node(bc, node->args[i], tco_formula_vector_arg(node, i));
        if (e != TCO_OK)
            return e;
    }
    return TCO_OK;
}

typedef struct dep_ctx {
    tco_model *m;
    tco_diag *diag;
    int *stack;
    size_t depth;
} dep_ctx;

static tco_error visit_item(dep_ctx *dc, int idx);

static tco_error visit_dep(void *vctx, tco_node *n)
{
    return visit_item(vctx, n->ref);
}

/* Depth-first topological order; mark 0 = new, 1 = on the stack, 2 = done. */
static tco_error visit_item(dep_ctx *dc, int idx)
{
    tco_model *m = dc->m;
    tco_item *it = &m->items[idx];
    if (it->mark == 2)
        return TCO_OK;
    if (it->mark == 1) {
        tco_strbuf b = {0};
        size_t start = 0;
        for (size_t i = 0; i < dc->depth; i++)
            if (dc->stack[i] == idx)
                start = i;
        for (size_t i = start; i < dc->depth; i++)
            tco_strbuf_printf(&b, "%s -> ", m->items[dc->stack[i]].name);
        tco_strbuf_append(&b, it->name);
        const tco_item *first = &m->items[dc->stack[start]];
        tco_error e = first->where ? tco_diag_at(dc->diag, TCO_ERR_CYCLE, &first->place, "circular reference: %s",
                                                 tco_strbuf_str(&b))
                                   : tco_diag_set(dc->diag, TCO_ERR_CYCLE, "%s: circular reference: %s", first->name,
                                                 tco_strbuf_str(&b));
        tco_strbuf_free(&b);
        return e;
    }
    it->mark = 1;
    dc->stack[dc->depth++] = idx;
    tco_error e = TCO_OK;
    if (it->formula)
        e = tco_formula_walk_names(it->formula, visit_dep, dc);
    else if (it->kind == TCO_ITEM_TOTAL)
        e = visit_item(dc, it->partner);
    if (e != TCO_OK)
        return e;
    dc->depth--;
    it->mark = 2;
    m->order[m->n_order++] = idx;
    return TCO_OK;
}

tco_error tco_model_bind(tco_model *m, tco_diag *diag)
{
    for (size_t i = 0; i < m->n_items; i++) {
        if (m->items[i].formula == NULL)
            continue;
        bind_ctx bc = {m, diag, &m->items[i]};
        tco_error e = bind_node(&bc, m->items[i].formula, false);
        if (e != TCO_OK)
            return e;
    }
    return TCO_OK;
}

tco_error tco_model_order(tco_model *m, tco_diag *diag)
{
    m->order = calloc(m->n_items, sizeof *m->order);
    int *stack = calloc(m->n_items + 1, sizeof *stack);
    if (m->order == NULL || stack == NULL) {
        free(stack);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory while loading the model");
    }
    dep_ctx dc = {m, diag, stack, 0};
    tco_error e = TCO_OK;
    for (size_t i = 0; i < m->n_items && e == TCO_OK; i++)
        e = visit_item(&dc, (int)i);
    free(stack);
    return e;
}
