/* test_load.c - engine/load/: the INI files into a model (tco_model_load()): the mini root worked by hand
 * with each value's provenance, a scenario's own entry over the catalog's, a byte-order mark and CRLF, and
 * every bad-input fixture refused with its exit code and message (tests/fixtures/bad/scenarios/), and a
 * template large enough that its formulas are parsed on a second thread. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "load/load.h"
#include "model/formula.h"
#include "model/model.h"
#include "fixture.h"
#include "loaded.h"
#include "suites.h"

#define MINI TCO_SOURCE_DIR "/tests/fixtures/roots/mini"

/* The number of item @p name; an item that says "n.a." or "never" instead fails the test. */
static double value_of(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0);
    CU_ASSERT(m->items[i].text == NULL);
    return m->items[i].value;
}

static void test_mini_by_hand(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(MINI, MINI "/scenarios/good.ini", NULL, &m, &d), TCO_OK);
    CU_ASSERT_EQUAL(m->n_years, 2);
    CU_ASSERT_EQUAL(value_of(m, "cost"), 30);
    int r = tco_model_find(m, "running");
    CU_ASSERT_EQUAL(m->items[r].years[0], 15);
    CU_ASSERT_EQUAL(m->items[r].years[1], 30);
    CU_ASSERT_EQUAL(value_of(m, "running_total"), 45);
    CU_ASSERT_EQUAL(value_of(m, "total"), 75);
    CU_ASSERT_EQUAL(value_of(m, "per_unit"), 25);
    /* Provenance of a catalog value names file, section and key and the basis. */
    int p = tco_model_find(m, "price");
    CU_ASSERT_PTR_NOT_NULL(strstr(m->items[p].source, "pricing/things.ini [widget] price: test figure"));
    /* Out-of-range overrides are refused and leave the value alone. */
    CU_ASSERT_EQUAL(tco_model_set_input(m, "rate", 2, &d), TCO_ERR_INI);
    CU_ASSERT_EQUAL(value_of(m, "rate"), 0.5);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "nosuch", 2, &d), TCO_ERR_UNKNOWN_NAME);
    tco_model_free(m);
}

static void test_scenario_overrides_catalog_entry(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(MINI, MINI "/scenarios/override.ini", NULL, &m, &d), TCO_OK);
    CU_ASSERT_EQUAL(value_of(m, "price"), 12);
    CU_ASSERT_EQUAL(value_of(m, "cost"), 36);
    int p = tco_model_find(m, "price");
    CU_ASSERT_PTR_NOT_NULL(strstr(m->items[p].source, "override.ini [widget] price (scenario override of the "
                                                      "catalog): quote Q-1"));
    tco_model_free(m);
}

/* Sources name their files relative to the project root however the root is written (with a trailing
 * slash, or as ".." steps from elsewhere; "./", tests/cli/scenario.cases): the same text, so the Inputs
 * sheet wraps and prints alike. */
static void test_sources_relative_to_root(void)
{
    const char *roots[] = {MINI "/", MINI "//", MINI "/../mini"};
    for (size_t k = 0; k < sizeof roots / sizeof roots[0]; k++) {
        char scenario[512];
        snprintf(scenario, sizeof scenario, "%s/scenarios/good.ini", roots[k]);
        tco_model *m = fixture_load_ok(roots[k], scenario);
        CU_ASSERT_STRING_EQUAL(m->items[tco_model_find(m, "price")].source,
                               "pricing/things.ini [widget] price: test figure");
        CU_ASSERT_STRING_EQUAL(m->items[tco_model_find(m, "qty")].source, "scenarios/good.ini [scenario] qty");
        tco_model_free(m);
    }
}

/* A UTF-8 byte-order mark and CRLF line endings load like a plain file. */
static void test_bom_and_crlf(void)
{
    tco_model *m = fixture_load_ok(MINI, MINI "/scenarios/good_bom_crlf.ini");
    CU_ASSERT_EQUAL(value_of(m, "cost"), 30);
    /* The root is given as a path (MINI): the source names the file relative to it, as the workbook shows it
     * wherever the project lies. */
    CU_ASSERT_STRING_EQUAL(m->items[tco_model_find(m, "price")].source, "pricing/things.ini [widget] price: test figure");
    tco_model_free(m);
}

/* Every tests/fixtures/bad/scenarios/ *.ini starts with "; expect: EXIT message-fragment"; each is
 * loaded with the mini root's templates and catalog. */
static void test_bad_fixtures(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob(TCO_SOURCE_DIR "/tests/fixtures/bad/scenarios/*.ini", 0, NULL, &g), 0);
    CU_ASSERT(g.gl_pathc >= 15);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *f = fopen(g.gl_pathv[i], "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        char line[512] = "";
        CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
        fclose(f);
        line[strcspn(line, "\r\n")] = '\0';
        int code = 0, off = 0;
        CU_ASSERT_FATAL(sscanf(line, "; expect: %d %n", &code, &off) == 1 && off > 0);
        const char *fragment = line + off;
        tco_model *m = NULL;
        tco_diag d = {0};
        tco_error e = load_evaluated(MINI, g.gl_pathv[i], NULL, &m, &d);
        bool ok = e != TCO_OK && tco_exit_code(e) == code && strstr(d.message, fragment) != NULL && m == NULL;
        if (!ok)
            fprintf(stderr, "\n%s: expected %d '%s'\n  got %d '%s'\n", g.gl_pathv[i], code, fragment,
                    tco_exit_code(e), d.message);
        CU_ASSERT(ok);
        tco_model_free(m);
    }
    globfree(&g);
}

/* A root in a temporary folder: the mini root's pricing/ and templates/big.ini, the mini template with
 * lines extra_1 .. extra_@p n appended, line K's formula cost * K + 1 (cost is 3 x 10 = 30: 30K + 1),
 * but line @p bad's formula "cost * (K + 1" (0: none), and [oops] after the lines when @p unknown.
 * Returns the scenario's path (heap); *@p root the root (heap). */
static char *big_root(int n, int bad, bool unknown, char **root)
{
    char dir[] = "/tmp/tco_test_load.XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    tco_strbuf b = {0};
    tco_strbuf_printf(&b, "mkdir '%s/templates' '%s/scenarios' && ln -s '%s/pricing' '%s/pricing' && "
                          "cp '%s/templates/mini.ini' '%s/templates/big.ini'", dir, dir, MINI, dir, MINI, dir);
    CU_ASSERT_FATAL(!b.failed && system(tco_strbuf_str(&b)) == 0);
    tco_strbuf_clear(&b);
    tco_strbuf_printf(&b, "%s/templates/big.ini", dir);
    FILE *f = fopen(tco_strbuf_str(&b), "a");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (int k = 1; k <= n; k++)
        fprintf(f, "\n[line.extra_%d]\nsheet = Calc\nlabel = Extra %d\nunit = CNY\nformula = cost * %s%d + 1\n", k, k,
                k == bad ? "(" : "", k);
    if (unknown)
        fprintf(f, "\n[oops]\nkey = 1\n");
    CU_ASSERT_EQUAL(fclose(f), 0);
    tco_strbuf_clear(&b);
    tco_strbuf_printf(&b, "%s/scenarios/big.ini", dir);
    f = fopen(tco_strbuf_str(&b), "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "[scenario]\ntemplate = big\nthing = widget\nqty = 3\nyears = 2\n");
    CU_ASSERT_EQUAL(fclose(f), 0);
    *root = strdup(dir);
    return tco_strbuf_take(&b);
}

static void remove_root(char *root, char *scenario)
{
    tco_strbuf b = {0};
    tco_strbuf_printf(&b, "rm -rf '%s'", root);
    CU_ASSERT(!b.failed && system(tco_strbuf_str(&b)) == 0);
    tco_strbuf_free(&b);
    free(root);
    free(scenario);
}

/* A template of more than 2,048 lines has its formulas parsed on a second thread while the items are made
 * (load/lines.c, LINES_AHEAD_MIN): each line gets its own tree (line K evaluates to 30K + 1), a formula that
 * does not parse is reported as with one thread (the same message as in a template of 2,000 lines, below
 * the threshold), and an error before the lines (an unknown section, found in the inputs' pass while the
 * second thread parses) ends the load with its own message and nothing leaked (valgrind, ASan). */
static void test_lines_parsed_ahead(void)
{
    char *root = NULL, *scenario = big_root(2100, 0, false, &root);
    tco_model *m = fixture_load_ok(root, scenario);
    CU_ASSERT_EQUAL(value_of(m, "extra_1"), 31);       /* 30 x 1 + 1 */
    CU_ASSERT_EQUAL(value_of(m, "extra_1234"), 37021); /* 30 x 1,234 + 1 */
    CU_ASSERT_EQUAL(value_of(m, "extra_2100"), 63001); /* 30 x 2,100 + 1 */
    double sum = 0;
    for (int k = 1; k <= 2100; k++) {
        char name[32];
        snprintf(name, sizeof name, "extra_%d", k);
        sum += value_of(m, name);
    }
    CU_ASSERT_EQUAL(sum, 30.0 * 2100 * 2101 / 2 + 2100); /* 30 x (1 + ... + 2,100) + 2,100 = 66,217,600 */
    tco_model_free(m);
    remove_root(root, scenario);

    /* The same planted error at line 2,000, below and above the threshold: the same message. */
    char message[2][TCO_DIAG_MAX];
    for (int big = 0; big < 2; big++) {
        scenario = big_root(big ? 2100 : 2000, 2000, false, &root);
        m = NULL;
        tco_diag bad = {0};
        CU_ASSERT_EQUAL(load_evaluated(root, scenario, NULL, &m, &bad), TCO_ERR_SYNTAX);
        CU_ASSERT_PTR_NULL(m);
        const char *file = strstr(bad.message, "/templates/big.ini"); /* the folders differ */
        CU_ASSERT_PTR_NOT_NULL_FATAL(file);
        snprintf(message[big], sizeof message[big], "%s", file);
        remove_root(root, scenario);
    }
    CU_ASSERT_STRING_EQUAL(message[0], message[1]);
    /* "cost * (2000 + 1" is 16 characters: the formula ends at column 17 without its ')' */
    CU_ASSERT_PTR_NOT_NULL(strstr(message[1], "[line.extra_2000] formula, column 17: expected"));

    scenario = big_root(2100, 0, true, &root);
    m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL(load_evaluated(root, scenario, NULL, &m, &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "[oops]: unknown section"));
    remove_root(root, scenario);
}

CU_ErrorCode register_load_suite(void)
{
    CU_pSuite s = CU_add_suite("load", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "mini model worked by hand", test_mini_by_hand) ||
        !CU_add_test(s, "a scenario overrides its catalog entry", test_scenario_overrides_catalog_entry) ||
        !CU_add_test(s, "byte-order mark and CRLF are accepted", test_bom_and_crlf) ||
        !CU_add_test(s, "sources name files relative to the root", test_sources_relative_to_root) ||
        !CU_add_test(s, "bad inputs give located errors", test_bad_fixtures) ||
        !CU_add_test(s, "a large template's formulas parsed on a second thread", test_lines_parsed_ahead))
        return CU_get_error();
    return CUE_SUCCESS;
}
