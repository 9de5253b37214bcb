/* test_report.c - number formatting and the JSON summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report.h"
#include "suites.h"

#define MINI TCO_SOURCE_DIR "/tests/fixtures/roots/mini"

static void test_grouped(void)
{
    char b[64];
    tco_format_grouped(4356800, 0, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "4,356,800");
    tco_format_grouped(61320, 0, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "61,320");
    tco_format_grouped(-1234567.891, 2, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "-1,234,567.89");
    tco_format_grouped(0.7, 2, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "0.70");
    tco_format_grouped(-0.0001, 0, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "0");
    tco_format_grouped(999, 0, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "999");
    tco_format_grouped(1000, 1, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "1,000.0");
}

static void test_json_mini(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_model_load(MINI, MINI "/scenarios/good.ini", &m, &d), TCO_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    tco_report_json(m, "CNY", "out/good.xlsx", f);
    fclose(f);
    /* Roles from [model]: capex = cost (30), opex = running (15, 30), tco = total (75). */
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"capex\": 30,\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"opex_by_year\": [15, 30],\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"opex_total\": 45,\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"tco\": 75,\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"tco_per_card_year\": 25,\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"running\": {\"label\": \"Running cost\", \"unit\": \"CNY/yr\", "
                                       "\"by_year\": [15, 30], \"total\": 45}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"title\": \"Three widgets for two years\""));
    free(buf);
    tco_model_free(m);
}

CU_ErrorCode register_report_suite(void)
{
    CU_pSuite s = CU_add_suite("report", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "thousands separators", test_grouped) ||
        !CU_add_test(s, "JSON summary of the mini model", test_json_mini))
        return CU_get_error();
    return CUE_SUCCESS;
}
