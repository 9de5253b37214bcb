/* test_error.c - the error table and exit codes. */
#include <string.h>

#include "error.h"
#include "suites.h"

static void test_every_code_has_a_message(void)
{
    for (int e = 0; e < TCO_ERR_COUNT; e++) {
        const char *msg = tco_strerror((tco_error)e);
        CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
        CU_ASSERT_STRING_NOT_EQUAL(msg, "unknown error");
    }
    CU_ASSERT_STRING_EQUAL(tco_strerror(TCO_ERR_COUNT), "unknown error");
}

static void test_exit_codes_are_sysexits(void)
{
    CU_ASSERT_EQUAL(tco_exit_code(TCO_OK), 0);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_USAGE), 64);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_INI), 65);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_CYCLE), 65);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_NOINPUT), 66);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_CANTCREATE), 73);
}

static void test_diag_truncates_safely(void)
{
    tco_diag d = {0};
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CU_ASSERT_EQUAL(tco_diag_set(&d, TCO_ERR_INI, "file [s] k: %s", big), TCO_ERR_INI);
    CU_ASSERT_EQUAL(d.code, TCO_ERR_INI);
    CU_ASSERT_EQUAL(strlen(d.message), TCO_DIAG_MAX - 1);
    CU_ASSERT_EQUAL(strncmp(d.message, "file [s] k: xxx", 15), 0);
}

CU_ErrorCode register_error_suite(void)
{
    CU_pSuite s = CU_add_suite("error", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "every code has a message", test_every_code_has_a_message) ||
        !CU_add_test(s, "exit codes are sysexits", test_exit_codes_are_sysexits) ||
        !CU_add_test(s, "diagnostic truncates safely", test_diag_truncates_safely))
        return CU_get_error();
    return CUE_SUCCESS;
}
