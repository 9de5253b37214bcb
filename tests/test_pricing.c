/* test_pricing.c - engine/price/pricing.c: a model reported in another currency, and its reporting rate moved.  cluster32's
 * TCO is 7,724,461.688 CNY; pricing/fx.ini gives 7.1 CNY per USD. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "read/dates.h"
#include "read/fx.h"
#include "read/quote_csv.h"
#include "price/pricing.h"
#include "fixture.h"
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
    /* 7,724,461.688 CNY / 7.1 = 1,087,952.350 USD; electricity 0.7 CNY/kWh / 7.1 USD/kWh. */
    CU_ASSERT_TRUE(near(value_of(m, "fx_report"), 7.1));
    CU_ASSERT_TRUE(near(value_of(m, "tco"), 7724461.688 / 7.1));
    CU_ASSERT_TRUE(near(value_of(m, "electricity_price"), 0.7 / 7.1));
    /* A --set value is CNY, as the files: 0.85 CNY/kWh moves the TCO by 210,416.076 CNY / 7.1 =
     * 29,636.06704 USD (the live_usd_electricity_price recalculation test types the same). */
    double before = value_of(m, "tco");
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "electricity_price", NULL, 0.85, &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "tco") - before, 210416.076 / 7.1));
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "electricity_price", NULL, 0.7, &d), TCO_OK);
    /* The rate typed as 7.2: 7,724,461.688 / 7.2 = 1,072,841.901 USD. */
    CU_ASSERT_EQUAL(tco_model_set_report_rate(m, 7.2, &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "tco"), 7724461.688 / 7.2));
    /* A conversion past the largest double is refused at the conversion and changes nothing: 1e303 CNY per
     * host over 7.2 is 1.4e302 USD, finite; the rate 0.000001 would make it 1e309 (issue 24 §6). */
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "host_price", NULL, 1e303, &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "host_price"), 1e303 / 7.2));
    CU_ASSERT_EQUAL(tco_model_set_report_rate(m, 0.000001, &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "host_price = 1e+303 CNY/host ("));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "over fx_report = 1e-06 CNY/USD"));
    CU_ASSERT_TRUE(near(value_of(m, "fx_report"), 7.2));
    CU_ASSERT_TRUE(near(value_of(m, "host_price"), 1e303 / 7.2));
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "host_price", NULL, 200000, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_report_rate(m, 0.000001, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "host_price", NULL, 1e303, &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "it passes the largest number (1.8e308)"));
    CU_ASSERT_TRUE(near(value_of(m, "host_price"), 200000 / 0.000001));
    tco_fx_free(&fx);
    tco_model_free(m);
}

/* pricing/fx.ini: CNY reporting, 7.1 CNY per USD, 7.7 per EUR. */
static tco_fx test_fx(void)
{
    tco_fx fx = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(fixture_fx(TCO_SOURCE_DIR, &fx, &d), TCO_OK);
    return fx;
}

/* cluster32 (with --set @p set, or NULL) reported in USD at @p rate CNY per USD, as tco --currency USD
 * --set fx.usd=RATE loads it. */
static tco_model *cluster32_usd(const char *set, const char *rate)
{
    tco_fx fx = test_fx();
    tco_diag d = {0};
    tco_override ov;
    tco_model *m = NULL;
    char arg[32];
    snprintf(arg, sizeof arg, "fx.usd=%s", rate);
    CU_ASSERT_EQUAL_FATAL(tco_fx_set(&fx, arg, "usd", rate, &d), TCO_OK);
    CU_ASSERT_FATAL(set == NULL || tco_override_parse(set, &ov, &d) == TCO_OK);
    tco_error e = load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini",
        &(tco_load_options){.overrides = &ov, .n_overrides = set ? 1 : 0}, &m, &d);
    if (e == TCO_OK)
        e = tco_model_set_currency(m, "USD", &fx, NULL, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    tco_fx_free(&fx);
    return m;
}

static double tco_of(const tco_model *m)
{
    double v = NAN;
    CU_ASSERT(tco_model_role_value(m, m->role_tco, &v));
    return v;
}

/* The reporting rate moved on a loaded model, and a money input moved by its CNY value, give the model
 * loaded that way, to the bit: each money input is CNY / fx_report, the one conversion. */
static void test_report_rate(void)
{
    tco_model *m = cluster32_usd(NULL, "7.1"), *at75 = cluster32_usd(NULL, "7.5"),
              *host = cluster32_usd("host.price=210000", "7.5");
    tco_diag d = {0};
    double t71 = tco_of(m);
    CU_ASSERT_EQUAL(tco_model_set_report_rate(m, 7.5, &d), TCO_OK);
    CU_ASSERT(tco_of(m) == tco_of(at75));
    int hp = tco_model_find(m, "host_price"), tp = tco_model_find(m, "tier_price"), dm = 0;
    CU_ASSERT_FATAL(hp >= 0 && tp >= 0);
    while (dm < m->n_tiers && strcmp(m->tier_names[dm], "D-M") != 0)
        dm++;
    CU_ASSERT_FATAL(dm < m->n_tiers);
    const tco_item *h = &m->items[hp], *t = &m->items[tp];
    /* pricing/hosts.ini [dc8] price = 200000, price_range = 140000, 260000; cards.ini [D-M] price = 95000 */
    CU_ASSERT(h->in_report && h->base_value == 200000 && h->value == 200000 / 7.5);
    CU_ASSERT(h->range.low == 140000 / 7.5 && h->range.high == 260000 / 7.5);
    CU_ASSERT(t->base_tiers[dm] == 95000 && t->tiers[dm] == 95000 / 7.5);
    CU_ASSERT(m->items[tco_model_find(m, TCO_FX_REPORT)].value == 7.5);
    /* By its CNY value: 210,000 CNY is 28,000 USD at 7.5, the run of --set host.price=210000. */
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "host_price", NULL, 210000, &d), TCO_OK);
    CU_ASSERT(h->base_value == 210000 && h->value == 28000 && tco_of(m) == tco_of(host));
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "tier_price", "d-m", 88000, &d), TCO_OK);
    CU_ASSERT(t->base_tiers[dm] == 88000 && t->tiers[dm] == 88000 / 7.5);
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "tier_price", "d-m", 95000, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "host_price", NULL, 200000, &d), TCO_OK);
    /* fx_report by the same call is the rate; back at 7.1 the first figure, to the bit. */
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, TCO_FX_REPORT, NULL, 7.1, &d), TCO_OK);
    CU_ASSERT(tco_of(m) == t71 && h->value == 200000 / 7.1);
    /* Refused, and nothing changes: a rate out of bounds, a price below its min of 0, a tier that is none. */
    CU_ASSERT_EQUAL(tco_model_set_report_rate(m, 0, &d), TCO_ERR_INI);
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "host_price", NULL, -1, &d), TCO_ERR_INI);
    CU_ASSERT(strstr(d.message, "input host_price: value") != NULL);
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "tier_price", "D-X", 1, &d), TCO_ERR_UNKNOWN_NAME);
    CU_ASSERT(tco_of(m) == t71 && h->base_value == 200000);
    /* In CNY there is no reporting rate; a money input's given value is its value. */
    tco_model *cny = NULL;
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &cny, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_report_rate(cny, 7.5, &d), TCO_ERR_UNKNOWN_NAME);
    CU_ASSERT_EQUAL(tco_model_set_given_input(cny, "host_price", NULL, 210000, &d), TCO_OK);
    CU_ASSERT(cny->items[tco_model_find(cny, "host_price")].value == 210000);
    tco_model_free(cny);
    tco_model_free(m);
    tco_model_free(at75);
    tco_model_free(host);
}

CU_ErrorCode register_pricing_suite(void)
{
    CU_pSuite s = CU_add_suite("pricing", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "cluster32 reported in USD", test_usd_report) ||
        !CU_add_test(s, "the reporting rate and CNY values moved on a loaded model", test_report_rate))
        return CU_get_error();
    return CUE_SUCCESS;
}
