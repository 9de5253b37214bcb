/* test_evaluate.c - engine/model/evaluate.c: setting inputs as typing into their cells does, and the
 * re-evaluated figures of cluster32 worked by hand (TCO 7,615,211.688 CNY; tests/test_model.c and
 * docs/model.md work the baseline), the budget's months, and the program against the tree evaluator. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "model/evaluate.h"
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

static tco_model *load(const char *scenario)
{
    char path[512];
    snprintf(path, sizeof path, "%s/scenarios/%s.ini", TCO_SOURCE_DIR, scenario);
    tco_model *m = NULL;
    tco_diag d = {0};
    tco_error e = load_evaluated(TCO_SOURCE_DIR, path, NULL, &m, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    return m;
}

/* electricity_total is 981,941.688 CNY at 0.7 CNY/kWh: 1,402,773.84 kWh over 3 years.  At 0.85 that is
 * 0.15 x 1,402,773.84 = 210,416.076 CNY more; input VAT is recovered, so the TCO moves by exactly that. */
static void test_set_input_reevaluates(void)
{
    tco_model *m = load("cluster32");
    CU_ASSERT_TRUE(near(value_of(m, "tco"), 7615211.688));
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_model_set_input(m, "electricity_price", 0.85, &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "electricity_price"), 0.85));
    CU_ASSERT_TRUE(near(value_of(m, "tco"), 7615211.688 + 210416.076));
    /* Out of its range (pue is 1 to 5): refused, nothing changes. */
    CU_ASSERT_EQUAL(tco_model_set_input(m, "pue", 0.9, &d), TCO_ERR_INI);
    CU_ASSERT_TRUE(near(value_of(m, "pue"), 1.3));
    CU_ASSERT_EQUAL(tco_model_set_input(m, "no_such_input", 1, &d), TCO_ERR_UNKNOWN_NAME);
    tco_model_free(m);
}

/* The card tier table: D-M's row priced 80,000 instead of 95,000 gives card_capex 32 x 80,000 =
 * 2,560,000 CNY; the card tier typed as D-L (lower case, as MATCH ignores case) gives D-L's 160,000. */
static void test_tier_rows_and_text_inputs(void)
{
    tco_model *m = load("cluster32");
    CU_ASSERT_TRUE(near(value_of(m, "card_price"), 95000));
    CU_ASSERT_TRUE(near(value_of(m, "card_capex"), 32 * 95000.0));
    int row = tco_model_tier_row(m, "d-m");
    CU_ASSERT_TRUE(row >= 0);
    CU_ASSERT_EQUAL(tco_model_tier_row(m, "D-M"), row);
    CU_ASSERT_EQUAL(tco_model_tier_row(m, "NO-SUCH"), -1);
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_model_set_tier_input(m, "tier_price", "D-M", 80000, &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "card_price"), 80000));
    CU_ASSERT_TRUE(near(value_of(m, "card_capex"), 2560000));
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "card_tier", "d-l", &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "card_price"), 160000));
    int i = tco_model_find(m, "card_tier");
    CU_ASSERT_STRING_EQUAL(m->items[i].text, "D-L"); /* held as the tier table writes it */
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "card_tier", "NO-SUCH", &d), TCO_ERR_INI);
    CU_ASSERT_STRING_EQUAL(m->items[i].text, "D-L");
    tco_model_free(m);
}

/* The budget starts 2027-01 (pricing/site.ini) with a calendar fiscal year: Month 1 is January 2027 in
 * Year 1 (column 1 on the time line from Year 0), Month 13 January 2028 in Year 2. */
static void test_budget_months(void)
{
    tco_model *m = load("cluster32");
    char label[16];
    tco_model_month_label(m, 0, label);
    CU_ASSERT_STRING_EQUAL(label, "2027-01");
    tco_model_month_label(m, 13, label);
    CU_ASSERT_STRING_EQUAL(label, "2028-02");
    CU_ASSERT_EQUAL(tco_model_year_of_month(m, 0), 1);
    CU_ASSERT_EQUAL(tco_model_year_of_month(m, 11), 1);
    CU_ASSERT_EQUAL(tco_model_year_of_month(m, 12), 2);
    CU_ASSERT_EQUAL(tco_model_fiscal_year(m, 0), 2027);
    CU_ASSERT_EQUAL(tco_model_fiscal_year(m, 12), 2028);
    tco_model_free(m);
}

/* The compiled program and the tree evaluator give every value to the bit. */
static void test_program_equals_tree(void)
{
    tco_model *m = load("team");
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_model_evaluate(m, &d), TCO_OK);
    double tco = value_of(m, "tco"), tokens = value_of(m, "tokens_per_s");
    CU_ASSERT_EQUAL_FATAL(tco_model_evaluate_tree(m, &d), TCO_OK);
    CU_ASSERT_EQUAL(memcmp(&tco, &m->items[tco_model_find(m, "tco")].value, sizeof tco), 0);
    CU_ASSERT_EQUAL(memcmp(&tokens, &m->items[tco_model_find(m, "tokens_per_s")].value, sizeof tokens), 0);
    /* team serves 605.47 tokens/s: 4 replicas x 8 streams x 0.5 card x 1,200 GB/s / 19.03 GB x 0.6. */
    CU_ASSERT_TRUE(fabs(tokens - 605.47) < 0.005);
    tco_model_free(m);
}

CU_ErrorCode register_evaluate_suite(void)
{
    CU_pSuite s = CU_add_suite("evaluate", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "an input set re-evaluates the model", test_set_input_reevaluates) ||
        !CU_add_test(s, "tier rows and text inputs", test_tier_rows_and_text_inputs) ||
        !CU_add_test(s, "the budget's months", test_budget_months) ||
        !CU_add_test(s, "the program equals the tree evaluator", test_program_equals_tree))
        return CU_get_error();
    return CUE_SUCCESS;
}
