/*
 * formula.h - the formula engine: a parser, printer and evaluator for the
 * subset of Excel formula syntax that tco's templates use.
 *
 * The subset (docs/formulas.md is the user's manual):
 *   - numbers (12, 0.7, 1.5e3), TRUE, FALSE, and text in double quotes
 *     ("N+1", "" for a quote) for comparing with text inputs (= and <> only);
 *   - names of inputs and line items ([A-Za-z_][A-Za-z0-9_]*, case-insensitive,
 *     never a cell reference: see tco_name_check());
 *   - operators, from loosest to tightest binding (Excel's order):
 *       =  <>  <  <=  >  >=      comparisons, left-associative
 *       +  -                     addition, subtraction
 *       *  /                     multiplication, division
 *       ^                        power, left-associative as in Excel
 *       unary -  unary +         negation binds before ^: -2^2 = 4 (Excel)
 *   - parentheses and function calls: SUM MIN MAX ROUND ROUNDUP ROUNDDOWN IF
 *     AND OR NOT ABS ISNUMBER ISTEXT INDEX MATCH IRR, and CUMSUM(x) (running total of a per-year line, written
 *     as SUM over the row from Year 1).  SUM, MIN or MAX with one argument that is a per-year or
 *     per-tier name aggregates the whole row or column (the workbook shows a
 *     range, e.g. MAX('Inputs'!$D$40:$D$49)); anywhere else such a name means
 *     the value in the same year or tier.
 * Anything else (cell references, ranges, strings, &, %, other functions) is a
 * parse error, because a formula we cannot evaluate exactly as Excel,
 * LibreOffice and Gnumeric do must not reach a workbook.
 *
 * One precedence table drives both the parser and the printer.  The printer
 * emits explicit parentheses where the applications disagree: Gnumeric reads
 * 2^3^2 as 2^(3^2) = 512, Excel and LibreOffice as (2^3)^2 = 64, so nested
 * powers and signed operands of ^ are always parenthesised.
 */
#ifndef TCO_FORMULA_H
#define TCO_FORMULA_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "base/memory.h"
#include "base/strbuf.h"
#include "base/text.h"

/** Deepest nesting of operators, parentheses and calls accepted (Excel allows 64 levels of functions). */
#define TCO_FORMULA_MAX_DEPTH 64
/** Longest formula text accepted, in characters (Excel's limit is 8,192). */
#define TCO_FORMULA_MAX_LEN 8192
/** Most arguments one function call may have (Excel's limit is 255). */
#define TCO_FORMULA_MAX_ARGS 255
/** Longest name accepted, in characters.  Excel allows 255 in a defined name but
 *  libxlsxwriter 128; 100 leaves room for the "_total" tco adds to per-year lines. */
#define TCO_NAME_MAX_LEN 100

/** Kinds of tree node. */
typedef enum tco_node_kind {
    /** A numeric constant: node->number. */
    TCO_NODE_NUMBER,
    /** TRUE or FALSE: node->number is 1 or 0. */
    TCO_NODE_BOOL,
    /** Text in double quotes: node->name holds the text without quotes. */
    TCO_NODE_STRING,
    /** A name: node->name; node->ref is set by the caller's binding (-1 until then). */
    TCO_NODE_NAME,
    /** A unary operator (TCO_OP_NEG, TCO_OP_POS) on args[0]. */
    TCO_NODE_UNARY,
    /** A binary operator on args[0], args[1]. */
    TCO_NODE_BINARY,
    /** A function call: node->func on args[0..nargs-1]. */
    TCO_NODE_CALL
} tco_node_kind;

/** Operators.  Their precedence lives in one table in formula.c. */
typedef enum tco_op {
    TCO_OP_EQ, /**< =  */
    TCO_OP_NE, /**< <> */
    TCO_OP_LT, /**< <  */
    TCO_OP_LE, /**< <= */
    TCO_OP_GT, /**< >  */
    TCO_OP_GE, /**< >= */
    TCO_OP_ADD, /**< +  */
    TCO_OP_SUB, /**< -  */
    TCO_OP_MUL, /**< *  */
    TCO_OP_DIV, /**< /  */
    TCO_OP_POW, /**< ^  */
    TCO_OP_NEG, /**< unary - */
    TCO_OP_POS, /**< unary + */
    TCO_OP_COUNT /**< number of operators; not an operator */
} tco_op;

/** Supported functions (all evaluate identically in Excel, LibreOffice and Gnumeric). */
typedef enum tco_func {
    TCO_FN_SUM,       /**< SUM(x, ...): 1..255 numbers */
    TCO_FN_MIN,       /**< MIN(x, ...) */
    TCO_FN_MAX,       /**< MAX(x, ...) */
    TCO_FN_ROUND,     /**< ROUND(x, digits): half away from zero */
    TCO_FN_ROUNDUP,   /**< ROUNDUP(x, digits): away from zero */
    TCO_FN_ROUNDDOWN, /**< ROUNDDOWN(x, digits): toward zero */
    TCO_FN_IF,        /**< IF(cond, then [, else]): only the chosen branch is evaluated */
    TCO_FN_AND,       /**< AND(x, ...) */
    TCO_FN_OR,        /**< OR(x, ...) */
    TCO_FN_NOT,       /**< NOT(x) */
    TCO_FN_ABS,       /**< ABS(x) */
    TCO_FN_ISNUMBER,  /**< ISNUMBER(x): TRUE if x is a number (not text), e.g. a line that may say "never" */
    TCO_FN_ISTEXT,    /**< ISTEXT(x): TRUE if x is text */
    TCO_FN_INDEX,     /**< INDEX(v, n): the n-th (1-based) value of the per-tier name v (number or text) */
    TCO_FN_MATCH,     /**< MATCH(x, v, 0): the 1-based position of the text x in the per-tier name v, exact
                           match only (case-insensitively, no wildcards); not found is an error (#N/A) */
    TCO_FN_IRR,       /**< IRR(v): the internal rate of return of the per-year (per-month) line v (one value
                           per period, the first undiscounted), for flows that change sign exactly once,
                           from negative to positive (then the rate is unique), or whose running sum does
                           and ends above 0 (Norstrom: then the rate above 0 is unique); anything else is
                           an error (#NUM!) */
    TCO_FN_CUMSUM,    /**< CUMSUM(x): tco's running total of a per-year line from Year 1 to this
                           year; written to the workbook as SUM('Sheet'!$C$7:E7), so no
                           application ever sees the name CUMSUM */
    TCO_FN_COUNT      /**< number of functions; not a function */
} tco_func;

/** A formula tree node.  A tree from tco_formula_parse() is one allocation (its nodes, their argument
 *  arrays and their names' bytes): free it with tco_node_free() on its root, never a part of it (a tree
 *  from tco_formula_parse_in() goes with its arena instead). */
typedef struct tco_node {
    /** What this node is. */
    tco_node_kind kind;
    /** Operator, for UNARY and BINARY nodes. */
    tco_op op;
    /** Function, for CALL nodes. */
    tco_func func;
    /** Value of NUMBER (any finite double) and BOOL (0 or 1) nodes. */
    double number;
    /** Name as written, for NAME nodes (heap, NUL-terminated). */
    char *name;
    /** Caller's binding of a NAME node (an index into the caller's table); -1 when unbound. */
    int ref;
    /** Operands or arguments. */
    struct tco_node **args;
    /** Number of entries in args. */
    size_t nargs;
    /** 1-based character column in the source text where this node starts. */
    size_t col;
} tco_node;

/** A value: a number, a boolean (Excel's TRUE/FALSE, 1/0 in arithmetic) or text. */
typedef struct tco_value {
    /** The number; 1 or 0 for booleans; 0 for text. */
    double number;
    /** True if the value is TRUE/FALSE rather than a number. */
    bool is_bool;
    /** Non-NULL for text (borrowed from the tree or the caller; never freed here). */
    const char *text;
} tco_value;

/**
 * Parse @p text (an optional leading '=' is allowed) into a tree.
 * @p where is the place for diagnostics (NULL: none), e.g. {.file = "templates/tco.ini", .section =
 * "line.tco", .key = "formula"}; messages read "templates/tco.ini [line.tco] formula, column N: expected
 * ..., found '...'", the place and the column as data (error.h tco_diag_at()).
 * On success stores the root in *@p out (caller frees with tco_node_free()); the tree is one heap block.
 * Errors: TCO_ERR_SYNTAX, TCO_ERR_UNKNOWN_FUNCTION, TCO_ERR_ARITY,
 * TCO_ERR_TOO_DEEP, TCO_ERR_BAD_NAME (a cell-reference-like name), TCO_ERR_NOMEM.
 */
tco_error tco_formula_parse(const char *text, const tco_place *where, tco_node **out, tco_diag *diag);

/**
 * tco_formula_parse() with the tree's block taken from the arena @p arena (memory.h) instead of the
 * heap: the tree lives as long as the arena and is never given to tco_node_free().  For a model's
 * trees, made by the thousand as a template loads and given back together (tco_model_free()).  A
 * formula that does not parse leaves its block unused in the arena.  Same errors.
 */
tco_error tco_formula_parse_in(const char *text, const tco_place *where, tco_arena *arena, tco_node **out,
                               tco_diag *diag);

/** Free a tree from tco_formula_parse(), given its root (NULL is allowed). */
void tco_node_free(tco_node *node);

/**
 * Check that @p name can be an Excel defined name and so a tco input or line name:
 * 1..100 characters of [A-Za-z0-9_], not starting with a digit; not TRUE/FALSE;
 * not readable as a cell reference in A1 style (1-3 letters then digits, e.g.
 * PUE1, AB12) or R1C1 style (R, C, R2, C3, R2C3, RC); not a supported function name.
 * Returns TCO_OK or TCO_ERR_BAD_NAME with a message at @p where ("FILE [SECTION]: name ...").
 */
tco_error tco_name_check(const char *name, const tco_place *where, tco_diag *diag);

/**
 * True if Excel could read @p text as a cell reference (A1 style such as PUE1,
 * XFD1048576; R1C1 style such as R2C3, RC, r, c) or as TRUE/FALSE.
 */
bool tco_looks_like_reference(const char *text);

/** Which cells a NAME stands for when printed. */
typedef enum tco_ref_mode {
    TCO_REF_CELL,    /**< one value: the name, or the cell of the same year or tier */
    TCO_REF_WHOLE,   /**< the whole row or column (only argument of SUM, MIN, MAX) */
    TCO_REF_TO_DATE  /**< Year 1 to the current year (argument of CUMSUM) */
} tco_ref_mode;

/**
 * Callback that appends the workbook text for a NAME node to @p out when printing, e.g. the
 * name itself ("pue"), a cell reference ("'Opex'!D7") or a range for @p mode, and returns true;
 * or returns false, having appended nothing, to print the name as written.
 */
typedef bool (*tco_name_text_fn)(void *ctx, const tco_node *name, tco_ref_mode mode, tco_strbuf *out);

/**
 * Print @p node as Excel formula text (without the leading '=') into @p out,
 * from the tree, with the minimum parentheses plus those needed where
 * spreadsheet applications disagree (see the file comment).  Functions are
 * printed upper-case, numbers in shortest round-trip form.
 */
void tco_formula_print(const tco_node *node, tco_name_text_fn name_text, void *ctx, tco_strbuf *out);

/* tco_formula_arith(), tco_formula_compare(), tco_formula_fold() and tco_formula_fold_result() are
 * defined here, static inline, so that the compiled program (program.h) runs them without a call
 * per operation: one definition, used by the tree evaluator and the program alike.  The comparison
 * is inlined even where GCC would judge it too large (TCO_FORMULA_INLINE): the program compares
 * nearly 300 times an evaluation of cluster32, and a call costs about as much as the comparison. */
#if defined(__GNUC__)
#define TCO_FORMULA_INLINE static inline __attribute__((always_inline))
#else
#define TCO_FORMULA_INLINE static inline
#endif

/** True when @p x is a result the workbook holds as the applications compute it: finite and at most
 *  TCO_NUMBER_MAX in magnitude (a larger one is written as an overflow).  Every result is checked by
 *  it, in the tree evaluator and the compiled program alike. */
static inline bool tco_formula_number_ok(double x)
{
    return fabs(x) <= TCO_NUMBER_MAX; /* false for NaN and infinities too */
}

/** True when |x| is a whole number a double holds exactly (below 2^52), as LibreOffice's
 *  isRepresentableInteger(): two such numbers are never "approximately" equal. */
static inline bool tco_formula_integer_held(double x)
{
    return x <= 4503599627370495.0 && x == floor(x);
}

/** Equality as the applications do it: LibreOffice's rtl::math::approxEqual (sal/rtl/math.cxx),
 *  equal when they agree to about 15 significant digits (2^-48 relative to both), never against 0,
 *  never for two different exactly held integers; Excel compares at its display precision. */
TCO_FORMULA_INLINE bool tco_formula_approx_equal(double a, double b)
{
    if (a == b)
        return true;
    if (a == 0 || b == 0)
        return false;
    double d = fabs(a - b);
    if (!isfinite(d))
        return false;
    a = fabs(a);
    b = fabs(b);
    if (d > a * 0x1p-44 || d > b * 0x1p-44)
        return false;
    if (tco_formula_integer_held(d) && tco_formula_integer_held(a) && tco_formula_integer_held(b))
        return false;
    return d < a * 0x1p-48 && d < b * 0x1p-48;
}

/**
 * The arithmetic operator @p op (TCO_OP_ADD to TCO_OP_POW) on @p a and @p b as
 * the evaluator does it, and as LibreOffice does: a sum or difference of
 * nearly equal magnitudes (equal to about 15 digits, rtl::math::approxAdd and
 * approxSub) is exactly 0.  Returns TCO_OK with *@p out, or TCO_ERR_EVAL with
 * the reason in *@p why (division by zero, 0^0, overflow to a non-finite
 * result, ...).  Used wherever tco caches the result of a formula it writes
 * itself (the Compare sheet's differences), so no second copy of the rules.
 */
static inline tco_error tco_formula_arith(tco_op op, double a, double b, double *out, const char **why)
{
    *why = NULL;
    switch (op) {
    case TCO_OP_ADD:
        /* LibreOffice's approxAdd and approxSub: a sum of nearly opposite values is exactly 0
         * (0.1 + 0.2 - 0.3 = 0), as Excel's and Gnumeric's results also read. */
        *out = ((a < 0 && b > 0) || (a > 0 && b < 0)) && tco_formula_approx_equal(a, -b) ? 0 : a + b;
        break;
    case TCO_OP_SUB: *out = ((a < 0 && b < 0) || (a > 0 && b > 0)) && tco_formula_approx_equal(a, b) ? 0 : a - b; break;
    case TCO_OP_MUL: *out = a * b; break;
    case TCO_OP_DIV:
        if (b == 0) {
            *why = "division by zero (#DIV/0!)";
            return TCO_ERR_EVAL;
        }
        *out = a / b;
        break;
    case TCO_OP_POW:
        if (a == 0 && b == 0)
            *why = "0^0 is undefined (#NUM!)";
        else if (a == 0 && b < 0)
            *why = "0 raised to a negative power (#DIV/0!)";
        else if (a < 0 && b != floor(b))
            *why = "negative number raised to a fractional power (#NUM!)";
        if (*why)
            return TCO_ERR_EVAL;
        *out = pow(a, b);
        /* LibreOffice gives #NUM! where the power underflows past the normal doubles (0.001^300,
         * 0.5^1074); Gnumeric and Excel read 0 or a subnormal.  Refused, as a subnormal literal is. */
        if (a != 0 && fabs(*out) < DBL_MIN) {
            *why = "result underflows below 2.2250738585072014e-308 (#NUM! in LibreOffice)";
            return TCO_ERR_EVAL;
        }
        break;
    default:
        *why = "not an arithmetic operator";
        return TCO_ERR_EVAL;
    }
    if (!tco_formula_number_ok(*out)) {
        *why = "result overflows (#NUM!)";
        return TCO_ERR_EVAL;
    }
    return TCO_OK;
}

/* ---- the evaluator's steps, one value at a time ----------------------------------------------
 * tco_formula_eval() is built from these, and so is the compiled program (program.h), so that each
 * rule is written once.  Each returns TCO_OK, or TCO_ERR_EVAL with the reason in *why (a static
 * string, without the place: the tree evaluator prefixes "<where>, column N: ").  Text in a
 * tco_value is borrowed; none of these allocates. */

/** Comparison @p op (TCO_OP_EQ to TCO_OP_GE) of two numbers as the applications do it: equal when
 *  they agree to about 15 significant digits (LibreOffice's rtl::math::approxEqual). */
TCO_FORMULA_INLINE bool tco_formula_compare(tco_op op, double a, double b)
{
    bool eq = tco_formula_approx_equal(a, b);
    switch (op) {
    case TCO_OP_EQ: return eq;
    case TCO_OP_NE: return !eq;
    case TCO_OP_LT: return !eq && a < b;
    case TCO_OP_LE: return eq || a < b;
    case TCO_OP_GT: return !eq && a > b;
    case TCO_OP_GE: return eq || a > b;
    default: return false;
    }
}

/** True if texts @p a and @p b are equal without regard to case, in any script: tco_utf8_casecmp()
 *  equality (the applications' = on text, and MATCH's), with a quick path for ASCII. */
bool tco_formula_text_equal(const char *a, const char *b);

/** Binary operator @p op on values @p a and @p b: arithmetic (tco_formula_arith()), comparison
 *  (tco_formula_compare(); TRUE/FALSE against a number is an error), or text = / <> text
 *  (case-insensitive); text with a number, or text with another operator, is an error. */
tco_error tco_formula_binary(tco_op op, const tco_value *a, const tco_value *b, tco_value *out, const char **why);

/** Unary @p op (TCO_OP_NEG, TCO_OP_POS) on *@p v in place: -TRUE is -1, +TRUE stays TRUE; text is an error. */
tco_error tco_formula_unary(tco_op op, tco_value *v, const char **why);

/** IF's condition @p v: *@p out is true for a non-zero number or TRUE; text is an error. */
tco_error tco_formula_truth(const tco_value *v, bool *out, const char **why);

/** Argument @p i (0-based) of SUM, MIN, MAX, AND or OR (@p func) folded into *@p acc (set by
 *  argument 0): text is an error, and so is TRUE/FALSE in SUM, MIN or MAX. */
static inline tco_error tco_formula_fold(tco_func func, size_t i, double *acc, const tco_value *v, const char **why)
{
    if (v->text) {
        *why = "text used as a number";
        return TCO_ERR_EVAL;
    }
    if (v->is_bool && (func == TCO_FN_SUM || func == TCO_FN_MIN || func == TCO_FN_MAX)) {
        *why = "TRUE/FALSE as an argument of SUM, MIN or MAX (Gnumeric ignores it, Excel counts it); use IF(test, 1, 0)";
        return TCO_ERR_EVAL;
    }
    if (i == 0)
        *acc = func == TCO_FN_SUM ? 0 + v->number : v->number;
    else if (func == TCO_FN_SUM)
        *acc += v->number;
    else if (func == TCO_FN_MIN)
        *acc = fmin(*acc, v->number);
    else if (func == TCO_FN_MAX)
        *acc = fmax(*acc, v->number);
    else if (func == TCO_FN_AND)
        *acc = (*acc != 0 && v->number != 0);
    else
        *acc = (*acc != 0 || v->number != 0);
    return TCO_OK;
}

/** The value of SUM, MIN, MAX, AND or OR after the last argument's fold: a number, or TRUE/FALSE for
 *  AND and OR; a non-finite sum is an error (#NUM!). */
static inline tco_error tco_formula_fold_result(tco_func func, double acc, tco_value *out, const char **why)
{
    out->is_bool = func == TCO_FN_AND || func == TCO_FN_OR;
    out->text = NULL;
    out->number = out->is_bool ? acc != 0 : acc;
    if (!tco_formula_number_ok(out->number)) {
        *why = "result overflows (#NUM!)";
        return TCO_ERR_EVAL;
    }
    return TCO_OK;
}

/** NOT, ABS, ISNUMBER or ISTEXT (@p func) of @p v: text in NOT or ABS, TRUE/FALSE in ISNUMBER or
 *  ISTEXT is an error. */
tco_error tco_formula_apply1(tco_func func, const tco_value *v, tco_value *out, const char **why);

/** ROUND, ROUNDUP or ROUNDDOWN (@p func) of @p x to @p digits places (tco_excel_round()): text, digits
 *  outside -308..308 (*@p at = 1: the error is the second argument's; else -1, the call's) or a
 *  non-finite result is an error. */
tco_error tco_formula_round(tco_func func, const tco_value *x, const tco_value *digits, tco_value *out,
                            const char **why, int *at);

/** SUM, MIN or MAX (@p func) of @p count >= 1 values, in order from values[0] (a whole row or column);
 *  the caller refuses a non-finite result.  (Inline: the compiled program runs it without a call.) */
static inline double tco_formula_aggregate(tco_func func, const double *values, size_t count)
{
    double acc = values[0];
    for (size_t i = 1; i < count; i++)
        acc = func == TCO_FN_SUM ? acc + values[i] : func == TCO_FN_MIN ? fmin(acc, values[i]) : fmax(acc, values[i]);
    return acc;
}

/** The running sum @p sum (of values[0 .. k-1]) with values[k] = @p value added: one step of
 *  tco_formula_running_sum(), so that the compiled program can carry a CUMSUM on from the cell before
 *  (program.h) and give the same double. */
static inline double tco_formula_running_add(double sum, double value)
{
    return sum + value;
}

/** 0 + values[0] + ... + values[count-1], in that order: CUMSUM up to a year (count = year + 1),
 *  and a per-year line's Total.  (Inline: the compiled program runs it without a call.) */
static inline double tco_formula_running_sum(const double *values, size_t count)
{
    double acc = 0;
    for (size_t i = 0; i < count; i++)
        acc = tco_formula_running_add(acc, values[i]);
    return acc;
}

/** IRR of the flows @p f[0..count) (count >= 2; see TCO_FN_IRR) into *@p out. */
tco_error tco_formula_irr(const double *f, size_t count, double *out, const char **why);

/** INDEX's position @p pos into a vector of @p count values: *@p k the 0-based element.  TRUE/FALSE is
 *  an error with a reason; text or a position that is not a whole number from 1 to count is an error
 *  with *why NULL (the caller names the range, #REF!). */
tco_error tco_formula_index_position(const tco_value *pos, size_t count, size_t *k, const char **why);

/** MATCH's value to look up @p key and third argument @p mode: the key must be text without * ? ~ and
 *  not TRUE/FALSE, the mode 0; on error *@p at is the argument at fault (0 or 2).  The search itself
 *  is tco_formula_text_equal() against each text element, the first match's 1-based position. */
tco_error tco_formula_match_key(const tco_value *key, const tco_value *mode, const char **why, int *at);

/**
 * Deepest nesting of parentheses in the text tco_formula_print() gives for
 * @p node: grouping parentheses the printer adds (each step of a ^ or
 * comparison chain, signed operands) and function-call parentheses.  "1+2" is
 * 0, "SUM(1)" 1, "1^1^1" printed "(1^1)^1" is 1.  tco_formula_parse() refuses
 * a formula over TCO_FORMULA_MAX_DEPTH by this measure.
 */
size_t tco_formula_printed_depth(const tco_node *node);

/**
 * Callback giving the value of a NAME node during evaluation.  Return TCO_OK
 * and set *value, or an error (with a diagnostic in @p diag).
 */
typedef tco_error (*tco_name_value_fn)(void *ctx, const tco_node *name, tco_value *value, tco_diag *diag);

/**
 * Callback giving every value of a per-year or per-tier NAME (for SUM, MIN or
 * MAX of a whole row or column): set *values and *count.  Set *count = 0 for a
 * name that is not a vector, which is then evaluated as a single value.
 */
typedef tco_error (*tco_name_vector_fn)(void *ctx, const tco_node *name, const double **values, size_t *count,
                                        tco_diag *diag);

/**
 * Callback giving one element of a per-year or per-tier NAME (for INDEX and
 * MATCH): store the number of elements in *count and, when @p k < *count, the
 * k-th (0-based) value, number or text, in *value.  *count = 0 for a name
 * that is not a vector.
 */
typedef tco_error (*tco_name_element_fn)(void *ctx, const tco_node *name, size_t k, tco_value *value,
                                         size_t *count, tco_diag *diag);

/** How names are evaluated: callbacks and their context (any may be NULL). */
typedef struct tco_eval_env {
    tco_name_value_fn value;
    tco_name_vector_fn vector;
    /** Elements of a vector name, for INDEX and MATCH (NULL: those functions fail). */
    tco_name_element_fn element;
    void *ctx;
    /** 0-based year being evaluated, for CUMSUM (which sums values[0..position]). */
    int position;
} tco_eval_env;

/**
 * Evaluate @p node as Excel would.  Division by zero, 0^0, a negative base with
 * a fractional exponent, overflow to infinity, comparing TRUE/FALSE with a
 * number (applications order them differently), text in arithmetic, and text
 * compared with < or > are TCO_ERR_EVAL errors whose message starts with
 * @p where.  Text compares equal case-insensitively, as in Excel.  IF
 * evaluates only the branch it takes.  @p env may be NULL (no names).
 */
tco_error tco_formula_eval(const tco_node *node, const tco_eval_env *env, const tco_place *where, tco_value *out,
                           tco_diag *diag);

/** True if @p call is SUM, MIN or MAX with exactly one argument, and that argument is a name. */
bool tco_formula_is_aggregate(const tco_node *call);

/**
 * True if argument @p i of @p node stands for a whole row or column when it is a
 * per-year or per-tier name: the only argument of SUM/MIN/MAX, the first of
 * INDEX, the second of MATCH and the only one of IRR (the workbook prints a range there).
 */
bool tco_formula_vector_arg(const tco_node *node, size_t i);

/**
 * Call @p visit for every NAME node in @p node, depth first, left to right.
 * Stops and returns the first non-TCO_OK code a visit returns.
 */
tco_error tco_formula_walk_names(tco_node *node, tco_error (*visit)(void *ctx, tco_node *name), void *ctx);

/** Upper-case name of @p func ("SUM"), for printing and documentation. */
const char *tco_func_name(tco_func func);

/**
 * Excel's ROUND/ROUNDUP/ROUNDDOWN of @p x to @p digits decimal places (digits
 * may be negative: ROUND(1234, -2) = 1200).  @p mode is TCO_FN_ROUND,
 * TCO_FN_ROUNDUP or TCO_FN_ROUNDDOWN.  The scaled value is first snapped to 15
 * significant digits, as the applications do, so ROUNDUP(0.1*3, 1) = 0.3.
 */
double tco_excel_round(double x, double digits, tco_func mode);

/* tco_excel_round()'s scales 10^0 .. 10^22 are read from tco_pow10_exact (base/text.h), which pow()
 * gives exactly (tests/test_program.c checks it). */

#endif /* TCO_FORMULA_H */
