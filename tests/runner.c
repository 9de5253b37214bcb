/* runner.c - the one CUnit runner; exits non-zero when any assertion fails.
 *
 * tco_tests            runs every suite of tests/suites.h
 * tco_tests SUITE...   runs the named suites only (the names CU_add_suite() gives: tco_tests --list)
 * tco_tests --list     prints the suite names
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "suites.h"

int main(int argc, char **argv)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
#define TCO_TEST_ENTRY(m) register_##m##_suite,
    CU_ErrorCode (*const suites[])(void) = {TCO_TEST_SUITES(TCO_TEST_ENTRY)};
#undef TCO_TEST_ENTRY
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
        if (suites[i]() != CUE_SUCCESS) {
            fprintf(stderr, "cannot register suite %zu: %s\n", i, CU_get_error_msg());
            CU_cleanup_registry();
            return 2;
        }
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (CU_pSuite s = CU_get_registry()->pSuite; s != NULL; s = s->pNext)
            printf("%s\n", s->pName);
        CU_cleanup_registry();
        return 0;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    if (argc == 1) {
        CU_basic_run_tests();
    } else {
        for (int a = 1; a < argc; a++) {
            CU_pSuite s = CU_get_suite(argv[a]);
            if (s == NULL) {
                fprintf(stderr, "no suite '%s' (tco_tests --list shows them)\n", argv[a]);
                CU_cleanup_registry();
                return 2;
            }
            CU_basic_run_suite(s);
        }
    }
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    return (failed == 0 && run > 0) ? 0 : 1;
}
