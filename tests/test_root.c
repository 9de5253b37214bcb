/* test_root.c - engine/read/root.c: which folder is the project root (--root, then TCO_ROOT, then the
 * current folder, the checkout of a build tree, the installed data) and what a wrong one says. */
#include <stdlib.h>
#include <string.h>

#include "read/root.h"
#include "suites.h"

#define MINI TCO_SOURCE_DIR "/tests/fixtures/roots/mini"

static const tco_root_layout no_layout = {NULL, NULL, NULL};

static void test_has_project(void)
{
    CU_ASSERT_TRUE(tco_root_has_project(TCO_SOURCE_DIR));
    CU_ASSERT_TRUE(tco_root_has_project(MINI));
    CU_ASSERT_FALSE(tco_root_has_project(TCO_SOURCE_DIR "/tests")); /* no pricing/ there */
    CU_ASSERT_FALSE(tco_root_has_project(TCO_SOURCE_DIR "/no-such-folder"));
}

static void test_given_first(void)
{
    tco_root r;
    tco_diag d = {0};
    char *saved = getenv("TCO_ROOT") ? strdup(getenv("TCO_ROOT")) : NULL;
    setenv("TCO_ROOT", MINI, 1); /* --root beats TCO_ROOT */
    CU_ASSERT_EQUAL_FATAL(tco_root_find(&no_layout, TCO_SOURCE_DIR, &r, &d), TCO_OK);
    CU_ASSERT_EQUAL(r.kind, TCO_ROOT_GIVEN);
    CU_ASSERT_STRING_EQUAL(r.path, TCO_SOURCE_DIR);
    CU_ASSERT_EQUAL_FATAL(tco_root_find(&no_layout, NULL, &r, &d), TCO_OK); /* then TCO_ROOT */
    CU_ASSERT_EQUAL(r.kind, TCO_ROOT_ENV);
    CU_ASSERT_STRING_EQUAL(r.path, MINI);
    /* A given folder without the data is an error, not a fall-through to the next place. */
    CU_ASSERT_EQUAL(tco_root_find(&no_layout, TCO_SOURCE_DIR "/tests", &r, &d), TCO_ERR_NOINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "--root " TCO_SOURCE_DIR "/tests: expected a folder holding pricing/ and templates/"));
    setenv("TCO_ROOT", TCO_SOURCE_DIR "/tests", 1);
    CU_ASSERT_EQUAL(tco_root_find(&no_layout, NULL, &r, &d), TCO_ERR_NOINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "TCO_ROOT=" TCO_SOURCE_DIR "/tests: expected a folder holding pricing/ and templates/"));
    if (saved) {
        setenv("TCO_ROOT", saved, 1);
        free(saved);
    } else {
        unsetenv("TCO_ROOT");
    }
}

CU_ErrorCode register_root_suite(void)
{
    CU_pSuite s = CU_add_suite("root", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "a folder holding pricing/ and templates/", test_has_project) ||
        !CU_add_test(s, "--root first, then TCO_ROOT; a wrong one named", test_given_first))
        return CU_get_error();
    return CUE_SUCCESS;
}
