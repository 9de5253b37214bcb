/* test_run.c - engine/price/run.c: one run of the cost model (tco_run_open(), tco_run_twin(),
 * tco_run_free()): cluster32 as shipped, reported in USD, priced from pricing/example-quotes.csv, and its
 * twin.  cluster32's TCO is 7,724,461.688 CNY, worked line by line in tests/test_evaluate.c;
 * pricing/fx.ini gives 7.1 CNY per USD. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/evaluate.h"
#include "model/model.h"
#include "price/run.h"
#include "read/dates.h"
#include "read/quote_csv.h"
#include "suites.h"

#define CLUSTER32 TCO_SOURCE_DIR "/scenarios/cluster32.ini"

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

static double tier_value(const tco_model *m, const char *name, const char *tier)
{
    int i = tco_model_find(m, name), r = tco_model_tier_row(m, tier);
    CU_ASSERT_FATAL(i >= 0 && r >= 0 && m->items[i].tiers != NULL);
    return m->items[i].tiers[r];
}

/* Open the run @p o describes; the test stops if it cannot. */
static tco_run *open_run(const tco_run_options *o)
{
    tco_run *r = NULL;
    tco_diag d = {0};
    tco_error e = tco_run_open(o, &r, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    return r;
}

static int32_t day(const char *text)
{
    int32_t d = 0;
    CU_ASSERT_FATAL(tco_parse_date(text, &d));
    return d;
}

static const tco_quote *quote(const tco_run *r, const char *id)
{
    for (size_t i = 0; i < r->quotes.n; i++)
        if (strcmp(r->quotes.quotes[i].quote_id, id) == 0)
            return &r->quotes.quotes[i];
    static const tco_quote none; /* status and price 0: every assertion on it fails, no NULL to read */
    CU_FAIL("no such quote row");
    return &none;
}

/* cluster32 as shipped: no quotes, no currency asked for, so no exchange rates are loaded and the
 * figures are the catalog's in CNY: TCO 7,724,461.688, card capex (32 cards + 1 spare) x 95,000 = 3,135,000. */
static void test_open_as_shipped(void)
{
    tco_run *r = open_run(&(tco_run_options){.root = TCO_SOURCE_DIR, .scenario_path = CLUSTER32});
    CU_ASSERT_STRING_EQUAL(r->currency, "CNY");
    CU_ASSERT_STRING_EQUAL(r->files_currency, "CNY");
    CU_ASSERT_EQUAL(r->quotes.n, 0);
    CU_ASSERT_EQUAL(r->fx.n, 0);
    CU_ASSERT_EQUAL(r->n_priced, 0);
    CU_ASSERT(near(value_of(r->model, "tco"), 7724461.688));
    CU_ASSERT(near(value_of(r->model, "card_capex"), 3135000));
    CU_ASSERT(tco_run_quotes_hold(r)); /* no quote rows: always */
    tco_run_free(r);
    tco_run_free(NULL); /* ignored */
}

/* --currency USD: every money figure of the CNY run over 7.1, per year too (TCO 7,724,461.688 / 7.1 =
 * 1,087,952.350 USD); figures that are not money are the same.  A currency without a rate is refused
 * as a usage error and leaves nothing to free. */
static void test_currency_usd(void)
{
    tco_run *cny = open_run(&(tco_run_options){.root = TCO_SOURCE_DIR, .scenario_path = CLUSTER32});
    tco_run *usd = open_run(&(tco_run_options){
        .root = TCO_SOURCE_DIR, .scenario_path = CLUSTER32, .currency = "USD", .currency_given = true});
    CU_ASSERT_STRING_EQUAL(usd->currency, "USD");
    CU_ASSERT_STRING_EQUAL(usd->files_currency, "CNY");
    CU_ASSERT(near(value_of(usd->model, "tco"), 7724461.688 / 7.1));
    CU_ASSERT(near(value_of(usd->model, "card_capex"), 3135000 / 7.1));
    CU_ASSERT(near(value_of(usd->model, "fx_report"), 7.1));
    CU_ASSERT_FATAL(usd->model->n_items == cny->model->n_items + 1); /* fx_report added */
    size_t money = 0, other = 0, wrong = 0;
    for (size_t i = 0; i < cny->model->n_items; i++) {
        const tco_item *c = &cny->model->items[i];
        int j = tco_model_find(usd->model, c->name);
        CU_ASSERT_FATAL(j >= 0);
        const tco_item *u = &usd->model->items[j];
        if (c->text != NULL || c->unit == NULL)
            continue;
        bool is_money = tco_unit_is_money(c->unit);
        double scale = is_money ? 1 / 7.1 : 1;
        bool ok = near(u->value, c->value * scale);
        for (int y = 0; c->years && u->years && y < cny->model->n_periods; y++)
            ok = ok && near(u->years[y], c->years[y] * scale);
        if (!ok && wrong++ < 5)
            fprintf(stderr, "\n%s [%s]: CNY %.17g, USD %.17g\n", c->name, c->unit, c->value, u->value);
        if (is_money)
            money++;
        else
            other++;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT(money > 50 && other > 50); /* both kinds were compared */
    tco_run_free(usd);
    tco_run_free(cny);
    tco_run *r = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_run_open(&(tco_run_options){.root = TCO_SOURCE_DIR, .scenario_path = CLUSTER32,
                                                    .currency = "XYZ", .currency_given = true},
                                 &r, &d),
                    TCO_ERR_USAGE);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "--currency XYZ: no exchange rate for it in"));
}

/* pricing/example-quotes.csv as of 2026-11-30 for cluster32's 33 D-M cards bought (32 + 1 spare): EU-7731 (12,400 USD) expired
 * on 2026-10-31; EU-7732 (11,900 USD) needs 64 cards; Q-2026-101 88,000 CNY (16 or more, valid to
 * 2026-12-31) and SG-55 12,100 USD x 7.1 = 85,910 CNY (8 or more, valid 2026-11-10 to 2027-02-28) are
 * valid: SG-55 is cheapest.  Card capex 33 x 85,910 = 2,835,030 CNY (the catalog's 95,000 gave
 * 3,135,000).  The 4 hosts: Q-2026-102 dc8 185,000 CNY (2 or more), host capex 4 x 185,000 = 740,000.
 * As of 2026-10-20: SG-55 not yet valid, EU-7731 12,400 x 7.1 = 88,040, Q-2026-101 88,000 wins. */
static void test_quotes_as_of(void)
{
    const char *files[] = {TCO_SOURCE_DIR "/pricing/example-quotes.csv"};
    tco_run_options o = {.root = TCO_SOURCE_DIR, .scenario_path = CLUSTER32, .quote_files = files,
                         .n_quote_files = 1, .as_of = day("2026-11-30")};
    tco_run *r = open_run(&o);
    CU_ASSERT_EQUAL(r->quotes.n, 9); /* every row of the file */
    CU_ASSERT(near(tier_value(r->model, "tier_price", "D-M"), 85910));
    CU_ASSERT(near(value_of(r->model, "card_price"), 85910));
    CU_ASSERT(near(value_of(r->model, "card_capex"), 2835030));
    CU_ASSERT(near(value_of(r->model, "host_price"), 185000));
    CU_ASSERT(near(value_of(r->model, "host_capex"), 740000));
    CU_ASSERT(near(tier_value(r->model, "tier_price", "D-L"), 160000)); /* no quote: the catalog's */
    CU_ASSERT_EQUAL(quote(r, "EU-7731")->status, TCO_QUOTE_EXPIRED);
    CU_ASSERT_EQUAL(quote(r, "EU-7732")->status, TCO_QUOTE_UNDER_QTY);
    CU_ASSERT_EQUAL(quote(r, "Q-2026-101")->status, TCO_QUOTE_BEATEN);
    CU_ASSERT(near(quote(r, "SG-55")->converted, 85910));
    CU_ASSERT(tco_run_quotes_hold(r)); /* nothing set since: the same quotes hold */
    tco_run_free(r);
    o.as_of = day("2026-10-20");
    r = open_run(&o);
    CU_ASSERT(near(tier_value(r->model, "tier_price", "D-M"), 88000));
    CU_ASSERT(near(value_of(r->model, "card_capex"), 33 * 88000.0));
    CU_ASSERT_EQUAL(quote(r, "SG-55")->status, TCO_QUOTE_NOT_YET_VALID);
    CU_ASSERT(near(quote(r, "EU-7731")->converted, 88040));
    tco_run_free(r);
}

/* A budget owns its cards (tco_run_options.budget): cluster32 with --set scenario.acquisition=rent is
 * refused at the --set, with the place as data and nothing left to free; the same run that is no budget (tco
 * advise's) prices the rental as the option's cost, 32 cards x 8,760 h x utilisation 0.9 x 16 CNY/GPU-hour x
 * 3 years = 12,109,824 CNY.  A budget that owns them is fixed at own: its TCO 7,724,461.688, and setting
 * rent on its model is refused. */
static void test_budget(void)
{
    tco_override rent;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_override_parse("scenario.acquisition=rent", &rent, &d), TCO_OK);
    tco_run_options o = {.root = TCO_SOURCE_DIR, .scenario_path = CLUSTER32, .budget = true,
                         .load = {.overrides = &rent, .n_overrides = 1}};
    tco_run *r = NULL;
    CU_ASSERT_EQUAL(tco_run_open(&o, &r, &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_STRING_EQUAL(d.file, "");
    CU_ASSERT_STRING_EQUAL(d.section, "scenario");
    CU_ASSERT_STRING_EQUAL(d.key, "acquisition");
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "--set scenario.acquisition=rent: a budget prices owning the cards, its "
                                             "TCO their capex and opex: with acquisition = rent"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "Renting the same cards, rental_cost_total"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "allow_cloud = yes ranks rented options; drop this --set"));
    o.budget = false;
    r = open_run(&o);
    CU_ASSERT(near(value_of(r->model, "option_cost"), 32 * 8760 * 0.9 * 16 * 3));
    tco_run_free(r);
    o = (tco_run_options){.root = TCO_SOURCE_DIR, .scenario_path = CLUSTER32, .budget = true};
    r = open_run(&o);
    CU_ASSERT(near(value_of(r->model, "tco"), 7724461.688));
    int i = tco_model_find(r->model, "acquisition");
    CU_ASSERT_FATAL(i >= 0);
    CU_ASSERT(r->model->items[i].structural && r->model->items[i].fixed_why != NULL);
    CU_ASSERT_EQUAL(tco_model_set_text_input(r->model, "acquisition", "rent", &d), TCO_ERR_INI);
    CU_ASSERT_STRING_EQUAL(r->model->items[i].text, "own");
    tco_run_free(r);
}

/* Every number of two models, per year and per tier too, compared as bits. */
static size_t differences(const tco_model *a, const tco_model *b)
{
    size_t n = 0;
    CU_ASSERT_FATAL(a->n_items == b->n_items && a->n_periods == b->n_periods && a->n_tiers == b->n_tiers);
    for (size_t i = 0; i < a->n_items; i++) {
        const tco_item *x = &a->items[i], *y = &b->items[i];
        n += strcmp(x->name, y->name) != 0;
        n += memcmp(&x->value, &y->value, sizeof x->value) != 0;
        n += (x->text == NULL) != (y->text == NULL) || (x->text && strcmp(x->text, y->text) != 0);
        if (x->years && y->years)
            n += memcmp(x->years, y->years, (size_t)a->n_periods * sizeof *x->years) != 0;
        if (x->tiers && y->tiers)
            n += memcmp(x->tiers, y->tiers, (size_t)a->n_tiers * sizeof *x->tiers) != 0;
    }
    return n;
}

/* A twin of a run priced from quotes and reported in USD: its own model (not the same memory), every
 * figure the same to the bit; the D-M price still SG-55's 12,100 USD (85,910 CNY / 7.1). */
static void test_twin(void)
{
    const char *files[] = {TCO_SOURCE_DIR "/pricing/example-quotes.csv"};
    tco_run *r = open_run(&(tco_run_options){.root = TCO_SOURCE_DIR, .scenario_path = CLUSTER32,
                                             .quote_files = files, .n_quote_files = 1,
                                             .as_of = day("2026-11-30"), .currency = "USD",
                                             .currency_given = true});
    tco_run *twin = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_run_twin(r, &twin, &d), TCO_OK);
    CU_ASSERT_FATAL(twin != NULL && twin->model != r->model);
    CU_ASSERT_STRING_EQUAL(twin->currency, "USD");
    CU_ASSERT_EQUAL(twin->quotes.n, r->quotes.n);
    CU_ASSERT_EQUAL(differences(r->model, twin->model), 0);
    CU_ASSERT(near(tier_value(twin->model, "tier_price", "D-M"), 85910 / 7.1));
    CU_ASSERT(near(value_of(twin->model, "card_capex"), 2835030 / 7.1));
    tco_run_free(twin);
    tco_run_free(r);
}

CU_ErrorCode register_run_suite(void)
{
    CU_pSuite s = CU_add_suite("run", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "cluster32 as shipped", test_open_as_shipped) ||
        !CU_add_test(s, "--currency USD: every money figure over 7.1", test_currency_usd) ||
        !CU_add_test(s, "example quotes as of a day: the cheapest valid for the quantity", test_quotes_as_of) ||
        !CU_add_test(s, "a twin gives every figure to the bit", test_twin) ||
        !CU_add_test(s, "a budget owns its cards: acquisition = rent refused", test_budget))
        return CU_get_error();
    return CUE_SUCCESS;
}
