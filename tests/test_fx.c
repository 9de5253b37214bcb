/* test_fx.c - engine/read/fx.c: the exchange rates of pricing/fx.ini (CNY reporting, 7.1 CNY per USD,
 * 7.7 per EUR) and --set fx.CODE=RATE. */
#include <string.h>

#include "read/fx.h"
#include "fixture.h"
#include "suites.h"

/* pricing/fx.ini: CNY reporting, 7.1 CNY per USD, 7.7 per EUR. */
static tco_fx test_fx(void)
{
    tco_fx fx = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(fixture_fx(TCO_SOURCE_DIR, &fx, &d), TCO_OK);
    return fx;
}

/* --set fx.usd=7.2: the rate changes, the file's is kept for the source; bad codes and rates are refused. */
static void test_fx_set(void)
{
    tco_fx fx = test_fx();
    tco_diag d = {0};
    double rate = 0;
    CU_ASSERT_EQUAL(tco_fx_set(&fx, "fx.USD=7.2", "USD", "7.2", &d), TCO_OK);
    CU_ASSERT(tco_fx_rate(&fx, "usd", &rate) && rate == 7.2);
    size_t usd = 0;
    while (usd < fx.n && strcmp(fx.codes[usd], "USD") != 0)
        usd++;
    CU_ASSERT_FATAL(usd < fx.n && fx.set_args != NULL);
    CU_ASSERT(fx.file_rates[usd] == 7.1 && strcmp(fx.set_args[usd], "fx.USD=7.2") == 0);
    CU_ASSERT(tco_fx_rate(&fx, "EUR", &rate) && rate == 7.7);
    CU_ASSERT_EQUAL(tco_fx_set(&fx, "fx.usb=7", "usb", "7", &d), TCO_ERR_INI);
    CU_ASSERT(strstr(d.message, "--set fx.usb=7: no rate 'usb' in pricing/fx.ini [fx] (it has ") != NULL);
    CU_ASSERT_EQUAL(tco_fx_set(&fx, "fx.cny=2", "cny", "2", &d), TCO_ERR_INI);
    CU_ASSERT(strstr(d.message, "CNY is the reporting currency") != NULL);
    CU_ASSERT_EQUAL(tco_fx_set(&fx, "fx.usd=1e7", "usd", "1e7", &d), TCO_ERR_INI);
    CU_ASSERT(strstr(d.message, "expected CNY per USD as a number from 0.000001 to 1000000, found '1e7'") != NULL);
    CU_ASSERT(tco_fx_rate(&fx, "usd", &rate) && rate == 7.2);
    tco_fx_free(&fx);
}

CU_ErrorCode register_fx_suite(void)
{
    CU_pSuite s = CU_add_suite("fx", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "--set fx.CODE=RATE", test_fx_set))
        return CU_get_error();
    return CUE_SUCCESS;
}
