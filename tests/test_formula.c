/* test_formula.c - parser, printer and evaluator against the fixture cases
 * (tests/fixtures/formulas/ *.test) and Excel's limits. */
#include <glob.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fixture.h"
#include "model/formula.h"
#include "read/ini.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "suites.h"

static const struct {
    const char *name;
    tco_error code;
} codes[] = {
    {"SYNTAX", TCO_ERR_SYNTAX},     {"UNKNOWN_NAME", TCO_ERR_UNKNOWN_NAME}, {"UNKNOWN_FUNCTION", TCO_ERR_UNKNOWN_FUNCTION},
    {"ARITY", TCO_ERR_ARITY},       {"BAD_NAME", TCO_ERR_BAD_NAME},         {"EVAL", TCO_ERR_EVAL},
    {"TOO_DEEP", TCO_ERR_TOO_DEEP},
};

/* Parse and evaluate; returns the first error code. */
static tco_error run_case(const fixture_case *c, const char *text, tco_value *v, char *printed, size_t psize,
                          tco_diag *d)
{
    tco_node *tree = NULL;
    tco_error e = tco_formula_parse(text, &(tco_place){.file = "case"}, &tree, d);
    if (e != TCO_OK)
        return e;
    if (printed) {
        tco_strbuf b = {0};
        tco_formula_print(tree, NULL, NULL, &b);
        snprintf(printed, psize, "%s", tco_strbuf_str(&b));
        tco_strbuf_free(&b);
    }
    tco_eval_env env = {fixture_lookup, NULL, NULL, (void *)(uintptr_t)c, -1};
    e = tco_formula_eval(tree, &env, &(tco_place){.file = "case"}, v, d);
    tco_node_free(tree);
    return e;
}

static bool close_enough(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

static void test_fixture_cases(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob(TCO_SOURCE_DIR "/tests/fixtures/formulas/*.test", 0, NULL, &g), 0);
    size_t total = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) {
        size_t n;
        fixture_case *cases = fixture_read(g.gl_pathv[f], &n);
        CU_ASSERT_PTR_NOT_NULL(cases);
        for (size_t i = 0; i < n; i++) {
            const fixture_case *c = &cases[i];
            tco_diag d = {0};
            tco_value v = {0};
            char printed[1024] = "";
            tco_error e = run_case(c, c->formula, &v, printed, sizeof printed, &d);
            bool ok = true;
            if (c->has_error) {
                tco_error want = TCO_ERR_COUNT;
                for (size_t k = 0; k < sizeof codes / sizeof codes[0]; k++)
                    if (strcmp(codes[k].name, c->error_code) == 0)
                        want = codes[k].code;
                ok = want != TCO_ERR_COUNT && e == want && strstr(d.message, c->error_fragment) != NULL;
                if (!ok)
                    fprintf(stderr, "\n%s:%d: %s: expected %s '%s', got %s '%s'\n", c->file, c->line, c->formula,
                            c->error_code, c->error_fragment, tco_strerror(e), e ? d.message : "");
            } else {
                ok = e == TCO_OK && c->has_value && v.is_bool == c->value_is_bool && close_enough(v.number, c->value);
                if (ok && c->has_print)
                    ok = strcmp(printed, c->print) == 0;
                if (ok) {
                    /* The printed text reads back to the same tree value and prints identically. */
                    tco_value v2 = {0};
                    char printed2[1024] = "";
                    ok = run_case(c, printed, &v2, printed2, sizeof printed2, &d) == TCO_OK &&
                         v2.number == v.number && strcmp(printed, printed2) == 0;
                }
                if (!ok)
                    fprintf(stderr, "\n%s:%d: %s: expected %.17g%s print '%s', got %s %.17g print '%s' %s\n", c->file,
                            c->line, c->formula, c->value, c->value_is_bool ? " (bool)" : "", c->print,
                            tco_strerror(e), v.number, printed, e ? d.message : "");
            }
            CU_ASSERT(ok);
            total++;
        }
        free(cases);
    }
    globfree(&g);
    CU_ASSERT(total >= 80);
}

static void test_name_check(void)
{
    const char *bad[] = {"PUE1", "pue1", "R2C3", "r2c3", "c", "C", "r", "R", "RC", "R1", "C7", "A1", "XFD1048576",
                         "TRUE", "false", "SUM", "round", "1abc", "a-b", "a.b", "", "é"};
    const char *good[] = {"pue", "it_load_kw", "r2d2", "a1b", "abcd1", "_x", "card_count", "electricity_price",
                          "year1_cost", "ups_kva"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tco_diag d = {0};
        CU_ASSERT_EQUAL(tco_name_check(bad[i], &(tco_place){.file = "t"}, &d), TCO_ERR_BAD_NAME);
    }
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        tco_diag d = {0};
        tco_error e = tco_name_check(good[i], &(tco_place){.file = "t"}, &d);
        if (e != TCO_OK)
            fprintf(stderr, "\n%s: %s\n", good[i], d.message);
        CU_ASSERT_EQUAL(e, TCO_OK);
    }
    /* 100 characters are allowed (libxlsxwriter takes 128; tco adds "_total"), 101 are not. */
    char long_name[300];
    memset(long_name, 'a', 101);
    long_name[101] = '\0';
    CU_ASSERT_EQUAL(tco_name_check(long_name, &(tco_place){.file = "t"}, NULL), TCO_ERR_BAD_NAME);
    long_name[100] = '\0';
    CU_ASSERT_EQUAL(tco_name_check(long_name, &(tco_place){.file = "t"}, NULL), TCO_OK);
}

static void test_depth_cap(void)
{
    char text[400];
    tco_node *t = NULL;
    tco_diag d = {0};
    /* 60 nested parentheses parse; 70 exceed the cap of 64. */
    snprintf(text, sizeof text, "%.*s1%.*s", 60, "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((", 60,
             "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))");
    CU_ASSERT_EQUAL(tco_formula_parse(text, &(tco_place){.file = "deep"}, &t, &d), TCO_OK);
    tco_node_free(t);
    t = NULL;
    char deep[200];
    memset(deep, '(', 70);
    deep[70] = '1';
    memset(deep + 71, ')', 70);
    deep[141] = '\0';
    CU_ASSERT_EQUAL(tco_formula_parse(deep, &(tco_place){.file = "deep"}, &t, &d), TCO_ERR_TOO_DEEP);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "nesting of at most 64 levels"));
    /* Unary chains count too. */
    memset(deep, '-', 100);
    deep[100] = '1';
    deep[101] = '\0';
    CU_ASSERT_EQUAL(tco_formula_parse(deep, &(tco_place){.file = "deep"}, &t, &d), TCO_ERR_TOO_DEEP);
}

/* Builds "1^1^...^1" with @p terms ones. */
static void pow_chain(char *out, int terms)
{
    out[0] = '\0';
    for (int i = 0; i < terms; i++)
        strcat(out, i ? "^1" : "1");
}

static void test_printed_depth(void)
{
    tco_node *t = NULL;
    tco_diag d = {0};
    const struct {
        const char *text;
        size_t depth;
    } cases[] = {{"1+2", 0}, {"SUM(1)", 1}, {"1^1^1", 1}, {"(1+2)*3", 1}, {"1-(-1)", 1},
                 {"IF(1=1=1,1,0)", 2}, {"-(-1)", 1}, {"SUM(SUM(1)+2)", 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(tco_formula_parse(cases[i].text, &(tco_place){.file = "depth"}, &t, &d), TCO_OK);
        CU_ASSERT_EQUAL(tco_formula_printed_depth(t), cases[i].depth);
        tco_node_free(t);
        t = NULL;
    }
    /* 66 powers print (((1^1)^1)...)^1: 64 levels, the most accepted; 67 give 65. */
    char chain[300];
    pow_chain(chain, 66);
    CU_ASSERT_EQUAL(tco_formula_parse(chain, &(tco_place){.file = "pow"}, &t, &d), TCO_OK);
    tco_strbuf b = {0};
    tco_formula_print(t, NULL, NULL, &b);
    size_t open = 0;
    for (const char *p = tco_strbuf_str(&b); *p == '('; p++)
        open++;
    CU_ASSERT_EQUAL(open, 64); /* the printed text really nests 64 deep */
    tco_strbuf_free(&b);
    tco_node_free(t);
    t = NULL;
    pow_chain(chain, 67);
    CU_ASSERT_EQUAL(tco_formula_parse(chain, &(tco_place){.file = "pow"}, &t, &d), TCO_ERR_TOO_DEEP);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "pow: as written to the workbook the formula nests 65 levels"));
}

static void test_subnormal_literals(void)
{
    tco_node *t = NULL;
    tco_diag d = {0};
    /* DBL_MIN, the smallest normal double, and 0 written with any exponent are accepted. */
    const char *ok[] = {"2.2250738585072014e-308", "0e-500", "0.000", "1e308", "1.797693134862315e308", "2^-1022"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CU_ASSERT_EQUAL(tco_formula_parse(ok[i], &(tco_place){.file = "ok"}, &t, &d), TCO_OK);
        tco_node_free(t);
        t = NULL;
    }
    /* A subnormal (LibreOffice shows #VALUE!) and a literal that underflows to 0 are refused. */
    const char *bad[] = {"1e-309", "2+4.9e-324", "1e-400", "0.5e-330"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(tco_formula_parse(bad[i], &(tco_place){.file = "tiny"}, &t, &d), TCO_ERR_SYNTAX);
        CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "2.2250738585072014e-308"));
        CU_ASSERT_PTR_NULL(t);
    }
    /* Above 1.797693134862315e308 a workbook writes 1.797693134862316E+308, which reads back as an
     * overflow: DBL_MAX itself is refused, in a formula and as an INI value. */
    const char *huge[] = {"1.7976931348623157e308", "-1.797693134862316e308", "1+1.7976931348623155e308"};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        CU_ASSERT_EQUAL(tco_formula_parse(huge[i], &(tco_place){.file = "huge"}, &t, &d), TCO_ERR_SYNTAX);
        CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "at most 1.797693134862315e308"));
        CU_ASSERT_PTR_NULL(t);
    }
    double v = 0;
    CU_ASSERT_FALSE(tco_parse_number("1.7976931348623157e308", &v));
    CU_ASSERT_TRUE(tco_parse_number("1.797693134862315e308", &v));
    CU_ASSERT_FALSE(tco_parse_number("1e-309", &v));
    CU_ASSERT_TRUE(tco_number_tiny("1e-309"));
    CU_ASSERT_FALSE(tco_number_tiny("12abc"));
    CU_ASSERT_TRUE(tco_parse_number("2.2250738585072014e-308", &v));
}

static void test_excel_limits(void)
{
    tco_diag d = {0};
    tco_node *t = NULL;
    /* 8,192 characters are allowed, 8,193 are not. */
    char *text = malloc(8200);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    memset(text, ' ', 8192);
    text[0] = '1';
    text[8192] = '\0';
    CU_ASSERT_EQUAL(tco_formula_parse(text, &(tco_place){.file = "long"}, &t, &d), TCO_OK);
    tco_node_free(t);
    t = NULL;
    text[8192] = ' ';
    text[8193] = '\0';
    CU_ASSERT_EQUAL(tco_formula_parse(text, &(tco_place){.file = "long"}, &t, &d), TCO_ERR_SYNTAX);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "8193 characters long, Excel allows 8192"));
    /* SUM of 255 ones is 255; 256 arguments are refused. */
    tco_strbuf b = {0};
    tco_strbuf_append(&b, "SUM(1");
    for (int i = 1; i < 255; i++)
        tco_strbuf_append(&b, ",1");
    tco_strbuf_append(&b, ")");
    CU_ASSERT_EQUAL(tco_formula_parse(tco_strbuf_str(&b), &(tco_place){.file = "args"}, &t, &d), TCO_OK);
    tco_value v = {0};
    CU_ASSERT_EQUAL(tco_formula_eval(t, NULL, &(tco_place){.file = "args"}, &v, &d), TCO_OK);
    CU_ASSERT_EQUAL(v.number, 255);
    tco_node_free(t);
    t = NULL;
    b.len -= 1;
    tco_strbuf_append(&b, ",1)");
    CU_ASSERT_EQUAL(tco_formula_parse(tco_strbuf_str(&b), &(tco_place){.file = "args"}, &t, &d), TCO_ERR_ARITY);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "at most 255 arguments"));
    tco_strbuf_free(&b);
    free(text);
}

static void test_excel_round(void)
{
    CU_ASSERT_EQUAL(tco_excel_round(2.5, 0, TCO_FN_ROUND), 3);
    CU_ASSERT_EQUAL(tco_excel_round(-2.5, 0, TCO_FN_ROUND), -3);
    CU_ASSERT_EQUAL(tco_excel_round(2.675, 2, TCO_FN_ROUND), 2.68);
    CU_ASSERT_EQUAL(tco_excel_round(0.30000000000000004, 1, TCO_FN_ROUNDUP), 0.3);
    CU_ASSERT_EQUAL(tco_excel_round(40.8 / 25, 0, TCO_FN_ROUNDUP), 2);
    CU_ASSERT_EQUAL(tco_excel_round(1250, -2, TCO_FN_ROUNDDOWN), 1200);
    CU_ASSERT_EQUAL(tco_excel_round(0, 3, TCO_FN_ROUND), 0);
}

static void test_positions_in_messages(void)
{
    tco_diag d = {0};
    tco_node *t = NULL;
    const tco_place at = {.file = "templates/x.ini", .section = "line.y", .key = "formula"};
    CU_ASSERT_EQUAL(tco_formula_parse("a + b * (c_x - ", &at, &t, &d), TCO_ERR_SYNTAX);
    CU_ASSERT_STRING_EQUAL(d.message, "templates/x.ini [line.y] formula, column 16: expected a number, name, "
                                      "function call or '(', found end of formula");
    /* The place as data: the file, section, key and column, and the text after them. */
    CU_ASSERT_STRING_EQUAL(d.file, "templates/x.ini");
    CU_ASSERT_STRING_EQUAL(d.section, "line.y");
    CU_ASSERT_STRING_EQUAL(d.key, "formula");
    CU_ASSERT_EQUAL(d.column, 16);
    CU_ASSERT_EQUAL(d.line, 0);
    CU_ASSERT_STRING_EQUAL(d.message + d.text, "expected a number, name, function call or '(', found end of formula");
    /* An unknown function, at its column. */
    CU_ASSERT_EQUAL(tco_formula_parse("1 + SUM(2) + A1(3)", &at, &t, &d), TCO_ERR_UNKNOWN_FUNCTION);
    CU_ASSERT_EQUAL(d.column, 14);
    CU_ASSERT_STRING_EQUAL(d.key, "formula");
    /* A name that reads as a cell reference: tco_name_check() at the name's column of the formula. */
    CU_ASSERT_EQUAL(tco_formula_parse("1 + R2C3", &at, &t, &d), TCO_ERR_BAD_NAME);
    CU_ASSERT_STRING_EQUAL(d.message, "templates/x.ini [line.y] formula, column 5: name 'R2C3' would be read by "
                                      "Excel as a cell reference; use a name such as 'R2C3_value'");
    CU_ASSERT_EQUAL(d.column, 5);
    CU_ASSERT_STRING_EQUAL(d.section, "line.y");
}

CU_ErrorCode register_formula_suite(void)
{
    CU_pSuite s = CU_add_suite("formula", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "fixture cases (value, print, error)", test_fixture_cases) ||
        !CU_add_test(s, "names that read as cell references are refused", test_name_check) ||
        !CU_add_test(s, "nesting depth cap", test_depth_cap) ||
        !CU_add_test(s, "depth as printed: ^ and comparison chains", test_printed_depth) ||
        !CU_add_test(s, "subnormal and underflowing literals refused", test_subnormal_literals) ||
        !CU_add_test(s, "Excel limits: 8192 characters, 255 arguments", test_excel_limits) ||
        !CU_add_test(s, "Excel rounding", test_excel_round) ||
        !CU_add_test(s, "messages give the column", test_positions_in_messages))
        return CU_get_error();
    return CUE_SUCCESS;
}
