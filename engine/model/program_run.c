/* program_run.c - run a compiled program, check that it fits a model, free it (program.h). */
#include "model/program.h"
#include "model/program_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/formula.h"
#include "model/model.h"
#include "base/text.h"
#include "base/utf8.h"

/* The first fixed input (pin) of @p p whose number @p m no longer holds, bit for bit; n_pins if none. */
static size_t moved_pin(const tco_program *p, const tco_model *m)
{
    const tco_item *items = m->items;
    for (size_t k = 0; k < p->n_pins; k++) {
        const tco_item *it = &items[p->pins[k].item];
        double now = p->pins[k].row < 0 ? it->value : it->tiers[p->pins[k].row];
        if (memcmp(&now, &p->pins[k].value, sizeof now) != 0)
            return k;
    }
    return p->n_pins;
}

/* Refuse to run @p p on @p m, whose fixed input pin @p k holds another number. */
static tco_error moved(const tco_program *p, const tco_model *m, size_t k, tco_diag *diag)
{
    const pin *pn = &p->pins[k];
    const tco_item *it = &m->items[pn->item];
    char was[32], now[32];
    tco_format_double(pn->value, was);
    tco_format_double(pn->row < 0 ? it->value : it->tiers[pn->row], now);
    return tco_diag_set(diag, TCO_ERR_USAGE, "the compiled program holds %s%s%s%s = %s as a constant, but the model "
                        "now holds %s: compile it again with the new value, or with %s among its varying inputs",
                        it->name, pn->row < 0 ? "" : "[", pn->row < 0 ? "" : m->tier_names[pn->row],
                        pn->row < 0 ? "" : "]", was, now, it->name);
}

bool tco_program_fits(tco_program *p, const tco_model *m)
{
    if (!(p->n_items == m->n_items && p->n_order == m->n_order && p->n_tiers == m->n_tiers &&
          p->n_periods == m->n_periods && p->n_schedule_periods == m->n_schedule_periods &&
          p->n_months == m->n_months && p->first_year == m->first_year))
        return false;
    for (size_t g = 0; g < p->n_guards; g++) {
        guard *gd = &p->guards[g];
        const tco_item *it = &m->items[gd->item];
        const char *now = gd->row < 0 ? it->text : it->tier_texts ? it->tier_texts[gd->row] : NULL;
        if (now == gd->seen)
            continue;
        if (now == NULL || gd->copy == NULL || strcmp(now, gd->copy) != 0)
            return false;
        gd->seen = now; /* the same text, copied again (tco_model_set_text_input) */
    }
    return moved_pin(p, m) == p->n_pins;
}

size_t tco_program_length(const tco_program *p)
{
    return p->n_code;
}

void tco_program_free(tco_program *p)
{
    if (p == NULL)
        return;
    free(p->code);
    free(p->args);
    free(p->num);
    free(p->isb);
    free(p->txt);
    free(p->type);
    free(p->konst);
    free(p->ins);
    free(p->outs);
    free(p->base);
    for (size_t g = 0; g < p->n_guards; g++)
        free(p->guards[g].copy);
    free(p->guards);
    free(p->pins);
    free(p);
}

/* ---- running ------------------------------------------------------------------------------- */

/* The slot arrays, held in locals while a run executes: a store of a TRUE/FALSE flag (a char) may
 * alias anything, and would make the compiler reload them from the program after every one. */
typedef struct regs {
    double *num;
    unsigned char *isb;
    const char **txt;
} regs;

static inline tco_value get(regs r, int s)
{
    return (tco_value){r.num[s], r.isb[s], r.txt[s]};
}

static inline void put(regs r, int s, tco_value v)
{
    r.num[s] = v.number;
    r.isb[s] = v.is_bool;
    r.txt[s] = v.text;
}

static inline void put_number(regs r, int s, double x)
{
    r.num[s] = x;
    r.isb[s] = 0;
    r.txt[s] = NULL;
}

static void copy_inputs(tco_program *p, const tco_model *m)
{
    const tco_item *items = m->items;
    double *num = p->num;
    size_t k = 0;
    for (; k < p->n_ins_number; k++)
        num[p->ins[k].slot] = items[p->ins[k].item].value;
    for (; k < p->n_ins; k++) { /* a few numbers each: a loop, not a call to memcpy */
        const double *tiers = items[p->ins[k].item].tiers;
        double *to = num + p->ins[k].slot;
        for (int r = 0; r < p->n_tiers; r++)
            to[r] = tiers[r];
    }
}

static tco_error copy_lines(const tco_program *p, tco_model *m, tco_diag *diag)
{
    tco_item *items = m->items;
    const double *num = p->num;
    size_t k = 0;
    for (; k < p->outs_end[OUT_SCALAR]; k++) {
        tco_item *it = &items[p->outs[k].item];
        it->value = num[p->outs[k].slot];
        if (it->text != NULL) { /* a line that was text before: a number now */
            free(it->text);
            it->text = NULL;
        }
    }
    for (; k < p->outs_end[OUT_LINE_TEXT]; k++) {
        /* As evaluate.c's eval_item: the line's own copy of its text, NULL for a number; copied
         * again only when the text changes. */
        tco_item *it = &items[p->outs[k].item];
        const char *t = p->txt[p->outs[k].slot];
        it->value = num[p->outs[k].slot];
        if (t == NULL) {
            if (it->text != NULL) { /* (most lines are numbers: no call to free(NULL)) */
                free(it->text);
                it->text = NULL;
            }
        } else if (it->text == NULL || strcmp(it->text, t) != 0) {
            char *copy = strdup(t);
            if (copy == NULL)
                return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
            free(it->text);
            it->text = copy;
        }
    }
    for (; k < p->outs_end[OUT_TIERS]; k++) { /* years (months), then tiers: a few numbers each */
        const copy_out *co = &p->outs[k];
        double *to = k < p->outs_end[OUT_YEARS] ? items[co->item].years : items[co->item].tiers;
        const double *from = num + co->slot;
        for (int y = 0; y < co->count; y++)
            to[y] = from[y];
    }
    return TCO_OK;
}

/* Dispatch.  With GCC or clang each instruction ends by jumping straight to the next one's code
 * through a table of label addresses (the GNU C "labels as values" extension): one indirect jump per
 * instruction, each predicted on its own, where a switch in a loop has a bounds check and one shared
 * indirect jump.  Any other compiler gets the same bodies as a switch.  The program ends with OP_END,
 * so no instruction tests for the end. */
#if defined(__GNUC__) && !defined(TCO_PROGRAM_SWITCH)
#define THREADED 1
#define CASE(OPCODE) L_##OPCODE:
#define NEXT                                                                                                        \
    do {                                                                                                            \
        in++;                                                                                                       \
        goto *labels[in->code];                                                                                     \
    } while (0)
#define GO_TO(target)                                                                                               \
    do {                                                                                                            \
        in = code + (target);                                                                                       \
        goto *labels[in->code];                                                                                     \
    } while (0)
#else
#define CASE(OPCODE) case OPCODE:
#define NEXT                                                                                                        \
    {                                                                                                               \
        in++;                                                                                                       \
        continue;                                                                                                   \
    }
#define GO_TO(target)                                                                                               \
    {                                                                                                               \
        in = code + (target);                                                                                       \
        continue;                                                                                                   \
    }
#endif

#ifdef THREADED
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic" /* &&label and goto *: GNU C, see above */
#endif
tco_error tco_program_run(tco_program *p, tco_model *m, tco_diag *diag)
{
    size_t bad = p->n_pins ? moved_pin(p, m) : 0;
    if (bad < p->n_pins)
        return moved(p, m, bad, diag);
    copy_inputs(p, m);
    const instr *code = p->code;
    const int32_t *pool = p->args;
    const regs R = {p->num, p->isb, p->txt};
    double *num = R.num;
    const char *why;
    const char *arith_why; /* (its own: the inlined arithmetic's reason stays in a register) */
    const instr *in = code;
#ifdef THREADED
    static const void *const labels[] = {
        [OP_ADD] = &&L_OP_ADD, [OP_SUB] = &&L_OP_SUB, [OP_MUL] = &&L_OP_MUL, [OP_DIV] = &&L_OP_DIV,
        [OP_POW] = &&L_OP_POW, [OP_ADD_N] = &&L_OP_ADD_N, [OP_SUB_N] = &&L_OP_SUB_N, [OP_MUL_N] = &&L_OP_MUL_N,
        [OP_DIV_N] = &&L_OP_DIV_N, [OP_POW_N] = &&L_OP_POW_N, [OP_COMPARE] = &&L_OP_COMPARE,
        [OP_BINARY] = &&L_OP_BINARY, [OP_UNARY] = &&L_OP_UNARY, [OP_MOVE] = &&L_OP_MOVE,
        [OP_JUMP_FALSE] = &&L_OP_JUMP_FALSE, [OP_JUMP_UNLESS] = &&L_OP_JUMP_UNLESS, [OP_SELECT] = &&L_OP_SELECT,
        [OP_SELECT_IF] = &&L_OP_SELECT_IF, [OP_JUMP] = &&L_OP_JUMP, [OP_FOLD] = &&L_OP_FOLD,
        [OP_AGGREGATE] = &&L_OP_AGGREGATE, [OP_APPLY1] = &&L_OP_APPLY1, [OP_ROUND] = &&L_OP_ROUND,
        [OP_INDEX] = &&L_OP_INDEX, [OP_MATCH] = &&L_OP_MATCH, [OP_IRR] = &&L_OP_IRR,
        [OP_RUNNING_SUM] = &&L_OP_RUNNING_SUM, [OP_RESULT_NUMBER] = &&L_OP_RESULT_NUMBER,
        [OP_RESULT_SCALAR] = &&L_OP_RESULT_SCALAR, [OP_FAIL] = &&L_OP_FAIL, [OP_COMPARE_B] = &&L_OP_COMPARE_B,
        [OP_MOVE_N] = &&L_OP_MOVE_N, [OP_SELECT_N] = &&L_OP_SELECT_N, [OP_SELECT_IF_N] = &&L_OP_SELECT_IF_N,
        [OP_JUMP_FALSE_N] = &&L_OP_JUMP_FALSE_N, [OP_FOLD_N] = &&L_OP_FOLD_N, [OP_AND_N] = &&L_OP_AND_N,
        [OP_OR_N] = &&L_OP_OR_N, [OP_RUNNING_ADD] = &&L_OP_RUNNING_ADD, [OP_END] = &&L_OP_END,
    };
    _Static_assert(sizeof labels / sizeof *labels == OP_END + 1, "a label for every opcode");
    goto *labels[in->code];
#else
    for (;;) {
        switch ((opcode)in->code) {
#endif
#define ARITH(OPCODE, OP)                                                                                           \
    CASE(OPCODE)                                                                                                    \
    if (tco_formula_arith(OP, num[in->a], num[in->b], &num[in->dst], &arith_why) != TCO_OK)                         \
        return TCO_ERR_EVAL;                                                                                        \
    R.isb[in->dst] = 0;                                                                                             \
    R.txt[in->dst] = NULL;                                                                                          \
    NEXT;
        ARITH(OP_ADD, TCO_OP_ADD)
        ARITH(OP_SUB, TCO_OP_SUB)
        ARITH(OP_MUL, TCO_OP_MUL)
        ARITH(OP_DIV, TCO_OP_DIV)
        ARITH(OP_POW, TCO_OP_POW)
#undef ARITH
#define ARITH(OPCODE, OP)                                                                                           \
    CASE(OPCODE)                                                                                                    \
    if (tco_formula_arith(OP, num[in->a], num[in->b], &num[in->dst], &arith_why) != TCO_OK)                         \
        return TCO_ERR_EVAL;                                                                                        \
    NEXT;
        ARITH(OP_ADD_N, TCO_OP_ADD)
        ARITH(OP_SUB_N, TCO_OP_SUB)
        ARITH(OP_MUL_N, TCO_OP_MUL)
        ARITH(OP_DIV_N, TCO_OP_DIV)
        ARITH(OP_POW_N, TCO_OP_POW)
#undef ARITH
        CASE(OP_COMPARE)
            num[in->dst] = tco_formula_compare((tco_op)in->op, num[in->a], num[in->b]) ? 1 : 0;
            R.isb[in->dst] = 1;
            R.txt[in->dst] = NULL;
            NEXT;
        CASE(OP_BINARY) {
            tco_value a = get(R, in->a), b = get(R, in->b), r;
            if (tco_formula_binary((tco_op)in->op, &a, &b, &r, &why) != TCO_OK)
                return TCO_ERR_EVAL;
            put(R, in->dst, r);
            NEXT;
        }
        CASE(OP_UNARY) {
            tco_value v = get(R, in->a);
            if (tco_formula_unary((tco_op)in->op, &v, &why) != TCO_OK)
                return TCO_ERR_EVAL;
            put(R, in->dst, v);
            NEXT;
        }
        CASE(OP_MOVE)
            put(R, in->dst, get(R, in->a));
            NEXT;
        CASE(OP_JUMP_FALSE) {
            tco_value v = get(R, in->a);
            bool yes;
            if (tco_formula_truth(&v, &yes, &why) != TCO_OK)
                return TCO_ERR_EVAL;
            if (!yes)
                GO_TO(in->c);
            NEXT;
        }
        CASE(OP_JUMP)
            GO_TO(in->c);
        CASE(OP_JUMP_UNLESS)
            if (!tco_formula_compare((tco_op)in->op, num[in->a], num[in->b]))
                GO_TO(in->c);
            NEXT;
        CASE(OP_SELECT) {
            tco_value v = get(R, in->a);
            bool yes;
            if (tco_formula_truth(&v, &yes, &why) != TCO_OK)
                return TCO_ERR_EVAL;
            put(R, in->dst, get(R, yes ? in->b : in->c));
            NEXT;
        }
        CASE(OP_SELECT_IF)
            put(R, in->dst, get(R, tco_formula_compare((tco_op)in->op, num[in->a], num[in->b]) ? in->c : in->d));
            NEXT;
        CASE(OP_FOLD) {
            double acc = 0;
            const int32_t *args = pool + in->a;
            for (int i = 0; i < in->b; i++) {
                tco_value v = get(R, args[i]);
                if (tco_formula_fold((tco_func)in->op, (size_t)i, &acc, &v, &why) != TCO_OK)
                    return TCO_ERR_EVAL;
            }
            tco_value r;
            if (tco_formula_fold_result((tco_func)in->op, acc, &r, &why) != TCO_OK)
                return TCO_ERR_EVAL;
            put(R, in->dst, r);
            NEXT;
        }
        CASE(OP_AGGREGATE) {
            double r = tco_formula_aggregate((tco_func)in->op, num + in->a, (size_t)in->b);
            if (!tco_formula_number_ok(r))
                return TCO_ERR_EVAL;
            put_number(R, in->dst, r);
            NEXT;
        }
        CASE(OP_APPLY1) {
            tco_value v = get(R, in->a), r;
            if (tco_formula_apply1((tco_func)in->op, &v, &r, &why) != TCO_OK)
                return TCO_ERR_EVAL;
            put(R, in->dst, r);
            NEXT;
        }
        CASE(OP_ROUND) {
            tco_value x = get(R, in->a), d = get(R, in->b), r;
            int at;
            if (tco_formula_round((tco_func)in->op, &x, &d, &r, &why, &at) != TCO_OK)
                return TCO_ERR_EVAL;
            put(R, in->dst, r);
            NEXT;
        }
        CASE(OP_INDEX) {
            tco_value pos = get(R, in->a);
            size_t k;
            if (tco_formula_index_position(&pos, (size_t)in->c, &k, &why) != TCO_OK)
                return TCO_ERR_EVAL;
            tco_value v = get(R, in->b + (int)k);
            if (v.is_bool)
                return TCO_ERR_EVAL;
            put(R, in->dst, v);
            NEXT;
        }
        CASE(OP_MATCH) {
            tco_value key = get(R, pool[in->a]), mode = get(R, pool[in->a + 1]);
            int at;
            if (tco_formula_match_key(&key, &mode, &why, &at) != TCO_OK)
                return TCO_ERR_EVAL;
            int k = 0;
            while (k < in->c && (R.txt[in->b + k] == NULL || tco_utf8_casecmp(key.text, R.txt[in->b + k]) != 0))
                k++;
            if (k == in->c)
                return TCO_ERR_EVAL; /* #N/A */
            put_number(R, in->dst, k + 1);
            NEXT;
        }
        CASE(OP_IRR) {
            double r;
            if (tco_formula_irr(num + in->a, (size_t)in->b, &r, &why) != TCO_OK)
                return TCO_ERR_EVAL;
            put_number(R, in->dst, r);
            NEXT;
        }
        CASE(OP_RUNNING_SUM) {
            double r = tco_formula_running_sum(num + in->a, (size_t)in->b);
            if (!tco_formula_number_ok(r))
                return TCO_ERR_EVAL;
            put_number(R, in->dst, r);
            NEXT;
        }
        CASE(OP_RESULT_NUMBER)
            if (R.isb[in->a] || R.txt[in->a])
                return TCO_ERR_EVAL;
            put_number(R, in->dst, num[in->a]);
            NEXT;
        CASE(OP_RESULT_SCALAR)
            if (R.isb[in->a] || (R.txt[in->a] && R.txt[in->a][0] == '\0'))
                return TCO_ERR_EVAL;
            put(R, in->dst, get(R, in->a));
            NEXT;
        CASE(OP_FAIL)
            return TCO_ERR_EVAL;
        CASE(OP_COMPARE_B)
            num[in->dst] = tco_formula_compare((tco_op)in->op, num[in->a], num[in->b]) ? 1 : 0;
            NEXT;
        CASE(OP_MOVE_N)
            num[in->dst] = num[in->a];
            NEXT;
        CASE(OP_SELECT_N)
            num[in->dst] = num[num[in->a] != 0 ? in->b : in->c]; /* tco_formula_truth() of a number */
            NEXT;
        CASE(OP_SELECT_IF_N)
            num[in->dst] = num[tco_formula_compare((tco_op)in->op, num[in->a], num[in->b]) ? in->c : in->d];
            NEXT;
        CASE(OP_JUMP_FALSE_N)
            if (num[in->a] == 0) /* tco_formula_truth() of a number */
                GO_TO(in->c);
            NEXT;
        CASE(OP_FOLD_N) {
            /* tco_formula_fold() for each function on its own, so that each loop is the function's
             * step alone (no text or TRUE/FALSE here to refuse). */
            double acc = 0;
            const int32_t *args = pool + in->a;
            tco_value r;
#define FOLD_N(FUNC)                                                                                                \
    for (int i = 0; i < in->b; i++) {                                                                               \
        tco_value v = {num[args[i]], false, NULL};                                                                  \
        if (tco_formula_fold(FUNC, (size_t)i, &acc, &v, &why) != TCO_OK)                                            \
            return TCO_ERR_EVAL;                                                                                    \
    }                                                                                                               \
    if (tco_formula_fold_result(FUNC, acc, &r, &why) != TCO_OK)                                                     \
        return TCO_ERR_EVAL;                                                                                        \
    break;
            switch ((tco_func)in->op) {
            case TCO_FN_AND: FOLD_N(TCO_FN_AND)
            case TCO_FN_OR: FOLD_N(TCO_FN_OR)
            case TCO_FN_SUM: FOLD_N(TCO_FN_SUM)
            case TCO_FN_MIN: FOLD_N(TCO_FN_MIN)
            default: FOLD_N(TCO_FN_MAX)
            }
#undef FOLD_N
            num[in->dst] = r.number;
            NEXT;
        }
        CASE(OP_AND_N)
            num[in->dst] = (num[in->a] != 0) & (num[in->b] != 0); /* tco_formula_fold() of AND, two numbers */
            NEXT;
        CASE(OP_OR_N)
            num[in->dst] = (num[in->a] != 0) | (num[in->b] != 0); /* tco_formula_fold() of OR, two numbers */
            NEXT;
        CASE(OP_RUNNING_ADD) {
            double r = tco_formula_running_add(num[in->a], num[in->b]);
            if (!tco_formula_number_ok(r))
                return TCO_ERR_EVAL;
            put_number(R, in->dst, r);
            NEXT;
        }
        CASE(OP_END)
            return copy_lines(p, m, diag);
#ifndef THREADED
        }
    }
#endif
}
#ifdef THREADED
#pragma GCC diagnostic pop
#endif
#undef CASE
#undef NEXT
#undef GO_TO
#undef THREADED
