/* program.c - compile a loaded model into flat instructions over slots (program.h); program_run.c runs them. */
#include "model/program.h"
#include "model/program_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/formula.h"
#include "model/model.h"
#include "model/bind.h"

/* What a slot can hold, as far as the compiler knows: the reading side picks its fast path by it.
 * T_NONE is the start of a join (no writer seen yet). */
enum { T_NONE = 0, T_NUM = 1, T_BOOL = 2, T_TEXT = 4, T_ANY = 7 };

/* A pure instruction or a constant, as a key of the compiler's table: opcode and operator, then
 * operands (for a constant: its bits, flag and text). */
typedef struct cse_key {
    int64_t w[8];
} cse_key;

typedef struct entry {
    cse_key k;
    int slot; /* -1: empty */
} entry;

typedef struct compiler {
    const tco_model *m;
    tco_program *p;
    int year, tier, month; /* the cell compiled, as eval_ctx in evaluate.c: -1 where none */
    bool nomem;
    /* Constants and pure instructions already compiled, by key (value numbering): an instruction
     * outside every IF branch runs in every run, so a later one with the same operator on the same
     * slots reads its result instead (same operation, same operands, same bits). */
    entry *table;
    size_t n_table, cap_table;
    int depth;  /* IF branches the instruction compiled is in */
    int trial;  /* > 0: compiling to see whether a node needs instructions; record nothing */
    size_t *cell_entries; /* table positions recorded for the cell being compiled */
    size_t n_cell_entries, cap_cell_entries;
    /* A cell whose formula gave the number an earlier slot holds (it is compiled as a copy, OP_MOVE):
     * that slot, which later formulas read in the cell's place (read_cell()), so that value numbering
     * finds their operations again (a month's cash out from the same lines as the month before); -1
     * where none.  The cell keeps its copy for the vectors and the copying out that read it. */
    int *alias;
    size_t n_alias; /* the cells' slots, 0 .. n_alias - 1 */
} compiler;

/* ---- growing arrays ------------------------------------------------------------------------ */

static bool grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? *cap : 64;
    while (cap2 < need)
        cap2 *= 2;
    void *g = realloc(*v, cap2 * size);
    if (g == NULL)
        return false;
    *v = g;
    *cap = cap2;
    return true;
}

/* @p n new slots of type @p type, zero, not TRUE/FALSE, no text; the first's index, or -1. */
static int new_slots(compiler *c, int n, unsigned char type)
{
    tco_program *p = c->p;
    size_t need = p->n_slots + (size_t)n, cap = p->cap_slots;
    if (c->nomem || need > INT32_MAX)
        return c->nomem = true, -1;
    bool ok = grow((void **)&p->num, &cap, need, sizeof *p->num);
    cap = p->cap_slots;
    ok = ok && grow((void **)&p->isb, &cap, need, sizeof *p->isb);
    cap = p->cap_slots;
    ok = ok && grow((void **)&p->txt, &cap, need, sizeof *p->txt);
    cap = p->cap_slots;
    ok = ok && grow((void **)&p->type, &cap, need, sizeof *p->type);
    cap = p->cap_slots;
    ok = ok && grow((void **)&p->konst, &cap, need, sizeof *p->konst);
    if (!ok)
        return c->nomem = true, -1;
    p->cap_slots = cap;
    int first = (int)p->n_slots;
    for (size_t s = p->n_slots; s < need; s++) {
        p->num[s] = 0;
        p->isb[s] = 0;
        p->txt[s] = NULL;
        p->type[s] = type;
        p->konst[s] = 0;
    }
    p->n_slots = need;
    return first;
}

static uint64_t key_hash(const cse_key *k)
{
    uint64_t h = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 8; i++) {
        h ^= (uint64_t)k->w[i];
        h *= 0xFF51AFD7ED558CCDu;
        h ^= h >> 29;
    }
    return h;
}

/* The slot recorded for @p k, or -1. */
static int table_find(const compiler *c, const cse_key *k)
{
    if (c->cap_table == 0)
        return -1;
    for (size_t i = key_hash(k) & (c->cap_table - 1);; i = (i + 1) & (c->cap_table - 1)) {
        const entry *e = &c->table[i];
        if (e->slot < 0)
            return -1;
        if (memcmp(&e->k, k, sizeof *k) == 0)
            return e->slot;
    }
}

static void table_put(compiler *c, const cse_key *k, int slot)
{
    if (c->trial || c->nomem)
        return;
    if (2 * (c->n_table + 1) > c->cap_table) {
        size_t cap = c->cap_table ? 2 * c->cap_table : 1024;
        entry *t = malloc(cap * sizeof *t);
        if (t == NULL) {
            c->nomem = true;
            return;
        }
        for (size_t i = 0; i < cap; i++)
            t[i].slot = -1;
        for (size_t j = 0; j < c->cap_table; j++)
            if (c->table[j].slot >= 0) {
                size_t i = key_hash(&c->table[j].k) & (cap - 1);
                while (t[i].slot >= 0)
                    i = (i + 1) & (cap - 1);
                t[i] = c->table[j];
            }
        free(c->table);
        c->table = t;
        c->cap_table = cap;
    }
    size_t i = key_hash(k) & (c->cap_table - 1);
    while (c->table[i].slot >= 0)
        i = (i + 1) & (c->cap_table - 1);
    c->table[i] = (entry){*k, slot};
    c->n_table++;
    if (!grow((void **)&c->cell_entries, &c->cap_cell_entries, c->n_cell_entries + 1, sizeof *c->cell_entries)) {
        c->nomem = true;
        return;
    }
    c->cell_entries[c->n_cell_entries++] = i;
}

/* A constant slot holding @p v (one slot per value). */
static int constant(compiler *c, tco_value v)
{
    cse_key k = {{-1, v.is_bool, (int64_t)(intptr_t)v.text, 0, 0, 0, 0, 0}};
    memcpy(&k.w[3], &v.number, sizeof v.number);
    int s = table_find(c, &k);
    if (s >= 0)
        return s;
    s = new_slots(c, 1, v.text ? T_TEXT : v.is_bool ? T_BOOL : T_NUM);
    if (s >= 0) {
        c->p->num[s] = v.number;
        c->p->isb[s] = v.is_bool;
        c->p->txt[s] = v.text;
        c->p->konst[s] = 1;
        table_put(c, &k, s);
    }
    return s;
}

static int number_constant(compiler *c, double x)
{
    return constant(c, (tco_value){x, false, NULL});
}

static size_t emit5(compiler *c, opcode code, int op, int dst, int a, int b, int cc, int d)
{
    tco_program *p = c->p;
    if (c->nomem || !grow((void **)&p->code, &p->cap_code, p->n_code + 1, sizeof *p->code)) {
        c->nomem = true;
        return 0;
    }
    p->code[p->n_code] = (instr){(uint8_t)code, (uint8_t)op, dst, a, b, cc, d};
    return p->n_code++;
}

static size_t emit(compiler *c, opcode code, int op, int dst, int a, int b, int cc)
{
    return emit5(c, code, op, dst, a, b, cc, 0);
}

/* Append @p n operand slots to args; the first's offset. */
static int push_args(compiler *c, const int *slots, size_t n)
{
    tco_program *p = c->p;
    if (c->nomem || !grow((void **)&p->args, &p->cap_args, p->n_args + n, sizeof *p->args))
        return c->nomem = true, 0;
    int at = (int)p->n_args;
    for (size_t i = 0; i < n; i++)
        p->args[p->n_args++] = slots[i];
    return at;
}

static void add_in(compiler *c, copy_kind kind, int item, int slot)
{
    tco_program *p = c->p;
    if (c->nomem || !grow((void **)&p->ins, &p->cap_ins, p->n_ins + 1, sizeof *p->ins)) {
        c->nomem = true;
        return;
    }
    p->ins[p->n_ins++] = (copy_in){kind, item, slot};
}

static void add_out(compiler *c, out_kind kind, int item, int slot, int count)
{
    tco_program *p = c->p;
    if (c->nomem || !grow((void **)&p->outs, &p->cap_outs, p->n_outs + 1, sizeof *p->outs)) {
        c->nomem = true;
        return;
    }
    p->outs[p->n_outs++] = (copy_out){kind, item, slot, count};
}

/* Compile text @p text of item @p item (row @p row of a per-tier text input, -1 for a scalar text
 * input) as a constant: the texts are what the model's shape is chosen by (a facility mode, a card
 * tier, a VAT basis), so comparisons with them fold and their IFs keep one branch.  Returns the
 * pointer the program uses (its own copy of a scalar input's text), NULL when out of memory.
 * tco_program_fits() is false once the model holds another text there, and tco_model_evaluate()
 * compiles again. */
static const char *add_guard(compiler *c, int item, int row, const char *text)
{
    tco_program *p = c->p;
    char *copy = strdup(text);
    if (copy == NULL || !grow((void **)&p->guards, &p->cap_guards, p->n_guards + 1, sizeof *p->guards)) {
        free(copy);
        c->nomem = true;
        return NULL;
    }
    p->guards[p->n_guards++] = (guard){item, row, text, copy};
    return row < 0 ? copy : text;
}

/* ---- names: the slots a name stands for, as evaluate.c's lookup callbacks read them ----------- */

/* Cells of item @p it: 1 for a scalar, one per year, month or tier row; 0 for `year` and `month`. */
static int cells_of(const tco_model *m, const tco_item *it)
{
    switch (it->kind) {
    case TCO_ITEM_YEARLY: case TCO_ITEM_MONTHLY: return tco_item_periods(m, it);
    case TCO_ITEM_TIER_INPUT: case TCO_ITEM_TIER_LINE: case TCO_ITEM_TIER_CODE: return m->n_tiers;
    case TCO_ITEM_YEAR_INDEX: case TCO_ITEM_MONTH_INDEX: return 0;
    default: return 1;
    }
}

/* A slot that always fails when read as an operand of an instruction: the name cannot be read in
 * this cell (the binder refuses such formulas; this keeps the program total). */
static int failing(compiler *c)
{
    int s = new_slots(c, 1, T_NUM);
    emit(c, OP_FAIL, 0, s, 0, 0, 0);
    return s;
}

/* The value `year` or `month` (@p it) has in the cell compiled: a constant of the cell
 * (lookup_value in evaluate.c: first_year + year, month + 1). */
static double cell_constant(const compiler *c, const tco_item *it)
{
    return it->kind == TCO_ITEM_YEAR_INDEX ? c->m->first_year + c->year : c->month + 1;
}

/* The slot to read for cell @p s: the earlier slot it copies (compiler.alias), else itself. */
static int read_cell(const compiler *c, int s)
{
    return s >= 0 && (size_t)s < c->n_alias && c->alias[s] >= 0 ? c->alias[s] : s;
}

/* The slot of NAME @p n's single value in the cell compiled (lookup_value). */
static int name_slot(compiler *c, const tco_node *n)
{
    const tco_model *m = c->m;
    const tco_item *it = &m->items[n->ref];
    int base = c->p->base[n->ref];
    switch (it->kind) {
    case TCO_ITEM_YEARLY:
        return c->year >= 0 && c->year < tco_item_periods(m, it) ? read_cell(c, base + c->year) : failing(c);
    case TCO_ITEM_YEAR_INDEX: case TCO_ITEM_MONTH_INDEX: return number_constant(c, cell_constant(c, it));
    case TCO_ITEM_MONTHLY: return c->month >= 0 && c->month < m->n_months ? read_cell(c, base + c->month) : failing(c);
    case TCO_ITEM_TIER_INPUT: case TCO_ITEM_TIER_LINE: case TCO_ITEM_TIER_CODE:
        return c->tier >= 0 && c->tier < m->n_tiers ? read_cell(c, base + c->tier) : failing(c);
    default: return read_cell(c, base);
    }
}

/* The numbers of a per-year or per-tier NAME (lookup_vector): *first and *count (0: not a vector);
 * false for a text vector (an error). */
static bool vector_slots(const compiler *c, const tco_node *n, int *first, int *count)
{
    const tco_item *it = &c->m->items[n->ref];
    *first = c->p->base[n->ref];
    *count = 0;
    if (it->kind == TCO_ITEM_YEARLY || it->kind == TCO_ITEM_MONTHLY)
        *count = tco_item_periods(c->m, it);
    else if (it->kind == TCO_ITEM_TIER_LINE || (it->kind == TCO_ITEM_TIER_INPUT && it->tier_texts == NULL))
        *count = c->m->n_tiers;
    else if (it->kind == TCO_ITEM_TIER_INPUT || it->kind == TCO_ITEM_TIER_CODE)
        return false;
    return true;
}

/* ---- formulas ------------------------------------------------------------------------------ */

/* The slot NAME @p n stands for in the cell compiled when it holds a constant (a text input, a tier
 * code, a line compiled to a constant), else -1; nothing is compiled. */
static int known_slot(const compiler *c, const tco_node *n)
{
    const tco_model *m = c->m;
    const tco_item *it = &m->items[n->ref];
    int base = c->p->base[n->ref], s = -1;
    switch (it->kind) {
    case TCO_ITEM_YEARLY: /* as name_slot(): the cell's year (a per-month cell's year), its month */
        s = c->year >= 0 && c->year < tco_item_periods(m, it) ? base + c->year : -1;
        break;
    case TCO_ITEM_MONTHLY: s = c->month >= 0 && c->month < m->n_months ? base + c->month : -1; break;
    case TCO_ITEM_YEAR_INDEX: case TCO_ITEM_MONTH_INDEX: break;
    case TCO_ITEM_TIER_INPUT: case TCO_ITEM_TIER_LINE: case TCO_ITEM_TIER_CODE:
        s = c->tier >= 0 && c->tier < m->n_tiers ? base + c->tier : -1;
        break;
    default: s = base; break;
    }
    return s >= 0 && c->p->konst[s] ? s : -1;
}

/* True when argument @p i of @p n is a NAME read whole: a row or column for SUM, MIN, MAX or IRR, the
 * vector of INDEX or MATCH (tco_formula_vector_arg()), or CUMSUM's line (up to the cell's position). */
static bool reads_vector(const tco_node *n, size_t i)
{
    return tco_formula_vector_arg(n, i) || (n->kind == TCO_NODE_CALL && n->func == TCO_FN_CUMSUM &&
                                            n->args[i]->kind == TCO_NODE_NAME);
}

/* True when NAME @p n, read whole by @p call, holds constants in every cell: the tier codes and a
 * per-tier text input (for INDEX and MATCH: text elsewhere is an error, left to the runs), or a
 * per-year, per-month or per-tier item of numbers whose every cell is a constant (a fixed input, a line
 * compiled to constants). */
static bool known_vector(const compiler *c, const tco_node *call, const tco_node *n)
{
    const tco_item *it = &c->m->items[n->ref];
    bool lookup = call->func == TCO_FN_INDEX || call->func == TCO_FN_MATCH;
    if (it->kind == TCO_ITEM_TIER_CODE || (it->kind == TCO_ITEM_TIER_INPUT && it->tier_texts != NULL))
        return lookup;
    int first, count;
    if ((lookup && tco_item_dim(it) != 2) || !vector_slots(c, n, &first, &count) || count == 0)
        return false; /* (a scalar name where a vector goes: compiled, not folded) */
    for (int k = 0; k < count; k++)
        if (!c->p->konst[first + k])
            return false;
    return true;
}

/* True when @p n's names all hold constants in the cell compiled: `year` and `month`, text inputs,
 * fixed number inputs, tier codes and texts, lines compiled to constants (a vector read whole when
 * every cell of it is one: known_vector()).  Then @p n has one value, or one error, in every run of
 * this cell. */
static bool cell_invariant(const compiler *c, const tco_node *n)
{
    if (n->kind == TCO_NODE_NAME) {
        tco_item_kind k = c->m->items[n->ref].kind;
        return k == TCO_ITEM_YEAR_INDEX || k == TCO_ITEM_MONTH_INDEX || known_slot(c, n) >= 0;
    }
    for (size_t i = 0; i < n->nargs; i++) {
        if (reads_vector(n, i)) {
            if (!known_vector(c, n, n->args[i]))
                return false;
        } else if (!cell_invariant(c, n->args[i])) {
            return false;
        }
    }
    return true;
}

static tco_value slot_value(const compiler *c, int s)
{
    return (tco_value){c->p->num[s], c->p->isb[s], c->p->txt[s]};
}

/* The tree evaluator's callbacks for a subtree cell_invariant() allows, reading the constants' slots as
 * evaluate.c's lookup_value, lookup_vector and lookup_element read the model's cells. */
static tco_error cell_value(void *ctx, const tco_node *n, tco_value *v, tco_diag *diag)
{
    (void)diag;
    const compiler *c = ctx;
    const tco_item *it = &c->m->items[n->ref];
    if (it->kind == TCO_ITEM_YEAR_INDEX || it->kind == TCO_ITEM_MONTH_INDEX)
        *v = (tco_value){cell_constant(c, it), false, NULL};
    else
        *v = slot_value(c, known_slot(c, n));
    return TCO_OK;
}

static tco_error cell_vector(void *ctx, const tco_node *n, const double **values, size_t *count, tco_diag *diag)
{
    (void)diag;
    const compiler *c = ctx;
    int first, k;
    if (!vector_slots(c, n, &first, &k))
        return TCO_ERR_EVAL; /* text (known_vector() lets none through) */
    *values = c->p->num + first;
    *count = (size_t)k;
    return TCO_OK;
}

static tco_error cell_element(void *ctx, const tco_node *n, size_t k, tco_value *v, size_t *count, tco_diag *diag)
{
    (void)diag;
    const compiler *c = ctx;
    *count = tco_item_dim(&c->m->items[n->ref]) == 2 ? (size_t)c->m->n_tiers : 0;
    if (k < *count)
        *v = slot_value(c, c->p->base[n->ref] + (int)k);
    return TCO_OK;
}

/* True when a slot of @p type never holds text. */
static bool numeric(unsigned char type)
{
    return type != T_NONE && (type & T_TEXT) == 0;
}

static int compile_node(compiler *c, const tco_node *n, int want);

/* The slot for a result of type @p type: @p want, whose type joins @p type, or a new one. */
static int result_slot(compiler *c, int want, unsigned char type)
{
    if (want < 0)
        return new_slots(c, 1, type);
    if (!c->nomem)
        c->p->type[want] |= type;
    return want;
}

/* Leave the value of slot @p s in @p want (if any). */
static int place(compiler *c, int s, int want)
{
    if (want < 0 || s < 0 || s == want)
        return s;
    int d = result_slot(c, want, c->nomem ? T_ANY : c->p->type[s]);
    emit(c, OP_MOVE, 0, d, s, 0, 0);
    return d;
}

/* A pure instruction (its result depends on its operand slots alone) giving a value of @p type:
 * the slot of the same instruction compiled before outside every IF branch, else a new one. */
static int pure(compiler *c, opcode code, int op, int want, unsigned char type, int a, int b, int cc, int d)
{
    if (c->nomem)
        return -1;
    cse_key k = {{code, op, a, b, cc, d, 0, 0}};
    int s = table_find(c, &k);
    if (s >= 0)
        return place(c, s, want);
    int dst = result_slot(c, want, type);
    /* A running sum over b cells from a, where the one over b - 1 cells was compiled before outside
     * every IF branch (CUMSUM in the month before): that sum plus the last cell, the same additions in
     * the same order (tco_formula_running_add), one instead of b. */
    cse_key shorter = {{OP_RUNNING_SUM, 0, a, b - 1, 0, 0, 0, 0}};
    int before = code == OP_RUNNING_SUM && b >= 2 ? table_find(c, &shorter) : -1;
    if (before >= 0)
        emit(c, OP_RUNNING_ADD, 0, dst, before, a + b - 1, 0);
    else
        emit5(c, code, op, dst, a, b, cc, d);
    if (c->depth == 0 && want < 0)
        table_put(c, &k, dst);
    return dst;
}

/* Binary @p op on the slots @p a and @p b. */
static int binary(compiler *c, tco_op op, int a, int b, int want)
{
    if (c->nomem)
        return -1;
    unsigned char ta = c->p->type[a], tb = c->p->type[b];
    bool arith = op >= TCO_OP_ADD && op <= TCO_OP_POW;
    opcode code = OP_BINARY;
    if (arith && numeric(ta) && numeric(tb))
        code = (opcode)(OP_ADD + (op - TCO_OP_ADD));
    else if (!arith && ta == tb && (ta == T_NUM || ta == T_BOOL))
        code = OP_COMPARE;
    return pure(c, code, op, want, arith ? T_NUM : T_BOOL, a, b, 0, 0);
}

/* Compile @p n if it needs no instructions (a name or a constant): its slot, else -1 with nothing
 * compiled. */
static int leaf_slot(compiler *c, const tco_node *n)
{
    size_t mark = c->p->n_code, slots = c->p->n_slots;
    c->trial++;
    int s = compile_node(c, n, -1);
    c->trial--;
    if (c->nomem || c->p->n_code == mark)
        return s;
    c->p->n_code = mark;
    c->p->n_slots = slots;
    return -1;
}

static int compile_if(compiler *c, const tco_node *n, int want)
{
    const tco_node *test = n->args[0];
    int a = -1, b = -1, cond = -1;
    bool compare = false;
    if (test->kind == TCO_NODE_BINARY && test->op <= TCO_OP_GE && !cell_invariant(c, test)) {
        a = compile_node(c, test->args[0], -1);
        b = compile_node(c, test->args[1], -1);
        if (c->nomem)
            return -1;
        unsigned char ta = c->p->type[a], tb = c->p->type[b];
        compare = ta == tb && (ta == T_NUM || ta == T_BOOL);
        if (!compare)
            cond = binary(c, test->op, a, b, -1);
    } else {
        cond = compile_node(c, test, -1);
    }
    if (c->nomem)
        return -1;
    bool yes;
    const char *why;
    if (!compare && c->p->konst[cond]) {
        /* A condition known when compiling (e.g. IF(year >= 1, ...)): only its branch. */
        tco_value v = {c->p->num[cond], c->p->isb[cond], c->p->txt[cond]};
        if (tco_formula_truth(&v, &yes, &why) == TCO_OK) {
            if (yes)
                return compile_node(c, n->args[1], want);
            if (n->nargs == 3)
                return compile_node(c, n->args[2], want);
            return place(c, constant(c, (tco_value){0, true, NULL}), want);
        }
    }
    /* Both branches a name or a constant: choose without jumping. */
    int then_s = leaf_slot(c, n->args[1]);
    int else_s = then_s < 0 ? -1 : n->nargs == 3 ? leaf_slot(c, n->args[2]) : constant(c, (tco_value){0, true, NULL});
    if (then_s >= 0 && else_s >= 0 && !c->nomem) {
        unsigned char t = c->p->type[then_s] | c->p->type[else_s];
        if (compare)
            return pure(c, OP_SELECT_IF, test->op, want, t, a, b, then_s, else_s);
        return pure(c, OP_SELECT, 0, want, t, cond, then_s, else_s, 0);
    }
    int d = want >= 0 ? want : new_slots(c, 1, T_NONE);
    size_t jf = compare ? emit(c, OP_JUMP_UNLESS, test->op, -1, a, b, 0) : emit(c, OP_JUMP_FALSE, 0, -1, cond, 0, 0);
    c->depth++;
    compile_node(c, n->args[1], d);
    size_t jump = emit(c, OP_JUMP, 0, -1, 0, 0, 0);
    if (!c->nomem)
        c->p->code[jf].c = (int32_t)c->p->n_code;
    if (n->nargs == 3)
        compile_node(c, n->args[2], d);
    else
        place(c, constant(c, (tco_value){0, true, NULL}), d);
    c->depth--;
    if (!c->nomem)
        c->p->code[jump].c = (int32_t)c->p->n_code;
    return d;
}

static int compile_call(compiler *c, const tco_node *n, int want)
{
    int first = 0, count = 0;
    if (tco_formula_is_aggregate(n)) {
        if (!vector_slots(c, n->args[0], &first, &count))
            return place(c, failing(c), want);
        if (count > 0)
            return pure(c, OP_AGGREGATE, n->func, want, T_NUM, first, count, 0, 0);
    }
    switch (n->func) {
    case TCO_FN_IF: return compile_if(c, n, want);
    case TCO_FN_SUM: case TCO_FN_MIN: case TCO_FN_MAX: case TCO_FN_AND: case TCO_FN_OR: {
        int slots[TCO_FORMULA_MAX_ARGS];
        for (size_t i = 0; i < n->nargs; i++)
            slots[i] = compile_node(c, n->args[i], -1);
        if (c->nomem)
            return -1;
        bool logic = n->func == TCO_FN_AND || n->func == TCO_FN_OR;
        /* The same function of the same slots (up to 6 of them) was compiled before: its slot. */
        cse_key k = {{OP_FOLD, n->func, (int64_t)n->nargs, -1, -1, -1, -1, -1}};
        for (size_t i = 0; i < n->nargs && i < 5; i++)
            k.w[3 + i] = slots[i];
        int s = n->nargs <= 5 ? table_find(c, &k) : -1;
        if (s >= 0)
            return place(c, s, want);
        int d = result_slot(c, want, logic ? T_BOOL : T_NUM);
        emit(c, OP_FOLD, n->func, d, push_args(c, slots, n->nargs), (int)n->nargs, 0);
        if (n->nargs <= 5 && c->depth == 0 && want < 0)
            table_put(c, &k, d);
        return d;
    }
    case TCO_FN_NOT: case TCO_FN_ABS: case TCO_FN_ISNUMBER: case TCO_FN_ISTEXT: {
        int a = compile_node(c, n->args[0], -1);
        return pure(c, OP_APPLY1, n->func, want, n->func == TCO_FN_ABS ? T_NUM : T_BOOL, a, 0, 0, 0);
    }
    case TCO_FN_ROUND: case TCO_FN_ROUNDUP: case TCO_FN_ROUNDDOWN: {
        int a = compile_node(c, n->args[0], -1);
        int b = compile_node(c, n->args[1], -1);
        return pure(c, OP_ROUND, n->func, want, T_NUM, a, b, 0, 0);
    }
    case TCO_FN_INDEX: case TCO_FN_MATCH: {
        bool index = n->func == TCO_FN_INDEX;
        const tco_node *vec = n->args[index ? 0 : 1];
        if (vec->kind != TCO_NODE_NAME || tco_item_dim(&c->m->items[vec->ref]) != 2 || c->m->n_tiers == 0)
            return place(c, failing(c), want);
        first = c->p->base[vec->ref];
        if (index) {
            int pos = compile_node(c, n->args[1], -1);
            size_t k;
            const char *why;
            if (!c->nomem && c->p->konst[pos]) { /* a position known when compiling: that row's slot */
                tco_value v = slot_value(c, pos);
                if (tco_formula_index_position(&v, (size_t)c->m->n_tiers, &k, &why) == TCO_OK)
                    return place(c, read_cell(c, first + (int)k), want);
            }
            return pure(c, OP_INDEX, 0, want, c->nomem ? T_ANY : c->p->type[first], pos, first, c->m->n_tiers, 0);
        }
        int km[2] = {compile_node(c, n->args[0], -1), compile_node(c, n->args[2], -1)};
        int d = result_slot(c, want, T_NUM);
        emit(c, OP_MATCH, 0, d, push_args(c, km, 2), first, c->m->n_tiers);
        return d;
    }
    case TCO_FN_IRR: case TCO_FN_CUMSUM: {
        const tco_node *vec = n->args[0];
        int position = c->month >= 0 ? c->month : c->year; /* tco_eval_env.position */
        bool ok = vec->kind == TCO_NODE_NAME && vector_slots(c, vec, &first, &count);
        if (n->func == TCO_FN_IRR)
            ok = ok && count >= 2;
        else
            ok = ok && position >= 0 && count > 0 && position < count;
        if (!ok)
            return place(c, failing(c), want);
        if (n->func == TCO_FN_IRR)
            return pure(c, OP_IRR, 0, want, T_NUM, first, count, 0, 0);
        return pure(c, OP_RUNNING_SUM, 0, want, T_NUM, first, position + 1, 0, 0);
    }
    case TCO_FN_COUNT: break;
    }
    return place(c, failing(c), want);
}

/* Compile @p n for the cell c->year/tier/month; its value ends in @p want (-1: any slot); returns
 * the slot holding it. */
static int compile_node(compiler *c, const tco_node *n, int want)
{
    if (c->nomem)
        return -1;
    if (n->kind != TCO_NODE_NAME && n->nargs > 0 && cell_invariant(c, n)) {
        /* No names but `year` and `month`: its value, or its error, is the same in every run of
         * this cell; fold a value, as the tree evaluator gives it. */
        tco_eval_env env = {cell_value, cell_vector, cell_element, c, c->month >= 0 ? c->month : c->year};
        tco_value v;
        if (tco_formula_eval(n, &env, NULL, &v, NULL) == TCO_OK)
            return place(c, constant(c, v), want);
    }
    switch (n->kind) {
    case TCO_NODE_NUMBER: return place(c, constant(c, (tco_value){n->number, false, NULL}), want);
    case TCO_NODE_BOOL: return place(c, constant(c, (tco_value){n->number, true, NULL}), want);
    case TCO_NODE_STRING: return place(c, constant(c, (tco_value){0, false, n->name}), want);
    case TCO_NODE_NAME: return place(c, name_slot(c, n), want);
    case TCO_NODE_UNARY: {
        int a = compile_node(c, n->args[0], -1);
        unsigned char t = c->nomem ? T_ANY : c->p->type[a];
        unsigned char r = n->op == TCO_OP_NEG ? T_NUM : (t & (T_NUM | T_BOOL)) ? t & (T_NUM | T_BOOL) : T_NUM;
        return pure(c, OP_UNARY, n->op, want, r, a, 0, 0, 0);
    }
    case TCO_NODE_BINARY: {
        int a = compile_node(c, n->args[0], -1);
        int b = compile_node(c, n->args[1], -1);
        return binary(c, n->op, a, b, want);
    }
    case TCO_NODE_CALL: return compile_call(c, n, want);
    }
    return place(c, failing(c), want);
}

/* Compile the formula of @p it for one cell into slot @p cell; @p number: the cell must be a number. */
static void compile_cell(compiler *c, const tco_item *it, int year, int tier, int month, int cell, bool number)
{
    c->year = month >= 0 ? tco_model_year_of_month(c->m, month) : year;
    c->tier = tier;
    c->month = month;
    c->n_cell_entries = 0;
    size_t start = c->p->n_code, first_slot = c->p->n_slots;
    int s = compile_node(c, it->formula, -1);
    if (c->nomem)
        return;
    unsigned char t = c->p->type[s];
    /* A number in a slot made for this formula and written by its instructions (not a name's cell,
     * a constant or an earlier formula's result): write it straight into the cell.  Nothing in the
     * formula reads its result; a later formula that would reuse it finds the cell. */
    bool written = false;
    for (size_t k = start; k < c->p->n_code && (size_t)s >= first_slot; k++)
        written = written || c->p->code[k].dst == s;
    if (t == T_NUM && written) {
        for (size_t k = start; k < c->p->n_code; k++)
            if (c->p->code[k].dst == s)
                c->p->code[k].dst = cell;
        for (size_t k = 0; k < c->n_cell_entries; k++)
            if (c->table[c->cell_entries[k]].slot == s)
                c->table[c->cell_entries[k]].slot = cell;
    } else if (c->p->konst[s] &&
               (t == T_NUM || (!number && !c->p->isb[s] && !(c->p->txt[s] && c->p->txt[s][0] == '\0')))) {
        /* A constant the cell takes without an error: the cell holds it from now on (no run
         * writes it), and later formulas may fold it. */
        c->p->num[cell] = c->p->num[s];
        c->p->isb[cell] = c->p->isb[s];
        c->p->txt[cell] = c->p->txt[s];
        c->p->konst[cell] = 1;
    } else {
        emit(c, t == T_NUM ? OP_MOVE : number ? OP_RESULT_NUMBER : OP_RESULT_SCALAR, 0, cell, s, 0, 0);
        if (t == T_NUM && (size_t)cell < c->n_alias) /* a copy of a number: later formulas read s */
            c->alias[cell] = s;
    }
    /* A scalar line holds a number or text (never TRUE/FALSE: that is an error). */
    if (!c->nomem && !number)
        c->p->type[cell] = t == T_NUM ? T_NUM : T_ANY;
}

/* ---- compiling a model --------------------------------------------------------------------- */

/* Sort the copies in and out by kind, so that a run copies each kind in a loop of its own; a scalar
 * line whose slot only ever holds numbers is copied as a number.  False when out of memory. */
static bool sort_copies(tco_program *p)
{
    for (size_t k = 0; k < p->n_outs; k++)
        if (p->outs[k].kind == OUT_LINE_TEXT && p->type[p->outs[k].slot] == T_NUM)
            p->outs[k].kind = OUT_SCALAR;
    copy_out *outs = malloc((p->n_outs ? p->n_outs : 1) * sizeof *outs);
    copy_in *ins = malloc((p->n_ins ? p->n_ins : 1) * sizeof *ins);
    if (outs == NULL || ins == NULL) {
        free(outs);
        free(ins);
        return false;
    }
    size_t n = 0;
    for (int kind = 0; kind < OUT_KINDS; kind++) {
        for (size_t k = 0; k < p->n_outs; k++)
            if (p->outs[k].kind == (out_kind)kind)
                outs[n++] = p->outs[k];
        p->outs_end[kind] = n;
    }
    n = 0;
    for (int kind = COPY_NUMBER; kind <= COPY_TIER_NUMBERS; kind++) {
        for (size_t k = 0; k < p->n_ins; k++)
            if (p->ins[k].kind == (copy_kind)kind)
                ins[n++] = p->ins[k];
        if (kind == COPY_NUMBER)
            p->n_ins_number = n;
    }
    free(p->outs);
    free(p->ins);
    p->outs = outs;
    p->ins = ins;
    p->cap_outs = p->n_outs;
    p->cap_ins = p->n_ins;
    return true;
}

/* True when a slot of @p type holds one kind of value only, numbers or TRUE/FALSE: every writer
 * stores that kind, so its flag and text are the ones it was made with (set here for TRUE/FALSE). */
static bool plain(unsigned char type)
{
    return type == T_NUM || type == T_BOOL;
}

/* The instructions whose slots' kinds are known take their plain forms (OP_COMPARE_B ... OP_FOLD_N):
 * the same steps on the same numbers, without the flags and texts that cannot change.  Runs once the
 * kinds of all slots are final (each is the join of its writers'). */
static void specialise(tco_program *p)
{
    const unsigned char *type = p->type;
    for (size_t s = 0; s < p->n_slots; s++)
        if (type[s] == T_BOOL)
            p->isb[s] = 1; /* (its text is NULL, as made) */
    for (size_t k = 0; k < p->n_code; k++) {
        instr *in = &p->code[k];
        bool dst = in->dst >= 0 && plain(type[in->dst]);
        switch ((opcode)in->code) {
        case OP_COMPARE:
            if (dst && type[in->dst] == T_BOOL)
                in->code = OP_COMPARE_B;
            break;
        case OP_MOVE:
            if (dst)
                in->code = OP_MOVE_N;
            break;
        case OP_RESULT_NUMBER:
            if (type[in->dst] == T_NUM && type[in->a] == T_NUM)
                in->code = OP_MOVE_N;
            break;
        case OP_SELECT:
            if (dst && numeric(type[in->a]))
                in->code = OP_SELECT_N;
            break;
        case OP_SELECT_IF:
            if (dst)
                in->code = OP_SELECT_IF_N;
            break;
        case OP_JUMP_FALSE:
            if (numeric(type[in->a]))
                in->code = OP_JUMP_FALSE_N;
            break;
        case OP_FOLD: {
            bool logic = in->op == TCO_FN_AND || in->op == TCO_FN_OR, ok = dst;
            for (int i = 0; i < in->b && ok; i++) {
                unsigned char t = type[p->args[in->a + i]];
                ok = logic ? numeric(t) : t == T_NUM;
            }
            if (ok && logic && in->b == 2) /* AND or OR of two: no loop, no argument list */
                *in = (instr){.code = in->op == TCO_FN_AND ? OP_AND_N : OP_OR_N, .op = in->op, .dst = in->dst,
                              .a = p->args[in->a], .b = p->args[in->a + 1]};
            else if (ok)
                in->code = OP_FOLD_N;
            break;
        }
        default: break;
        }
    }
}

/* Compile number input @p item (row @p row of a per-tier one, -1 for a scalar) as the constant
 * @p value it holds, in its cell @p slot, and pin it there: a run refuses a model that holds another
 * number in it (tco_program_options.fix_inputs). */
static void add_pin(compiler *c, int item, int row, double value, int slot)
{
    tco_program *p = c->p;
    if (c->nomem || !grow((void **)&p->pins, &p->cap_pins, p->n_pins + 1, sizeof *p->pins)) {
        c->nomem = true;
        return;
    }
    p->pins[p->n_pins++] = (pin){item, row, value};
    p->num[slot] = value;
    p->konst[slot] = 1;
}

/* A per-year (per-month) line's total into slot @p dst: the running sum of its @p count cells from
 * @p first, worked out now (by the same function as evaluate.c's) when they are all constants and
 * it is a number, else an instruction (a copy of a CUMSUM over all the cells compiled before, or one
 * addition to the CUMSUM over all but the last: pure()). */
static void compile_total(compiler *c, int dst, int first, int count)
{
    tco_program *p = c->p;
    bool known = !c->nomem;
    for (int k = 0; known && k < count; k++)
        known = p->konst[first + k];
    double sum = known ? tco_formula_running_sum(p->num + first, (size_t)count) : 0;
    if (known && tco_formula_number_ok(sum)) {
        p->num[dst] = sum;
        p->konst[dst] = 1;
    } else {
        pure(c, OP_RUNNING_SUM, 0, dst, T_NUM, first, count, 0, 0); /* (a CUMSUM of the last cell: a copy) */
    }
}

/* Mark the slots instruction @p in reads in @p read (its operands, its vectors, its argument lists). */
static void mark_reads(const tco_program *p, const instr *in, unsigned char *read)
{
    int first = 0, count = 0; /* a vector read whole */
    switch ((opcode)in->code) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_POW: case OP_ADD_N: case OP_SUB_N: case OP_MUL_N:
    case OP_DIV_N: case OP_POW_N: case OP_COMPARE: case OP_COMPARE_B: case OP_BINARY: case OP_JUMP_UNLESS:
    case OP_ROUND: case OP_AND_N: case OP_OR_N: case OP_RUNNING_ADD:
        read[in->a] = read[in->b] = 1;
        break;
    case OP_UNARY: case OP_MOVE: case OP_MOVE_N: case OP_JUMP_FALSE: case OP_JUMP_FALSE_N: case OP_APPLY1:
    case OP_RESULT_NUMBER: case OP_RESULT_SCALAR:
        read[in->a] = 1;
        break;
    case OP_SELECT: case OP_SELECT_N: read[in->a] = read[in->b] = read[in->c] = 1; break;
    case OP_SELECT_IF: case OP_SELECT_IF_N: read[in->a] = read[in->b] = read[in->c] = read[in->d] = 1; break;
    case OP_FOLD: case OP_FOLD_N:
        for (int i = 0; i < in->b; i++)
            read[p->args[in->a + i]] = 1;
        break;
    case OP_AGGREGATE: case OP_IRR: case OP_RUNNING_SUM: first = in->a, count = in->b; break;
    case OP_INDEX: read[in->a] = 1, first = in->b, count = in->c; break;
    case OP_MATCH: read[p->args[in->a]] = read[p->args[in->a + 1]] = 1, first = in->b, count = in->c; break;
    case OP_JUMP: case OP_FAIL: case OP_END: break;
    }
    for (int k = 0; k < count; k++)
        read[first + k] = 1;
}

/* Drop the copies (OP_MOVE, OP_MOVE_N) into slots that nothing reads: no instruction, no vector and no
 * copying out (a cell whose later readers read the slot it copies, compiler.alias, and which a program
 * for some targets does not copy out).  A copy never fails, so the runs fail where they did.  The jumps
 * are renumbered.  False when out of memory. */
static bool drop_dead_copies(tco_program *p)
{
    unsigned char *read = calloc(p->n_slots ? p->n_slots : 1, 1);
    size_t *to = malloc((p->n_code + 1) * sizeof *to);
    if (read == NULL || to == NULL) {
        free(read);
        free(to);
        return false;
    }
    for (size_t k = 0; k < p->n_code; k++)
        mark_reads(p, &p->code[k], read);
    for (size_t k = 0; k < p->n_outs; k++)
        for (int i = 0; i < p->outs[k].count; i++)
            read[p->outs[k].slot + i] = 1;
    size_t n = 0;
    for (size_t k = 0; k < p->n_code; k++) {
        const instr *in = &p->code[k];
        to[k] = n; /* where instruction k goes, or (dropped) the one after it */
        if (!((in->code == OP_MOVE || in->code == OP_MOVE_N) && !read[in->dst]))
            p->code[n++] = *in;
    }
    to[p->n_code] = n;
    for (size_t k = 0; k < n; k++) {
        instr *in = &p->code[k];
        if (in->code == OP_JUMP || in->code == OP_JUMP_FALSE || in->code == OP_JUMP_FALSE_N || in->code == OP_JUMP_UNLESS)
            in->c = (int32_t)to[in->c];
    }
    p->n_code = n;
    free(read);
    free(to);
    return true;
}

tco_error tco_program_compile(const tco_model *m, tco_program **out, tco_diag *diag)
{
    return tco_program_compile_with(m, NULL, out, diag);
}

tco_error tco_program_compile_for(const tco_model *m, const int *targets, size_t n_targets, tco_program **out,
                                  tco_diag *diag)
{
    tco_program_options o = {.targets = targets, .n_targets = n_targets};
    return tco_program_compile_with(m, &o, out, diag);
}

tco_error tco_program_compile_with(const tco_model *m, const tco_program_options *options, tco_program **out,
                                   tco_diag *diag)
{
    static const tco_program_options whole = {0};
    const tco_program_options *o = options ? options : &whole;
    *out = NULL;
    /* With targets: only the items they need (tco_model_needed()) are compiled, and only the targets
     * are copied out (needed[i] == 2).  With fixed inputs: varies[i] for the number inputs read at each
     * run. */
    unsigned char *needed = NULL, *varies = NULL;
    size_t bytes = m->n_items ? m->n_items : 1;
    if ((o->targets != NULL && (needed = malloc(bytes)) == NULL) ||
        (o->fix_inputs && (varies = calloc(bytes, 1)) == NULL)) {
        free(needed);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    if (needed)
        tco_model_needed(m, o->targets, o->n_targets, needed);
    for (size_t k = 0; needed && k < o->n_targets; k++)
        if (o->targets[k] >= 0 && (size_t)o->targets[k] < m->n_items && needed[o->targets[k]])
            needed[o->targets[k]] = 2;
    for (size_t k = 0; varies && k < o->n_varying; k++)
        if (o->varying[k] >= 0 && (size_t)o->varying[k] < m->n_items)
            varies[o->varying[k]] = 1;
    tco_program *p = calloc(1, sizeof *p);
    if (p == NULL || (p->base = malloc((m->n_items ? m->n_items : 1) * sizeof *p->base)) == NULL) {
        free(p);
        free(needed);
        free(varies);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    p->n_items = m->n_items;
    p->partial = needed != NULL;
    p->n_order = m->n_order;
    p->n_tiers = m->n_tiers;
    p->n_periods = m->n_periods;
    p->n_schedule_periods = m->n_schedule_periods;
    p->n_months = m->n_months;
    p->first_year = m->first_year;
    compiler c = {.m = m, .p = p};
    /* Every item's cells first, so that the cells are slots 0.. and temporaries come after. */
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        int n = cells_of(m, it);
        unsigned char type = T_NUM;
        if (it->kind == TCO_ITEM_LINE)
            type = T_NONE; /* joined from its formula's result */
        else if (it->kind == TCO_ITEM_TIER_CODE || ((it->kind == TCO_ITEM_INPUT || it->kind == TCO_ITEM_ERROR_COUNT) &&
                                                    it->text) || (it->kind == TCO_ITEM_TIER_INPUT && it->tier_texts))
            type = T_TEXT;
        p->base[i] = n ? new_slots(&c, n, type) : -1;
        if (n == 0 || c.nomem || (needed && !needed[i]))
            continue; /* an item no target needs: a slot, never read, no copy in or out */
        int b = p->base[i];
        switch (it->kind) {
        case TCO_ITEM_INPUT: case TCO_ITEM_ERROR_COUNT:
            if (it->text == NULL && varies && !varies[i])
                add_pin(&c, (int)i, -1, it->value, b);
            else if (it->text == NULL)
                add_in(&c, COPY_NUMBER, (int)i, b);
            else if ((p->txt[b] = add_guard(&c, (int)i, -1, it->text)) != NULL)
                p->konst[b] = 1; /* compiled as the constant it is now (see add_guard) */
            break;
        case TCO_ITEM_TIER_INPUT:
            for (int r = 0; it->tier_texts == NULL && varies && !varies[i] && r < m->n_tiers; r++)
                add_pin(&c, (int)i, r, it->tiers[r], b + r);
            if (it->tier_texts == NULL && !(varies && !varies[i]))
                add_in(&c, COPY_TIER_NUMBERS, (int)i, b);
            for (int r = 0; it->tier_texts && r < m->n_tiers; r++)
                if ((p->txt[b + r] = add_guard(&c, (int)i, r, it->tier_texts[r])) != NULL)
                    p->konst[b + r] = 1;
            break;
        case TCO_ITEM_TIER_CODE:
            for (int r = 0; r < m->n_tiers; r++) {
                p->txt[b + r] = m->tier_names[r];
                p->konst[b + r] = 1;
            }
            break;
        case TCO_ITEM_LINE: case TCO_ITEM_TOTAL: case TCO_ITEM_YEARLY: case TCO_ITEM_MONTHLY: case TCO_ITEM_TIER_LINE:
            if (needed == NULL || needed[i] == 2) /* a line on the way to a target stays in its slots */
                add_out(&c, it->kind == TCO_ITEM_LINE ? OUT_LINE_TEXT : it->kind == TCO_ITEM_TOTAL ? OUT_SCALAR
                            : it->kind == TCO_ITEM_TIER_LINE ? OUT_TIERS : OUT_YEARS, (int)i, b, n);
            break;
        case TCO_ITEM_YEAR_INDEX: case TCO_ITEM_MONTH_INDEX: break;
        }
    }
    c.n_alias = p->n_slots;
    if (!c.nomem && (c.alias = malloc((c.n_alias ? c.n_alias : 1) * sizeof *c.alias)) == NULL)
        c.nomem = true;
    for (size_t s = 0; !c.nomem && s < c.n_alias; s++)
        c.alias[s] = -1;
    for (size_t k = 0; k < m->n_order && !c.nomem; k++) {
        int i = m->order[k];
        const tco_item *it = &m->items[i];
        int b = p->base[i];
        if (needed && !needed[i])
            continue;
        switch (it->kind) {
        case TCO_ITEM_LINE: compile_cell(&c, it, -1, -1, -1, b, false); break;
        case TCO_ITEM_YEARLY:
            for (int y = 0; y < tco_item_periods(m, it); y++)
                compile_cell(&c, it, y, -1, -1, b + y, true);
            break;
        case TCO_ITEM_MONTHLY:
            for (int mo = 0; mo < m->n_months; mo++)
                compile_cell(&c, it, -1, -1, mo, b + mo, true);
            break;
        case TCO_ITEM_TIER_LINE:
            for (int r = 0; r < m->n_tiers; r++)
                compile_cell(&c, it, -1, r, -1, b + r, true);
            break;
        case TCO_ITEM_TOTAL: /* summed in year (month) order, as SUM over the year (month) cells does */
            compile_total(&c, b, p->base[it->partner], tco_item_periods(m, &m->items[it->partner]));
            break;
        default: break;
        }
    }
    /* Every writer of a slot of type T_NUM writes a number (the type is the join of its writers'),
     * so its flag and text stay as made (no TRUE/FALSE, no text): arithmetic into it stores the
     * number alone. */
    for (size_t k = 0; k < p->n_code && !c.nomem; k++)
        if (p->code[k].code <= OP_POW && p->type[p->code[k].dst] == T_NUM) /* OP_ADD is 0 */
            p->code[k].code = (uint8_t)(p->code[k].code - OP_ADD + OP_ADD_N);
    if (!c.nomem)
        specialise(p);
    if (!c.nomem && (!sort_copies(p) || !drop_dead_copies(p)))
        c.nomem = true;
    /* The end: a run stops at it (a jump past the last cell lands on it). */
    if (!c.nomem && !grow((void **)&p->code, &p->cap_code, p->n_code + 1, sizeof *p->code))
        c.nomem = true;
    if (!c.nomem)
        p->code[p->n_code] = (instr){.code = OP_END};
    free(p->type);
    p->type = NULL;
    free(p->konst);
    p->konst = NULL;
    free(c.table);
    free(c.cell_entries);
    free(c.alias);
    free(needed);
    free(varies);
    if (c.nomem) {
        tco_program_free(p);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory compiling the model");
    }
    *out = p;
    return TCO_OK;
}

