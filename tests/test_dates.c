/* test_dates.c - engine/read/dates.c: calendar dates as YYYY-MM-DD, days since 1970-01-01, and the
 * reason a date names no day. */
#include <stdint.h>

#include "read/dates.h"
#include "suites.h"

/* YYYY-MM-DD both ways: 2024 is a leap year (2024-02-29 exists, 2025-02-29 does not); day 1 is
 * 1970-01-02, the day after the epoch; a month or day must have two digits. */
static void test_date_parse_and_format(void)
{
    int32_t d;
    char out[16];
    CU_ASSERT(tco_parse_date("2024-02-29", &d));
    tco_format_date(d, out);
    CU_ASSERT_STRING_EQUAL(out, "2024-02-29");
    CU_ASSERT(tco_parse_date("1970-01-02", &d) && d == 1);
    CU_ASSERT(!tco_parse_date("2025-02-29", &d));
    CU_ASSERT(!tco_parse_date("2025-1-02", &d));
}

static void test_date_no_such_day(void)
{
    int32_t d;
    char why[200];
    CU_ASSERT(!tco_date_check("2026-02-30", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2026-02-30' (February 2026 has 28 days)");
    CU_ASSERT(!tco_date_check("2024-02-30", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2024-02-30' (February 2024 has 29 days)");
    CU_ASSERT(!tco_date_check("2026-04-31", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2026-04-31' (April 2026 has 30 days)");
    CU_ASSERT(!tco_date_check("2026-00-10", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2026-00-10' names month 00 (months are 01 to 12)");
    CU_ASSERT(!tco_date_check("2026-11-00", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2026-11-00' (November 2026 has 30 days)");
    CU_ASSERT(!tco_date_check("30/11/2026", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "expected a date as YYYY-MM-DD, found '30/11/2026'");
    /* 1970-01-01 to 2000-01-01: 30 x 365 + 7 leap days (1972 to 1996) = 10,957; + 31 + 28 = 11,016. */
    CU_ASSERT(tco_date_check("2000-02-29", &d, why, sizeof why) && d == 11016);
}

CU_ErrorCode register_dates_suite(void)
{
    CU_pSuite s = CU_add_suite("dates", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "parse and format YYYY-MM-DD", test_date_parse_and_format) ||
        !CU_add_test(s, "dates that name no day", test_date_no_such_day))
        return CU_get_error();
    return CUE_SUCCESS;
}
