/* test_load.c - engine/load/: the INI files into a model (tco_model_load()): the mini root worked by hand
 * with each value's provenance, a scenario's own entry over the catalog's, a byte-order mark and CRLF, and
 * every bad-input fixture refused with its exit code and message (tests/fixtures/bad/scenarios/). */
#include <glob.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "load/load.h"
#include "model/model.h"
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

/* A UTF-8 byte-order mark and CRLF line endings load like a plain file. */
static void test_bom_and_crlf(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    tco_error e = load_evaluated(MINI, MINI "/scenarios/good_bom_crlf.ini", NULL, &m, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    CU_ASSERT_EQUAL(value_of(m, "cost"), 30);
    CU_ASSERT_STRING_EQUAL(m->items[tco_model_find(m, "price")].source,
                           MINI "/pricing/things.ini [widget] price: test figure");
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

CU_ErrorCode register_load_suite(void)
{
    CU_pSuite s = CU_add_suite("load", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "mini model worked by hand", test_mini_by_hand) ||
        !CU_add_test(s, "a scenario overrides its catalog entry", test_scenario_overrides_catalog_entry) ||
        !CU_add_test(s, "byte-order mark and CRLF are accepted", test_bom_and_crlf) ||
        !CU_add_test(s, "bad inputs give located errors", test_bad_fixtures))
        return CU_get_error();
    return CUE_SUCCESS;
}
