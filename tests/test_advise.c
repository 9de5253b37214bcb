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

CU_ErrorCode register_advise_suite(void)
{
    CU_pSuite s = CU_add_suite("advise", NULL, NULL);
    if (s == NULL || CU_add_test(s, "set a text input in place", test_set_text_input) == NULL ||
        CU_add_test(s, "load a question, [advise] skipped", test_load_question) == NULL ||
        CU_add_test(s, "a narrowed question", test_advise_narrowed) == NULL)
        return CU_get_error();
    return CUE_SUCCESS;
}
