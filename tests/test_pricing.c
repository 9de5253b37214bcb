/* test_pricing.c - engine/price/pricing.c: money units, and a run reported in another currency.  cluster32's
 * TCO is 7,615,211.688 CNY; pricing/fx.ini gives 7.1 CNY per USD. */
#include <math.h>
#include <stdio.h>

#include "model/model.h"
#include "read/dates.h"
#include "read/fx.h"
#include "read/quote_csv.h"
#include "price/pricing.h"
#include "loaded.h"
#include "suites.h"

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

static double value_of(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0);
    return m->items[i].value;
}

static void test_money_units(void)
{
    CU_ASSERT_TRUE(tco_unit_is_money("CNY"));
    CU_ASSERT_TRUE(tco_unit_is_money("CNY/yr"));
    CU_ASSERT_TRUE(tco_unit_is_money("CNY/kWh"));
    CU_ASSERT_FALSE(tco_unit_is_money("kW"));
    CU_ASSERT_FALSE(tco_unit_is_money("CNYX"));
    CU_ASSERT_FALSE(tco_unit_is_money("ratio"));
}

static void test_usd_report(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &m, &d), TCO_OK);
    CU_ASSERT_STRING_EQUAL(tco_model_currency(m), "CNY");
    tco_fx fx = {0};
    tco_error e = tco_fx_load(TCO_SOURCE_DIR "/pricing/fx.ini", "pricing/fx.ini", &fx, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_currency(m, "XYZ", &fx, "--currency XYZ", &d), TCO_ERR_INI); /* no rate */
    CU_ASSERT_EQUAL_FATAL(tco_model_set_currency(m, "usd", &fx, "--currency USD", &d), TCO_OK);
    CU_ASSERT_STRING_EQUAL(tco_model_currency(m), "USD");
    /* 7,615,211.688 CNY / 7.1 = 1,072,565.026 USD; electricity 0.7 CNY/kWh / 7.1 USD/kWh. */
    CU_ASSERT_TRUE(near(value_of(m, "fx_report"), 7.1));
    CU_ASSERT_TRUE(near(value_of(m, "tco"), 7615211.688 / 7.1));
    CU_ASSERT_TRUE(near(value_of(m, "electricity_price"), 0.7 / 7.1));
    /* A --set value is CNY, as the files: 0.85 CNY/kWh moves the TCO by 210,416.076 CNY / 7.1 =
     * 29,636.06704 USD (the live_usd_electricity_price recalculation test types the same). */
    double before = value_of(m, "tco");
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "electricity_price", NULL, 0.85, &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "tco") - before, 210416.076 / 7.1));
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "electricity_price", NULL, 0.7, &d), TCO_OK);
    /* The rate typed as 7.2: 7,615,211.688 / 7.2 = 1,057,668.290 USD. */
    CU_ASSERT_EQUAL(tco_model_set_report_rate(m, 7.2, &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "tco"), 7615211.688 / 7.2));
    tco_fx_free(&fx);
    tco_model_free(m);
}

CU_ErrorCode register_pricing_suite(void)
{
    CU_pSuite s = CU_add_suite("pricing", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "money units", test_money_units) ||
        !CU_add_test(s, "cluster32 reported in USD", test_usd_report))
        return CU_get_error();
    return CUE_SUCCESS;
}
