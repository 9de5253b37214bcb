/* test_evaluate.c - engine/model/evaluate.c: the shipped template's formulas evaluated, every figure worked
 * by hand or taken from the seed (SEED-DIGEST.md): cluster32 line by line (TCO 7,724,461.688 CNY), its
 * finance lines, the seed's sizing, training and inference figures, colocation and staffing, per-tier
 * lines; setting inputs as typing into their cells does; the budget's months; and the program against
 * the tree evaluator. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "load/load.h"
#include "model/model.h"
#include "model/evaluate.h"
#include "fixture.h"
#include "loaded.h"
#include "suites.h"

#define MINI TCO_SOURCE_DIR "/tests/fixtures/roots/mini"

/* The number of item @p name; an item that says "n.a." or "never" instead fails the test. */
static double value_of(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0);
    CU_ASSERT(m->items[i].text == NULL);
    return m->items[i].value;
}

/* The text a line gives instead of a number ("n.a.: ...", "never: ..."), or NULL for a number. */
static const char *text_of(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0);
    return m->items[i].text;
}

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

static tco_model *load_scenario(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, TCO_SOURCE_DIR "/scenarios/%s.ini", name);
    return fixture_load_ok(TCO_SOURCE_DIR, path);
}

static tco_model *load_cluster32(void)
{
    return load_scenario("cluster32");
}

static double tier_value(const tco_model *m, const char *name, const char *tier)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0 && m->items[i].tiers != NULL);
    for (int r = 0; r < m->n_tiers; r++)
        if (strcmp(m->tier_names[r], tier) == 0)
            return m->items[i].tiers[r];
    CU_FAIL_FATAL("no such tier");
    return 0;
}

static void set(tco_model *m, const char *name, double v)
{
    tco_diag d = {0};
    tco_error e = tco_model_set_input(m, name, v, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
}

/* The seed's worked figures know no failures: card and host failure rates 0 give availability 1, so a
 * training time is the seed's compute / (cards x FLOP/s x utilisation x efficiency) to the digit. */
static void no_failures(tco_model *m)
{
    set(m, "card_annual_failure_rate", 0);
    set(m, "host_annual_failure_rate", 0);
    CU_ASSERT_EQUAL(value_of(m, "availability"), 1);
}

/* Set the chosen card's row (the scenario's card tier) of per-tier input @p name: the card values
 * are looked up from the tier table, so this is how a test changes the card's price or bandwidth. */
static void set_card(tco_model *m, const char *name, double v)
{
    int t = tco_model_find(m, "card_tier");
    CU_ASSERT_FATAL(t >= 0 && m->items[t].text != NULL);
    tco_diag d = {0};
    tco_error e = tco_model_set_tier_input(m, name, m->items[t].text, v, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
}

/* electricity_total is 981,941.688 CNY at 0.7 CNY/kWh: 1,402,773.84 kWh over 3 years.  At 0.85 that is
 * 0.15 x 1,402,773.84 = 210,416.076 CNY more; input VAT is recovered, so the TCO moves by exactly that. */
static void test_set_input_reevaluates(void)
{
    tco_model *m = load_scenario("cluster32");
    CU_ASSERT_TRUE(near(value_of(m, "tco"), 7724461.688));
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_model_set_input(m, "electricity_price", 0.85, &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "electricity_price"), 0.85));
    CU_ASSERT_TRUE(near(value_of(m, "tco"), 7724461.688 + 210416.076));
    /* Out of its range (pue is 1 to 5): refused, nothing changes. */
    CU_ASSERT_EQUAL(tco_model_set_input(m, "pue", 0.9, &d), TCO_ERR_INI);
    CU_ASSERT_TRUE(near(value_of(m, "pue"), 1.3));
    CU_ASSERT_EQUAL(tco_model_set_input(m, "no_such_input", 1, &d), TCO_ERR_UNKNOWN_NAME);
    tco_model_free(m);
}

/* The card tier table: D-M's row priced 80,000 instead of 95,000 gives card_capex (32 cards + 1 spare)
 * x 80,000 = 2,640,000 CNY; the card tier typed as D-L (lower case, as MATCH ignores case) gives D-L's 160,000. */
static void test_tier_rows_and_text_inputs(void)
{
    tco_model *m = load_scenario("cluster32");
    CU_ASSERT_TRUE(near(value_of(m, "card_price"), 95000));
    CU_ASSERT_TRUE(near(value_of(m, "card_capex"), (32 + 1) * 95000.0));
    int row = tco_model_tier_row(m, "d-m");
    CU_ASSERT_TRUE(row >= 0);
    CU_ASSERT_EQUAL(tco_model_tier_row(m, "D-M"), row);
    CU_ASSERT_EQUAL(tco_model_tier_row(m, "NO-SUCH"), -1);
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_model_set_tier_input(m, "tier_price", "D-M", 80000, &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "card_price"), 80000));
    CU_ASSERT_TRUE(near(value_of(m, "card_capex"), 2640000));
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "card_tier", "d-l", &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "card_price"), 160000));
    int i = tco_model_find(m, "card_tier");
    CU_ASSERT_STRING_EQUAL(m->items[i].text, "D-L"); /* held as the tier table writes it */
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "card_tier", "NO-SUCH", &d), TCO_ERR_INI);
    CU_ASSERT_STRING_EQUAL(m->items[i].text, "D-L");
    tco_model_free(m);
}

/* A text input fixed at its value (tco_model_fix_text_input(), as a budget fixes acquisition at own): it
 * becomes structural, keeps the reason for the workbook, refuses another value (the same value is taken)
 * and the figures stay: cluster32's TCO 7,724,461.688.  A name that is no text input is refused. */
static void test_fix_text_input(void)
{
    tco_model *m = load_scenario("cluster32");
    tco_diag d = {0};
    int i = tco_model_find(m, "acquisition");
    CU_ASSERT_FATAL(i >= 0);
    CU_ASSERT_FALSE(m->items[i].structural);
    CU_ASSERT_EQUAL_FATAL(tco_model_fix_text_input(m, "acquisition", "owned in a budget", &d), TCO_OK);
    CU_ASSERT_TRUE(m->items[i].structural);
    CU_ASSERT_STRING_EQUAL(m->items[i].fixed_why, "owned in a budget");
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "acquisition", "rent", &d), TCO_ERR_INI);
    CU_ASSERT_STRING_EQUAL(d.message, "input acquisition: fixed at 'own' in this run: owned in a budget");
    CU_ASSERT_STRING_EQUAL(m->items[i].text, "own");
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "acquisition", "OWN", &d), TCO_OK);
    CU_ASSERT_TRUE(near(value_of(m, "tco"), 7724461.688));
    CU_ASSERT_EQUAL(tco_model_fix_text_input(m, "card_count", "a number", &d), TCO_ERR_UNKNOWN_NAME);
    CU_ASSERT_EQUAL(tco_model_fix_text_input(m, "no_such_input", "none", &d), TCO_ERR_UNKNOWN_NAME);
    tco_model_free(m);
}

/* The budget starts 2027-01 (pricing/site.ini) with a calendar fiscal year: Month 1 is January 2027 in
 * Year 1 (column 1 on the time line from Year 0), Month 13 January 2028 in Year 2. */
static void test_budget_months(void)
{
    tco_model *m = load_scenario("cluster32");
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
    tco_model *m = load_scenario("team");
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
 * template's electricity line: one host of 8 cards at 700 W with 4,400 W base = 10 kW, PUE 1
 * (the machines alone: switch, storage and management power set to 0). */
static void test_seed_annual_electricity(void)
{
    tco_model *m = load_cluster32();
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_model_set_input(m, "card_count", 8, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "utilisation", 1, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "host_base_power_w", 4400, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "pue", 1, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "storage_power_w_per_tb", 0, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "mgmt_power_w_per_host", 0, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "switch_power_w", 0, &d), TCO_OK);
    CU_ASSERT(near(value_of(m, "it_load_kw"), 10));
    int e = tco_model_find(m, "electricity");
    CU_ASSERT_FATAL(e >= 0);
    /* Year 0 is the purchase: no electricity; Years 1 to 3 run. */
    CU_ASSERT_EQUAL(m->first_year, 0);
    CU_ASSERT(near(m->items[e].years[0], 0));
    for (int y = 1; y <= m->n_years; y++)
        CU_ASSERT(near(m->items[e].years[y], 61320));
    CU_ASSERT(near(value_of(m, "electricity_total"), 3 * 61320));
    /* Seed: 100 such machines, 6.1M CNY/yr (6,132,000). */
    CU_ASSERT_EQUAL(tco_model_set_input(m, "card_count", 800, &d), TCO_OK);
    CU_ASSERT(near(m->items[e].years[1], 6132000));
    tco_model_free(m);
}

/* cluster32 with the shipped inputs, every figure worked by hand:
 * 4 hosts; switch, storage and management power 1 switch x 1,500 W + 100 TB x 8 W + 4 hosts x 50 W
 * = 2.5 kW; peak (32 x 700 + 4 x 4600) / 1000 + 2.5 = 43.3 kW; average (32 x 700 x 0.9 + 4 x 4600) / 1000
 * + 2.5 = 41.06 kW; facility 41.06 x 1.3 = 53.378 kW; electricity 53.378 x 8760 x 0.7 = 327,313.896 CNY/yr;
 * UPS 43.3 / 0.9 x 1.5 = 72.17 kVA -> 8 modules of 10 kVA (N) = 80 kVA x 1,500 = 120,000;
 * racks: min(floor(25 / 10.2), floor(42 / 8)) = 2 hosts per rack -> 2 racks x 30,000; cooling 43.3 kW x 2,500
 * = 108,250; facility build-out 43.3 kW x 20,000 = 866,000; network 1 leaf x 150,000 + 32 links x
 * (2 x 3,000 + 400) = 354,800; storage 100 TB x 1,000 = 100,000; cards (32 + ROUND(32 x 0.03, 0) = 1 spare)
 * x 95,000 = 3,135,000; hosts 4 x 200,000 = 800,000; hardware 4,389,800; capex 4,389,800 + 60,000 + 120,000
 * + 108,250 + 866,000 = 5,544,050; staff max(0.5, 4 x 0.1 + 0.0433 MW x 2 = 0.4866) = 0.5 FTE x 360,000 =
 * 180,000/yr; support 5% x 4,389,800 = 219,490/yr; opex 726,803.896/yr, 2,180,411.688 over 3 years;
 * TCO 7,724,461.688 (the spare held adds 95,000 + 3 x 4,750 of support = 109,250). */
static void test_cluster32_by_hand(void)
{
    tco_model *m = load_cluster32();
    CU_ASSERT_EQUAL(m->n_years, 3);
    CU_ASSERT(near(value_of(m, "hosts"), 4));
    CU_ASSERT(near(value_of(m, "infra_power_kw"), 2.5));
    CU_ASSERT(near(value_of(m, "it_peak_kw"), 43.3));
    CU_ASSERT(near(value_of(m, "it_load_kw"), 41.06));
    CU_ASSERT(near(value_of(m, "facility_power_kw"), 53.378));
    CU_ASSERT(near(value_of(m, "ups_need_kva"), 43.3 / 0.9 * 1.5));
    CU_ASSERT(near(value_of(m, "ups_modules"), 8));
    CU_ASSERT(near(value_of(m, "ups_installed_kva"), 80));
    CU_ASSERT(near(value_of(m, "racks"), 2));
    CU_ASSERT(near(value_of(m, "leaf_switches"), 1));
    /* 32 cards in service + ROUND(32 x 0.03, 0) = 1 spare held: 33 x 95,000 = 3,135,000. */
    CU_ASSERT(near(value_of(m, "spare_cards"), 1));
    CU_ASSERT(near(value_of(m, "card_capex"), 3135000));
    CU_ASSERT(near(value_of(m, "host_capex"), 800000));
    CU_ASSERT(near(value_of(m, "network_capex"), 354800));
    CU_ASSERT(near(value_of(m, "ups_capex"), 120000));
    CU_ASSERT(near(value_of(m, "cooling_capex"), 108250));
    CU_ASSERT(near(value_of(m, "facility_capex"), 866000));
    CU_ASSERT(near(value_of(m, "storage_capex"), 100000));
    CU_ASSERT(near(value_of(m, "spine_switches"), 0));
    CU_ASSERT(near(value_of(m, "rack_capex"), 60000));
    CU_ASSERT(near(value_of(m, "capex_total"), 5544050));
    CU_ASSERT(near(value_of(m, "electricity_total"), 3 * 327313.896));
    CU_ASSERT(near(value_of(m, "staff_fte"), 0.5));
    CU_ASSERT(near(value_of(m, "staffing_total"), 540000));
    /* Support 5% of hardware capex (3,135,000 + 800,000 + 354,800 + 100,000 = 4,389,800) = 219,490 a year. */
    CU_ASSERT(near(value_of(m, "support_total"), 3 * 219490));
    CU_ASSERT(near(value_of(m, "opex_total"), 2180411.688));
    CU_ASSERT(near(value_of(m, "tco"), 7724461.688));
    CU_ASSERT(near(value_of(m, "tco_per_card_year"), 7724461.688 / 96));
    /* Seed §4.3: racks, power distribution (with the UPS), cooling, switches, storage and staff add
     * 50-100% of the card price, here with the facility build-out: (60,000 + 120,000 + 108,250 + 354,800
     * + 100,000 + 866,000 + 540,000) / 3,135,000 = 2,149,050 / 3,135,000 = 68.6%.  Hosts on their own
     * line: 800,000 / 3,135,000 = 25.5%. */
    double share = value_of(m, "non_card_share");
    CU_ASSERT(near(share, 2149050.0 / 3135000));
    CU_ASSERT(share >= 0.5 && share <= 1.0);
    CU_ASSERT(near(value_of(m, "host_share"), 800000.0 / 3135000));
    CU_ASSERT_EQUAL(value_of(m, "check_non_card_share"), 1);
    CU_ASSERT_EQUAL(value_of(m, "checks_ok"), 1);
    tco_model_free(m);
}

/* Issue 10 §5: owned and colocation like for like, two staff crews, the non-card warning.
 * cluster32 in colocation: no racks, UPS, cooling or build-out, capex = hardware 4,389,800 (the spare card
 * included); a fee of 43.3 kW x 800 x 12 = 415,680 CNY/yr, 1,247,040 over 3 years, against 60,000 + 120,000
 * + 108,250 + 866,000 = 1,154,250 of owned facility capex; TCO 4,389,800 + 2,180,411.688 + 1,247,040 =
 * 7,817,251.688.  The fee stands in for racks, power distribution and cooling in the non-card share:
 * (354,800 + 100,000 + 1,247,040 + 540,000) / 3,135,000 = 71.5%. */
static void test_facility_and_staff(void)
{
    tco_override o;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_override_parse("facility.mode=colocation", &o, &d), TCO_OK);
    tco_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini",
        &(tco_load_options){.overrides = &o, .n_overrides = 1}, &m, &d),
                          TCO_OK);
    CU_ASSERT_EQUAL(value_of(m, "facility_capex"), 0);
    CU_ASSERT_EQUAL(value_of(m, "ups_capex"), 0);
    CU_ASSERT_EQUAL(value_of(m, "rack_capex"), 0);
    CU_ASSERT_EQUAL(value_of(m, "cooling_capex"), 0);
    CU_ASSERT(near(value_of(m, "capex_total"), 4389800));
    CU_ASSERT(near(value_of(m, "colocation_total"), 1247040));
    CU_ASSERT(near(value_of(m, "tco"), 7817251.688));
    CU_ASSERT(near(value_of(m, "non_card_share"), (354800 + 100000 + 1247040 + 540000.0) / 3135000));
    CU_ASSERT_EQUAL(value_of(m, "check_capex_sum"), 1);
    tco_model_free(m);
    /* Staff, two crews added, then the floor: cluster32 has 4 hosts x 0.1 FTE = 0.4 FTE for IT
     * and 0.0433 MW x 2 = 0.0866 for the facility, 0.4866 < the floor 0.5.  With 10 FTE/MW the facility
     * crew is 0.433: 0.4 + 0.433 = 0.833 FTE (the larger of the two alone would be 0.433). */
    m = load_cluster32();
    CU_ASSERT(near(value_of(m, "staff_fte"), 0.5));
    set(m, "staff_fte_per_mw", 10);
    CU_ASSERT(near(value_of(m, "staff_fte"), 4 * 0.1 + 0.0433 * 10));
    tco_model_free(m);
    /* The warning does not fail the master check: cluster4 (one host, 0.5 FTE for 4 cards) is above
     * 100%, its warning says no and checks_ok stays yes. */
    m = load_scenario("cluster4");
    CU_ASSERT(value_of(m, "non_card_share") > 1);
    CU_ASSERT_EQUAL(value_of(m, "check_non_card_share"), 0);
    CU_ASSERT_EQUAL(value_of(m, "checks_ok"), 1);
    /* Cards already owned (price 0): no division by zero, the shares say n.a. (text, not 0). */
    set_card(m, "tier_price", 0);
    CU_ASSERT_EQUAL(value_of(m, "card_capex"), 0);
    CU_ASSERT(text_of(m, "non_card_share") != NULL && strncmp(text_of(m, "non_card_share"), "n.a.", 4) == 0);
    CU_ASSERT(text_of(m, "host_share") != NULL && strncmp(text_of(m, "host_share"), "n.a.", 4) == 0);
    CU_ASSERT_EQUAL(value_of(m, "checks_ok"), 1);
    tco_model_free(m);
}

/* The seed's worked figures (SEED-DIGEST.md, seed §1.3, §4.1, §4.2, §5.2, §5.4), each through
 * the template's own Sizing and Cards lines, the formulas the workbook carries. */
static void test_seed_sizing_figures(void)
{
    tco_model *m = load_scenario("cluster32");
    no_failures(m);
    /* 7B at 2 bytes: 14 GB; full fine-tune 7B x 16 B = 112 GB; LoRA 7B x 3 B = 21 GB. */
    set(m, "params_b", 7);
    set(m, "bytes_per_param", 2);
    CU_ASSERT(near(value_of(m, "weight_gb"), 14));
    CU_ASSERT(near(value_of(m, "full_ft_gb"), 112));
    CU_ASSERT(near(value_of(m, "lora_gb"), 21));
    /* KV cache 2 x 60 x 8 x 128 x 8192 x 16 x 2 B = 32.2e9 B; 240 KiB per token for the 30B shape. */
    set(m, "layers", 60);
    set(m, "kv_heads", 8);
    set(m, "head_dim", 128);
    set(m, "seq_len", 8192);
    set(m, "streams", 16);
    set(m, "kv_bytes", 2);
    CU_ASSERT(near(value_of(m, "kv_cache_gb"), 32.21225472));
    CU_ASSERT(near(value_of(m, "kv_per_token_kib"), 240));
    /* 6 x 7e9 x 1e12 = 4.2e22 FLOP; on 64 cards of 400 TFLOPS at 40%: 4.1e6 s (4,101,562.5). */
    set(m, "train_tokens", 1e12);
    CU_ASSERT(near(value_of(m, "train_flop"), 4.2e22));
    set(m, "card_count", 64);
    CU_ASSERT(near(value_of(m, "train_time_ideal_s"), 4.2e22 / (64 * 4e14 * 0.4)));
    /* At the 80% scaling the seed uses for 64 cards (§4.1): about 60 days (59.34).  The seed's cluster
     * syncs at 900 GB/s per card across its hosts too (the table's reference link): a fabric port of
     * 3,600 Gb/s a direction = 3,600 x 2 / 8 = 900 GB/s both ways, so the efficiency is the table's 80%. */
    set(m, "scaling_eff_64", 0.8);
    set(m, "fabric_port_gbit_s", 3600);
    CU_ASSERT(near(value_of(m, "train_efficiency"), 0.8));
    CU_ASSERT(near(value_of(m, "train_days"), 4.2e22 / (64 * 4e14 * 0.4) / 0.8 / 86400));
    CU_ASSERT(value_of(m, "train_days") > 59 && value_of(m, "train_days") < 60);
    /* Decode bound: 1,500 GB/s over 14 GB = 107 tokens/s. */
    set(m, "card_count", 1);
    CU_ASSERT(near(tier_value(m, "tier_decode_tps", "C90"), 1500.0 / 14)); /* C90: 1,500 GB/s */
    CU_ASSERT(near(value_of(m, "decode_bound_tps"), 2000.0 / 14));        /* one D-M: 2,000 GB/s */
    /* Cards sheet: ridge 400 TFLOPS / 2 TB/s = 200 FLOP/B (D-M); D-S 800 TOPS / 400 W = 2 TOPS/W;
     * D-M 400/700 = 0.57 TFLOPS/W; D-L 990/1000 = 0.99. */
    CU_ASSERT(near(tier_value(m, "tier_ridge", "D-M"), 200));
    CU_ASSERT(near(tier_value(m, "tier_efficiency", "D-S"), 2));
    CU_ASSERT(near(tier_value(m, "tier_efficiency", "D-M"), 400.0 / 700));
    CU_ASSERT(near(tier_value(m, "tier_efficiency", "D-L"), 0.99));
    /* Weighted score: D-L leads every dimension but efficiency (D-S, 2 TOPS/W), which data-centre
     * weights at 0: 0.3 + 0.3 + 0.25 + 0.15 = 1. */
    CU_ASSERT(near(tier_value(m, "tier_score", "D-L"), 1));
    tco_model_free(m);
}

/* Seed §5.2: 2x D-M (4 TB/s) over 140 GB of FP16 70B weights: 28 tokens/s bound.  With batch 16 each
 * decode step also reads 16 streams' KV cache, 2 x 80 x 8 x 128 x 2048 x 16 x 2 B = 10.737 GB, so
 * 16 x 4000 / 150.737 x 0.7 = 297 tokens/s (the seed's "300+" without the KV reads).
 * 2x W-B at 4 bits, 4 replicas on half a card each: bound 0.5 x 1200 / 15 = 40 tokens/s per stream;
 * 8 streams read 4.027 GB of KV: 8 x 600 / 19.027 x 0.6 (one card) x 4 replicas = 605.5 tokens/s. */
static void test_seed_inference_figures(void)
{
    tco_model *m = load_scenario("team-70b-dm2");
    /* The runtime reserve (memory_reserve_share, 10%): a card holds 80 x 0.9 = 72 GB of a replica.  The
     * scenario's 4 streams of 2K read 2 x 80 x 8 x 128 x 2048 x 4 x 2 B = 2.684 GB of KV: 142.684 GB in
     * the 144 GB two cards may fill, 1.316 GB to spare; 4 x 4,000 / 142.684 x 0.7 = 78.49 tokens/s. */
    CU_ASSERT(near(value_of(m, "card_usable_memory_gb"), 72));
    CU_ASSERT_EQUAL(value_of(m, "cards_per_replica_min"), 2);
    CU_ASSERT(near(value_of(m, "memory_headroom_gb"), 144 - (140 + 2.68435456)));
    CU_ASSERT_EQUAL(value_of(m, "fits_inference"), 1);
    CU_ASSERT(near(value_of(m, "tokens_per_s"), 4 * 4000.0 / (140 + 2.68435456) * 0.7));
    /* The seed's batch 16 needs 150.737 GB: ROUNDUP(150.737 / 72) = 3 cards, and the two D-M refuse it
     * (94% of their 160 GB, 6.737 GB beyond the 144 GB they may fill). */
    set(m, "streams", 16);
    CU_ASSERT_EQUAL(value_of(m, "cards_per_replica_min"), 3);
    CU_ASSERT_EQUAL(value_of(m, "cards_needed_inference"), 3);
    CU_ASSERT(near(value_of(m, "memory_headroom_gb"), 144 - 150.73741824));
    CU_ASSERT_EQUAL(value_of(m, "fits_inference"), 0);
    /* The seed's own arithmetic keeps no reserve: at 0 the two cards hold the replica. */
    set(m, "memory_reserve_share", 0);
    CU_ASSERT(near(value_of(m, "weight_gb"), 140));
    CU_ASSERT(near(value_of(m, "decode_bound_tps"), 4000.0 / 140));
    CU_ASSERT(near(value_of(m, "kv_cache_gb"), 10.73741824));
    CU_ASSERT(near(value_of(m, "decode_efficiency"), 0.7));
    CU_ASSERT(near(value_of(m, "tokens_per_s"), 16 * 4000.0 / (140 + 10.73741824) * 0.7));
    CU_ASSERT_EQUAL(value_of(m, "fits_inference"), 1); /* 140 + 10.74 GB <= 160 GB */
    tco_model_free(m);
    m = load_scenario("team");
    CU_ASSERT(near(value_of(m, "weight_gb"), 15));
    CU_ASSERT(near(value_of(m, "decode_bound_tps"), 40));
    CU_ASSERT(near(value_of(m, "kv_cache_gb"), 4.02653184));
    CU_ASSERT(near(value_of(m, "tokens_per_s"), 4 * 8 * 600 / (15 + 4.02653184) * 0.6));
    /* Replicas sharing a card keep the reserve too: half a W-B may fill 0.5 x 48 x 0.9 = 21.6 GB,
     * room for one 19.03 GB replica; 96 x 0.9 - 4 x 19.027 = 10.29 GB to spare. */
    CU_ASSERT(near(value_of(m, "replica_usable_memory_gb"), 21.6));
    CU_ASSERT_EQUAL(value_of(m, "fits_inference"), 1);
    CU_ASSERT(near(value_of(m, "memory_headroom_gb"), 96 * 0.9 - 4 * (15 + 4.02653184)));
    tco_model_free(m);
    /* The compute bound caps a large batch of short sequences: 4x D-S, 256 streams of 64 tokens read
     * 15 GB of weights + 8.05 GB of KV per step, 256 x 6000 / 23.05 = 66,638 tokens/s by bandwidth;
     * 4 x 800 TOPS / (2 x 30e9) = 53,333 tokens/s is the cap. */
    m = load_scenario("team-ds4");
    set(m, "streams", 256);
    set(m, "seq_len", 64);
    CU_ASSERT(value_of(m, "replica_bandwidth_tps") > value_of(m, "replica_compute_tps"));
    CU_ASSERT(near(value_of(m, "replica_compute_tps"), 4 * 800e12 / (2 * 30e9)));
    CU_ASSERT(near(value_of(m, "tokens_per_s"), 4 * 800e12 / (2 * 30e9) * 0.7));
    tco_model_free(m);
}

/* Seed §5.3: gradient sync per step.  7B x 4 B (FP32 gradients) = 28 GB each step; at 900 GB/s per
 * card (D-M, 8 cards in one dc8 host) 28e9 / 900e9 = 31.1 ms, a 531.1 ms step with the 500 ms compute
 * step, step efficiency 500 / 531.1 = 94.1%; at 64 GB/s (PCIe 5.0 x16) 28e9 / 64e9 = 0.4375 s, a
 * 937.5 ms step, 76.5% longer (the seed's "about 900 ms, 70% slower"), 500 / 937.5 = 53.3%.  The
 * scaling table describes the seed's 900 GB/s cluster, so 8 D-M get the table (85%) and a 64 GB/s
 * link 85% x 0.5333 / 0.9414 = 48.2%.
 * Across hosts the sync also crosses the fabric, at MIN(card link, fabric per card): cluster32's
 * 4 hosts of 8 D-M with 8 ports each, 400 Gb/s a direction = 400 x 2 / 8 = 100 GB/s both ways (the
 * card links' basis), MIN(900, 100) = 100 GB/s: 28e9 / 100e9 = 280 ms, a 780 ms step,
 * 75% x (500 / 780) / (500 / 531.1) = 75% x 531.1 / 780 = 51.07%.  A 64 GB/s card link is the slower
 * one: MIN(64, 100) = 64, 437.5 ms as in one host.  A fabric of 900 GB/s (3,600 Gb/s a direction)
 * is the seed's cluster: 31.1 ms and the table's 75%.  One card syncs nothing. */
static void test_seed_training_step(void)
{
    tco_model *m = load_scenario("cluster32");
    no_failures(m);
    const double ref_step = 500 + 28e9 / 900e9 * 1000; /* 531.1 ms */
    CU_ASSERT(near(value_of(m, "grad_sync_gb"), 28));
    set(m, "card_count", 8);
    CU_ASSERT_EQUAL(value_of(m, "hosts"), 1);
    CU_ASSERT(near(value_of(m, "sync_gbps"), 900));
    CU_ASSERT(near(value_of(m, "step_sync_ms"), 28e9 / 900e9 * 1000));
    CU_ASSERT(fabs(value_of(m, "step_sync_ms") - 31.1) < 0.05);
    CU_ASSERT(near(value_of(m, "step_time_ms"), ref_step));
    CU_ASSERT(near(value_of(m, "step_efficiency"), 500 / ref_step));
    CU_ASSERT(near(value_of(m, "reference_step_efficiency"), value_of(m, "step_efficiency")));
    CU_ASSERT(near(value_of(m, "train_efficiency"), 0.85));
    set_card(m, "tier_interconnect_gbps", 64);
    CU_ASSERT(near(value_of(m, "step_sync_ms"), 437.5));
    CU_ASSERT(near(value_of(m, "step_time_ms"), 937.5));
    CU_ASSERT(near(value_of(m, "step_efficiency"), 500 / 937.5));
    CU_ASSERT(near(value_of(m, "train_efficiency"), 0.85 * (500 / 937.5) / (500 / ref_step)));
    /* Four hosts: the card link (64) is slower than the fabric (100), so the sync is as in one host,
     * and 32 cards take 0.75 / 0.425 = 1.765x as long as the seed's 900 GB/s cluster: 937.5 / 531.1. */
    set(m, "card_count", 32);
    CU_ASSERT_EQUAL(value_of(m, "hosts"), 4);
    CU_ASSERT(near(value_of(m, "step_sync_ms"), 437.5));
    CU_ASSERT(near(value_of(m, "train_time_s"), 4.2e21 / (32 * 4e14 * 0.4) / 0.75 * 937.5 / ref_step));
    set_card(m, "tier_interconnect_gbps", 900);
    CU_ASSERT(near(value_of(m, "fabric_port_gbps"), 100));
    CU_ASSERT(near(value_of(m, "sync_gbps"), 100));
    CU_ASSERT(near(value_of(m, "step_sync_ms"), 280));
    CU_ASSERT(near(value_of(m, "step_time_ms"), 780));
    CU_ASSERT(near(value_of(m, "train_efficiency"), 0.75 * ref_step / 780));
    CU_ASSERT(fabs(value_of(m, "train_efficiency") - 0.5107) < 0.00005);
    set(m, "fabric_port_gbit_s", 3600); /* 3,600 x 2 / 8 = 900 GB/s: the seed's cluster */
    CU_ASSERT(near(value_of(m, "step_sync_ms"), 28e9 / 900e9 * 1000));
    CU_ASSERT(near(value_of(m, "train_efficiency"), 0.75));
    set(m, "card_count", 1);
    CU_ASSERT_EQUAL(value_of(m, "step_sync_ms"), 0);
    CU_ASSERT_EQUAL(value_of(m, "train_efficiency"), 1);
    tco_model_free(m);
}

/* Seed §4.1: 4.2e22 FLOP on 64 cards of 400 TFLOPS at 40% = 4,101,562.5 s, at 80% scaling
 * 5,126,953.125 s = 59.34 days ("about 60 days"); on 256 cards 1,025,390.625 s / 0.8 = 1,281,738.28 s
 * = 14.83 days ("about 15 days").  docs/model.md gives the same as a command line:
 *   tco --scenario cluster32 --set workload.train_tokens=1e12 --set scaling.eff_64=0.8
 *       --set scaling.eff_256=0.8 --set scenario.cards=64   (or 256) */
static void test_seed_cluster_days(void)
{
    tco_model *m = load_scenario("cluster32");
    no_failures(m);
    set(m, "train_tokens", 1e12);
    set(m, "scaling_eff_64", 0.8);
    set(m, "scaling_eff_256", 0.8);
    set(m, "fabric_port_gbit_s", 3600); /* the seed's cluster: 900 GB/s per card across hosts too */
    set(m, "card_count", 64);
    CU_ASSERT(near(value_of(m, "train_time_s"), 4.2e22 / (64 * 4e14 * 0.4) / 0.8));
    CU_ASSERT(fabs(value_of(m, "train_days") - 59.34) < 0.005);
    set(m, "card_count", 256);
    CU_ASSERT(near(value_of(m, "train_time_s"), 4.2e22 / (256 * 4e14 * 0.4) / 0.8));
    CU_ASSERT(fabs(value_of(m, "train_days") - 14.83) < 0.005);
    /* The shipped table past 32 cards: 64 cards 70%, 128 cards 65%, more 60% (5 points a doubling). */
    tco_model_free(m);
    m = load_scenario("cluster32");
    set(m, "card_count", 64);
    CU_ASSERT(near(value_of(m, "scaling_efficiency"), 0.7));
    set(m, "card_count", 128);
    CU_ASSERT(near(value_of(m, "scaling_efficiency"), 0.65));
    set(m, "card_count", 1024);
    CU_ASSERT(near(value_of(m, "scaling_efficiency"), 0.6));
    tco_model_free(m);
}

/* Owning beats renting within the period (break_even_months a number of at most 12 x years) exactly
 * when the TCO is at most renting the same cards (rental_cost_total), which is how tco advise compares
 * an owned option with the rented one. */
static void check_one_renting_verdict(const tco_model *m)
{
    const char *be = text_of(m, "break_even_months");
    bool within = be == NULL && value_of(m, "break_even_months") <= 12 * value_of(m, "years");
    bool cheaper = value_of(m, "tco") <= value_of(m, "rental_cost_total");
    CU_ASSERT_EQUAL(within, cheaper);
    CU_ASSERT_EQUAL(value_of(m, "rent_saving_total") >= 0, cheaper);
}

/* One renting baseline (the rented option of tco advise) for break-even, payback and the IRR.
 * team-70b-dm2, a service, reserves its 2 D-M every hour: 2 x 8,760 = 17,520 GPU-hours a year x 16 CNY
 * = 280,320 CNY a year, 840,960 over 3 years (VAT deductible).  Owning: capex 463,130 + opex over the
 * period = TCO 813,584, so owning saves 840,960 - 813,584 = 27,376 and breaks even at
 * 463,130 / ((840,960 - opex) / 36) = 33.99 months, inside the 36 (it said "beyond the period", 108
 * months, when it rented only the 60% of hours used).  solo rents on demand the hours it means to use:
 * 1 W-A x 8,760 x 0.3 = 2,628 GPU-hours a year, as the advisor's rented option (the provider replaces a
 * failed card: no availability), while its own card, with no spare held (ROUND(1 x 0.03, 0) = 0), waits
 * 14 days x 24 = 336 h for an RMA: 0.1 x 336 + 0.175 host failures x 24 h = 37.8 card-hours lost a year,
 * availability 1 / (1 + 37.8 / 8,760) = 0.99570 of its GPU-hours; cluster32 (training) likewise the hours
 * used, 32 x 8,760 x 0.9. */
static void test_renting_baseline(void)
{
    tco_model *m = load_scenario("team-70b-dm2");
    CU_ASSERT_EQUAL(value_of(m, "rental_on_demand"), 0);
    CU_ASSERT_STRING_EQUAL(text_of(m, "rental_basis"), "reserved, all hours");
    CU_ASSERT(near(value_of(m, "rental_gpu_hours_per_year"), 17520));
    CU_ASSERT(near(value_of(m, "rental_cost_total"), 3 * 17520 * 16.0));
    double opex = value_of(m, "opex_total");
    CU_ASSERT(near(value_of(m, "capex_total"), 463130));
    CU_ASSERT(near(value_of(m, "own_running_cost"), opex)); /* VAT recovered, no resale */
    CU_ASSERT(near(value_of(m, "payback_months"), 463130 / ((840960 - opex) / 36)));
    CU_ASSERT(value_of(m, "break_even_months") > 33.98 && value_of(m, "break_even_months") < 34.0);
    CU_ASSERT(near(value_of(m, "rent_saving_total"), 840960 - value_of(m, "tco")));
    check_one_renting_verdict(m);
    /* The verdicts agree on other bases too: VAT a cost, a resale, a cheaper cloud, other cards. */
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_model_set_text_input(m, "vat_deductible", "no", &d), TCO_OK);
    check_one_renting_verdict(m);
    set(m, "resale_share", 0.3);
    check_one_renting_verdict(m);
    set_card(m, "tier_cloud_price_per_hour", 12);
    check_one_renting_verdict(m); /* owning now costs more than renting */
    CU_ASSERT(value_of(m, "tco") > value_of(m, "rental_cost_total"));
    set(m, "card_count", 4);
    set_card(m, "tier_cloud_price_per_hour", 30);
    check_one_renting_verdict(m);
    tco_model_free(m);

    m = load_scenario("solo");
    CU_ASSERT_STRING_EQUAL(text_of(m, "rental_basis"), "on demand, used hours");
    CU_ASSERT(near(value_of(m, "availability"), 1 / (1 + 37.8 / 8760)));
    CU_ASSERT(near(value_of(m, "rental_gpu_hours_per_year"), 8760 * 0.3 * value_of(m, "card_count")));
    CU_ASSERT(near(value_of(m, "gpu_hours_per_year"), 8760 * 0.3 / (1 + 37.8 / 8760)));
    check_one_renting_verdict(m);
    tco_model_free(m);
    m = load_scenario("cluster32");
    CU_ASSERT_STRING_EQUAL(text_of(m, "rental_basis"), "on demand, used hours");
    CU_ASSERT(near(value_of(m, "rental_gpu_hours_per_year"), 32 * 8760 * 0.9));
    check_one_renting_verdict(m);
    tco_model_free(m);
}

/* D-S has no FP16 figure, only INT8 800 TOPS: training uses its FP16 equivalent 800 / 2 = 400 TFLOPS
 * (as tier_fp16_equiv on the Cards sheet).  team-ds4: 30B on 1e12 tokens = 1.8e23 FLOP on
 * 4 x 4e14 x 0.4 = 281,250,000 s ideal; 120 GB synced at 400 GB/s = 300 ms, step efficiency
 * 500 / 800 = 62.5% against 500 / (500 + 120e9 / 900e9 x 1000) = 78.9% on the reference link, so
 * 1 x 0.625 / 0.7895 = 79.2% and 355,263,157.9 s = 4,111.8 days. */

/* D-S has no FP16 figure, only INT8 800 TOPS (seed §4.2: an inference card): it is not trained at
 * "INT8 / 2" but refused, with no training time and no run cost (text "n.a.: ...", never 0).  team-ds4
 * is a serving scenario; as kind training its check_train_compute fails. */
static void test_ds_training_time(void)
{
    tco_model *m = load_scenario("team-ds4");
    CU_ASSERT_EQUAL(value_of(m, "check_train_compute"), 0);
    CU_ASSERT(text_of(m, "train_time_ideal_s") != NULL && strncmp(text_of(m, "train_time_ideal_s"), "n.a.", 4) == 0);
    CU_ASSERT(text_of(m, "train_time_s") != NULL && strncmp(text_of(m, "train_time_s"), "n.a.", 4) == 0);
    CU_ASSERT_EQUAL(value_of(m, "check_train_deadline"), 0);
    CU_ASSERT_EQUAL(value_of(m, "training_feasible"), 0);
    CU_ASSERT(text_of(m, "train_days") != NULL && strncmp(text_of(m, "train_days"), "n.a.", 4) == 0);
    CU_ASSERT(text_of(m, "train_run_cost") != NULL && strncmp(text_of(m, "train_run_cost"), "n.a.", 4) == 0);
    /* A tier with no compute figure at all (FP16 0, INT8 0): not 0 days for 0 CNY either; serving it
     * fails check_serves_tokens (no tokens served is not a free service). */
    set_card(m, "tier_int8_tops", 0);
    CU_ASSERT_EQUAL(value_of(m, "check_train_compute"), 0);
    CU_ASSERT(text_of(m, "train_time_ideal_s") != NULL);
    CU_ASSERT_EQUAL(value_of(m, "check_serves_tokens"), 0);
    CU_ASSERT_EQUAL(value_of(m, "serving_feasible"), 0);
    CU_ASSERT_EQUAL(value_of(m, "check_feasible"), 0);
    tco_model_free(m);
}

/* The full fine-tune memory gate per card (seed §5.3): 7B needs 7 x 16 B x 1.2 = 134.4 GB, sharded over
 * the cards; each 80 GB D-M may hold 0.43 x 80 = 34.4 GB of it: 134.4 / 3 = 44.8 > 34.4 (3 cards no),
 * 134.4 / 4 = 33.6 <= 34.4 (4 cards yes).  13B: 13 x 16 x 1.2 = 249.6 GB, 249.6 / 7 = 35.66 > 34.4,
 * 249.6 / 8 = 31.2 <= 34.4: at least eight. */
static void test_full_ft_per_card(void)
{
    tco_model *m = load_scenario("cluster4");
    CU_ASSERT(near(value_of(m, "full_ft_card_limit_gb"), 34.4));
    CU_ASSERT(near(value_of(m, "cards_needed_full_ft"), 4));
    CU_ASSERT(near(value_of(m, "train_memory_per_card_gb"), 33.6));
    CU_ASSERT_EQUAL(value_of(m, "fits_full_ft"), 1);
    set(m, "card_count", 3);
    CU_ASSERT(near(value_of(m, "train_memory_per_card_gb"), 44.8));
    CU_ASSERT_EQUAL(value_of(m, "fits_full_ft"), 0);
    CU_ASSERT_EQUAL(value_of(m, "training_feasible"), 0);
    set(m, "params_b", 13);
    CU_ASSERT(near(value_of(m, "cards_needed_full_ft"), 8));
    set(m, "card_count", 7);
    CU_ASSERT_EQUAL(value_of(m, "fits_full_ft"), 0);
    set(m, "card_count", 8);
    CU_ASSERT_EQUAL(value_of(m, "fits_full_ft"), 1);
    tco_model_free(m);
}

/* cluster32's finance lines by hand (inputs as in test_cluster32_by_hand):
 * NPV on the Budget's months, each month's cash at its end (t = month / 12): 5,544,050 / 1.08^(1/12) +
 * 726,803.896 / 12 x (1.08^(-1/12) + ... + 1.08^(-36/12)) = 7,449,375.63; straight line with 5% salvage, one
 * book life per class: IT equipment (cards 3,135,000 with the spare + hosts 800,000 + network 354,800 +
 * storage 100,000 = 4,389,800) x 0.95 / 5 = 834,062 a year over 5 years, the facility (racks 60,000 + UPS
 * 120,000 + cooling 108,250 + build-out 866,000 = 1,154,250) x 0.95 / 10 = 109,653.75 a year over 10:
 * 943,715.75 a year in Years 1-3, residual (book value after 3 years) 5,544,050 - 3 x 943,715.75 =
 * 2,712,902.75, 5,266,847.5 - 2,831,147.25 = 2,435,700.25 still to come.
 * Reliability: 32 cards x 0.1 = 3.2 card failures a year, each swapped from the held spare in 4 h, and
 * 4 hosts x 0.175 = 0.7 host failures, each 24 h; training stops all 32 cards for either, so
 * 3.2 x 4 x 32 + 0.7 x 24 x 32 = 409.6 + 537.6 = 947.2 card-hours lost a year of 32 x 8,760 = 280,320:
 * availability 1 / (1 + 947.2 / 280,320) = 0.996632.
 * GPU-hours used 32 x 8760 x 0.9 x 0.996632 = 251,438.39 per year; renting the same cards for the hours
 * they are meant to work (the provider replaces its failed cards), 32 x 8,760 x 0.9 = 252,288 x 16 CNY =
 * 4,036,608 per year; break-even 5,544,050 / ((3 x 4,036,608 - 2,180,411.688) / 36) = 20.10 months; training
 * 6 x 7e9 x 1e11 FLOP on 32 x 400 TFLOPS x 0.4 = 820,312.5 s at perfect scaling; the four hosts sync over
 * the fabric at MIN(900, 100) = 100 GB/s: 280 ms a step, 780 ms against the table's 531.1 (= 4,780 / 9)
 * on 900 GB/s, so 75% x 531.1 / 780 = 51.07%: 820,312.5 / 0.75 x 780 / (4,780 / 9) = 1,606,302.3 s with
 * the cards up, / 0.996632 = 1,611,730.0 s = 18.65 days. */
static void test_cluster32_finance_by_hand(void)
{
    tco_model *m = load_scenario("cluster32");
    double opex = 726803.896, npv = 0, pv_months = 0;
    for (int k = 1; k <= 36; k++) { /* each month's cash at its end: the purchase in Month 1 */
        npv += ((k == 1 ? 5544050 : 0) + opex / 12) / pow(1.08, k / 12.0);
        pv_months += 1 / pow(1.08, k / 12.0);
    }
    CU_ASSERT(near(value_of(m, "npv_cost"), npv));
    CU_ASSERT(fabs(npv - 7449375.63) < 0.01);
    CU_ASSERT(near(value_of(m, "discounted_operating_years"), pv_months / 12));
    CU_ASSERT(near(value_of(m, "residual_value"), 2712902.75));
    CU_ASSERT(near(value_of(m, "depreciation_after_period"), 2435700.25));
    CU_ASSERT(near(value_of(m, "book_value_end_of_life"), 5544050 * 0.05));
    const double avail = 1 / (1 + 947.2 / 280320);
    CU_ASSERT(near(value_of(m, "card_failures_per_year"), 3.2));
    CU_ASSERT(near(value_of(m, "host_failures_per_year"), 0.7));
    CU_ASSERT(near(value_of(m, "card_failure_down_hours"), 4));
    CU_ASSERT(near(value_of(m, "lost_card_hours_per_year"), 947.2));
    CU_ASSERT(near(value_of(m, "availability"), avail));
    CU_ASSERT(fabs(value_of(m, "availability") - 0.996632) < 5e-7);
    const double hours = 32 * 8760 * 0.9 * avail;
    CU_ASSERT(near(value_of(m, "gpu_hours_per_year"), hours));
    /* Training rents on demand the GPU-hours it means to use: 252,288 x 16 = 4,036,608 CNY a year. */
    CU_ASSERT_EQUAL(value_of(m, "rental_on_demand"), 1);
    CU_ASSERT(near(value_of(m, "rental_cost_total"), 3 * 4036608.0));
    CU_ASSERT(near(value_of(m, "break_even_months"), 5544050 / ((3 * 4036608.0 - 2180411.688) / 36)));
    CU_ASSERT(fabs(value_of(m, "break_even_months") - 20.10) < 0.005);
    CU_ASSERT(near(value_of(m, "tco_per_gpu_hour"), 7724461.688 / (3 * hours)));
    const double run_s = 820312.5 / 0.75 * 780 / (4780.0 / 9) / avail;
    CU_ASSERT(near(value_of(m, "train_time_s"), run_s));
    CU_ASSERT(fabs(value_of(m, "train_time_s") - 1611730.0) < 0.05);
    /* A run is charged at the used-GPU-hour rate for the hours the cards work (train_gpu_hours, the
     * time down excluded): 446.2 h x 32 cards x 10.24 CNY = 146,214.40 CNY. */
    CU_ASSERT(near(value_of(m, "train_gpu_hours"), run_s * avail / 3600 * 32));
    CU_ASSERT(near(value_of(m, "train_run_cost"), run_s * avail / 3600 * 32 * 7724461.688 / (3 * hours)));
    CU_ASSERT(fabs(value_of(m, "train_run_cost") - 146214.40) < 0.01);
    int c = tco_model_find(m, "cumulative_cost");
    CU_ASSERT_FATAL(c >= 0);
    /* The time line: Year 0 pays the capex, Years 1 to 3 the opex. */
    CU_ASSERT(near(m->items[c].years[0], 5544050));
    CU_ASSERT(near(m->items[c].years[1], 5544050 + opex));
    CU_ASSERT(near(m->items[c].years[3], 5544050 + 3 * opex));
    CU_ASSERT_EQUAL(m->items[c].partner, -1); /* sum = no: a running total has no Total */
    int dep = tco_model_find(m, "depreciation");
    CU_ASSERT(near(m->items[dep].years[0], 0));
    CU_ASSERT(near(m->items[dep].years[1], 4389800 * 0.95 / 5 + 1154250 * 0.95 / 10));
    CU_ASSERT(near(m->items[dep].years[3], 943715.75));
    CU_ASSERT(near(m->items[dep].years[6], 109653.75)); /* Years 6-10: the facility alone */
    CU_ASSERT(near(m->items[dep].years[10], 109653.75));
    /* P&L view: depreciation + opex, 943,715.75 + 726,803.896 = 1,670,519.646 (VAT recovered). */
    int pl = tco_model_find(m, "annual_cost_charged");
    CU_ASSERT_FATAL(pl >= 0);
    CU_ASSERT(near(m->items[pl].years[0], 0));
    CU_ASSERT(near(m->items[pl].years[2], 1670519.646));
    /* One host needs no scale-out fabric: cluster8 buys no switch. */
    tco_model_free(m);
    m = load_scenario("cluster8");
    CU_ASSERT_EQUAL(value_of(m, "host_links"), 0);
    CU_ASSERT_EQUAL(value_of(m, "network_capex"), 0);
    tco_model_free(m);
}

/* The per-tier test template (tests/fixtures/roots/mini/templates/tiered.ini), worked by hand. */
static void test_tiers_by_hand(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(MINI, MINI "/scenarios/tiered.ini", NULL, &m, &d), TCO_OK);
    CU_ASSERT_EQUAL(m->n_tiers, 3);
    CU_ASSERT_STRING_EQUAL(m->tier_names[1], "large");
    CU_ASSERT(near(tier_value(m, "share", "small"), 0.25));
    CU_ASSERT(near(tier_value(m, "points", "large"), 11));
    CU_ASSERT(near(tier_value(m, "points", "medium"), 0.5));
    CU_ASSERT(near(value_of(m, "points_total"), 11.75));
    int c = tco_model_find(m, "cumulative");
    CU_ASSERT(near(m->items[c].years[0], 200) && near(m->items[c].years[2], 600));
    CU_ASSERT_PTR_NOT_NULL(strstr(m->items[tco_model_find(m, "row_extra")].source,
                                  "(small, large, medium: not in the catalog, 0)"));
    tco_model_free(m);
}

CU_ErrorCode register_evaluate_suite(void)
{
    CU_pSuite s = CU_add_suite("evaluate", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "an input set re-evaluates the model", test_set_input_reevaluates) ||
        !CU_add_test(s, "tier rows and text inputs", test_tier_rows_and_text_inputs) ||
        !CU_add_test(s, "a text input fixed at its value", test_fix_text_input) ||
        !CU_add_test(s, "the budget's months", test_budget_months) ||
        !CU_add_test(s, "the program equals the tree evaluator", test_program_equals_tree) ||
        !CU_add_test(s, "8x D-M machine draws 10-12 kW (seed 4.3)", test_eight_dm_machine_power) ||
        !CU_add_test(s, "10 kW x 8760 h x 0.7 CNY/kWh = 61,320 CNY/yr", test_seed_annual_electricity) ||
        !CU_add_test(s, "cluster32 worked by hand", test_cluster32_by_hand) ||
        !CU_add_test(s, "colocation like for like, two staff crews, the non-card warning", test_facility_and_staff) ||
        !CU_add_test(s, "seed sizing figures through the template", test_seed_sizing_figures) ||
        !CU_add_test(s, "seed inference figures through the template", test_seed_inference_figures) ||
        !CU_add_test(s, "one renting baseline: break-even agrees with tco advise", test_renting_baseline) ||
        !CU_add_test(s, "gradient sync per step: 31 ms at 900 GB/s, 437.5 ms at 64 GB/s", test_seed_training_step) ||
        !CU_add_test(s, "64 cards at 80% about 60 days, 256 cards about 15 (seed 4.1)", test_seed_cluster_days) ||
        !CU_add_test(s, "D-S (INT8 only) and a tier with no compute are not trained", test_ds_training_time) ||
        !CU_add_test(s, "full fine-tune per card: 7B at least four 80 GB cards, 13B eight", test_full_ft_per_card) ||
        !CU_add_test(s, "cluster32 finance worked by hand", test_cluster32_finance_by_hand) ||
        !CU_add_test(s, "per-tier lines, MAX of a column, CUMSUM, text", test_tiers_by_hand))
        return CU_get_error();
    return CUE_SUCCESS;
}
