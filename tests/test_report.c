/* test_report.c - number formatting, the JSON and CSV summaries, the `quotes check` report. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "render/report.h"
#include "load/load.h"
#include "base/error.h"
#include "suites.h"
#include "loaded.h"

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
    tco_format_grouped(-0.0001, 0, b, sizeof b); /* non-zero never reads as 0: two significant digits */
    CU_ASSERT_STRING_EQUAL(b, "-0.0001");
    tco_format_grouped(-0.0, 0, b, sizeof b); /* no "-0" */
    CU_ASSERT_STRING_EQUAL(b, "0");
    tco_format_grouped(999, 0, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "999");
    tco_format_grouped(1000, 1, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "1,000.0");
}

/* Rounded as the workbook shows the value (Excel: the 15-digit decimal value, half away from zero),
 * where printf's "%.Nf" rounds the binary value half to even (issue 23 §2). */
static void test_rounding_as_workbook(void)
{
    char b[64];
    tco_format_percent(0.3125, 1, b, sizeof b); /* 31.25 %: Excel "0.0%" shows 31.3%; "%.1f" gave 31.2 */
    CU_ASSERT_STRING_EQUAL(b, "31.3%");
    tco_format_percent(-0.3125, 1, b, sizeof b); /* away from zero */
    CU_ASSERT_STRING_EQUAL(b, "-31.3%");
    tco_format_percent(0.0105, 1, b, sizeof b); /* 0.0105 is 0.01049999... in binary: Excel shows 1.1% */
    CU_ASSERT_STRING_EQUAL(b, "1.1%");
    tco_format_percent(0.999, 1, b, sizeof b); /* 99.9% */
    CU_ASSERT_STRING_EQUAL(b, "99.9%");
    tco_format_percent(0.99951, 1, b, sizeof b); /* 99.951 -> 100.0, the carry into a new digit */
    CU_ASSERT_STRING_EQUAL(b, "100.0%");
    tco_format_percent(-0.0004, 1, b, sizeof b); /* -0.04 % would read 0.0%: two significant digits */
    CU_ASSERT_STRING_EQUAL(b, "-0.04%");
    tco_format_percent(0.0000123456, 1, b, sizeof b); /* 0.00123456 %: 0.0012% */
    CU_ASSERT_STRING_EQUAL(b, "0.0012%");
    tco_format_percent(-0.0, 1, b, sizeof b); /* no "-0.0%" */
    CU_ASSERT_STRING_EQUAL(b, "0.0%");
    tco_format_percent(0, 1, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "0.0%");
    tco_format_grouped(2.675, 2, b, sizeof b); /* binary 2.67499999...: Excel shows 2.68, "%.2f" 2.67 */
    CU_ASSERT_STRING_EQUAL(b, "2.68");
    tco_format_grouped(1234.5, 0, b, sizeof b); /* half away from zero: 1,235 ("%.0f": 1234, to even) */
    CU_ASSERT_STRING_EQUAL(b, "1,235");
    tco_format_grouped(-1234.5, 0, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "-1,235");
    tco_format_grouped(999.995, 2, b, sizeof b); /* 999.995 -> 1,000.00: the carry adds a group */
    CU_ASSERT_STRING_EQUAL(b, "1,000.00");
    tco_format_grouped(0.004, 2, b, sizeof b); /* a figure that is not zero never reads as 0.00 (issue 24) */
    CU_ASSERT_STRING_EQUAL(b, "0.004");
    tco_format_grouped(0.0012345, 2, b, sizeof b); /* two significant digits */
    CU_ASSERT_STRING_EQUAL(b, "0.0012");
    tco_format_grouped(0.3, 0, b, sizeof b); /* a money figure of 0 decimals: 0.3, not 0 */
    CU_ASSERT_STRING_EQUAL(b, "0.3");
    tco_format_grouped(0.005, 2, b, sizeof b); /* rounds up to 0.01 as before: not zero */
    CU_ASSERT_STRING_EQUAL(b, "0.01");
    tco_format_grouped(1e-20, 2, b, sizeof b); /* beyond 15 decimals: exponent form */
    CU_ASSERT_STRING_EQUAL(b, "1.0e-20");
    tco_format_grouped(7615211.687999994, 0, b, sizeof b); /* cluster32's TCO */
    CU_ASSERT_STRING_EQUAL(b, "7,615,212");
}

/* The mini model's summary as JSON (@p json) or CSV with its header, heap (NULL on failure). */
static char *mini_summary(bool json)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = load_evaluated(MINI, MINI "/scenarios/good.ini", NULL, &m, &d) == TCO_OK ? open_memstream(&buf, &len) : NULL;
    if (f != NULL) {
        if (json)
            tco_report_json(m, "CNY", "out/good.xlsx", f);
        else
            tco_report_csv(m, true, f);
        fclose(f);
    }
    tco_model_free(m);
    return buf;
}

static void test_json_mini(void)
{
    char *buf = mini_summary(true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    /* Roles from [model]: capex = cost (30), opex = running (15, 30), tco = total (75). */
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"capex\": 30,\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"opex_by_year\": [15, 30],\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"opex_total\": 45,\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"tco\": 75,\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"tco_per_card_year\": 25,\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"running\": {\"label\": \"Running cost\", \"unit\": \"CNY/yr\", "
                                       "\"by_year\": [15, 30], \"total\": 45, \"source\": \"\"}"));
    /* A total is an output of its own, with its source. */
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"running_total\": {\"label\": \"Running cost (all years)\", \"unit\": \"CNY\", "
                                       "\"value\": 45, \"source\": \"total of per-year line running\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"title\": \"Three widgets for two years\""));
    free(buf);
}

/* JSON strings are the text verbatim: no apostrophe before formula-looking text (that is CSV's). */
static void test_json_string(void)
{
    char text[64] = {0};
    FILE *f = fmemopen(text, sizeof text - 1, "w"); /* text stays NUL-terminated */
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    const char *in[] = {"-neg", "=1+1 \"q\" \\ \t\x01", NULL};
    for (size_t i = 0; i < 3; i++)
        tco_report_json_string(f, in[i]);
    CU_ASSERT_EQUAL(fclose(f), 0);
    CU_ASSERT_STRING_EQUAL(text, "\"-neg\"\"=1+1 \\\"q\\\" \\\\ \\t\\u0001\"\"\"");
}

/* The CSV of the mini model, row by row: numbers alone in value, the total as its own row. */
static void test_csv_mini(void)
{
    char *buf = mini_summary(false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    CU_ASSERT_EQUAL(strncmp(buf, TCO_REPORT_CSV_HEADER "\r\n", strlen(TCO_REPORT_CSV_HEADER) + 2), 0);
    /* running = cost x rate x year = 30 x 0.5 x 2 = 30 in Year 2; its total 15 + 30 = 45. */
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\r\n\"good\",\"output\",\"running\",\"Year 2\",30,\"CNY/yr\",\"\",\"\",\"Running cost\",\"\",,,\r\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\r\n\"good\",\"output\",\"running_total\",\"\",45,\"CNY\",\"\",\"\","
                                       "\"Running cost (all years)\",\"total of per-year line running\",,,\r\n"));
    CU_ASSERT_PTR_NULL(strstr(buf, "\"running\",\"Total\"")); /* no Total period row besides running_total */
    free(buf);
}

/* `quotes check` as JSON: the place from each diagnostic's fields (a path holding ':' and digits is only a name). */
static void test_check_json(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    tco_report_check r;
    tco_report_check_begin(&r, true, f, stderr);
    const char *path = "a:7: b.csv";
    tco_diag d = {0};
    tco_diag_at(&d, TCO_ERR_SYNTAX, &(tco_place){.file = path, .line = 12, .column = 3, .column_name = "unit_price"},
                "expected a price");
    CU_ASSERT_STRING_EQUAL(d.message, "a:7: b.csv:12: column 3 (unit_price): expected a price");
    tco_report_check_problem(&r, path, &d, false);
    tco_diag_at(&d, TCO_ERR_SYNTAX, &(tco_place){.file = path, .line = 1, .column = 5}, "unknown column 'x' is ignored");
    CU_ASSERT_STRING_EQUAL(d.message, "a:7: b.csv:1: column 5: unknown column 'x' is ignored");
    tco_report_check_problem(&r, path, &d, true);
    tco_diag_at(&d, TCO_ERR_SYNTAX, &(tco_place){.file = path, .line = 4}, "expected 4 fields as in the header, found 3");
    tco_report_check_problem(&r, path, &d, false);
    tco_diag_at(&d, TCO_ERR_SYNTAX, &(tco_place){.file = path}, "the file is UTF-16");
    tco_report_check_problem(&r, path, &d, false);
    tco_diag_at(&d, TCO_ERR_NOINPUT, &(tco_place){.file = "c.csv"}, "cannot open: No such file or directory");
    tco_report_check_unreadable(&r, "c.csv", &d);
    tco_report_check_file(&r, path, 12, 3, 1);
    tco_report_check_file(&r, "c.csv", 0, 1, 0);
    CU_ASSERT_TRUE(tco_report_check_end(&r));
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "{\"file\": \"a:7: b.csv\", \"line\": 12, \"column\": 3, \"column_name\": "
                                       "\"unit_price\", \"severity\": \"error\", \"message\": \"expected a price\", "
                                       "\"diagnostic\": \"a:7: b.csv:12: column 3 (unit_price): expected a price\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"line\": 1, \"column\": 5, \"column_name\": null, \"severity\": \"warning\", "
                                       "\"message\": \"unknown column 'x' is ignored\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"line\": 4, \"column\": null, \"column_name\": null, \"severity\": \"error\", "
                                       "\"message\": \"expected 4 fields as in the header, found 3\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"line\": null, \"column\": null, \"column_name\": null, \"severity\": "
                                       "\"error\", \"message\": \"the file is UTF-16\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"file\": \"c.csv\", \"line\": null, \"column\": null, \"column_name\": null, "
                                       "\"severity\": \"error\", \"message\": \"cannot open: No such file or directory\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"files\": [\n    {\"file\": \"a:7: b.csv\", \"rows\": 12, \"errors\": 3, "
                                       "\"warnings\": 1},\n    {\"file\": \"c.csv\", \"rows\": 0, \"errors\": 1, \"warnings\": 0}\n  ],"));
    /* 4 errors and 1 warning reported in all. */
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"errors\": 4,\n  \"warnings\": 1\n}\n"));
    free(buf);
}

CU_ErrorCode register_report_suite(void)
{
    CU_pSuite s = CU_add_suite("report", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "thousands separators", test_grouped) ||
        !CU_add_test(s, "rounded as the workbook shows it", test_rounding_as_workbook) ||
        !CU_add_test(s, "JSON summary of the mini model", test_json_mini) ||
        !CU_add_test(s, "JSON strings verbatim", test_json_string) ||
        !CU_add_test(s, "CSV summary of the mini model", test_csv_mini) ||
        !CU_add_test(s, "quotes check report as JSON", test_check_json))
        return CU_get_error();
    return CUE_SUCCESS;
}
