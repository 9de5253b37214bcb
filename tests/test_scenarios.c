/* test_scenarios.c - engine/read/scenarios.c: which names can be scenarios, the shipped scenarios/ folder
 * (17 files: 3 comparisons, 4 questions for tco advise), and --scenario NAME resolved to its file. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "read/scenarios.h"
#include "suites.h"

static void test_names_ok(void)
{
    CU_ASSERT_TRUE(tco_scenario_name_ok("cluster32"));
    CU_ASSERT_TRUE(tco_scenario_name_ok("team-70b_dm2"));
    CU_ASSERT_FALSE(tco_scenario_name_ok(""));
    CU_ASSERT_FALSE(tco_scenario_name_ok("my site"));
    CU_ASSERT_FALSE(tco_scenario_name_ok("a;b"));
    CU_ASSERT_FALSE(tco_scenario_name_ok("../x"));
    char n[202];
    memset(n, 'a', 200);
    n[200] = '\0';
    CU_ASSERT_TRUE(tco_scenario_name_ok(n)); /* 200 characters: the limit */
    n[200] = 'a';
    n[201] = '\0';
    CU_ASSERT_FALSE(tco_scenario_name_ok(n));
}

static void test_suggested_and_shown(void)
{
    char *s = tco_scenario_suggested_name("my site");
    CU_ASSERT_STRING_EQUAL(s, "my_site");
    free(s);
    s = tco_scenario_suggested_name("a  b"); /* a run of others is one '_' */
    CU_ASSERT_STRING_EQUAL(s, "a_b");
    free(s);
    s = tco_shown_name("a\001b");
    CU_ASSERT_STRING_EQUAL(s, "a?b");
    free(s);
    s = tco_shown_name("\xE8\xAE\xAD"); /* UTF-8 shown as it is */
    CU_ASSERT_STRING_EQUAL(s, "\xE8\xAE\xAD");
    free(s);
    char stem[64];
    CU_ASSERT_STRING_EQUAL(tco_scenario_stem("a/b/site.ini", stem, sizeof stem), "site");
    CU_ASSERT_STRING_EQUAL(tco_scenario_stem("cluster32", stem, sizeof stem), "cluster32");
}

static void test_shipped_folder(void)
{
    char **names = NULL;
    int n = tco_scenario_names(TCO_SOURCE_DIR, &names);
    CU_ASSERT_EQUAL_FATAL(n, 17);
    CU_ASSERT_STRING_EQUAL(names[0], "cluster16"); /* sorted */
    CU_ASSERT_STRING_EQUAL(names[1], "cluster32");
    CU_ASSERT_STRING_EQUAL(names[16], "train-7b");
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    CU_ASSERT_TRUE(tco_scenario_is_comparison(TCO_SOURCE_DIR, "compare-team70b"));
    CU_ASSERT_FALSE(tco_scenario_is_comparison(TCO_SOURCE_DIR, "cluster32"));
    CU_ASSERT_TRUE(tco_scenario_is_question(TCO_SOURCE_DIR, "solo-dev"));
    CU_ASSERT_TRUE(tco_scenario_is_question(TCO_SOURCE_DIR, "train-7b"));
    CU_ASSERT_FALSE(tco_scenario_is_question(TCO_SOURCE_DIR, "team"));
    CU_ASSERT_FALSE(tco_scenario_is_question(TCO_SOURCE_DIR, "compare-solo"));
}

static void test_path_of_a_name(void)
{
    tco_diag d = {0};
    char *p = tco_scenario_path(TCO_SOURCE_DIR, "cluster32", "--scenario", NULL, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p, TCO_SOURCE_DIR "/scenarios/cluster32.ini");
    free(p);
    p = tco_scenario_path(TCO_SOURCE_DIR, "x/own.ini", "--scenario", NULL, &d); /* a path is taken as given */
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p, "x/own.ini");
    free(p);
    p = tco_scenario_path(TCO_SOURCE_DIR, "nope", "--scenario", NULL, &d);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(d.code, TCO_ERR_NOINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "no such scenario 'nope'; available: cluster16, cluster32"));
    p = tco_scenario_path(TCO_SOURCE_DIR, "a;b", "--scenario", NULL, &d);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(d.code, TCO_ERR_USAGE);
    p = tco_scenario_path(TCO_SOURCE_DIR, "my site", NULL, "cmp.ini", &d); /* from a comparison file */
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(d.code, TCO_ERR_INI);
}

CU_ErrorCode register_scenarios_suite(void)
{
    CU_pSuite s = CU_add_suite("scenarios", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "which names can be scenarios", test_names_ok) ||
        !CU_add_test(s, "suggested, shown and stem names", test_suggested_and_shown) ||
        !CU_add_test(s, "the shipped scenarios/ folder", test_shipped_folder) ||
        !CU_add_test(s, "--scenario NAME to its file", test_path_of_a_name))
        return CU_get_error();
    return CUE_SUCCESS;
}
