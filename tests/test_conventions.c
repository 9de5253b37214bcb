/* test_conventions.c - engine/model/conventions.c: what each figure rests on.  cluster32's files say: pue
 * "illustrative: ..." (pricing/site.ini), electricity_price "seed §4.3 and §5.4: 0.7 CNY/kWh",
 * hours_per_year "24 h x 365 d (seed §5.4)" (a unit conversion: stated), the D-M card's price
 * "illustrative: ..." (pricing/cards.ini); the template's [model] capex_prices lists 8 capex lines. */
#include <stdio.h>
#include <string.h>

#include "model/conventions.h"
#include "model/model.h"
#include "load/load.h"
#include "model/evaluate.h"
#include "loaded.h"
#include "suites.h"

static tco_model *load_with(const char *const *sets, size_t n)
{
    tco_override ov[4];
    tco_diag d = {0};
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL_FATAL(tco_override_parse(sets[i], &ov[i], &d), TCO_OK);
    tco_model *m = NULL;
    tco_error e = load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", &(tco_load_options){.overrides = ov, .n_overrides = n}, &m, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    return m;
}

static tco_status status_of(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0);
    return tco_status_of_input(&m->items[i]);
}

static void test_status_names(void)
{
    CU_ASSERT_STRING_EQUAL(tco_status_name(TCO_STATUS_QUOTE), "quote");
    CU_ASSERT_STRING_EQUAL(tco_status_name(TCO_STATUS_MEASURED), "measured");
    CU_ASSERT_STRING_EQUAL(tco_status_name(TCO_STATUS_SEED), "seed figure");
    CU_ASSERT_STRING_EQUAL(tco_status_name(TCO_STATUS_ILLUSTRATIVE), "illustrative");
    CU_ASSERT_STRING_EQUAL(tco_status_name(TCO_STATUS_WHATIF), "what-if");
    CU_ASSERT_STRING_EQUAL(tco_status_name(TCO_STATUS_STATED), "stated");
    for (int s = 0; s < TCO_STATUS_COUNT_OF; s++)
        CU_ASSERT_TRUE(strlen(tco_status_meaning((tco_status)s)) > 10);
}

static void test_status_from_the_files(void)
{
    tco_model *m = load_with(NULL, 0);
    CU_ASSERT_EQUAL(status_of(m, "pue"), TCO_STATUS_ILLUSTRATIVE);
    CU_ASSERT_EQUAL(status_of(m, "electricity_price"), TCO_STATUS_SEED);
    CU_ASSERT_EQUAL(status_of(m, "hours_per_year"), TCO_STATUS_STATED);
    int tier = tco_model_find(m, "tier_price"), row = tco_model_tier_row(m, "D-M");
    CU_ASSERT_FATAL(tier >= 0 && row >= 0);
    CU_ASSERT_EQUAL(tco_status_of_tier_row(m, &m->items[tier], row), TCO_STATUS_ILLUSTRATIVE);
    /* card_price = INDEX(tier_price, the chosen row): the status of D-M's row. */
    CU_ASSERT_EQUAL(tco_status_of_price(m, tco_model_find(m, "card_price")), TCO_STATUS_ILLUSTRATIVE);
    CU_ASSERT_EQUAL(tco_status_of_price(m, tco_model_find(m, "tco")), TCO_STATUS_STATED); /* not a price */
    tco_model_free(m);
}

static void test_set_makes_what_if_or_measured(void)
{
    const char *sets[] = {"facility.pue=1.2", "facility.electricity_price=0.65",
                          "facility.electricity_price_source=measured: meter, 2026"};
    tco_model *m = load_with(sets, 3);
    CU_ASSERT_EQUAL(status_of(m, "pue"), TCO_STATUS_WHATIF);
    CU_ASSERT_EQUAL(status_of(m, "electricity_price"), TCO_STATUS_MEASURED);
    tco_model_free(m);
}

static void test_capex_lines_and_conventions(void)
{
    tco_model *m = load_with(NULL, 0);
    CU_ASSERT_EQUAL_FATAL(m->n_capex_basis, 8);
    const tco_capex_basis *card = &m->capex_basis[0], *network = &m->capex_basis[2];
    CU_ASSERT_STRING_EQUAL(m->items[card->line].name, "card_capex");
    CU_ASSERT_EQUAL(card->n_prices, 2); /* card_price and card_import_duty */
    CU_ASSERT_STRING_EQUAL(m->items[card->prices[1]].name, "card_import_duty");
    /* card_import_duty = INDEX(tier_import_duty, card_row): D-M's row, no duty in the catalog, default 0. */
    CU_ASSERT_EQUAL(tco_status_of_price(m, card->prices[1]), TCO_STATUS_STATED);
    CU_ASSERT_STRING_EQUAL(m->items[network->line].name, "network_capex");
    CU_ASSERT_EQUAL(network->n_prices, 4); /* switch, optic, cable and NIC prices */
    CU_ASSERT_EQUAL(tco_capex_status(m, 0), TCO_STATUS_ILLUSTRATIVE);
    CU_ASSERT_FATAL(m->n_conventions >= 9);
    CU_ASSERT_STRING_EQUAL(m->conventions[0].label, "Currency of every money figure");
    CU_ASSERT_EQUAL(m->conventions[0].value, tco_model_find(m, "currency"));
    tco_model_free(m);
    /* The card priced by a measured basis: the card capex line is measured, its duty's stated default 0 (a
     * statute, not an estimate) weakening nothing; a duty with a what-if basis (--set without a measured
     * source) makes it what-if, the weaker. */
    const char *sets[] = {"card.price=90000", "card.price_source=measured: invoice 2026-10", "card.import_duty=0",
                          "card.import_duty_source=measured: customs declaration 2026-10"};
    m = load_with(sets, 2);
    CU_ASSERT_EQUAL(tco_capex_status(m, 0), TCO_STATUS_MEASURED);
    tco_model_free(m);
    m = load_with(sets, 4);
    CU_ASSERT_EQUAL(tco_capex_status(m, 0), TCO_STATUS_MEASURED);
    tco_model_free(m);
    const char *whatif[] = {"card.price=90000", "card.price_source=measured: invoice 2026-10", "card.import_duty=0.1"};
    m = load_with(whatif, 3);
    CU_ASSERT_EQUAL(tco_capex_status(m, 0), TCO_STATUS_WHATIF);
    tco_model_free(m);
}

CU_ErrorCode register_conventions_suite(void)
{
    CU_pSuite s = CU_add_suite("conventions", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "status names and meanings", test_status_names) ||
        !CU_add_test(s, "each input's status from its basis", test_status_from_the_files) ||
        !CU_add_test(s, "--set: what-if, or measured with a measured basis", test_set_makes_what_if_or_measured) ||
        !CU_add_test(s, "capex lines by their prices, the Conventions rows", test_capex_lines_and_conventions))
        return CU_get_error();
    return CUE_SUCCESS;
}
