/* test_model.c - engine/model/model.c, the model core: items added and found by name (the name index,
 * in any case), what a set of items needs through their formulas, whether two models have one shape,
 * the year column of a month, and whether a unit is money.  Loading is tests/test_load.c, evaluation
 * tests/test_evaluate.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "loaded.h"
#include "suites.h"

#define MINI TCO_SOURCE_DIR "/tests/fixtures/roots/mini"

static tco_model *load_cluster32(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    tco_error e = load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &m, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    return m;
}

/* The name index: every item (inputs, lines, totals, year) is found at its own index by its name in
 * any case; names that are no item, or differ by a character, are not. */
static void test_name_index(void)
{
    tco_model *m = load_cluster32();
    CU_ASSERT_FATAL(m->n_items > 64); /* more than the index's first 64 slots hold half full */
    for (size_t i = 0; i < m->n_items; i++) {
        char upper[256];
        snprintf(upper, sizeof upper, "%s", m->items[i].name);
        for (char *p = upper; *p; p++)
            if (*p >= 'a' && *p <= 'z')
                *p = (char)(*p - 'a' + 'A');
        CU_ASSERT_EQUAL(tco_model_find(m, m->items[i].name), (int)i);
        CU_ASSERT_EQUAL(tco_model_find(m, upper), (int)i);
        char longer[260];
        snprintf(longer, sizeof longer, "%s_", m->items[i].name);
        CU_ASSERT(tco_model_find(m, longer) < 0 || strcmp(m->items[tco_model_find(m, longer)].name, longer) == 0);
    }
    CU_ASSERT(tco_model_find(m, "tco_total") >= 0 || tco_model_find(m, "tco") >= 0);
    CU_ASSERT_EQUAL(tco_model_find(m, ""), -1);
    CU_ASSERT_EQUAL(tco_model_find(m, "no_such_item_anywhere"), -1);
    tco_model_free(m);
}

/* Items added by hand: the name is held lower case, an item starts with no partner and no bounds, the
 * array grows past its first 256 items (to 512) with every name still found at its index, and a second
 * item of a name is added but the name keeps finding the first. */
static void test_add_item(void)
{
    tco_model *m = calloc(1, sizeof *m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    tco_item *it = tco_model_add_item(m, TCO_ITEM_INPUT, "Card_Count");
    CU_ASSERT_PTR_NOT_NULL_FATAL(it);
    CU_ASSERT_STRING_EQUAL(it->name, "card_count");
    CU_ASSERT_EQUAL(it->kind, TCO_ITEM_INPUT);
    CU_ASSERT_EQUAL(it->partner, -1);
    CU_ASSERT(isnan(it->min) && isnan(it->max));
    CU_ASSERT_EQUAL(m->n_items, 1);
    CU_ASSERT_EQUAL(m->cap_items, 256);
    for (int i = 1; i < 300; i++) {
        char name[16];
        snprintf(name, sizeof name, "Line%03d", i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(tco_model_add_item(m, TCO_ITEM_LINE, name));
    }
    CU_ASSERT_EQUAL(m->n_items, 300);
    CU_ASSERT_EQUAL(m->cap_items, 512); /* 256 full at the 257th item: doubled once */
    CU_ASSERT_EQUAL(tco_model_find(m, "CARD_COUNT"), 0);
    CU_ASSERT_EQUAL(tco_model_find(m, "line001"), 1);
    CU_ASSERT_EQUAL(tco_model_find(m, "LINE256"), 256);
    CU_ASSERT_EQUAL(tco_model_find(m, "line299"), 299);
    CU_ASSERT_EQUAL(tco_model_find(m, "line300"), -1);
    CU_ASSERT_EQUAL(m->items[299].kind, TCO_ITEM_LINE);
    it = tco_model_add_item(m, TCO_ITEM_LINE, "CARD_COUNT");
    CU_ASSERT_PTR_NOT_NULL_FATAL(it);
    CU_ASSERT_EQUAL(m->n_items, 301);
    CU_ASSERT_EQUAL(tco_model_find(m, "card_count"), 0);
    tco_model_free(m);
    /* A model whose items were not added through tco_model_add_item() (no index): found by a scan, in
     * any case. */
    tco_item items[2] = {{.name = "alpha"}, {.name = "beta"}};
    tco_model bare = {.items = items, .n_items = 2};
    CU_ASSERT_EQUAL(tco_model_find(&bare, "BETA"), 1);
    CU_ASSERT_EQUAL(tco_model_find(&bare, "alpha"), 0);
    CU_ASSERT_EQUAL(tco_model_find(&bare, "gamma"), -1);
}

/* The mini model (tests/fixtures/roots/mini/templates/mini.ini): cost = qty * price, running = cost *
 * rate * year (per year, summed by running_total), total = cost + running_total, per_unit = total / qty.
 * Its 11 items: qty, years, price, rate, cost, running, total, per_unit, running_total, error_cells,
 * year.  cost needs qty and price: 3 items.  total needs cost (qty, price), running_total and through
 * it running (rate, year): 8 items, not years, per_unit or error_cells. */
static void test_needed(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(MINI, MINI "/scenarios/good.ini", NULL, &m, &d), TCO_OK);
    CU_ASSERT_EQUAL_FATAL(m->n_items, 11);
    unsigned char *needed = malloc(m->n_items);
    CU_ASSERT_PTR_NOT_NULL_FATAL(needed);
    int cost = tco_model_find(m, "cost"), total = tco_model_find(m, "total");
    CU_ASSERT_FATAL(cost >= 0 && total >= 0);
    tco_model_needed(m, &cost, 1, needed);
    size_t n = 0;
    for (size_t i = 0; i < m->n_items; i++)
        n += needed[i];
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT(needed[cost] && needed[tco_model_find(m, "qty")] && needed[tco_model_find(m, "price")]);
    /* A target out of range (-1: a name not found) is ignored. */
    int targets[2] = {-1, total};
    tco_model_needed(m, targets, 2, needed);
    n = 0;
    for (size_t i = 0; i < m->n_items; i++)
        n += needed[i];
    CU_ASSERT_EQUAL(n, 8);
    static const char *const yes[] = {"qty", "price", "rate", "cost", "running", "total", "running_total", "year"};
    for (size_t k = 0; k < sizeof yes / sizeof yes[0]; k++)
        CU_ASSERT(needed[tco_model_find(m, yes[k])]);
    CU_ASSERT(!needed[tco_model_find(m, "years")] && !needed[tco_model_find(m, "per_unit")] &&
              !needed[tco_model_find(m, "error_cells")]);
    free(needed);
    tco_model_free(m);
}

/* The year column of a month (0-based): with a Year 0 (first_year 0, the purchase) Month 1 to 12 fall in
 * column 1 (Year 1), Month 13 in column 2, Month 36 in column 3; from Year 1 (first_year 1) the same
 * months fall one column earlier: 0, 1, 2. */
static void test_year_of_month(void)
{
    tco_model m = {.first_year = 0};
    CU_ASSERT_EQUAL(tco_model_year_of_month(&m, 0), 1);
    CU_ASSERT_EQUAL(tco_model_year_of_month(&m, 11), 1);
    CU_ASSERT_EQUAL(tco_model_year_of_month(&m, 12), 2);
    CU_ASSERT_EQUAL(tco_model_year_of_month(&m, 35), 3);
    m.first_year = 1;
    CU_ASSERT_EQUAL(tco_model_year_of_month(&m, 0), 0);
    CU_ASSERT_EQUAL(tco_model_year_of_month(&m, 12), 1);
    CU_ASSERT_EQUAL(tco_model_year_of_month(&m, 35), 2);
}

/* The first NUMBER node of @p n, depth first, or NULL. */
static tco_node *first_number(tco_node *n)
{
    if (n == NULL || n->kind == TCO_NODE_NUMBER)
        return n;
    for (size_t i = 0; i < n->nargs; i++) {
        tco_node *x = first_number(n->args[i]);
        if (x)
            return x;
    }
    return NULL;
}

/* Two loads of cluster32 have one shape; so has a model whose input values alone differ; a constant
 * of one formula changed, an item renamed, or another model (the mini fixture) is not the same shape. */
static void test_same_shape(void)
{
    tco_model *a = load_cluster32(), *b = load_cluster32(), *mini = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(MINI, MINI "/scenarios/good.ini", NULL, &mini, &d), TCO_OK);
    CU_ASSERT_TRUE(tco_model_same_shape(a, b));
    CU_ASSERT_TRUE(tco_model_same_shape(a, a));
    b->items[tco_model_find(b, "electricity_price")].value = 9; /* a value: the same shape */
    CU_ASSERT_TRUE(tco_model_same_shape(a, b));
    CU_ASSERT_FALSE(tco_model_same_shape(a, mini));
    CU_ASSERT_FALSE(tco_model_same_shape(mini, a));
    tco_node *k = NULL;
    for (size_t i = 0; i < b->n_items && k == NULL; i++)
        k = first_number(b->items[i].formula);
    CU_ASSERT_PTR_NOT_NULL(k);
    if (k != NULL) {
        double was = k->number;
        k->number = was + 1;
        CU_ASSERT_FALSE(tco_model_same_shape(a, b));
        k->number = was;
        CU_ASSERT_TRUE(tco_model_same_shape(a, b));
    }
    char *name = b->items[0].name;
    name[0] = name[0] == 'z' ? 'y' : 'z';
    CU_ASSERT_FALSE(tco_model_same_shape(a, b));
    name[0] = a->items[0].name[0];
    CU_ASSERT_TRUE(tco_model_same_shape(a, b));
    tco_model_free(a);
    tco_model_free(b);
    tco_model_free(mini);
}

/* Money is the catalog's currency, alone or per something: "CNY", "CNY/yr", "CNY/kWh"; not a unit that
 * only starts with the letters ("CNYX"), nor any other. */
static void test_money_units(void)
{
    CU_ASSERT_TRUE(tco_unit_is_money("CNY"));
    CU_ASSERT_TRUE(tco_unit_is_money("CNY/yr"));
    CU_ASSERT_TRUE(tco_unit_is_money("CNY/kWh"));
    CU_ASSERT_FALSE(tco_unit_is_money("kW"));
    CU_ASSERT_FALSE(tco_unit_is_money("CNYX"));
    CU_ASSERT_FALSE(tco_unit_is_money("ratio"));
}

CU_ErrorCode register_model_suite(void)
{
    CU_pSuite s = CU_add_suite("model", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "every item is found by its name in any case", test_name_index) ||
        !CU_add_test(s, "items added by hand, 300 of them", test_add_item) ||
        !CU_add_test(s, "what a set of items needs", test_needed) ||
        !CU_add_test(s, "the year column of a month", test_year_of_month) ||
        !CU_add_test(s, "two models of one shape", test_same_shape) ||
        !CU_add_test(s, "money units", test_money_units))
        return CU_get_error();
    return CUE_SUCCESS;
}
