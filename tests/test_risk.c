/* test_risk.c - engine/apps/risk.c: --sensitivity rows and --monte-carlo draws on cluster32.  PUE moves only
 * the electricity: 41.06 kW x 0.1 x 8,760 h x 3 yr x 0.7 CNY/kWh = 75,533.976 CNY per 0.1 of PUE, so
 * over pue_range = 1.2, 1.6 (pricing/site.ini) the TCO runs from 7,724,461.688 - 75,533.976 =
 * 7,648,927.712 to 7,724,461.688 + 3 x 75,533.976 = 7,951,063.616 CNY, a swing of 302,135.904. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "apps/risk.h"
#include "price/run.h"
#include "suites.h"

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

/* cluster32 as `tco --scenario cluster32` runs it (price/run.h): loaded, evaluated, in CNY. */
static tco_run *open_cluster32(void)
{
    tco_run *run = NULL;
    tco_diag d = {0};
    const tco_run_options opts = {.root = TCO_SOURCE_DIR, .scenario_path = TCO_SOURCE_DIR "/scenarios/cluster32.ini"};
    CU_ASSERT_EQUAL_FATAL(tco_run_open(&opts, &run, &d), TCO_OK);
    return run;
}

static void test_sensitivity_pue_row(void)
{
    tco_run *run = open_cluster32();
    tco_model *m = run->model;
    tco_risk r = {0};
    tco_diag d = {0};
    tco_error e = tco_risk_run(run, true, 0, 0, NULL, &r, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    CU_ASSERT_TRUE(near(r.base_tco, 7724461.688));
    CU_ASSERT_EQUAL(strlen(r.fingerprint), 16);
    const tco_sensitivity_row *pue = NULL;
    for (size_t i = 0; i < r.n_rows; i++) {
        if (strcmp(r.rows[i].input, "pue") == 0)
            pue = &r.rows[i];
        if (i > 0)
            CU_ASSERT_TRUE(r.rows[i - 1].swing >= r.rows[i].swing); /* largest swing first */
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(pue);
    if (pue == NULL) /* for the compiler: the FATAL assertion has returned */
        return;
    CU_ASSERT_STRING_EQUAL(pue->set, "facility.pue");
    CU_ASSERT_TRUE(near(pue->low, 1.2) && near(pue->point, 1.3) && near(pue->high, 1.6));
    CU_ASSERT_TRUE(near(pue->tco_low, 7648927.712));
    CU_ASSERT_TRUE(near(pue->tco_high, 7951063.616));
    CU_ASSERT_TRUE(near(pue->swing, 302135.904));
    /* The model is left at its point values. */
    CU_ASSERT_TRUE(near(m->items[tco_model_find(m, "tco")].value, 7724461.688));
    tco_risk_free(&r);
    tco_run_free(run);
}

static void monte_carlo(uint64_t seed, tco_risk *r)
{
    tco_run *run = open_cluster32();
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_risk_run(run, false, 500, seed, NULL, r, &d), TCO_OK);
    tco_run_free(run);
}

static void test_monte_carlo_seeded(void)
{
    tco_risk a = {0}, b = {0}, c = {0};
    monte_carlo(42, &a);
    monte_carlo(42, &b);
    monte_carlo(43, &c);
    CU_ASSERT_EQUAL(a.draws, 500);
    CU_ASSERT_EQUAL(a.tco.stats.n + a.tco.na, 500);
    CU_ASSERT_TRUE(a.inputs_drawn > 10);
    const tco_stats *s = &a.tco.stats;
    CU_ASSERT_TRUE(s->min <= s->p10 && s->p10 <= s->p50 && s->p50 <= s->p90 && s->p90 <= s->max);
    CU_ASSERT_TRUE(s->min < s->mean && s->mean < s->max && s->stdev > 0);
    /* The same seed, the same draws to the bit; another seed, others. */
    CU_ASSERT_EQUAL(memcmp(&a.tco.stats.mean, &b.tco.stats.mean, sizeof(double)), 0);
    CU_ASSERT_EQUAL(memcmp(a.tco.sorted, b.tco.sorted, a.tco.stats.n * sizeof(double)), 0);
    CU_ASSERT_NOT_EQUAL(a.tco.stats.mean, c.tco.stats.mean);
    tco_risk_free(&a);
    tco_risk_free(&b);
    tco_risk_free(&c);
}

/* card.price = 1e300 with a uniform range 1e299 to 1.5e300 (the middle 90%, so the draws run from a = 1e299 -
 * 0.05 x 1.4e300 / 0.9 to b = 1.5e300 + the same): mean (a + b) / 2 = 8e299, deviation (b - a) / sqrt(12) =
 * 1.4e300 / 0.9 / sqrt(12) = 4.4905e299.  Every other cost is nothing beside it, so the TCO is 33 cards (32 and
 * the spare held) x 1.15 (5% support a year, 3 years) = 37.95 times the price: mean 3.036e301, deviation
 * 1.7041e301.  The squares of
 * the deviations (about 1e602) are beyond the largest double: tco once reported the deviation as INF. */
static void test_monte_carlo_near_the_largest_double(void)
{
    static const tco_override sets[] = {
        {.arg = "card.price=1e300", .section = "card", .key = "price", .value = "1e300"},
        {.arg = "card.price_range=1e299,1.5e300", .section = "card", .key = "price_range", .value = "1e299,1.5e300"},
        {.arg = "card.price_dist=uniform", .section = "card", .key = "price_dist", .value = "uniform"},
    };
    tco_run *run = NULL;
    tco_diag d = {0};
    const tco_run_options opts = {.root = TCO_SOURCE_DIR,
                                  .scenario_path = TCO_SOURCE_DIR "/scenarios/cluster32.ini",
                                  .load = {.overrides = sets, .n_overrides = 3}};
    CU_ASSERT_EQUAL_FATAL(tco_run_open(&opts, &run, &d), TCO_OK);
    tco_risk r = {0};
    tco_error e = tco_risk_run(run, false, 2000, 1, NULL, &r, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    const tco_stats *s = &r.tco.stats;
    CU_ASSERT_EQUAL(s->n, 2000);
    CU_ASSERT(fabs(r.base_tco - 3.795e301) <= 1e-12 * 3.795e301);
    CU_ASSERT(isfinite(s->mean) && fabs(s->mean - 37.95 * 8e299) <= 1e-3 * 3.036e301);
    double sd = 37.95 * 1.4e300 / 0.9 / sqrt(12);
    CU_ASSERT(isfinite(s->stdev) && fabs(s->stdev - sd) <= 5e-3 * sd);
    CU_ASSERT(isfinite(s->p80 - s->p50) && s->min < s->p10 && s->p90 < s->max);
    tco_risk_free(&r);
    tco_run_free(run);
}

CU_ErrorCode register_risk_suite(void)
{
    CU_pSuite s = CU_add_suite("risk", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "sensitivity: the PUE row by hand", test_sensitivity_pue_row) ||
        !CU_add_test(s, "Monte Carlo: ordered percentiles, seeded draws", test_monte_carlo_seeded) ||
        !CU_add_test(s, "Monte Carlo: TCOs near 1e301 by hand", test_monte_carlo_near_the_largest_double))
        return CU_get_error();
    return CUE_SUCCESS;
}
