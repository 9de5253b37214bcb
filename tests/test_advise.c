/* test_advise.c - tco advise's engine: a text input set in place, a question loaded with its [advise]
 * section left to the advisor, and the enumeration and ranking of a small question. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/advise.h"
#include "model/model.h"
#include "load/load.h"
#include "model/evaluate.h"
#include "suites.h"
#include "loaded.h"

#define ROOT TCO_SOURCE_DIR
#define CLUSTER32 TCO_SOURCE_DIR "/scenarios/cluster32.ini"
#define SOLO_DEV TCO_SOURCE_DIR "/scenarios/solo-dev.ini"

static double value_of(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    return i >= 0 ? m->items[i].value : NAN;
}

/* card_tier set in place: the tier's values follow, as typing into the cell does.  cluster32 is
 * 32 cards: 32 x 80 GB = 2,560 GB as D-M, 32 x 141 GB = 4,512 GB as D-L. */
static void test_set_text_input(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(ROOT, CLUSTER32, NULL, &m, &d), TCO_OK);
    CU_ASSERT_DOUBLE_EQUAL(value_of(m, "cluster_memory_gb"), 2560, 1e-9);
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "card_tier", "d-l", &d), TCO_OK);
    CU_ASSERT_STRING_EQUAL(m->items[tco_model_find(m, "card_tier")].text, "D-L"); /* as the catalog writes it */
    CU_ASSERT_DOUBLE_EQUAL(value_of(m, "cluster_memory_gb"), 4512, 1e-9);
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "card_tier", "NO-SUCH", &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "'NO-SUCH' is not one of its values"));
    CU_ASSERT_STRING_EQUAL(m->items[tco_model_find(m, "card_tier")].text, "D-L"); /* unchanged */
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "card_count", "4", &d), TCO_ERR_UNKNOWN_NAME);
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "currency", "USD", &d), TCO_ERR_INI); /* structural */
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "fixes the workbook's shape"));
    /* Renting the 32 D-L for the training GPU-hours: 32 x 8,760 x 0.9 x 28 CNY x 3 years. */
    CU_ASSERT_EQUAL(tco_model_set_text_input(m, "acquisition", "rent", &d), TCO_OK);
    CU_ASSERT_DOUBLE_EQUAL(value_of(m, "option_cost"), 32 * 8760 * 0.9 * 28 * 3, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(value_of(m, "option_capex"), 0, 0);
    tco_model_free(m);
}

/* A question loads as a scenario once its [advise] section is the advisor's and the advisor's keys
 * are given; without the skip, the loader refuses [advise] as a section the template does not read. */
static void test_load_question(void)
{
    static char args[4][64] = {"scenario.kind=inference", "scenario.card=C70", "scenario.host=tower-consumer",
                               "scenario.cards=1"};
    tco_override o[4];
    tco_diag d = {0};
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL_FATAL(tco_override_parse(args[i], &o[i], &d), TCO_OK);
    tco_model *m = NULL;
    CU_ASSERT_EQUAL(load_evaluated(ROOT, SOLO_DEV,
        &(tco_load_options){.overrides = o, .n_overrides = 4}, &m, &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "[advise]: unknown section"));
    CU_ASSERT_EQUAL_FATAL(load_evaluated(ROOT, SOLO_DEV,
        &(tco_load_options){.overrides = o, .n_overrides = 4, .skip_section = "advise"}, &m, &d), TCO_OK);
    /* One C70 and the 7B LoRA fine-tune at batch 4 of 2,048 tokens: 14 + 4 x 2,048 x 0.85 / 1,000 GB. */
    CU_ASSERT_DOUBLE_EQUAL(value_of(m, "lora_job_gb"), 14 + 4 * 2048 * 0.85 / 1000, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(value_of(m, "lora_batch_max"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(value_of(m, "check_lora_job"), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(value_of(m, "check_feasible"), 0, 0);
    tco_model_free(m);
}

/* A question narrowed by --set advise.*: the C70 and the W-A in the two towers, cloud too.  Candidates:
 * 2 tiers x (1 + 2 slots) owned + 2 tiers x 1 card rented (max_hosts 1 x the most slots a fitting
 * host of the list has, tower-workstation's 2: 1 to 2) = 6 + 4 = 10. */
static void test_advise_narrowed(void)
{
    static char args[3][64] = {"advise.tiers=C70, W-A", "advise.hosts=tower-consumer, tower-workstation",
                               "advise.allow_cloud=yes"};
    tco_override o[3];
    tco_diag d = {0};
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL_FATAL(tco_override_parse(args[i], &o[i], &d), TCO_OK);
    tco_advise_request req = {.root = ROOT, .path = SOLO_DEV, .name = "solo-dev", .sets = o, .n_sets = 3};
    tco_advice a;
    CU_ASSERT_EQUAL_FATAL(tco_advise(&req, &a, &d), TCO_OK);
    CU_ASSERT_EQUAL(a.n_tiers, 2);
    CU_ASSERT_EQUAL(a.n_hosts, 2);
    CU_ASSERT_EQUAL(a.n_options, 10);
    CU_ASSERT_EQUAL(a.skipped_pairs, 0);
    /* The W-A owned in the consumer tower first: 34,000 of capex, 38,420 with the 13% VAT an individual buyer
     * cannot recover (solo-dev: vat_deductible = no, issue 22 section 4); the C70 never feasible (LoRA). */
    CU_ASSERT_TRUE(a.n_feasible >= 1);
    CU_ASSERT_STRING_EQUAL(a.tiers[a.options[0].tier], "W-A");
    CU_ASSERT_STRING_EQUAL(a.hosts[a.options[0].host], "tower-consumer");
    CU_ASSERT_FALSE(a.options[0].rent);
    CU_ASSERT_DOUBLE_EQUAL(a.options[0].capex, 34000 * 1.13, 1e-6);
    for (size_t i = 0; i < a.n_options; i++) {
        const tco_advise_option *x = &a.options[i];
        if (strcmp(a.tiers[x->tier], "C70") == 0) {
            CU_ASSERT_FALSE(x->feasible);
            CU_ASSERT_TRUE(x->n_reasons >= 1);
        }
        CU_ASSERT_EQUAL(x->rank, x->feasible ? (int)i + 1 : 0);
        if (x->rent) /* a rented W-A or C70 rents 1 or 2 cards every hour: no capex */
            CU_ASSERT_DOUBLE_EQUAL(x->capex, 0, 0);
    }
    tco_advice_free(&a);
    CU_ASSERT_EQUAL(a.n_options, 0);
}

/* Scalar @p name of @p m as the advisor reads it: NaN for a line that gives text ("n.a.: ..."). */
static double figure(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    return i < 0 || m->items[i].text ? NAN : m->items[i].value;
}

/* The bits of @p x and @p y are the same (NaN equal to NaN). */
static bool same_bits(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0;
}

/* Hosts that share programs (program.h): for a facility mode and tier, the program compiled from one
 * host's model runs the next hosts' of the same texts (dc8 and dc4 are both module hosts) and no other
 * (ws4 is a pcie host).  Every candidate's figures are those of its own run, loaded afresh with its
 * card, count, host and mode (tco_advise_option_run(): its first evaluation walks the formula trees),
 * to the bit.  team-70b narrowed to W-A (a pcie card) and D-M (a module) in dc8, ws4 and dc4, owned or
 * in colocation, no cloud; max_hosts 2, so 2 x 8 = 16 counts in dc8 and 2 x 4 = 8 in ws4 and in dc4.
 * W-A fits ws4 alone, D-M dc8 and dc4: per mode 8 + 16 + 8 = 32 candidates, 64 in all, and 3 tier-host
 * pairs skipped (W-A in dc8 and dc4, D-M in ws4), listed in host order (dc8 first, as the catalog). */
static void test_advise_shared_programs(void)
{
    static char args[4][64] = {"advise.tiers=W-A, D-M", "advise.hosts=dc4, ws4, dc8", "advise.allow_cloud=no",
                               "advise.facility_modes=owned, colocation"};
    tco_override o[4];
    tco_diag d = {0};
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL_FATAL(tco_override_parse(args[i], &o[i], &d), TCO_OK);
    tco_advise_request req = {.root = ROOT, .path = TCO_SOURCE_DIR "/scenarios/team-70b.ini", .name = "team-70b",
                              .sets = o, .n_sets = 4};
    tco_advice a;
    CU_ASSERT_EQUAL_FATAL(tco_advise(&req, &a, &d), TCO_OK);
    CU_ASSERT_EQUAL(a.n_options, 64);
    CU_ASSERT_EQUAL(a.skipped_pairs, 3);
    CU_ASSERT_STRING_EQUAL(a.hosts[0], "dc8");
    size_t checked = 0, in_dc4 = 0, in_ws4 = 0;
    for (size_t i = 0; i < a.n_options; i++) {
        const tco_advise_option *x = &a.options[i];
        tco_run *run = NULL;
        CU_ASSERT_EQUAL_FATAL(tco_advise_option_run(&req, &a, x, &run, &d), TCO_OK);
        const tco_model *m = run->model;
        bool same = same_bits(x->cost, figure(m, "option_cost")) && same_bits(x->capex, figure(m, "option_capex")) &&
                    same_bits(x->npv_cost, figure(m, "option_npv_cost")) &&
                    same_bits(x->cost_per_unit, figure(m, "cost_per_unit")) &&
                    /* a layout that holds no replica has no throughput (NaN), whatever the line's formula gives */
                    same_bits(x->tokens_per_s, figure(m, "replica_capacity") < 1 ? NAN : figure(m, "layout_tokens_per_s")) &&
                    same_bits(x->memory_gb, figure(m, "cluster_memory_gb")) &&
                    x->feasible == (figure(m, "check_feasible") == 1);
        if (!same)
            fprintf(stderr, "\n%zux %s in %s (mode %d): cost %.17g here, %.17g in its own run\n", (size_t)x->cards,
                    a.tiers[x->tier], a.hosts[x->host], x->mode, x->cost, figure(m, "option_cost"));
        CU_ASSERT_TRUE(same);
        checked += same;
        in_dc4 += strcmp(a.hosts[x->host], "dc4") == 0;
        in_ws4 += strcmp(a.hosts[x->host], "ws4") == 0 && strcmp(a.tiers[x->tier], "W-A") == 0;
        tco_run_free(run);
    }
    CU_ASSERT_EQUAL(checked, 64);
    CU_ASSERT_EQUAL(in_dc4, 8 * 2); /* D-M alone, in two modes */
    CU_ASSERT_EQUAL(in_ws4, 8 * 2); /* W-A alone */
    tco_advice_free(&a);
}

CU_ErrorCode register_advise_suite(void)
{
    CU_pSuite s = CU_add_suite("advise", NULL, NULL);
    if (s == NULL || CU_add_test(s, "set a text input in place", test_set_text_input) == NULL ||
        CU_add_test(s, "load a question, [advise] skipped", test_load_question) == NULL ||
        CU_add_test(s, "a narrowed question", test_advise_narrowed) == NULL ||
        CU_add_test(s, "hosts that share programs: each candidate as its own run", test_advise_shared_programs) == NULL)
        return CU_get_error();
    return CUE_SUCCESS;
}
