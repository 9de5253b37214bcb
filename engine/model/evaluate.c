/* evaluate.c - evaluate a loaded model: every line in dependency order, by the formula engine, with
 * the values of its names by year, month or tier; inputs changed in place (what-ifs, tests). */
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/program.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "model/ranges.h"
#include "base/utf8.h"
#include "model/bind.h"
#include "model/evaluate.h"
#include "model/conventions.h"

void tco_model_month_label(const tco_model *m, int month, char out[16])
{
    int k = m->start_month - 1 + month;
    snprintf(out, 16, "%04d-%02d", m->start_year + k / 12, k % 12 + 1);
}

int tco_model_fiscal_year(const tco_model *m, int month)
{
    int k = m->start_month - 1 + month; /* months since January of start_year */
    int year = m->start_year + k / 12, cal_month = k % 12 + 1;
    return cal_month >= m->fiscal_start_month ? year : year - 1;
}

void tco_model_fiscal_year_label(const tco_model *m, int fiscal_year, char out[24])
{
    if (m->fiscal_start_month <= 1)
        snprintf(out, 24, "FY%04d", fiscal_year);
    else
        snprintf(out, 24, "FY%04d/%02d", fiscal_year, (fiscal_year + 1) % 100);
}

typedef struct eval_ctx {
    const tco_model *m;
    int year;  /* 0-based year column in a per-year formula (in a per-month one, its month's year), else -1 */
    int tier;  /* 0-based tier row in a per-tier formula, else -1 */
    int month; /* 0-based month in a per-month formula, else -1 */
} eval_ctx;

/* Row @p r of a per-tier item (a tier input, line or the tier codes) into *@p v: text or a number. */
static void tier_row_value(const tco_model *m, const tco_item *it, int r, tco_value *v)
{
    if (it->kind == TCO_ITEM_TIER_CODE)
        v->text = m->tier_names[r];
    else if (it->tier_texts)
        v->text = it->tier_texts[r];
    else
        v->number = it->tiers[r];
}

/* The item NAME node @p n is bound to, with *@p v cleared to the number 0 for the caller to fill. */
static const tco_item *bound_item(const eval_ctx *ec, const tco_node *n, tco_value *v)
{
    v->is_bool = false;
    v->text = NULL;
    v->number = 0;
    return &ec->m->items[n->ref];
}

static tco_error lookup_value(void *vctx, const tco_node *n, tco_value *v, tco_diag *diag)
{
    (void)diag;
    const eval_ctx *ec = vctx;
    const tco_item *it = bound_item(ec, n, v);
    switch (it->kind) {
    case TCO_ITEM_YEARLY: v->number = it->years[ec->year]; break;
    case TCO_ITEM_YEAR_INDEX: v->number = ec->m->first_year + ec->year; break;
    case TCO_ITEM_MONTHLY: v->number = it->years[ec->month]; break;
    case TCO_ITEM_MONTH_INDEX: v->number = ec->month + 1; break;
    case TCO_ITEM_TIER_INPUT: case TCO_ITEM_TIER_LINE: case TCO_ITEM_TIER_CODE:
        tier_row_value(ec->m, it, ec->tier, v);
        break;
    default:
        if (it->text)
            v->text = it->text;
        else
            v->number = it->value;
        break;
    }
    return TCO_OK;
}

/* Every value of a per-year or per-tier item, for SUM/MIN/MAX of a whole row or column. */
static tco_error lookup_vector(void *vctx, const tco_node *n, const double **values, size_t *count, tco_diag *diag)
{
    const eval_ctx *ec = vctx;
    const tco_item *it = &ec->m->items[n->ref];
    *count = 0;
    if (it->kind == TCO_ITEM_YEARLY || it->kind == TCO_ITEM_MONTHLY) {
        *values = it->years;
        *count = (size_t)tco_item_periods(ec->m, it);
    } else if (it->kind == TCO_ITEM_TIER_LINE || (it->kind == TCO_ITEM_TIER_INPUT && it->tier_texts == NULL)) {
        *values = it->tiers;
        *count = (size_t)ec->m->n_tiers;
    } else if (it->kind == TCO_ITEM_TIER_INPUT || it->kind == TCO_ITEM_TIER_CODE) {
        return tco_diag_set(diag, TCO_ERR_EVAL, "'%s' is text; SUM, MIN and MAX need numbers", it->name);
    }
    return TCO_OK;
}

/* One element of a per-tier item, for INDEX and MATCH. */
static tco_error lookup_element(void *vctx, const tco_node *n, size_t k, tco_value *v, size_t *count, tco_diag *diag)
{
    (void)diag;
    const eval_ctx *ec = vctx;
    const tco_item *it = bound_item(ec, n, v);
    /* Per-tier names only: Gnumeric reads INDEX(row, n) of a one-row range as row n (#REF!). */
    *count = tco_item_dim(it) == 2 ? (size_t)ec->m->n_tiers : 0;
    if (k >= *count)
        return TCO_OK;
    tier_row_value(ec->m, it, (int)k, v);
    return TCO_OK;
}

typedef struct explain_ctx {
    const tco_model *m;
    int year, tier, month;
    tco_strbuf *out;
    size_t start; /* offset of the list in out */
    size_t count;
} explain_ctx;

static tco_error explain_name(void *vctx, tco_node *n)
{
    explain_ctx *xc = vctx;
    eval_ctx ec = {xc->m, xc->year, xc->tier, xc->month};
    const tco_item *it = &xc->m->items[n->ref];
    if ((tco_item_dim(it) == 1 && xc->year < 0) || (tco_item_dim(it) == 2 && xc->tier < 0) ||
        (tco_item_dim(it) == 3 && xc->month < 0))
        return TCO_OK; /* a whole row or column: no single value to show */
    tco_value v;
    lookup_value(&ec, n, &v, NULL);
    /* List each name once: look for "name = " at the start or after ", ". */
    tco_strbuf probe = {0};
    tco_strbuf_printf(&probe, "%s = ", n->name);
    const char *text = tco_strbuf_str(xc->out) + xc->start;
    bool seen = strncmp(text, tco_strbuf_str(&probe), probe.len) == 0;
    tco_strbuf_free(&probe);
    tco_strbuf_printf(&probe, ", %s = ", n->name);
    seen = seen || strstr(text, tco_strbuf_str(&probe)) != NULL;
    tco_strbuf_free(&probe);
    if (seen)
        return TCO_OK;
    char num[32];
    tco_format_double(v.number, num);
    if (v.text)
        tco_strbuf_printf(xc->out, "%s%s = \"%s\"", xc->count++ ? ", " : "", n->name, v.text);
    else
        tco_strbuf_printf(xc->out, "%s%s = %s", xc->count++ ? ", " : "", n->name, num);
    return TCO_OK;
}

/* Above this magnitude no input of a budget is plausible: a thousand trillion (CNY, cards, kW, tokens...;
 * the largest `max` of the shipped template is 1e15 training tokens).  An evaluation error whose line reads
 * an input past it is blamed on that input first (eval_item()). */
#define IMPLAUSIBLE_MAGNITUDE 1e15

/* The given input of largest magnitude that a failing line reads, directly or through the lines it
 * reads: the item, its tier row (-1 for a scalar input) and value. */
typedef struct culprit {
    const tco_model *m;
    int *stack, *stack_tier; /* the lines still to look into, with their tier context (-1: every row) */
    size_t depth;
    unsigned char *seen;
    int tier;                /* the tier context of the formula being walked */
    int item, row;
    double value;
} culprit;

static void culprit_consider(culprit *c, int item, int row, double v)
{
    if (isfinite(v) && (c->item < 0 || fabs(v) > fabs(c->value))) {
        c->item = item;
        c->row = row;
        c->value = v;
    }
}

static void culprit_rows(culprit *c, int item, int tier)
{
    const tco_item *it = &c->m->items[item];
    if (it->tiers == NULL || it->tier_texts != NULL)
        return;
    for (int r = tier >= 0 ? tier : 0; r < (tier >= 0 ? tier + 1 : c->m->n_tiers); r++)
        culprit_consider(c, item, r, it->tiers[r]);
}

static tco_error culprit_name(void *vctx, tco_node *n)
{
    culprit *c = vctx;
    const tco_model *m = c->m;
    int idx = n->ref;
    if (idx < 0 || (size_t)idx >= m->n_items)
        return TCO_OK;
    const tco_item *it = &m->items[idx];
    switch (it->kind) {
    case TCO_ITEM_INPUT:
        if (it->text == NULL)
            culprit_consider(c, idx, -1, it->value);
        return TCO_OK;
    case TCO_ITEM_TIER_INPUT:
        culprit_rows(c, idx, c->tier);
        return TCO_OK;
    case TCO_ITEM_LINE: case TCO_ITEM_YEARLY: case TCO_ITEM_MONTHLY: case TCO_ITEM_TIER_LINE: case TCO_ITEM_TOTAL:
        break;
    default:
        return TCO_OK;
    }
    if (it->kind == TCO_ITEM_TOTAL && (idx = it->partner) < 0)
        return TCO_OK;
    int tier_input, row_item;
    if (tco_price_tier_lookup(m, idx, &tier_input, &row_item)) { /* INDEX(TIER_INPUT, ROW): the row it takes */
        double row = m->items[row_item].value;
        if (isfinite(row) && row >= 1 && row <= m->n_tiers) {
            culprit_rows(c, tier_input, (int)row - 1);
            return TCO_OK;
        }
    }
    if (c->seen[idx])
        return TCO_OK;
    c->seen[idx] = 1;
    c->stack[c->depth] = idx;
    c->stack_tier[c->depth++] = tco_item_dim(&m->items[idx]) == 2 ? c->tier : -1;
    return TCO_OK;
}

/* The given number input of largest magnitude that @p f (evaluated for tier row @p tier, or -1) reads,
 * directly or through the lines it reads, into *@p c (c->item -1 when none; false when out of memory).
 * A worklist, not recursion: a chain of 30,000 lines is a legal template. */
static bool find_culprit(const tco_model *m, tco_node *f, int tier, culprit *c)
{
    *c = (culprit){.m = m, .item = -1, .row = -1};
    c->seen = calloc(m->n_items ? m->n_items : 1, 1);
    c->stack = malloc(sizeof *c->stack * (m->n_items ? m->n_items : 1));
    c->stack_tier = malloc(sizeof *c->stack_tier * (m->n_items ? m->n_items : 1));
    bool ok = c->seen && c->stack && c->stack_tier;
    if (ok) {
        c->tier = tier;
        tco_formula_walk_names(f, culprit_name, c);
        while (c->depth > 0) {
            c->depth--;
            c->tier = c->stack_tier[c->depth];
            if (m->items[c->stack[c->depth]].formula)
                tco_formula_walk_names(m->items[c->stack[c->depth]].formula, culprit_name, c);
        }
    }
    free(c->seen);
    free(c->stack);
    free(c->stack_tier);
    return ok;
}

/* Lead the evaluation error in @p diag (whose message names the line's place and its values) with the
 * input that is at fault when the line reads one past any plausible magnitude: "--set card.price=1e307:
 * tier_price of D-M = 1e+307 is too large ...: templates/tco.ini [line.card_capex] formula, ...".  The
 * place as data is the input's, where its file or --set gave it (unless the model's values were moved
 * since: then the caller names what it moved). */
static void blame_input(const tco_model *m, const tco_item *line, int tier, tco_error e, tco_diag *diag)
{
    culprit c;
    if (!find_culprit(m, line->formula, tier, &c) || c.item < 0 || !(fabs(c.value) > IMPLAUSIBLE_MAGNITUDE))
        return;
    const tco_item *in = &m->items[c.item];
    tco_strbuf who = {0}, arg = {0};
    if (c.row >= 0)
        tco_strbuf_printf(&who, "%s of %s", in->name, m->tier_names[c.row]);
    else
        tco_strbuf_append(&who, in->name);
    tco_place at = {0};
    const char *also = ""; /* where the value was given, when the place cannot say it */
    if (!in->moved && c.row < 0 && (in->value_place.arg || in->value_place.file))
        at = in->value_place;
    else if (!in->moved && c.row >= 0 && in->tier_set && in->tier_set[c.row]) {
        tco_strbuf_printf(&arg, "--set %s", in->tier_set[c.row]);
        at = (tco_place){.arg = tco_strbuf_str(&arg), .section = m->tier_names[c.row], .key = in->set_key};
    } else if (!in->moved && c.row >= 0 && in->tier_quotes && in->tier_quotes[c.row] >= 0)
        also = " (a vendor quote's price)";
    else if (!in->moved && c.row >= 0 && in->tier_files && in->tier_files[c.row])
        at = (tco_place){.file = in->tier_files[c.row], .section = m->tier_names[c.row], .key = in->set_key};
    else if (!in->moved && in->quoted)
        also = " (a vendor quote's price)";
    char v[32];
    tco_format_double(c.value, v);
    char *old = strdup(diag->message);
    if (old != NULL)
        tco_diag_at(diag, e, &at,
                    "%s = %s%s is too large (no budget's input passes %g): line %s cannot be computed with it: %s",
                    tco_strbuf_str(&who), v, also, IMPLAUSIBLE_MAGNITUDE, line->name, old);
    free(old);
    tco_strbuf_free(&who);
    tco_strbuf_free(&arg);
}

/* Evaluate @p it for one year or tier (or the scalar) into *@p out.  A scalar line may give
 * text ("never: ...", "n.a.: ..."): then @p text is set to a copy (else to NULL); per-year and
 * per-tier lines (@p text NULL) must give numbers. */
static tco_error eval_item(tco_model *m, tco_item *it, int year, int tier, int month, double *out, char **text,
                           tco_diag *diag)
{
    eval_ctx ec = {m, month >= 0 ? tco_model_year_of_month(m, month) : year, tier, month};
    tco_eval_env env = {lookup_value, lookup_vector, lookup_element, &ec, month >= 0 ? month : year};
    tco_value v;
    tco_error e = tco_formula_eval(it->formula, &env, &it->place, &v, diag);
    bool computing = e == TCO_ERR_EVAL; /* the formula could not be computed (not a template's wrong kind) */
    if (e == TCO_OK && v.is_bool)
        e = tco_diag_at(diag, TCO_ERR_EVAL, &it->place,
                        "gives TRUE/FALSE, expected a number (wrap the test in IF(test, 1, 0))");
    if (e == TCO_OK && v.text && text == NULL)
        e = tco_diag_at(diag, TCO_ERR_EVAL, &it->place, "gives text ('%.*s'), expected a number (only a scalar line "
                        "may say \"n.a.\" or \"never\")", (int)tco_utf8_prefix(v.text, 60), v.text);
    if (e == TCO_OK && text != NULL && v.text && v.text[0] == '\0')
        e = tco_diag_at(diag, TCO_ERR_EVAL, &it->place,
                        "gives empty text; say why there is no number (\"n.a.: ...\")");
    if (e == TCO_OK && text != NULL) {
        char *copy = NULL;
        if (v.text && (copy = strdup(v.text)) == NULL)
            e = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        if (e == TCO_OK) {
            free(*text);
            *text = copy;
        }
    }
    if (e != TCO_OK && diag != NULL) {
        tco_strbuf b = {0};
        tco_strbuf_append(&b, diag->message);
        if (month >= 0)
            tco_strbuf_printf(&b, " in month %d", month + 1);
        else if (year >= 0)
            tco_strbuf_printf(&b, " in year %d", m->first_year + year);
        if (tier >= 0)
            tco_strbuf_printf(&b, " for tier %s", m->tier_names[tier]);
        tco_strbuf_append(&b, " (with ");
        explain_ctx xc = {m, ec.year, tier, month, &b, b.len, 0};
        tco_formula_walk_names(it->formula, explain_name, &xc);
        tco_strbuf_append(&b, xc.count ? ")" : "no inputs)");
        snprintf(diag->message, sizeof diag->message, "%s", tco_strbuf_str(&b));
        tco_strbuf_free(&b);
        if (computing)
            blame_input(m, it, tier, e, diag);
        return e;
    }
    *out = v.number;
    return TCO_OK;
}

bool tco_model_role_value(const tco_model *m, int idx, double *v)
{
    if (idx < 0 || (size_t)idx >= m->n_items)
        return false;
    const tco_item *it = &m->items[idx];
    if (it->kind == TCO_ITEM_YEARLY) {
        if (it->partner < 0)
            return false;
        it = &m->items[it->partner];
    }
    if (it->text)
        return false;
    *v = it->value;
    return true;
}

tco_error tco_model_evaluate_tree(tco_model *m, tco_diag *diag)
{
    for (size_t k = 0; k < m->n_order; k++) {
        tco_item *it = &m->items[m->order[k]];
        tco_error e = TCO_OK;
        switch (it->kind) {
        case TCO_ITEM_LINE:
            e = eval_item(m, it, -1, -1, -1, &it->value, &it->text, diag);
            break;
        case TCO_ITEM_YEARLY:
            for (int y = 0; y < tco_item_periods(m, it) && e == TCO_OK; y++)
                e = eval_item(m, it, y, -1, -1, &it->years[y], NULL, diag);
            break;
        case TCO_ITEM_MONTHLY:
            for (int mo = 0; mo < m->n_months && e == TCO_OK; mo++)
                e = eval_item(m, it, -1, -1, mo, &it->years[mo], NULL, diag);
            break;
        case TCO_ITEM_TIER_LINE:
            for (int r = 0; r < m->n_tiers && e == TCO_OK; r++)
                e = eval_item(m, it, -1, r, -1, &it->tiers[r], NULL, diag);
            break;
        case TCO_ITEM_TOTAL: {
            /* Summed in year (month) order, as SUM over the year (month) cells does. */
            const tco_item *src = &m->items[it->partner];
            double sum = tco_formula_running_sum(src->years, (size_t)tco_item_periods(m, src));
            it->value = sum;
            if (!tco_formula_number_ok(sum))
                e = tco_diag_at(diag, TCO_ERR_EVAL, &src->place, "the total over the years (%s) overflows (#NUM!)",
                                it->name);
            break;
        }
        case TCO_ITEM_INPUT: case TCO_ITEM_YEAR_INDEX: case TCO_ITEM_TIER_INPUT: case TCO_ITEM_TIER_CODE:
        case TCO_ITEM_ERROR_COUNT: case TCO_ITEM_MONTH_INDEX: break;
        }
        if (e != TCO_OK)
            return e;
    }
    return TCO_OK;
}

tco_error tco_model_evaluate(tco_model *m, tco_diag *diag)
{
    if (m->program && !tco_program_fits(m->program, m)) {
        tco_program_free(m->program);
        m->program = NULL;
    }
    tco_error e = TCO_OK;
    /* The first evaluation with given texts (the model's first, or the first after a text input
     * changed, which the program folds as constants) walks the trees: the program gives the same
     * values to the bit (tests/test_program.c) and pays for its compiling (several tree walks) only
     * when the model is evaluated again with those texts.  A text changed behind the setters' back
     * (text_sets unchanged) is compiled for at once: a wrong guess costs time, never a value. */
    if (m->program == NULL && m->walked_at != m->text_sets + 1) {
        m->walked_at = m->text_sets + 1;
        return tco_model_evaluate_tree(m, diag);
    }
    if (m->program == NULL && (e = tco_program_compile(m, &m->program, diag)) != TCO_OK)
        return e;
    e = tco_program_run(m->program, m, diag);
    /* The program stops at the first error without a message; the tree evaluator meets the same
     * error and says where, and with which values (eval_item). */
    return e == TCO_ERR_EVAL ? tco_model_evaluate_tree(m, diag) : e;
}

/* Check @p value for number input @p it (named @p name as the caller gave it, and @p tier for a row
 * of a per-tier input, else NULL) as its range and kind require. */
static tco_error check_number(const tco_item *it, const char *name, const char *tier, double value, tco_diag *diag)
{
    if (!isfinite(value) || (!isnan(it->min) && value < it->min) || (!isnan(it->max) && value > it->max) ||
        (it->integer && value != floor(value)) || tco_input_below_least(it, value)) {
        char v[32];
        tco_format_double(value, v);
        if (tier)
            return tco_diag_set(diag, TCO_ERR_INI, "input %s, tier %s: value %s is outside its range", name, tier, v);
        return tco_diag_set(diag, TCO_ERR_INI, "input %s: value %s is outside its range", name, v);
    }
    if (tier == NULL && it->structural && value != it->value)
        return tco_diag_set(diag, TCO_ERR_INI, "input %s: fixes the workbook's shape and cannot change after loading",
                            name);
    return TCO_OK;
}

tco_error tco_model_assign_input(tco_model *m, int item, double value, tco_diag *diag)
{
    if (item < 0 || (size_t)item >= m->n_items || m->items[item].kind != TCO_ITEM_INPUT)
        return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "no input number %d", item);
    tco_item *it = &m->items[item];
    if (it->text)
        return tco_diag_set(diag, TCO_ERR_INI, "input %s is text, not a number", it->name);
    tco_error e = check_number(it, it->name, NULL, value, diag);
    if (e == TCO_OK) {
        it->value = value;
        it->moved = true;
    }
    return e;
}

tco_error tco_model_assign_tier_input(tco_model *m, int item, int row, double value, tco_diag *diag)
{
    if (item < 0 || (size_t)item >= m->n_items || m->items[item].kind != TCO_ITEM_TIER_INPUT ||
        m->items[item].tiers == NULL || m->items[item].tier_texts != NULL)
        return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "no per-tier number input number %d", item);
    if (row < 0 || row >= m->n_tiers)
        return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "input %s: no tier row %d", m->items[item].name, row + 1);
    tco_item *it = &m->items[item];
    tco_error e = check_number(it, it->name, m->tier_names[row], value, diag);
    if (e == TCO_OK) {
        it->tiers[row] = value;
        it->moved = true;
    }
    return e;
}

double tco_model_cell(const tco_model *m, int item, int cell)
{
    if (item < 0 || (size_t)item >= m->n_items)
        return NAN;
    const tco_item *it = &m->items[item];
    switch (tco_item_dim(it)) {
    case 1: case 3: return it->years && cell >= 0 && cell < tco_item_periods(m, it) ? it->years[cell] : NAN;
    case 2: return it->tiers && cell >= 0 && cell < m->n_tiers ? it->tiers[cell] : NAN;
    default: return it->text || it->kind == TCO_ITEM_YEAR_INDEX || it->kind == TCO_ITEM_MONTH_INDEX ? NAN : it->value;
    }
}

tco_error tco_model_set_input(tco_model *m, const char *name, double value, tco_diag *diag)
{
    int idx = tco_model_find(m, name);
    if (idx < 0 || m->items[idx].kind != TCO_ITEM_INPUT)
        return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "no input named '%s'", name);
    tco_item *it = &m->items[idx];
    if (it->text)
        return tco_diag_set(diag, TCO_ERR_INI, "input %s is text, not a number", name);
    tco_error e = check_number(it, name, NULL, value, diag);
    if (e != TCO_OK)
        return e;
    it->value = value;
    it->moved = true;
    return tco_model_evaluate(m, diag);
}

int tco_model_tier_row(const tco_model *m, const char *tier)
{
    for (int r = 0; tier != NULL && r < m->n_tiers; r++)
        if (strcasecmp(m->tier_names[r], tier) == 0)
            return r;
    return -1;
}

tco_error tco_model_set_tier_input(tco_model *m, const char *name, const char *tier, double value, tco_diag *diag)
{
    int idx = tco_model_find(m, name);
    if (idx < 0 || m->items[idx].kind != TCO_ITEM_TIER_INPUT || m->items[idx].tiers == NULL ||
        m->items[idx].tier_texts != NULL)
        return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "no per-tier number input named '%s'", name);
    tco_item *it = &m->items[idx];
    int r = tco_model_tier_row(m, tier);
    if (r < 0)
        return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "input %s: no tier named '%s'", name, tier);
    tco_error e = check_number(it, name, tier, value, diag);
    if (e != TCO_OK)
        return e;
    it->tiers[r] = value;
    it->moved = true;
    return tco_model_evaluate(m, diag);
}


tco_error tco_model_set_text_input(tco_model *m, const char *name, const char *text, tco_diag *diag)
{
    tco_error e = tco_model_assign_text_input(m, name, text, diag);
    return e == TCO_OK ? tco_model_evaluate(m, diag) : e;
}

tco_error tco_model_fix_text_input(tco_model *m, const char *name, const char *why, tco_diag *diag)
{
    int idx = tco_model_find(m, name);
    if (idx < 0 || m->items[idx].kind != TCO_ITEM_INPUT || m->items[idx].text == NULL)
        return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "no text input named '%s'", name);
    tco_item *it = &m->items[idx];
    char *copy = strdup(why);
    if (copy == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    free(it->fixed_why);
    it->fixed_why = copy;
    it->structural = true;
    return TCO_OK;
}

tco_error tco_model_assign_text_input(tco_model *m, const char *name, const char *text, tco_diag *diag)
{
    int idx = tco_model_find(m, name);
    if (idx < 0 || m->items[idx].kind != TCO_ITEM_INPUT || m->items[idx].text == NULL)
        return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "no text input named '%s'", name);
    tco_item *it = &m->items[idx];
    const char *chosen = it->choices ? NULL : text;
    for (size_t c = 0; c < it->n_choices && chosen == NULL; c++)
        if (tco_utf8_casecmp(text, it->choices[c]) == 0)
            chosen = it->choices[c];
    if (chosen == NULL)
        return tco_diag_set(diag, TCO_ERR_INI, "input %s: '%s' is not one of its values", name, text);
    if (it->structural && strcmp(chosen, it->text) != 0)
        return it->fixed_why ? tco_diag_set(diag, TCO_ERR_INI, "input %s: fixed at '%s' in this run: %s", name, it->text,
                                            it->fixed_why)
                             : tco_diag_set(diag, TCO_ERR_INI,
                                            "input %s: fixes the workbook's shape and cannot change after loading", name);
    char *copy = strdup(chosen);
    if (copy == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    free(it->text);
    it->text = copy;
    m->text_sets++;
    return TCO_OK;
}
