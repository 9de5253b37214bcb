/* suites.h - each tests/test_<module>.c registers one CUnit suite. */
#ifndef TCO_TEST_SUITES_H
#define TCO_TEST_SUITES_H

#include <CUnit/CUnit.h>

/* Project source folder (fixtures, scenarios, templates), from CMake. */
#ifndef TCO_SOURCE_DIR
#define TCO_SOURCE_DIR "."
#endif

CU_ErrorCode register_error_suite(void);
CU_ErrorCode register_formula_suite(void);
CU_ErrorCode register_model_suite(void);
CU_ErrorCode register_report_suite(void);
CU_ErrorCode register_quotes_suite(void);
CU_ErrorCode register_ini_suite(void);
CU_ErrorCode register_output_suite(void);
CU_ErrorCode register_advise_suite(void);
CU_ErrorCode register_sample_suite(void);
CU_ErrorCode register_ranges_suite(void);
CU_ErrorCode register_program_suite(void);

#endif
