/* formula.c - parser, printer and evaluator for tco's Excel formula subset. */
#include "model/formula.h"
#include "base/text.h"
#include "base/utf8.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the one precedence table (parser and printer) ---------------------- */

/* Binding strength, loosest first.  All binary operators are left-associative
 * in Excel and LibreOffice; Gnumeric differs for ^, which the printer handles. */
enum { PREC_CMP = 1, PREC_ADD = 2, PREC_MUL = 3, PREC_POW = 4, PREC_UNARY = 5, PREC_ATOM = 6 };

static const struct {
    const char *text;
    int prec;
} op_table[TCO_OP_COUNT] = {
    [TCO_OP_EQ] = {"=", PREC_CMP},   [TCO_OP_NE] = {"<>", PREC_CMP},
    [TCO_OP_LT] = {"<", PREC_CMP},   [TCO_OP_LE] = {"<=", PREC_CMP},
    [TCO_OP_GT] = {">", PREC_CMP},   [TCO_OP_GE] = {">=", PREC_CMP},
    [TCO_OP_ADD] = {"+", PREC_ADD},  [TCO_OP_SUB] = {"-", PREC_ADD},
    [TCO_OP_MUL] = {"*", PREC_MUL},  [TCO_OP_DIV] = {"/", PREC_MUL},
    [TCO_OP_POW] = {"^", PREC_POW},  [TCO_OP_NEG] = {"-", PREC_UNARY},
    [TCO_OP_POS] = {"+", PREC_UNARY},
};

/* Each function's name (upper case), its length, and how many arguments it takes. */
#define FUNC(name, lo, hi) {name, sizeof name - 1, lo, hi}
static const struct {
    const char *name;
    size_t len;
    size_t min_args, max_args;
} func_table[TCO_FN_COUNT] = {
    [TCO_FN_SUM] = FUNC("SUM", 1, TCO_FORMULA_MAX_ARGS),
    [TCO_FN_MIN] = FUNC("MIN", 1, TCO_FORMULA_MAX_ARGS),
    [TCO_FN_MAX] = FUNC("MAX", 1, TCO_FORMULA_MAX_ARGS),
    [TCO_FN_ROUND] = FUNC("ROUND", 2, 2),
    [TCO_FN_ROUNDUP] = FUNC("ROUNDUP", 2, 2),
    [TCO_FN_ROUNDDOWN] = FUNC("ROUNDDOWN", 2, 2),
    [TCO_FN_IF] = FUNC("IF", 2, 3),
    [TCO_FN_AND] = FUNC("AND", 1, TCO_FORMULA_MAX_ARGS),
    [TCO_FN_OR] = FUNC("OR", 1, TCO_FORMULA_MAX_ARGS),
    [TCO_FN_NOT] = FUNC("NOT", 1, 1),
    [TCO_FN_ABS] = FUNC("ABS", 1, 1),
    [TCO_FN_ISNUMBER] = FUNC("ISNUMBER", 1, 1),
    [TCO_FN_ISTEXT] = FUNC("ISTEXT", 1, 1),
    [TCO_FN_INDEX] = FUNC("INDEX", 2, 2),
    [TCO_FN_MATCH] = FUNC("MATCH", 3, 3),
    [TCO_FN_IRR] = FUNC("IRR", 1, 1),
    [TCO_FN_CUMSUM] = FUNC("CUMSUM", 1, 1),
};
#undef FUNC

/* The function named by the @p len bytes at @p s in any case, or -1. */
static int func_find(const char *s, size_t len)
{
    for (int f = 0; f < TCO_FN_COUNT; f++)
        if (func_table[f].len == len && strncasecmp(s, func_table[f].name, len) == 0)
            return f;
    return -1;
}

const char *tco_func_name(tco_func func)
{
    return (unsigned)func < TCO_FN_COUNT ? func_table[func].name : "?";
}

/* ---- names ---------------------------------------------------------------- */

static bool all_digits(const char *s)
{
    if (*s == '\0')
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* A1 style: 1-3 letters then one or more digits (PUE1, AB12, XFD1048576). */
static bool looks_a1(const char *s)
{
    size_t letters = 0;
    while (isalpha((unsigned char)s[letters]))
        letters++;
    return letters >= 1 && letters <= 3 && all_digits(s + letters);
}

/* R1C1 style: R[n][C[n]] or C[n]: "r", "c", "R2", "C3", "RC", "R2C3". */
static bool looks_r1c1(const char *s)
{
    const char *p = s;
    bool any = false;
    if (*p == 'r' || *p == 'R') {
        p++, any = true;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'c' || *p == 'C') {
        p++, any = true;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return any && *p == '\0';
}

bool tco_looks_like_reference(const char *text)
{
    return looks_a1(text) || looks_r1c1(text) || strcasecmp(text, "TRUE") == 0 || strcasecmp(text, "FALSE") == 0;
}

/* @p where at the character column @p col, "WHERE, column N: " (tco_place_column()), as a pointer for
 * tco_diag_at() (a compound literal, alive in the enclosing block). */
#define AT_COLUMN(where, col) ((const tco_place[]){tco_place_column((where), (long)(col))})

tco_error tco_name_check(const char *name, const tco_place *where, tco_diag *diag)
{
    size_t n = strlen(name);
    if (n == 0)
        return tco_diag_at(diag, TCO_ERR_BAD_NAME, where, "expected a name, found an empty one");
    if (n > TCO_NAME_MAX_LEN)
        return tco_diag_at(diag, TCO_ERR_BAD_NAME, where, "name '%.40s...' is %zu characters, at most %d are allowed",
                           name, n, TCO_NAME_MAX_LEN);
    if (!(isalpha((unsigned char)name[0]) || name[0] == '_'))
        return tco_diag_at(diag, TCO_ERR_BAD_NAME, where, "name '%s' must start with a letter or '_'", name);
    for (const char *p = name; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return tco_diag_at(diag, TCO_ERR_BAD_NAME, where,
                               "name '%s' may hold only letters, digits and '_', found '%c'", name, *p);
    if (strcasecmp(name, "TRUE") == 0 || strcasecmp(name, "FALSE") == 0)
        return tco_diag_at(diag, TCO_ERR_BAD_NAME, where, "name '%s' is a boolean constant", name);
    if (looks_a1(name) || looks_r1c1(name))
        return tco_diag_at(diag, TCO_ERR_BAD_NAME, where,
                           "name '%s' would be read by Excel as a cell reference; "
                           "use a name such as '%s_value'",
                           name, name);
    if (func_find(name, n) >= 0)
        return tco_diag_at(diag, TCO_ERR_BAD_NAME, where, "name '%s' is a function name", name);
    return TCO_OK;
}

/* ---- nodes ---------------------------------------------------------------- */

/* A tree is one heap block (tco_formula_parse()): its nodes, then the argument arrays, then the
 * names' and texts' bytes; the root is the block's first node, so freeing the root frees the tree. */
void tco_node_free(tco_node *node)
{
    free(node);
}

/* What a character is to node_bound(): a character of a run (0: digits, letters, '.', '_', '$', any byte
 * from 0x80, ...), a blank, parenthesis or comma, an operator, a quote, or the end of the text. */
enum { BOUND_RUN, BOUND_GAP, BOUND_OP, BOUND_QUOTE, BOUND_END };
static const unsigned char bound_class[256] = {
    ['\0'] = BOUND_END,
    ['\t'] = BOUND_GAP, ['\n'] = BOUND_GAP, ['\r'] = BOUND_GAP, [' '] = BOUND_GAP,
    ['('] = BOUND_GAP,  [')'] = BOUND_GAP,  [','] = BOUND_GAP,
    ['+'] = BOUND_OP, ['-'] = BOUND_OP, ['*'] = BOUND_OP, ['/'] = BOUND_OP,
    ['^'] = BOUND_OP, ['='] = BOUND_OP, ['<'] = BOUND_OP, ['>'] = BOUND_OP,
    ['"'] = BOUND_QUOTE,
};

/* An upper bound on the nodes of any tree, or any part of one, that the parser builds from @p text.
 * Every node starts at a token of its own: a sign or an operator (its first character), a text (its
 * opening quote), or a number, name or function name, which begins a run of characters that are no
 * blank, parenthesis, comma, quote or operator.  Two nodes never start in one run: the parser stops
 * with an error at the run's next character after a number or name.  So the count of operator
 * characters, quotes opening a text and runs is at least the number of nodes. */
static size_t node_bound(const char *text)
{
    size_t count = 0;
    for (const unsigned char *p = (const unsigned char *)text;;) {
        switch (bound_class[*p]) {
        case BOUND_RUN:
            count++;
            while (bound_class[*++p] == BOUND_RUN)
                ;
            break;
        case BOUND_GAP:
            p++;
            break;
        case BOUND_OP:
            count++;
            p++;
            break;
        case BOUND_QUOTE: /* a text, to its closing quote; "" is a quote inside it, as the parser reads it */
            count++;
            for (p++; *p && !(*p == '"' && p[1] != '"'); p += *p == '"' ? 2 : 1)
                ;
            if (*p == '\0')
                return count;
            p++;
            break;
        default:
            return count;
        }
    }
}

/* ---- lexer + recursive-descent parser --------------------------------------- */

static size_t depth_start(const tco_node *n);
static size_t depth_through(const tco_node *n, size_t i, size_t d);

typedef struct parser {
    const char *text; /* whole formula */
    const char *p;    /* cursor */
    const tco_place *where;
    tco_diag *diag;
    tco_error err;
    int depth;
    /* The tree's block: nodes[0] is kept for the root, args and chars follow (node_bound()). */
    tco_node *nodes;
    size_t n_nodes, max_nodes;
    tco_node **args;
    size_t n_args, max_args;
    char *chars;
    size_t n_chars, max_chars;
    /* The arguments of the calls being read, innermost last. */
    tco_node **stack;
    size_t n_stack, max_stack;
    /* Per node (by its index in nodes): the nesting of parentheses in its printed text
     * (tco_formula_printed_depth()), found as the node is made. */
    size_t *printed;
} parser;

static size_t col_of(const parser *ps, const char *at)
{
    return (size_t)(at - ps->text) + 1;
}

static void skip_space(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

/* The single diagnostic path of the parser. */
static tco_node *syntax_error(parser *ps, tco_error code, const char *at, const char *expected)
{
    if (ps->err != TCO_OK)
        return NULL;
    char found[48];
    if (*at == '\0')
        snprintf(found, sizeof found, "end of formula");
    else {
        size_t n = 0;
        while (at[n] && n < 20)
            n++;
        snprintf(found, sizeof found, "'%.*s%s'", (int)n, at, at[n] ? "..." : "");
    }
    ps->err = tco_diag_at(ps->diag, code, AT_COLUMN(ps->where, col_of(ps, at)), "expected %s, found %s", expected,
                          found);
    return NULL;
}

/* A tree larger than node_bound() allows: cannot happen, refused rather than written past the block. */
static tco_node *outgrown(parser *ps)
{
    if (ps->err == TCO_OK)
        ps->err = tco_diag_at(ps->diag, TCO_ERR_NOMEM, ps->where,
                              "internal error: the formula's tree outgrew its block");
    return NULL;
}

/* A new node from the block, or NULL (outgrown()). */
static tco_node *node_new(parser *ps, tco_node_kind kind, size_t col)
{
    if (ps->n_nodes == ps->max_nodes)
        return outgrown(ps);
    ps->printed[ps->n_nodes] = 0;
    tco_node *n = &ps->nodes[ps->n_nodes++];
    *n = (tco_node){.kind = kind, .col = col, .ref = -1};
    return n;
}

/* Give @p n (its operator or function set) the @p count operands @p ops (copied into the block), and
 * note its printed depth; false when outgrown(). */
static bool node_args(parser *ps, tco_node *n, tco_node *const *ops, size_t count)
{
    if (count > ps->max_args - ps->n_args) {
        outgrown(ps);
        return false;
    }
    n->args = &ps->args[ps->n_args];
    n->nargs = count;
    memcpy(n->args, ops, count * sizeof *ops);
    ps->n_args += count;
    size_t deepest = depth_start(n);
    for (size_t i = 0; i < count; i++) {
        size_t d = depth_through(n, i, ps->printed[ops[i] - ps->nodes]);
        if (d > deepest)
            deepest = d;
    }
    ps->printed[n - ps->nodes] = deepest;
    return true;
}

/* Room for @p len bytes and a NUL in the block's text part, or NULL (outgrown()). */
static char *chars_new(parser *ps, size_t len)
{
    if (len >= ps->max_chars - ps->n_chars) {
        outgrown(ps);
        return NULL;
    }
    char *s = &ps->chars[ps->n_chars];
    ps->n_chars += len + 1;
    s[len] = '\0';
    return s;
}

static tco_node *parse_expr(parser *ps, int min_prec);

/* Recognise a binary operator at the cursor; returns its length or 0. */
static size_t match_binary(const char *p, tco_op *op)
{
    switch (p[0]) {
    case '+': *op = TCO_OP_ADD; return 1;
    case '-': *op = TCO_OP_SUB; return 1;
    case '*': *op = TCO_OP_MUL; return 1;
    case '/': *op = TCO_OP_DIV; return 1;
    case '^': *op = TCO_OP_POW; return 1;
    case '=': *op = TCO_OP_EQ; return 1;
    case '<':
        if (p[1] == '>') { *op = TCO_OP_NE; return 2; }
        if (p[1] == '=') { *op = TCO_OP_LE; return 2; }
        *op = TCO_OP_LT; return 1;
    case '>':
        if (p[1] == '=') { *op = TCO_OP_GE; return 2; }
        *op = TCO_OP_GT; return 1;
    default: return 0;
    }
}

static tco_node *parse_number(parser *ps)
{
    const char *start = ps->p;
    const char *q = start;
    while (isdigit((unsigned char)*q))
        q++;
    bool whole = true; /* digits alone */
    if (*q == '.') {
        whole = false;
        q++;
        while (isdigit((unsigned char)*q))
            q++;
    }
    if (q == start + 1 && *start == '.')
        return syntax_error(ps, TCO_ERR_SYNTAX, start, "a number");
    if (*q == 'e' || *q == 'E') {
        whole = false;
        const char *e = q + 1;
        if (*e == '+' || *e == '-')
            e++;
        if (!isdigit((unsigned char)*e))
            return syntax_error(ps, TCO_ERR_SYNTAX, q, "digits of an exponent");
        while (isdigit((unsigned char)*e))
            e++;
        q = e;
    }
    if (isalpha((unsigned char)*q) || *q == '_')
        return syntax_error(ps, TCO_ERR_SYNTAX, start, "a number or a name (names cannot start with a digit)");
    char buf[64];
    size_t len = (size_t)(q - start);
    if (len >= sizeof buf)
        return syntax_error(ps, TCO_ERR_SYNTAX, start, "a number of at most 63 characters");
    double v;
    if (whole && len <= 15) { /* below 10^15: the integer is exact, as strtod() reads it */
        long long u = 0;
        for (size_t i = 0; i < len; i++)
            u = u * 10 + (start[i] - '0');
        v = (double)u;
    } else {
        memcpy(buf, start, len);
        buf[len] = '\0';
        v = strtod(buf, NULL);
        if (!tco_number_is_normal(buf, v)) /* 1e309 (infinite) too */
            return syntax_error(ps, TCO_ERR_SYNTAX, start, TCO_NORMAL_EXPECTED);
    }
    tco_node *n = node_new(ps, TCO_NODE_NUMBER, col_of(ps, start));
    if (n == NULL)
        return NULL;
    n->number = v;
    ps->p = q;
    return n;
}

static tco_node *parse_call(parser *ps, const char *start, size_t len)
{
    int f = func_find(start, len);
    if (f < 0) {
        if (ps->err == TCO_OK)
            ps->err = tco_diag_at(ps->diag, TCO_ERR_UNKNOWN_FUNCTION, AT_COLUMN(ps->where, col_of(ps, start)),
                                  "unknown function '%.*s'; supported: SUM MIN MAX "
                                  "ROUND ROUNDUP ROUNDDOWN IF AND OR NOT ABS ISNUMBER ISTEXT INDEX MATCH IRR CUMSUM",
                                  (int)len, start);
        return NULL;
    }
    size_t col = col_of(ps, start), base = ps->n_stack, nargs = 0;
    ps->p++; /* '(' */
    skip_space(ps);
    if (*ps->p != ')') {
        for (;;) {
            if (nargs >= TCO_FORMULA_MAX_ARGS)
                return syntax_error(ps, TCO_ERR_ARITY, ps->p, "at most 255 arguments");
            tco_node *arg = parse_expr(ps, PREC_CMP);
            if (arg == NULL)
                return NULL;
            if (ps->n_stack == ps->max_stack)
                return outgrown(ps);
            ps->stack[ps->n_stack++] = arg;
            nargs++;
            skip_space(ps);
            if (*ps->p == ',') {
                ps->p++;
                continue;
            }
            if (*ps->p == ')')
                break;
            return syntax_error(ps, TCO_ERR_SYNTAX, ps->p, "',' or ')'");
        }
    }
    ps->p++; /* ')' */
    if (nargs < func_table[f].min_args || nargs > func_table[f].max_args) {
        if (ps->err == TCO_OK) {
            if (func_table[f].min_args == func_table[f].max_args)
                ps->err = tco_diag_at(ps->diag, TCO_ERR_ARITY, AT_COLUMN(ps->where, col),
                                      "%s takes %zu argument%s, found %zu", func_table[f].name,
                                      func_table[f].min_args, func_table[f].min_args == 1 ? "" : "s", nargs);
            else
                ps->err = tco_diag_at(ps->diag, TCO_ERR_ARITY, AT_COLUMN(ps->where, col),
                                      "%s takes %zu to %zu arguments, found %zu", func_table[f].name,
                                      func_table[f].min_args, func_table[f].max_args, nargs);
        }
        return NULL;
    }
    tco_node *call = node_new(ps, TCO_NODE_CALL, col);
    if (call == NULL)
        return NULL;
    call->func = (tco_func)f;
    if (!node_args(ps, call, &ps->stack[base], nargs))
        return NULL;
    ps->n_stack = base;
    return call;
}

static tco_node *parse_primary(parser *ps)
{
    skip_space(ps);
    const char *start = ps->p;
    if (isdigit((unsigned char)*start) || (*start == '.' && isdigit((unsigned char)start[1])))
        return parse_number(ps);
    if (*start == '(') {
        ps->p++;
        tco_node *inner = parse_expr(ps, PREC_CMP);
        if (inner == NULL)
            return NULL;
        skip_space(ps);
        if (*ps->p != ')') {
            char expected[64];
            snprintf(expected, sizeof expected, "')' to close the '(' at column %zu", col_of(ps, start));
            return syntax_error(ps, TCO_ERR_SYNTAX, ps->p, expected);
        }
        ps->p++;
        return inner;
    }
    if (isalpha((unsigned char)*start) || *start == '_') {
        const char *q = start;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        size_t len = (size_t)(q - start);
        if (*q == '.' || *q == ':' || *q == '!' || *q == '$')
            return syntax_error(ps, TCO_ERR_SYNTAX, q, "a name of letters, digits and '_' "
                                "(cell references, ranges and sheet names are not supported)");
        const char *after = q;
        while (*after == ' ' || *after == '\t')
            after++;
        if (*after == '(') {
            ps->p = after;
            return parse_call(ps, start, len);
        }
        if ((unsigned char)*q >= 0x80)
            return syntax_error(ps, TCO_ERR_BAD_NAME, start, "a name of ASCII letters, digits and '_'");
        if (len > TCO_NAME_MAX_LEN)
            return syntax_error(ps, TCO_ERR_BAD_NAME, start, "a name of at most 100 characters");
        ps->p = q;
        if ((len == 4 && strncasecmp(start, "TRUE", 4) == 0) || (len == 5 && strncasecmp(start, "FALSE", 5) == 0)) {
            tco_node *b = node_new(ps, TCO_NODE_BOOL, col_of(ps, start));
            if (b == NULL)
                return NULL;
            b->number = len == 4 ? 1 : 0;
            return b;
        }
        char *name = chars_new(ps, len);
        if (name == NULL)
            return NULL;
        memcpy(name, start, len);
        /* The lexer took [A-Za-z_][A-Za-z0-9_]*, of at most 100 characters, and not TRUE or FALSE: what
         * tco_name_check() also asks but for the shapes of references and function names.  A name
         * with one of those goes through it, which says what is wrong. */
        if (looks_a1(name) || looks_r1c1(name) || func_find(name, len) >= 0) {
            tco_error e = tco_name_check(name, AT_COLUMN(ps->where, col_of(ps, start)), ps->diag);
            if (e != TCO_OK) {
                ps->err = e;
                return NULL;
            }
        }
        tco_node *n = node_new(ps, TCO_NODE_NAME, col_of(ps, start));
        if (n == NULL)
            return NULL;
        n->name = name;
        return n;
    }
    if (*start == '"') {
        /* The text's length without its quotes, "" counted once; then the bytes, straight into the block. */
        const char *q = start + 1;
        size_t len = 0;
        for (;;) {
            if (*q == '\0')
                return syntax_error(ps, TCO_ERR_SYNTAX, q, "'\"' to close the text that starts there");
            if (*q == '"') {
                if (q[1] != '"')
                    break;
                q++; /* "" is one quote */
            }
            len++;
            q++;
        }
        char *text = chars_new(ps, len);
        if (text == NULL)
            return NULL;
        size_t k = 0;
        for (const char *r = start + 1; r < q; r++) {
            text[k++] = *r;
            if (*r == '"')
                r++;
        }
        tco_node *n = node_new(ps, TCO_NODE_STRING, col_of(ps, start));
        if (n == NULL)
            return NULL;
        n->name = text;
        ps->p = q + 1;
        return n;
    }
    return syntax_error(ps, TCO_ERR_SYNTAX, start, "a number, name, function call or '('");
}

static tco_node *parse_unary(parser *ps)
{
    skip_space(ps);
    if (*ps->p == '-' || *ps->p == '+') {
        const char *at = ps->p;
        ps->p++;
        if (++ps->depth > TCO_FORMULA_MAX_DEPTH)
            return syntax_error(ps, TCO_ERR_TOO_DEEP, at, "nesting of at most 64 levels");
        tco_node *operand = parse_unary(ps);
        ps->depth--;
        if (operand == NULL)
            return NULL;
        tco_node *u = node_new(ps, TCO_NODE_UNARY, col_of(ps, at));
        if (u == NULL)
            return NULL;
        u->op = *at == '-' ? TCO_OP_NEG : TCO_OP_POS;
        if (!node_args(ps, u, &operand, 1))
            return NULL;
        return u;
    }
    return parse_primary(ps);
}

/* Precedence climbing over op_table; every binary operator is left-associative. */
static tco_node *parse_expr(parser *ps, int min_prec)
{
    if (++ps->depth > TCO_FORMULA_MAX_DEPTH)
        return syntax_error(ps, TCO_ERR_TOO_DEEP, ps->p, "nesting of at most 64 levels");
    tco_node *left = parse_unary(ps);
    while (left != NULL) {
        skip_space(ps);
        tco_op op;
        size_t len = match_binary(ps->p, &op);
        if (len == 0 || op_table[op].prec < min_prec)
            break;
        const char *at = ps->p;
        ps->p += len;
        tco_node *right = parse_expr(ps, op_table[op].prec + 1);
        if (right == NULL) {
            left = NULL;
            break;
        }
        tco_node *b = node_new(ps, TCO_NODE_BINARY, col_of(ps, at));
        if (b != NULL)
            b->op = op;
        if (b == NULL || !node_args(ps, b, (tco_node *[2]){left, right}, 2)) {
            left = NULL;
            break;
        }
        left = b;
    }
    ps->depth--;
    return left;
}

/* The tree of @p ps's formula, read into its block; NULL on error (the caller frees the block). */
static tco_node *parse_tree(parser *ps, const tco_place *where)
{
    skip_space(ps);
    if (*ps->p == '=')
        ps->p++;
    skip_space(ps);
    if (*ps->p == '\0')
        return syntax_error(ps, TCO_ERR_SYNTAX, ps->p, "a formula");
    tco_node *root = parse_expr(ps, PREC_CMP);
    if (root != NULL) {
        skip_space(ps);
        if (*ps->p != '\0') {
            if (*ps->p == ')')
                return syntax_error(ps, TCO_ERR_SYNTAX, ps->p, "an operator or end of formula (unbalanced ')')");
            return syntax_error(ps, TCO_ERR_SYNTAX, ps->p, "an operator or end of formula");
        }
    }
    if (root == NULL) {
        if (ps->err == TCO_OK)
            ps->err = tco_diag_at(ps->diag, TCO_ERR_SYNTAX, where, "invalid formula");
        return NULL;
    }
    /* The limit holds for the formula as the workbook gets it: the printer adds parentheses
     * (every step of a ^ or comparison chain), and the applications count those. */
    size_t printed = ps->printed[root - ps->nodes];
    if (printed > TCO_FORMULA_MAX_DEPTH) {
        ps->err = tco_diag_at(ps->diag, TCO_ERR_TOO_DEEP, where,
                              "as written to the workbook the formula nests %zu levels of parentheses; Excel "
                              "and LibreOffice allow %d (split it into several lines)",
                              printed, TCO_FORMULA_MAX_DEPTH);
        return NULL;
    }
    ps->nodes[0] = *root; /* the root first: nothing else points to it */
    return &ps->nodes[0];
}

/* tco_formula_parse() and tco_formula_parse_in(): the tree's block from @p arena, or the heap when NULL. */
static tco_error parse_formula(const char *text, const tco_place *where, tco_arena *arena, tco_node **out,
                               tco_diag *diag)
{
    *out = NULL;
    size_t len = strlen(text);
    if (len > TCO_FORMULA_MAX_LEN)
        return tco_diag_at(diag, TCO_ERR_SYNTAX, where, "formula is %zu characters long, Excel allows %d", len,
                           TCO_FORMULA_MAX_LEN);
    /* One block for the tree: node_bound() nodes besides the root's first slot, as many operands,
     * and the names' and texts' bytes (each at most its own run or text, plus a NUL). */
    size_t bound = node_bound(text);
    size_t max_nodes = bound + 1, max_args = bound, max_chars = len + bound + 1;
    size_t block_size = max_nodes * sizeof(tco_node) + max_args * sizeof(tco_node *) + max_chars;
    char *block = arena ? tco_arena_alloc(arena, block_size) : malloc(block_size);
    /* The parser's scratch: the calls' arguments (bound) and the nodes' printed depths (max_nodes). */
    tco_node *local[64];
    size_t local_printed[65];
    bool small = bound <= 64;
    tco_node **stack = small ? local : malloc(bound * sizeof *stack + max_nodes * sizeof(size_t));
    size_t *printed = small ? local_printed : (size_t *)(void *)(stack + bound);
    if (block == NULL || stack == NULL) {
        if (arena == NULL)
            free(block);
        if (!small)
            free(stack);
        return tco_diag_at(diag, TCO_ERR_NOMEM, where, "out of memory");
    }
    parser ps = {.text = text, .p = text, .where = where, .diag = diag, .err = TCO_OK,
                 .nodes = (tco_node *)(void *)block, .n_nodes = 1, .max_nodes = max_nodes,
                 .args = (tco_node **)(void *)(block + max_nodes * sizeof(tco_node)), .max_args = max_args,
                 .chars = block + max_nodes * sizeof(tco_node) + max_args * sizeof(tco_node *),
                 .max_chars = max_chars, .stack = stack, .max_stack = bound, .printed = printed};
    tco_node *root = parse_tree(&ps, where);
    if (!small)
        free(stack);
    if (root == NULL) {
        if (arena == NULL)
            free(block);
        return ps.err;
    }
    *out = root;
    return TCO_OK;
}

tco_error tco_formula_parse(const char *text, const tco_place *where, tco_node **out, tco_diag *diag)
{
    return parse_formula(text, where, NULL, out, diag);
}

tco_error tco_formula_parse_in(const char *text, const tco_place *where, tco_arena *arena, tco_node **out,
                               tco_diag *diag)
{
    return parse_formula(text, where, arena, out, diag);
}

/* ---- printer ---------------------------------------------------------------- */

static int node_prec(const tco_node *n)
{
    if (n->kind == TCO_NODE_BINARY || n->kind == TCO_NODE_UNARY)
        return op_table[n->op].prec;
    return PREC_ATOM;
}

/* What tco_formula_print() was given: the names' callback and its context, and the text. */
typedef struct printer {
    tco_name_text_fn name_text;
    void *ctx;
    tco_strbuf *out;
} printer;

static void print_node(const printer *pr, const tco_node *n, tco_ref_mode mode);

/* True when child @p c of operator node @p parent is printed in parentheses; @p right is true
 * for the right operand.  The one rule for the printer and for tco_formula_printed_depth(). */
static bool operand_needs_parens(const tco_node *parent, const tco_node *c, bool right)
{
    int pp = node_prec(parent), cp = node_prec(c);
    bool paren = cp < pp || (right && cp == pp && parent->kind == TCO_NODE_BINARY);
    /* Where the applications disagree, always parenthesise:
     * - ^ inside ^ (Gnumeric is right-associative), and a signed operand of ^
     *   (-2^2 is 4 in Excel; make the reading explicit either way);
     * - a comparison inside a comparison;
     * - a signed right operand (a-(-1) rather than a--1). */
    if (parent->kind == TCO_NODE_BINARY && parent->op == TCO_OP_POW &&
        (c->kind == TCO_NODE_UNARY || (c->kind == TCO_NODE_BINARY && c->op == TCO_OP_POW)))
        paren = true;
    if (pp == PREC_CMP && cp == PREC_CMP)
        paren = true;
    if (right && c->kind == TCO_NODE_UNARY)
        paren = true;
    if (parent->kind == TCO_NODE_UNARY && c->kind == TCO_NODE_UNARY)
        paren = true;
    return paren;
}

/* Print child @p c of an operator node @p parent; @p right is true for the right operand. */
static void print_operand(const printer *pr, const tco_node *parent, const tco_node *c, bool right)
{
    bool paren = operand_needs_parens(parent, c, right);
    if (paren)
        tco_strbuf_put(pr->out, "(", 1);
    print_node(pr, c, TCO_REF_CELL);
    if (paren)
        tco_strbuf_put(pr->out, ")", 1);
}

/* The printed depth of @p n before its arguments count: 1 for a call without any (TRUE() style: one level
 * of parentheses), else 0. */
static size_t depth_start(const tco_node *n)
{
    return n->kind == TCO_NODE_CALL && n->nargs == 0 ? 1 : 0;
}

/* The printed depth argument @p i of @p n, itself @p d deep, gives @p n: one more inside a call's
 * parentheses or the grouping ones the printer adds. */
static size_t depth_through(const tco_node *n, size_t i, size_t d)
{
    if (n->kind == TCO_NODE_CALL || operand_needs_parens(n, n->args[i], n->kind == TCO_NODE_BINARY && i == 1))
        return d + 1;
    return d;
}

size_t tco_formula_printed_depth(const tco_node *n)
{
    size_t deepest = depth_start(n);
    for (size_t i = 0; i < n->nargs; i++) {
        size_t d = depth_through(n, i, tco_formula_printed_depth(n->args[i]));
        if (d > deepest)
            deepest = d;
    }
    return deepest;
}

bool tco_formula_is_aggregate(const tco_node *call)
{
    return call->kind == TCO_NODE_CALL &&
           (call->func == TCO_FN_SUM || call->func == TCO_FN_MIN || call->func == TCO_FN_MAX) && call->nargs == 1 &&
           call->args[0]->kind == TCO_NODE_NAME;
}

bool tco_formula_vector_arg(const tco_node *node, size_t i)
{
    if (node->kind != TCO_NODE_CALL || i >= node->nargs || node->args[i]->kind != TCO_NODE_NAME)
        return false;
    return tco_formula_is_aggregate(node) || (node->func == TCO_FN_INDEX && i == 0) ||
           (node->func == TCO_FN_MATCH && i == 1) || node->func == TCO_FN_IRR;
}

/* Append operator @p op's text. */
static void put_op(tco_strbuf *out, tco_op op)
{
    const char *t = op_table[op].text;
    tco_strbuf_put(out, t, t[1] ? 2 : 1);
}

static void print_node(const printer *pr, const tco_node *n, tco_ref_mode mode)
{
    tco_strbuf *out = pr->out;
    char num[32];
    switch (n->kind) {
    case TCO_NODE_NUMBER:
        tco_format_double(n->number, num);
        tco_strbuf_put(out, num, strlen(num));
        break;
    case TCO_NODE_BOOL:
        if (n->number != 0)
            tco_strbuf_put(out, "TRUE", 4);
        else
            tco_strbuf_put(out, "FALSE", 5);
        break;
    case TCO_NODE_NAME:
        if (pr->name_text == NULL || !pr->name_text(pr->ctx, n, mode, out))
            tco_strbuf_put(out, n->name, strlen(n->name));
        break;
    case TCO_NODE_STRING:
        tco_strbuf_put(out, "\"", 1);
        for (const char *p = n->name; *p;) { /* a quote doubled; the runs between as they are */
            size_t run = strcspn(p, "\"");
            tco_strbuf_put(out, p, run);
            p += run;
            if (*p == '"') {
                tco_strbuf_put(out, "\"\"", 2);
                p++;
            }
        }
        tco_strbuf_put(out, "\"", 1);
        break;
    case TCO_NODE_UNARY:
        put_op(out, n->op);
        print_operand(pr, n, n->args[0], false);
        break;
    case TCO_NODE_BINARY:
        print_operand(pr, n, n->args[0], false);
        put_op(out, n->op);
        print_operand(pr, n, n->args[1], true);
        break;
    case TCO_NODE_CALL:
        /* CUMSUM(x) is written as SUM over x's row from Year 1 to this year. */
        if (n->func == TCO_FN_CUMSUM)
            tco_strbuf_put(out, "SUM", 3);
        else
            tco_strbuf_put(out, func_table[n->func].name, func_table[n->func].len);
        tco_strbuf_put(out, "(", 1);
        for (size_t i = 0; i < n->nargs; i++) {
            if (i)
                tco_strbuf_put(out, ",", 1);
            print_node(pr, n->args[i],
                       n->func == TCO_FN_CUMSUM          ? TCO_REF_TO_DATE
                       : tco_formula_vector_arg(n, i) ? TCO_REF_WHOLE
                                                      : TCO_REF_CELL);
        }
        tco_strbuf_put(out, ")", 1);
        break;
    }
}

void tco_formula_print(const tco_node *node, tco_name_text_fn name_text, void *ctx, tco_strbuf *out)
{
    printer pr = {name_text, ctx, out};
    print_node(&pr, node, TCO_REF_CELL);
}

/* ---- evaluator ---------------------------------------------------------------- */

typedef struct evaluator {
    const tco_eval_env *env;
    const tco_place *where;
    tco_diag *diag;
} evaluator;

static tco_error eval_error(const evaluator *ev, const tco_node *n, const char *what)
{
    return tco_diag_at(ev->diag, TCO_ERR_EVAL, AT_COLUMN(ev->where, n->col), "%s", what);
}

static tco_error eval(const evaluator *ev, const tco_node *n, tco_value *out);

static tco_error number_or_error(const evaluator *ev, const tco_node *n, tco_value *out)
{
    if (!tco_formula_number_ok(out->number))
        return eval_error(ev, n, "result overflows (#NUM!)");
    return TCO_OK;
}

bool tco_formula_text_equal(const char *a, const char *b)
{
    /* Both ASCII (so far): compare bytes, each letter folded to lower case, as tco_utf8_casecmp()
     * folds an ASCII letter and nothing else to an ASCII letter; at the first byte of a longer
     * character in either text, the rest is its business (the prefixes are equal ASCII, one
     * character per byte). */
    for (size_t i = 0;; i++) {
        unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 0x80 || y >= 0x80)
            return tco_utf8_casecmp(a + i, b + i) == 0;
        if (x != y && ((x | 0x20) != (y | 0x20) || (x | 0x20) < 'a' || (x | 0x20) > 'z'))
            return false;
        if (x == 0)
            return true;
    }
}

tco_error tco_formula_binary(tco_op op, const tco_value *a, const tco_value *b, tco_value *out, const char **why)
{
    *why = NULL;
    out->is_bool = false;
    out->text = NULL;
    if (a->text || b->text) {
        if (!(a->text && b->text)) {
            *why = op_table[op].prec == PREC_CMP ? "comparison of text with a number" : "text used in arithmetic";
            return TCO_ERR_EVAL;
        }
        if (op != TCO_OP_EQ && op != TCO_OP_NE) {
            *why = "text can only be compared with = or <>";
            return TCO_ERR_EVAL;
        }
        bool eq = tco_formula_text_equal(a->text, b->text); /* case-insensitive in any script, as the applications */
        out->is_bool = true;
        out->number = (op == TCO_OP_EQ) == eq;
        return TCO_OK;
    }
    if (op >= TCO_OP_ADD && op <= TCO_OP_POW)
        return tco_formula_arith(op, a->number, b->number, &out->number, why);
    /* A comparison. */
    if (a->is_bool != b->is_bool) {
        *why = "comparison of TRUE/FALSE with a number (spreadsheet applications order them differently)";
        return TCO_ERR_EVAL;
    }
    out->is_bool = true;
    out->number = tco_formula_compare(op, a->number, b->number) ? 1 : 0;
    return TCO_OK;
}

static tco_error eval_binary(const evaluator *ev, const tco_node *n, tco_value *out)
{
    tco_value a, b;
    tco_error e = eval(ev, n->args[0], &a);
    if (e == TCO_OK)
        e = eval(ev, n->args[1], &b);
    if (e != TCO_OK)
        return e;
    const char *why;
    if (tco_formula_binary(n->op, &a, &b, out, &why) != TCO_OK)
        return eval_error(ev, n, why);
    return TCO_OK;
}

/* True when snapping @p v to 15 significant digits (tco_excel_round) cannot change the result of
 * rounding it by @p mode, so the snap (a snprintf and a strtod) may be skipped with the same result to
 * the bit:
 * - v a whole number below 10^15: it has at most 15 digits, so "%.14e" prints it exactly and strtod
 *   gives v back;
 * - v farther than |v| * 2^-40 (about 9e-13 |v|) from the nearest rounding boundary (the whole numbers
 *   for ROUNDUP and ROUNDDOWN, the halves for ROUND): the snap moves v by at most half a unit in the
 *   15th digit plus strtod's half ulp, under 6e-15 |v|, so the snapped value lies strictly between
 *   the same two boundaries (and has v's sign), where ceil, trunc and floor(x + 0.5) are constant. */
static bool snap_cannot_matter(double v, tco_func mode)
{
    double f = v - floor(v); /* in [0, 1) */
    if (f == 0)
        return fabs(v) < 1e15;
    double gap = mode == TCO_FN_ROUND ? fabs(f - 0.5) : fmin(f, 1 - f);
    return gap > fabs(v) * 0x1p-40;
}

double tco_excel_round(double x, double digits, tco_func mode)
{
    double d = trunc(digits);
    if (d > 308 || d < -308 || !isfinite(x))
        return x;
    /* 10^0 .. 10^22 are doubles exactly, and pow() gives them exactly (tests/test_program.c): no call */
    double scale = fabs(d) < TCO_POW10_EXACT ? tco_pow10_exact[(int)fabs(d)] : pow(10, fabs(d));
    double v = d >= 0 ? x * scale : x / scale;
    if (!isfinite(v))
        return x; /* more digits than a double holds: nothing to round */
    /* Snap to 15 significant digits so that 0.30000000000000004 -> 0.3; above
     * 2^52 a double holds no fraction, so there is nothing to snap.  Where the snap
     * cannot move v across a rounding boundary it is skipped (snap_cannot_matter()). */
    if (v != 0 && fabs(v) < 0x1p52 && !snap_cannot_matter(v, mode)) {
        char buf[40];
        snprintf(buf, sizeof buf, "%.14e", v);
        v = strtod(buf, NULL);
    }
    double r;
    switch (mode) {
    case TCO_FN_ROUNDUP: r = v < 0 ? -ceil(-v) : ceil(v); break;
    case TCO_FN_ROUNDDOWN: r = trunc(v); break;
    default: r = v < 0 ? -floor(-v + 0.5) : floor(v + 0.5); break;
    }
    return d >= 0 ? r / scale : r * scale;
}


/* Sum, minimum or maximum of every value of a vector name (one argument of SUM/MIN/MAX). */
static tco_error eval_aggregate(const evaluator *ev, const tco_node *n, bool *done, tco_value *out)
{
    *done = false;
    if (!tco_formula_is_aggregate(n) || ev->env == NULL || ev->env->vector == NULL)
        return TCO_OK;
    const double *values = NULL;
    size_t count = 0;
    tco_error e = ev->env->vector(ev->env->ctx, n->args[0], &values, &count, ev->diag);
    if (e != TCO_OK || count == 0)
        return e;
    *done = true;
    out->number = tco_formula_aggregate(n->func, values, count);
    out->is_bool = false;
    out->text = NULL;
    return number_or_error(ev, n, out);
}

/* Net present value of @p f[0..n) at rate @p r (f[0] undiscounted), and its derivative. */
static void npv_and_slope(const double *f, size_t n, double r, double *npv, double *slope)
{
    double v = 0, d = 0, x = 1 / (1 + r), p = 1; /* p = (1+r)^-k */
    for (size_t k = 0; k < n; k++) {
        v += f[k] * p;
        d -= (double)k * f[k] * p * x;
        p *= x;
    }
    *npv = v;
    *slope = d;
}

/* Norstrom's criterion: the running sums of @p f, zeros aside, start negative, turn positive once and
 * never fall below 0 again, and the last is above 0. Then NPV(0) = the sum > 0, NPV falls below 0 for a
 * large rate (the first flow that is not 0 is negative and outweighs the rest), and exactly one rate
 * above 0 gives NPV 0, though the flows themselves may change sign more than once (a payment after
 * savings began). */
static bool irr_norstrom(const double *f, size_t count)
{
    double sum = 0;
    bool neg = false, pos = false;
    for (size_t k = 0; k < count; k++) {
        sum += f[k];
        if (sum < 0 && pos)
            return false;
        if (sum > 0 && !neg)
            return false;
        neg |= sum < 0;
        pos |= sum > 0 && neg;
    }
    return neg && sum > 0;
}

/* With flows that turn from negative to positive exactly once the NPV falls from positive to negative
 * as the rate rises past a unique root above -100%, so bisection on a bracket followed by Newton's
 * method finds the one rate Excel, LibreOffice and Gnumeric all converge to. Flows that change sign
 * more often but meet Norstrom's criterion (irr_norstrom) have exactly one root above 0, found on a
 * bracket from 0. Any other pattern is refused (the applications' answers then depend on the starting
 * guess). */
tco_error tco_formula_irr(const double *f, size_t count, double *out, const char **why)
{
    size_t changes = 0;
    bool seen_pos = false, seen_neg = false;
    for (size_t k = 0; k < count; k++) {
        if (f[k] < 0 && seen_pos)
            changes += 2; /* negative after positive: more than one root is possible */
        if (f[k] > 0 && seen_neg && !seen_pos)
            changes++;
        seen_pos |= f[k] > 0;
        seen_neg |= f[k] < 0;
    }
    bool norstrom = changes != 1 && irr_norstrom(f, count);
    if (changes != 1 && !norstrom) {
        *why = "IRR needs flows that turn from negative to positive exactly once, or whose running sum does (#NUM!); "
               "test that before calling it";
        return TCO_ERR_EVAL;
    }
    /* Bracket the root: NPV(lo) > 0 > NPV(hi). */
    double lo = norstrom ? 0 : -0.99, hi = 1, v, d;
    for (int i = 0; i < 200; i++) {
        npv_and_slope(f, count, hi, &v, &d);
        if (v < 0)
            break;
        lo = hi;
        hi = hi * 2 + 1;
    }
    npv_and_slope(f, count, lo, &v, &d);
    double vh;
    npv_and_slope(f, count, hi, &vh, &d);
    if (!(v > 0 && vh < 0)) {
        *why = "IRR found no rate between -99% and the largest it tries (#NUM!)";
        return TCO_ERR_EVAL;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-12 * fmax(1, fabs(lo)); i++) {
        double mid = (lo + hi) / 2;
        npv_and_slope(f, count, mid, &v, &d);
        if (v > 0)
            lo = mid;
        else
            hi = mid;
    }
    double r = (lo + hi) / 2;
    for (int i = 0; i < 8; i++) { /* polish to the last bits, as the applications' Newton steps do */
        npv_and_slope(f, count, r, &v, &d);
        if (d == 0 || !isfinite(v))
            break;
        double next = r - v / d;
        if (!isfinite(next) || next <= -1)
            break;
        if (next == r)
            break;
        r = next;
    }
    *out = r;
    if (!tco_formula_number_ok(r)) {
        *why = "result overflows (#NUM!)";
        return TCO_ERR_EVAL;
    }
    return TCO_OK;
}

/* IRR(v) of a per-year line. */
static tco_error eval_irr(const evaluator *ev, const tco_node *n, tco_value *out)
{
    const tco_node *vec = n->args[0];
    const double *f = NULL;
    size_t count = 0;
    tco_error e;
    if (vec->kind != TCO_NODE_NAME || ev->env == NULL || ev->env->vector == NULL ||
        (e = ev->env->vector(ev->env->ctx, vec, &f, &count, ev->diag)) != TCO_OK || count < 2)
        return eval_error(ev, n, "IRR takes the name of a per-year line");
    const char *why;
    out->is_bool = false;
    out->text = NULL;
    if (tco_formula_irr(f, count, &out->number, &why) != TCO_OK)
        return eval_error(ev, n, why);
    return TCO_OK;
}

tco_error tco_formula_index_position(const tco_value *pos, size_t count, size_t *k, const char **why)
{
    *why = NULL;
    if (pos->is_bool) {
        *why = "TRUE/FALSE as a position or a value to look up";
        return TCO_ERR_EVAL;
    }
    if (pos->text || pos->number != floor(pos->number) || pos->number < 1 || pos->number > (double)count)
        return TCO_ERR_EVAL;
    *k = (size_t)pos->number - 1;
    return TCO_OK;
}

tco_error tco_formula_match_key(const tco_value *key, const tco_value *mode, const char **why, int *at)
{
    *at = 0;
    if (key->is_bool) {
        *why = "TRUE/FALSE as a position or a value to look up";
        return TCO_ERR_EVAL;
    }
    if (mode->text || mode->is_bool || mode->number != 0) {
        *at = 2;
        *why = "MATCH needs 0 as its third argument (exact match)";
        return TCO_ERR_EVAL;
    }
    /* Text only: numbers that differ in the last bits match in LibreOffice (approximate equality) but
     * not in Gnumeric; and Excel and LibreOffice read * ? ~ in the text as wildcards. */
    if (key->text == NULL) {
        *why = "MATCH looks up text (a tier code), not a number (the applications compare nearly equal numbers "
               "differently)";
        return TCO_ERR_EVAL;
    }
    if (strpbrk(key->text, "*?~") != NULL) {
        *why = "MATCH of text holding * ? or ~ (Excel and LibreOffice read them as wildcards)";
        return TCO_ERR_EVAL;
    }
    return TCO_OK;
}

/* INDEX(v, n) and MATCH(x, v, 0) over a per-tier name v. */
static tco_error eval_lookup(const evaluator *ev, const tco_node *n, tco_value *out)
{
    bool index = n->func == TCO_FN_INDEX;
    const tco_node *vec = n->args[index ? 0 : 1];
    size_t count = 0;
    tco_value v, key;
    tco_error e;
    const char *why;
    if (vec->kind != TCO_NODE_NAME || ev->env == NULL || ev->env->element == NULL ||
        (e = ev->env->element(ev->env->ctx, vec, 0, &v, &count, ev->diag)) != TCO_OK || count == 0)
        return eval_error(ev, vec, index ? "INDEX takes the name of a per-tier input or line first"
                                         : "MATCH takes the name of a per-tier input or line second");
    if ((e = eval(ev, n->args[index ? 1 : 0], &key)) != TCO_OK)
        return e;
    if (index) {
        size_t k = 0;
        if (tco_formula_index_position(&key, count, &k, &why) != TCO_OK) {
            if (why)
                return eval_error(ev, n->args[1], why);
            char c[32];
            tco_format_double((double)count, c);
            return tco_diag_at(ev->diag, TCO_ERR_EVAL, AT_COLUMN(ev->where, n->args[1]->col),
                               "INDEX position must be a whole number from 1 to %s, the length of %s (#REF!)", c,
                               vec->name);
        }
        e = ev->env->element(ev->env->ctx, vec, k, out, &count, ev->diag);
        if (e == TCO_OK && out->is_bool)
            return eval_error(ev, n, "INDEX of TRUE/FALSE values");
        return e;
    }
    if (key.is_bool)
        return eval_error(ev, n->args[0], "TRUE/FALSE as a position or a value to look up");
    tco_value mode;
    if ((e = eval(ev, n->args[2], &mode)) != TCO_OK)
        return e;
    int at;
    if (tco_formula_match_key(&key, &mode, &why, &at) != TCO_OK)
        return eval_error(ev, n->args[at], why);
    for (size_t k = 0; k < count; k++) {
        if ((e = ev->env->element(ev->env->ctx, vec, k, &v, &count, ev->diag)) != TCO_OK)
            return e;
        bool eq = v.text != NULL && tco_formula_text_equal(key.text, v.text);
        if (eq) {
            out->number = (double)(k + 1);
            out->is_bool = false;
            out->text = NULL;
            return TCO_OK;
        }
    }
    char shown[80];
    snprintf(shown, sizeof shown, "'%.*s'", (int)tco_utf8_prefix(key.text, 60), key.text);
    tco_diag_at(ev->diag, TCO_ERR_EVAL, AT_COLUMN(ev->where, n->col), "MATCH finds no %s in %s (#N/A)", shown,
                vec->name);
    return TCO_ERR_EVAL;
}

tco_error tco_formula_truth(const tco_value *v, bool *out, const char **why)
{
    if (v->text) {
        *why = "text used as a condition";
        return TCO_ERR_EVAL;
    }
    *out = v->number != 0;
    return TCO_OK;
}

tco_error tco_formula_apply1(tco_func func, const tco_value *v, tco_value *out, const char **why)
{
    out->is_bool = false;
    out->text = NULL;
    switch (func) {
    case TCO_FN_NOT:
        if (v->text)
            break;
        out->is_bool = true;
        out->number = v->number == 0;
        return TCO_OK;
    case TCO_FN_ABS:
        if (v->text)
            break;
        out->number = fabs(v->number);
        return TCO_OK;
    case TCO_FN_ISNUMBER: case TCO_FN_ISTEXT:
        /* TRUE/FALSE is refused, as in SUM: what counts as a number for a boolean is not
         * something the template needs to ask. */
        if (v->is_bool) {
            *why = "TRUE/FALSE as the argument of ISNUMBER or ISTEXT; they test a number or text";
            return TCO_ERR_EVAL;
        }
        out->is_bool = true;
        out->number = (func == TCO_FN_ISTEXT) == (v->text != NULL);
        return TCO_OK;
    default:
        *why = "internal error: not a function of one value";
        return TCO_ERR_EVAL;
    }
    *why = "text used as a number";
    return TCO_ERR_EVAL;
}

tco_error tco_formula_round(tco_func func, const tco_value *x, const tco_value *digits, tco_value *out,
                            const char **why, int *at)
{
    out->is_bool = false;
    out->text = NULL;
    *at = -1;
    if (x->text || digits->text) {
        *why = "text used as a number";
        return TCO_ERR_EVAL;
    }
    if (fabs(digits->number) > 308) {
        *at = 1;
        *why = "number of digits outside -308..308 (applications disagree there)";
        return TCO_ERR_EVAL;
    }
    out->number = tco_excel_round(x->number, digits->number, func);
    if (!tco_formula_number_ok(out->number)) {
        *why = "result overflows (#NUM!)";
        return TCO_ERR_EVAL;
    }
    return TCO_OK;
}

/* The error of node @p n's argument @p at (-1: of @p n itself). */
static tco_error arg_error(const evaluator *ev, const tco_node *n, int at, const char *why)
{
    return eval_error(ev, at < 0 ? n : n->args[at], why);
}

static tco_error eval_call(const evaluator *ev, const tco_node *n, tco_value *out)
{
    tco_value v;
    bool done;
    const char *why;
    int at;
    tco_error e = eval_aggregate(ev, n, &done, out);
    if (e != TCO_OK || done)
        return e;
    out->is_bool = false;
    out->text = NULL;
    switch (n->func) {
    case TCO_FN_IF:
        if ((e = eval(ev, n->args[0], &v)) != TCO_OK)
            return e;
        if (tco_formula_truth(&v, &done, &why) != TCO_OK)
            return eval_error(ev, n->args[0], why);
        if (done)
            return eval(ev, n->args[1], out);
        if (n->nargs == 3)
            return eval(ev, n->args[2], out);
        out->is_bool = true;
        out->number = 0;
        return TCO_OK;
    case TCO_FN_SUM: case TCO_FN_MIN: case TCO_FN_MAX: case TCO_FN_AND: case TCO_FN_OR: {
        double acc = 0;
        for (size_t i = 0; i < n->nargs; i++) {
            if ((e = eval(ev, n->args[i], &v)) != TCO_OK)
                return e;
            if (tco_formula_fold(n->func, i, &acc, &v, &why) != TCO_OK)
                return eval_error(ev, n->args[i], why);
        }
        if (tco_formula_fold_result(n->func, acc, out, &why) != TCO_OK)
            return eval_error(ev, n, why);
        return TCO_OK;
    }
    case TCO_FN_NOT: case TCO_FN_ABS: case TCO_FN_ISNUMBER: case TCO_FN_ISTEXT:
        if ((e = eval(ev, n->args[0], &v)) != TCO_OK)
            return e;
        if (tco_formula_apply1(n->func, &v, out, &why) != TCO_OK)
            return eval_error(ev, n->args[0], why);
        return TCO_OK;
    case TCO_FN_INDEX: case TCO_FN_MATCH:
        return eval_lookup(ev, n, out);
    case TCO_FN_IRR:
        return eval_irr(ev, n, out);
    case TCO_FN_ROUND: case TCO_FN_ROUNDUP: case TCO_FN_ROUNDDOWN: {
        tco_value digits;
        if ((e = eval(ev, n->args[0], &v)) != TCO_OK || (e = eval(ev, n->args[1], &digits)) != TCO_OK)
            return e;
        if (tco_formula_round(n->func, &v, &digits, out, &why, &at) != TCO_OK)
            return arg_error(ev, n, at, why);
        return TCO_OK;
    }
    case TCO_FN_CUMSUM: {
        const double *values = NULL;
        size_t count = 0;
        if (n->args[0]->kind != TCO_NODE_NAME || ev->env == NULL || ev->env->vector == NULL ||
            ev->env->position < 0)
            return eval_error(ev, n, "CUMSUM takes the name of a per-year line, in a per-year line");
        if ((e = ev->env->vector(ev->env->ctx, n->args[0], &values, &count, ev->diag)) != TCO_OK)
            return e;
        if (count == 0 || (size_t)ev->env->position >= count)
            return eval_error(ev, n, "CUMSUM takes the name of a per-year line, in a per-year line");
        out->number = tco_formula_running_sum(values, (size_t)ev->env->position + 1);
        return number_or_error(ev, n, out);
    }
    case TCO_FN_COUNT: break;
    }
    return eval_error(ev, n, "internal error: unknown function");
}

tco_error tco_formula_unary(tco_op op, tco_value *v, const char **why)
{
    if (v->text) {
        *why = "text used in arithmetic";
        return TCO_ERR_EVAL;
    }
    if (op == TCO_OP_NEG) { /* -TRUE is -1; +TRUE stays TRUE, as in Excel */
        v->number = -v->number;
        v->is_bool = false;
    }
    return TCO_OK;
}

static tco_error eval(const evaluator *ev, const tco_node *n, tco_value *out)
{
    out->text = NULL;
    switch (n->kind) {
    case TCO_NODE_NUMBER:
        out->number = n->number;
        out->is_bool = false;
        return TCO_OK;
    case TCO_NODE_BOOL:
        out->number = n->number;
        out->is_bool = true;
        return TCO_OK;
    case TCO_NODE_STRING:
        out->number = 0;
        out->is_bool = false;
        out->text = n->name;
        return TCO_OK;
    case TCO_NODE_NAME:
        if (ev->env == NULL || ev->env->value == NULL)
            return tco_diag_at(ev->diag, TCO_ERR_UNKNOWN_NAME, AT_COLUMN(ev->where, n->col), "unknown name '%s'",
                               n->name);
        return ev->env->value(ev->env->ctx, n, out, ev->diag);
    case TCO_NODE_UNARY: {
        tco_error e = eval(ev, n->args[0], out);
        if (e != TCO_OK)
            return e;
        const char *why;
        if (tco_formula_unary(n->op, out, &why) != TCO_OK)
            return eval_error(ev, n, why);
        return TCO_OK;
    }
    case TCO_NODE_BINARY:
        return eval_binary(ev, n, out);
    case TCO_NODE_CALL:
        return eval_call(ev, n, out);
    }
    return eval_error(ev, n, "internal error: unknown node");
}

tco_error tco_formula_eval(const tco_node *node, const tco_eval_env *env, const tco_place *where, tco_value *out,
                           tco_diag *diag)
{
    evaluator ev = {env, where, diag};
    return eval(&ev, node, out);
}

tco_error tco_formula_walk_names(tco_node *node, tco_error (*visit)(void *ctx, tco_node *name), void *ctx)
{
    if (node->kind == TCO_NODE_NAME)
        return visit(ctx, node);
    for (size_t i = 0; i < node->nargs; i++) {
        tco_error e = tco_formula_walk_names(node->args[i], visit, ctx);
        if (e != TCO_OK)
            return e;
    }
    return TCO_OK;
}
