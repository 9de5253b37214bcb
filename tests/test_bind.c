/* test_bind.c - engine/model/bind.c: names bound to their items and the dependency order, on the mini model
 * (tests/fixtures/roots/mini/templates/mini.ini: cost = qty * price, running = cost * rate * year,
 * total = cost + running_total, per_unit = total / qty), and the binder's refusals as the bad fixtures
 * (tests/fixtures/bad/scenarios/) state them on their first line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/formula.h"
#include "model/model.h"
#include "loaded.h"
#include "suites.h"

#define MINI TCO_SOURCE_DIR "/tests/fixtures/roots/mini"
#define BAD TCO_SOURCE_DIR "/tests/fixtures/bad/scenarios/"

typedef struct order_check {
    const int *position; /* position of each item in the order */
    int at;              /* the item whose formula is walked */
    int late;            /* names read that do not come earlier */
    int names;
} order_check;

static tco_error visit(void *ctx, tco_node *name)
{
    order_check *c = ctx;
    c->names++;
    if (name->ref < 0 || c->position[name->ref] >= c->position[c->at])
        c->late++;
    return TCO_OK;
}

static void test_every_line_after_what_it_reads(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(MINI, MINI "/scenarios/good.ini", NULL, &m, &d), TCO_OK);
    CU_ASSERT_EQUAL_FATAL(m->n_order, m->n_items);
    int *position = malloc(m->n_items * sizeof *position);
    CU_ASSERT_PTR_NOT_NULL_FATAL(position);
    for (size_t i = 0; i < m->n_items; i++)
        position[i] = -1;
    for (size_t k = 0; k < m->n_order; k++) {
        CU_ASSERT_EQUAL(position[m->order[k]], -1); /* each item once */
        position[m->order[k]] = (int)k;
    }
    order_check c = {position, 0, 0, 0};
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].formula != NULL) {
            c.at = (int)i;
            tco_formula_walk_names(m->items[i].formula, visit, &c);
        }
    CU_ASSERT_TRUE(c.names >= 8); /* qty, price, cost, rate, year, cost, running_total, total, qty */
    CU_ASSERT_EQUAL(c.late, 0);
    int cost = tco_model_find(m, "cost"), total = tco_model_find(m, "total"), per_unit = tco_model_find(m, "per_unit");
    CU_ASSERT_TRUE(position[cost] < position[total] && position[total] < position[per_unit]);
    /* per_unit = total / qty: both names bound to their items. */
    const tco_node *f = m->items[per_unit].formula;
    CU_ASSERT_EQUAL_FATAL(f->kind, TCO_NODE_BINARY);
    CU_ASSERT_EQUAL_FATAL(f->nargs, 2);
    CU_ASSERT_EQUAL(f->args[0]->ref, total);
    CU_ASSERT_EQUAL(f->args[1]->ref, tco_model_find(m, "qty"));
    free(position);
    tco_model_free(m);
}

static void expect_refusal(const char *scenario, tco_error code, const char *fragment)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL(load_evaluated(MINI, scenario, NULL, &m, &d), code);
    CU_ASSERT_PTR_NULL(m);
    if (strstr(d.message, fragment) == NULL)
        fprintf(stderr, "\n%s: expected '%s' in: %s\n", scenario, fragment, d.message);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, fragment));
}

static void test_refusals(void)
{
    expect_refusal(BAD "cycle.ini", TCO_ERR_CYCLE, "circular reference: cost -> per_unit -> total -> cost");
    expect_refusal(BAD "unknown_name.ini", TCO_ERR_UNKNOWN_NAME,
                   "templates/unknown_name.ini [line.cost] formula, column 7: unknown name 'prise' (did you mean 'price'?)");
    expect_refusal(BAD "yearly_scalar.ini", TCO_ERR_UNKNOWN_NAME,
                   "[line.total] formula, column 8: 'running' is a per-year line and this line is not; use 'running_total'");
    expect_refusal(BAD "cumsum.ini", TCO_ERR_SYNTAX,
                   "templates/cumsum_scalar.ini [line.points_total] formula, column 1: CUMSUM takes the name of a per-year");
}

CU_ErrorCode register_bind_suite(void)
{
    CU_pSuite s = CU_add_suite("bind", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "every line after what it reads", test_every_line_after_what_it_reads) ||
        !CU_add_test(s, "cycles, unknown names, shapes, CUMSUM refused", test_refusals))
        return CU_get_error();
    return CUE_SUCCESS;
}
