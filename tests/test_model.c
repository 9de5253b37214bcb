/* test_model.c - the model through the same template formulas the workbook
 * uses: the seed's figures, cluster32 by hand, and every bad-input fixture. */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "suites.h"

#define MINI TCO_SOURCE_DIR "/tests/fixtures/roots/mini"

static double value_of(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0);
    return m->items[i].value;
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

static tco_model *load_cluster32(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    tco_error e = tco_model_load(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", &m, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    return m;
}

/* Seed §4.3: an 8-card data-centre machine draws 10-12 kW at full load. */
static void test_eight_dm_machine_power(void)
{
    tco_model *m = load_cluster32();
    double kw = value_of(m, "machine_peak_kw");
    CU_ASSERT(kw >= 10 && kw <= 12);
    CU_ASSERT(near(kw, (8 * 700 + 4600) / 1000.0)); /* 10.2 kW */
    tco_model_free(m);
}

/* Seed §4.3 / §5.4: 10 kW x 8760 h x 0.7 CNY/kWh = 61,320 CNY per year, through the
 * template's electricity line: one host of 8 cards at 700 W with 4,400 W base = 10 kW, PUE 1. */
static void test_seed_annual_electricity(void)
{
    tco_model *m = load_cluster32();
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_model_set_input(m, "card_count", 8, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "utilisation", 1, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "host_base_power_w", 4400, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "pue", 1, &d), TCO_OK);
    CU_ASSERT(near(value_of(m, "it_load_kw"), 10));
    int e = tco_model_find(m, "electricity");
    CU_ASSERT_FATAL(e >= 0);
    for (int y = 0; y < m->n_years; y++)
        CU_ASSERT(near(m->items[e].years[y], 61320));
    CU_ASSERT(near(value_of(m, "electricity_total"), 3 * 61320));
    /* Seed: 100 such machines, 6.1M CNY/yr (6,132,000). */
    CU_ASSERT_EQUAL(tco_model_set_input(m, "card_count", 800, &d), TCO_OK);
    CU_ASSERT(near(m->items[e].years[0], 6132000));
    tco_model_free(m);
}

/* cluster32 with the shipped inputs, every figure worked by hand:
 * 4 hosts; peak 4 x 10.2 = 40.8 kW; average 4 x (8 x 700 x 0.9 + 4600) / 1000 = 38.56 kW;
 * facility 38.56 x 1.3 = 50.128 kW; electricity 50.128 x 8760 x 0.7 = 307,384.896 CNY/yr;
 * UPS 40.8 / 0.9 x 1.5 = 68 kVA x 1,500 = 102,000; racks max(ceil(40.8/25), ceil(32/42)) = 2 x 30,000;
 * network 1 switch x 150,000 + 32 links x (2 x 3,000 + 400) = 354,800;
 * cards 32 x 95,000 = 3,040,000; hosts 4 x 200,000 = 800,000; capex 4,356,800;
 * staff 0.5 x 360,000 = 180,000/yr; support 5% x 4,194,800 = 209,740/yr;
 * opex 697,124.896/yr, 2,091,374.688 over 3 years; TCO 6,448,174.688; per card-year / 96. */
static void test_cluster32_by_hand(void)
{
    tco_model *m = load_cluster32();
    CU_ASSERT_EQUAL(m->n_years, 3);
    CU_ASSERT(near(value_of(m, "hosts"), 4));
    CU_ASSERT(near(value_of(m, "it_peak_kw"), 40.8));
    CU_ASSERT(near(value_of(m, "it_load_kw"), 38.56));
    CU_ASSERT(near(value_of(m, "facility_power_kw"), 50.128));
    CU_ASSERT(near(value_of(m, "ups_kva"), 68));
    CU_ASSERT(near(value_of(m, "racks"), 2));
    CU_ASSERT(near(value_of(m, "leaf_switches"), 1));
    CU_ASSERT(near(value_of(m, "card_capex"), 3040000));
    CU_ASSERT(near(value_of(m, "host_capex"), 800000));
    CU_ASSERT(near(value_of(m, "network_capex"), 354800));
    CU_ASSERT(near(value_of(m, "ups_capex"), 102000));
    CU_ASSERT(near(value_of(m, "rack_capex"), 60000));
    CU_ASSERT(near(value_of(m, "capex_total"), 4356800));
    CU_ASSERT(near(value_of(m, "electricity_total"), 3 * 307384.896));
    CU_ASSERT(near(value_of(m, "staffing_total"), 540000));
    CU_ASSERT(near(value_of(m, "support_total"), 629220));
    CU_ASSERT(near(value_of(m, "opex_total"), 2091374.688));
    CU_ASSERT(near(value_of(m, "tco"), 6448174.688));
    CU_ASSERT(near(value_of(m, "tco_per_card_year"), 6448174.688 / 96));
    /* Seed §4.3: outside the card (hosts, network, racks, UPS, staff) adds 50-100% of the card price:
     * (4,356,800 - 3,040,000 + 540,000) / 3,040,000 = 61.1%. */
    double share = value_of(m, "non_card_share");
    CU_ASSERT(near(share, (1316800.0 + 540000) / 3040000));
    CU_ASSERT(share >= 0.5 && share <= 1.0);
    tco_model_free(m);
}

static void test_mini_by_hand(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_model_load(MINI, MINI "/scenarios/good.ini", &m, &d), TCO_OK);
    CU_ASSERT_EQUAL(m->n_years, 2);
    CU_ASSERT_EQUAL(value_of(m, "cost"), 30);
    int r = tco_model_find(m, "running");
    CU_ASSERT_EQUAL(m->items[r].years[0], 15);
    CU_ASSERT_EQUAL(m->items[r].years[1], 30);
    CU_ASSERT_EQUAL(value_of(m, "running_total"), 45);
    CU_ASSERT_EQUAL(value_of(m, "total"), 75);
    CU_ASSERT_EQUAL(value_of(m, "per_unit"), 25);
    /* Provenance of a catalog value names file, section and key and the basis. */
    int p = tco_model_find(m, "price");
    CU_ASSERT_PTR_NOT_NULL(strstr(m->items[p].source, "pricing/things.ini [widget] price: test figure"));
    /* Out-of-range overrides are refused and leave the value alone. */
    CU_ASSERT_EQUAL(tco_model_set_input(m, "rate", 2, &d), TCO_ERR_INI);
    CU_ASSERT_EQUAL(value_of(m, "rate"), 0.5);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "nosuch", 2, &d), TCO_ERR_UNKNOWN_NAME);
    tco_model_free(m);
}

/* A UTF-8 byte-order mark and CRLF line endings load like a plain file. */
static void test_bom_and_crlf(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    tco_error e = tco_model_load(MINI, MINI "/scenarios/good_bom_crlf.ini", &m, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    CU_ASSERT_EQUAL(value_of(m, "cost"), 30);
    CU_ASSERT_STRING_EQUAL(m->items[tco_model_find(m, "price")].source,
                           MINI "/pricing/things.ini [widget] price: test figure");
    tco_model_free(m);
}

static void test_scenario_overrides_catalog_entry(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_model_load(MINI, MINI "/scenarios/override.ini", &m, &d), TCO_OK);
    CU_ASSERT_EQUAL(value_of(m, "price"), 12);
    CU_ASSERT_EQUAL(value_of(m, "cost"), 36);
    int p = tco_model_find(m, "price");
    CU_ASSERT_PTR_NOT_NULL(strstr(m->items[p].source, "override.ini [widget] price (scenario override of the "
                                                      "catalog): quote Q-1"));
    tco_model_free(m);
}

/* Every tests/fixtures/roots/mini/scenarios/bad_*.ini starts with "; expect: EXIT message-fragment". */
static void test_bad_fixtures(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob(MINI "/scenarios/bad_*.ini", 0, NULL, &g), 0);
    CU_ASSERT(g.gl_pathc >= 15);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *f = fopen(g.gl_pathv[i], "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        char line[512] = "";
        CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
        fclose(f);
        line[strcspn(line, "\r\n")] = '\0';
        int code = 0, off = 0;
        CU_ASSERT_FATAL(sscanf(line, "; expect: %d %n", &code, &off) == 1 && off > 0);
        const char *fragment = line + off;
        tco_model *m = NULL;
        tco_diag d = {0};
        tco_error e = tco_model_load(MINI, g.gl_pathv[i], &m, &d);
        bool ok = e != TCO_OK && tco_exit_code(e) == code && strstr(d.message, fragment) != NULL && m == NULL;
        if (!ok)
            fprintf(stderr, "\n%s: expected %d '%s'\n  got %d '%s'\n", g.gl_pathv[i], code, fragment,
                    tco_exit_code(e), d.message);
        CU_ASSERT(ok);
        tco_model_free(m);
    }
    globfree(&g);
}

CU_ErrorCode register_model_suite(void)
{
    CU_pSuite s = CU_add_suite("model", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "8x D-M machine draws 10-12 kW (seed 4.3)", test_eight_dm_machine_power) ||
        !CU_add_test(s, "10 kW x 8760 h x 0.7 CNY/kWh = 61,320 CNY/yr", test_seed_annual_electricity) ||
        !CU_add_test(s, "cluster32 worked by hand", test_cluster32_by_hand) ||
        !CU_add_test(s, "mini model worked by hand", test_mini_by_hand) ||
        !CU_add_test(s, "a scenario overrides its catalog entry", test_scenario_overrides_catalog_entry) ||
        !CU_add_test(s, "byte-order mark and CRLF are accepted", test_bom_and_crlf) ||
        !CU_add_test(s, "bad inputs give located errors", test_bad_fixtures))
        return CU_get_error();
    return CUE_SUCCESS;
}
