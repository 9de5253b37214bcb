/* runner.c - the one CUnit runner; exits non-zero when any assertion fails. */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "suites.h"

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    /* One suite a line (tests/suites.h). */
    CU_ErrorCode (*const suites[])(void) = {
        register_error_suite,
        register_formula_suite,
        register_model_suite,
        register_report_suite,
        register_quotes_suite,
        register_ini_suite,
        register_output_suite,
        register_advise_suite,
        register_sample_suite,
        register_program_suite,
        register_ranges_suite,
    };
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
        if (suites[i]() != CUE_SUCCESS) {
            fprintf(stderr, "cannot register suite %zu: %s\n", i, CU_get_error_msg());
            CU_cleanup_registry();
            return 2;
        }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    return (failed == 0 && run > 0) ? 0 : 1;
}
