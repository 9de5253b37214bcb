/* test_ranges.c - ranges on inputs (model.h, ranges.c): KEY_range, KEY_dist and KEY_range_source read
 * beside their value in the mini models, which range a value keeps when a scenario or --set gives it,
 * the list of ranged inputs with their --set keys, and the ranges shipped in pricing/ and scenarios/. */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "render/report.h"
#include "load/load.h"
#include "model/evaluate.h"
#include "model/ranges.h"
#include "suites.h"
#include "loaded.h"

#define MINI TCO_SOURCE_DIR "/tests/fixtures/roots/mini"

/* Load @p scenario of @p root with the --set arguments @p sets (NULL-terminated); fails the test on error. */
static tco_model *load(const char *root, const char *scenario, const char *const *sets)
{
    static tco_override ov[8]; /* zeroed: GCC -O2 cannot see that the loop fills what the load reads */
    size_t n = 0;
    tco_diag d = {0};
    for (; sets && sets[n] && n < sizeof ov / sizeof ov[0]; n++)
        CU_ASSERT_EQUAL_FATAL(tco_override_parse(sets[n], &ov[n], &d), TCO_OK);
    tco_model *m = NULL;
    tco_error e = load_evaluated(root, scenario, &(tco_load_options){.overrides = ov, .n_overrides = n}, &m, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    return m;
}

static const tco_range *range_of(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0 && m->items[i].kind == TCO_ITEM_INPUT);
    return &m->items[i].range;
}

static const tco_range *tier_range_of(const tco_model *m, const char *name, int row)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0 && m->items[i].kind == TCO_ITEM_TIER_INPUT && m->items[i].tier_ranges != NULL);
    return &m->items[i].tier_ranges[row];
}

/* tco_model_ranged_inputs() of @p m, *@p n of them; fails the test on error. */
static tco_ranged_input *ranged(const tco_model *m, size_t *n)
{
    tco_ranged_input *v = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_model_ranged_inputs(m, &v, n, &d), TCO_OK);
    return v;
}

/* The three ranged inputs of a mini model, whose --set keys are @p sets in order (three of them). */
static tco_ranged_input *ranged3(const tco_model *m, const char *const sets[3])
{
    size_t n = 0;
    tco_ranged_input *v = ranged(m, &n);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    for (int k = 0; k < 3; k++)
        CU_ASSERT_STRING_EQUAL(v[k].set, sets[k]);
    return v;
}

static bool has_text(const char *text, const char *part)
{
    return text != NULL && strstr(text, part) != NULL;
}

/* The mini model's ranges as ranged.ini and the catalog write them. */
static void test_mini_ranges(void)
{
    tco_model *m = load(MINI, MINI "/scenarios/ranged.ini", NULL);
    const tco_range *q = range_of(m, "qty"), *p = range_of(m, "price"), *r = range_of(m, "rate");
    CU_ASSERT(q->dist == TCO_DIST_TRIANGULAR && q->low == 2 && q->high == 5);
    CU_ASSERT_STRING_EQUAL(q->basis, "test: two to five gadgets");
    CU_ASSERT(has_text(q->given, "scenarios/ranged.ini [scenario] qty_range") && !q->by_set);
    CU_ASSERT(p->dist == TCO_DIST_PERT && p->low == 20 && p->high == 30 && p->given_low == 20 && p->given_high == 30);
    CU_ASSERT_STRING_EQUAL(p->basis, "test: a gadget costs 20 to 30");
    CU_ASSERT(has_text(p->given, "pricing/things.ini [gadget] price_range"));
    CU_ASSERT(r->dist == TCO_DIST_UNIFORM && r->low == 0.4 && r->high == 0.7 && r->basis == NULL); /* "Uniform" */
    CU_ASSERT(range_of(m, "years")->dist == TCO_DIST_NONE);
    static const char *const sets[3] = {"scenario.qty", "thing.price", "site.rate"};
    tco_ranged_input *v = ranged3(m, sets);
    tco_diag d = {0};
    CU_ASSERT_STRING_EQUAL(v[2].label, "rate");
    CU_ASSERT(v[2].tier == -1 && v[2].range == r && v[2].item == tco_model_find(m, "rate"));
    /* At LOW: cost 3 x 25 = 75, running 75 x 0.4 x (1 + 2) = 90, total 165 (at the point 0.5: 187.5). */
    CU_ASSERT_DOUBLE_EQUAL(m->items[tco_model_find(m, "total")].value, 187.5, 1e-9);
    CU_ASSERT_EQUAL(tco_model_set_input(m, "rate", v[2].range->low, &d), TCO_OK);
    CU_ASSERT_DOUBLE_EQUAL(m->items[tco_model_find(m, "total")].value, 165, 1e-9);
    tco_ranged_inputs_free(v, 3);
    tco_model_free(m);
    /* The --set key reproduces it: --set site.rate=0.4 gives the same 165. */
    static const char *const at_low[] = {"site.rate=0.4", NULL};
    m = load(MINI, MINI "/scenarios/ranged.ini", at_low);
    CU_ASSERT_DOUBLE_EQUAL(m->items[tco_model_find(m, "total")].value, 165, 1e-9);
    tco_model_free(m);
}

/* A range belongs to its value: a nearer value drops it, a nearer range or distribution replaces it. */
static void test_range_follows_value(void)
{
    static const char *const set_value[] = {"thing.price=22", "scenario.qty=4", NULL};
    tco_model *m = load(MINI, MINI "/scenarios/ranged.ini", set_value);
    CU_ASSERT(range_of(m, "price")->dist == TCO_DIST_NONE); /* the catalog's range was for 25 */
    CU_ASSERT(range_of(m, "qty")->dist == TCO_DIST_NONE);   /* the file's range was for 3 */
    CU_ASSERT(range_of(m, "rate")->dist == TCO_DIST_UNIFORM);
    tco_model_free(m);
    static const char *const set_both[] = {"thing.price=22", "thing.price_range=21,23", "site.rate_dist=normal",
                                           "scenario.qty_range=3,3", NULL};
    m = load(MINI, MINI "/scenarios/ranged.ini", set_both);
    const tco_range *p = range_of(m, "price");
    CU_ASSERT(p->dist == TCO_DIST_TRIANGULAR && p->low == 21 && p->high == 23 && p->by_set && p->basis == NULL);
    CU_ASSERT_STRING_EQUAL(p->given, "--set thing.price_range=21,23");
    CU_ASSERT(range_of(m, "rate")->dist == TCO_DIST_NORMAL && range_of(m, "rate")->low == 0.4);
    CU_ASSERT(range_of(m, "qty")->low == 3 && range_of(m, "qty")->high == 3); /* LOW = HIGH = the point */
    tco_model_free(m);
    /* A scenario's own price (27) takes no catalog range; a --set range on a catalog value is its own. */
    m = load(MINI, MINI "/scenarios/ranged_override.ini", NULL);
    CU_ASSERT(range_of(m, "price")->dist == TCO_DIST_NONE && m->items[tco_model_find(m, "price")].value == 27);
    tco_model_free(m);
    static const char *const set_range[] = {"site.rate_range=0.5,0.9", "site.rate_dist=LogNormal", NULL};
    m = load(MINI, MINI "/scenarios/good.ini", set_range);
    CU_ASSERT(range_of(m, "rate")->dist == TCO_DIST_LOGNORMAL && range_of(m, "rate")->high == 0.9);
    tco_model_free(m);
}

/* Per-tier rows: each row's range, and the --set key of each. */
static void test_tier_ranges(void)
{
    tco_model *m = load(MINI, MINI "/scenarios/tiered_ranged.ini", NULL);
    CU_ASSERT(tier_range_of(m, "row_size", 0)->dist == TCO_DIST_NONE); /* small */
    const tco_range *large = tier_range_of(m, "row_size", 1), *medium = tier_range_of(m, "row_size", 2);
    CU_ASSERT(large->dist == TCO_DIST_TRIANGULAR && large->low == 3 && large->high == 6);
    CU_ASSERT_STRING_EQUAL(large->basis, "test: large rows hold 3 to 6");
    CU_ASSERT(medium->dist == TCO_DIST_NORMAL && medium->low == 2 && medium->high == 2.5);
    CU_ASSERT(m->items[tco_model_find(m, "row_extra")].tier_ranges == NULL);
    static const char *const sets[3] = {"scenario.base_cost", "large.size", "medium.size"};
    tco_ranged_input *v = ranged3(m, sets);
    CU_ASSERT_STRING_EQUAL(v[1].label, "row_size[large]");
    CU_ASSERT(v[1].tier == 1 && v[2].tier == 2);
    tco_ranged_inputs_free(v, 3);
    tco_model_free(m);
}

/* CSV: low, high and dist after the source, in the value's units; empty without a range. */
static void test_csv_ranges(void)
{
    tco_model *m = load(MINI, MINI "/scenarios/ranged.ini", NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    tco_report_csv(m, true, f);
    CU_ASSERT_EQUAL(fclose(f), 0);
    CU_ASSERT(has_text(buf, ",low,high,dist\r\n"));
    CU_ASSERT(has_text(buf, "\"input\",\"rate\",\"\",0.5,\"share/yr\",\"\",\"\",\"Running rate\","));
    CU_ASSERT(has_text(buf, "pricing/things.ini [site] rate\",0.4,0.7,uniform\r\n"));
    CU_ASSERT(has_text(buf, "[scenario] qty\",2,5,triangular\r\n"));
    CU_ASSERT(has_text(buf, "[scenario] years\",,,\r\n"));
    free(buf);
    tco_model_free(m);
}

/* The shipped ranges the seed gives, by hand: C90 3x to 4x the C70's price, an 8-card machine 10 to 12 kW
 * (8 x 700 W D-M + base power), cluster utilisation 50% to 90%, decode 0.5 to 0.7 of its bound. */
static void test_shipped_seed_ranges(void)
{
    tco_model *m = load(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL);
    int price = tco_model_find(m, "tier_price");
    CU_ASSERT_FATAL(price >= 0);
    int c70 = -1, c90 = -1;
    for (int r = 0; r < m->n_tiers; r++) {
        c70 = strcmp(m->tier_names[r], "C70") == 0 ? r : c70;
        c90 = strcmp(m->tier_names[r], "C90") == 0 ? r : c90;
    }
    CU_ASSERT_FATAL(c70 >= 0 && c90 >= 0);
    const tco_range *r90 = tier_range_of(m, "tier_price", c90);
    CU_ASSERT_EQUAL(m->items[price].tiers[c70], 6000);
    CU_ASSERT(r90->low == 3 * 6000 && r90->high == 4 * 6000 && has_text(r90->basis, "seed §2"));
    const tco_range *base = range_of(m, "host_base_power_w");
    CU_ASSERT(8 * 700 + base->low == 10000 && 8 * 700 + base->high == 12000 && has_text(base->basis, "seed §4.3"));
    const tco_range *u = range_of(m, "utilisation");
    CU_ASSERT(u->low == 0.5 && u->high == 0.9 && has_text(u->basis, "seed §4.3"));
    CU_ASSERT(range_of(m, "decode_eff_single")->low == 0.5 && range_of(m, "decode_eff_single")->high == 0.7);
    /* Scaling loses 5-15% per doubling: 16 cards 0.85 x 0.85 to 0.85 x 0.95. */
    CU_ASSERT_DOUBLE_EQUAL(range_of(m, "scaling_eff_16")->low, 0.7225, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(range_of(m, "scaling_eff_16")->high, 0.8075, 1e-12);
    /* An illustrative price: +/-30%, D-M 95,000 -> 66,500 to 123,500, its --set key card.price. */
    int dm = tco_model_find(m, "card_row") >= 0 ? (int)m->items[tco_model_find(m, "card_row")].value - 1 : -1;
    CU_ASSERT_FATAL(dm >= 0 && strcmp(m->tier_names[dm], "D-M") == 0);
    CU_ASSERT(tier_range_of(m, "tier_price", dm)->low == 66500 && tier_range_of(m, "tier_price", dm)->high == 123500);
    char *set = tco_model_set_key(m, price, dm);
    CU_ASSERT_STRING_EQUAL(set, "card.price");
    free(set);
    tco_model_free(m);
}

/* Every range of every shipped scenario says its basis. */
static void test_shipped_ranges_have_a_basis(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob(TCO_SOURCE_DIR "/scenarios/*.ini", 0, NULL, &g), 0);
    size_t scenarios = 0;
    for (size_t k = 0; k < g.gl_pathc; k++) {
        const char *base = strrchr(g.gl_pathv[k], '/') + 1;
        FILE *f = fopen(g.gl_pathv[k], "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        char line[1100];
        bool question = false;
        while (fgets(line, sizeof line, f))
            question |= strncmp(line, "[advise]", 8) == 0;
        fclose(f);
        if (strncmp(base, "compare-", 8) == 0 || question)
            continue;
        tco_model *m = load(TCO_SOURCE_DIR, g.gl_pathv[k], NULL);
        size_t n = 0;
        tco_ranged_input *v = ranged(m, &n);
        CU_ASSERT(n >= 30);
        for (size_t i = 0; i < n; i++) {
            bool ok = v[i].range->basis != NULL && v[i].range->basis[0] != '\0';
            if (!ok)
                fprintf(stderr, "\n%s: %s has a range without a basis\n", base, v[i].label);
            CU_ASSERT(ok);
        }
        tco_ranged_inputs_free(v, n);
        tco_model_free(m);
        scenarios++;
    }
    globfree(&g);
    CU_ASSERT(scenarios >= 10);
}

static void test_dist_names(void)
{
    for (int k = TCO_DIST_TRIANGULAR; k < TCO_DIST_COUNT_OF; k++)
        CU_ASSERT_EQUAL((int)tco_dist_parse(tco_dist_name((tco_dist)k)), k);
    CU_ASSERT_EQUAL(tco_dist_parse(" PERT "), TCO_DIST_PERT);
    CU_ASSERT_EQUAL(tco_dist_parse("none"), TCO_DIST_NONE);
    CU_ASSERT_EQUAL(tco_dist_parse(""), TCO_DIST_NONE);
    CU_ASSERT_EQUAL(tco_dist_parse("triangle"), TCO_DIST_NONE);
    CU_ASSERT_STRING_EQUAL(tco_dist_name(TCO_DIST_NONE), "none");
}

CU_ErrorCode register_ranges_suite(void)
{
    CU_pSuite s = CU_add_suite("ranges", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "mini ranges as written, and at LOW", test_mini_ranges) ||
        !CU_add_test(s, "a range belongs to its value", test_range_follows_value) ||
        !CU_add_test(s, "per-tier rows' ranges and --set keys", test_tier_ranges) ||
        !CU_add_test(s, "CSV low, high and dist", test_csv_ranges) ||
        !CU_add_test(s, "the seed's ranges as shipped, by hand", test_shipped_seed_ranges) ||
        !CU_add_test(s, "every shipped range has a basis", test_shipped_ranges_have_a_basis) ||
        !CU_add_test(s, "distribution names", test_dist_names))
        return CU_get_error();
    return CUE_SUCCESS;
}
