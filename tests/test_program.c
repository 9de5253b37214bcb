/* test_program.c - the compiled model (engine/model/program.c) against the tree evaluator, bit for bit,
 * for every shipped scenario and the mini fixture models, with their inputs changed; and a
 * what-if evaluated many times whose answer is checked by hand. */
#include <CUnit/CUnit.h>
#include <glob.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/program.h"
#include "base/utf8.h"
#include "load/load.h"
#include "model/bind.h"
#include "model/evaluate.h"
#include "model/ranges.h"
#include "model/formula.h"
#include "suites.h"
#include "loaded.h"

/* Every evaluated cell of a model, copied: numbers as bits, texts as copies. */
typedef struct snapshot {
    double *num;
    char **text;
    size_t n_num, n_text;
} snapshot;

static void snap_push_num(snapshot *s, double x)
{
    s->num = realloc(s->num, (s->n_num + 1) * sizeof *s->num);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s->num);
    s->num[s->n_num++] = x;
}

static void snap_push_text(snapshot *s, const char *t)
{
    s->text = realloc(s->text, (s->n_text + 1) * sizeof *s->text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s->text);
    s->text[s->n_text++] = t ? strdup(t) : NULL;
}

static snapshot take(const tco_model *m)
{
    snapshot s = {0};
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        switch (it->kind) {
        case TCO_ITEM_LINE: snap_push_num(&s, it->value); snap_push_text(&s, it->text); break;
        case TCO_ITEM_TOTAL: snap_push_num(&s, it->value); break;
        case TCO_ITEM_YEARLY: case TCO_ITEM_MONTHLY:
            for (int y = 0; y < tco_item_periods(m, it); y++)
                snap_push_num(&s, it->years[y]);
            break;
        case TCO_ITEM_TIER_LINE:
            for (int r = 0; r < m->n_tiers; r++)
                snap_push_num(&s, it->tiers[r]);
            break;
        default: break;
        }
    }
    return s;
}

static void drop(snapshot *s)
{
    for (size_t i = 0; i < s->n_text; i++)
        free(s->text[i]);
    free(s->text);
    free(s->num);
    memset(s, 0, sizeof *s);
}

/* Cells of @p a and @p b that differ (numbers compared as bits: -0 is not 0); @p what names the case. */
static size_t differences(const snapshot *a, const snapshot *b, const char *what)
{
    size_t bad = 0;
    CU_ASSERT_EQUAL_FATAL(a->n_num, b->n_num);
    CU_ASSERT_EQUAL_FATAL(a->n_text, b->n_text);
    for (size_t i = 0; i < a->n_num; i++)
        if (memcmp(&a->num[i], &b->num[i], sizeof(double)) != 0 && bad++ < 3)
            fprintf(stderr, "\n%s: cell %zu: program %.17g, tree %.17g\n", what, i, a->num[i], b->num[i]);
    for (size_t i = 0; i < a->n_text; i++)
        if (((a->text[i] == NULL) != (b->text[i] == NULL) || (a->text[i] && strcmp(a->text[i], b->text[i]) != 0)) &&
            bad++ < 3)
            fprintf(stderr, "\n%s: text %zu: program '%s', tree '%s'\n", what, i, a->text[i] ? a->text[i] : "(none)",
                    b->text[i] ? b->text[i] : "(none)");
    return bad;
}

/* Evaluate @p m by its program and by the tree: both succeed with the same cells, or both fail.
 * Returns 1 if both succeeded, 0 if both failed. */
static int same_both_ways(tco_model *m, const char *what)
{
    tco_diag d = {0};
    tco_program *p = NULL;
    CU_ASSERT_EQUAL_FATAL(tco_program_compile(m, &p, &d), TCO_OK);
    tco_error ep = tco_program_run(p, m, &d);
    snapshot by_program = take(m);
    tco_error et = tco_model_evaluate_tree(m, &d);
    snapshot by_tree = take(m);
    if (ep != et)
        fprintf(stderr, "\n%s: program gives %d, tree %d (%s)\n", what, ep, et, d.message);
    CU_ASSERT_EQUAL(ep, et);
    if (ep == TCO_OK && et == TCO_OK)
        CU_ASSERT_EQUAL(differences(&by_program, &by_tree, what), 0);
    drop(&by_program);
    drop(&by_tree);
    tco_program_free(p);
    return et == TCO_OK;
}

/* A value other than @p v within input @p it's range: nearer its top for most inputs. */
static double changed(const tco_item *it, double v, int k)
{
    double x = k == 0 ? v * 1.37 + 0.29 : v * 0.61;
    if (it->integer)
        x = k == 0 ? floor(v * 1.5) + 1 : floor(v / 2);
    if (!isnan(it->max) && x > it->max)
        x = it->max;
    if (!isnan(it->min) && x < it->min)
        x = it->min;
    return x;
}

/* The model as loaded, then each scalar number input at two other values, each text input at each
 * allowed value, and each per-tier number input's every row raised: program == tree each time. */
static void check_model(tco_model *m, const char *name)
{
    char what[600];
    snprintf(what, sizeof what, "%s as loaded", name);
    CU_ASSERT_EQUAL(same_both_ways(m, what), 1);
    tco_diag d = {0};
    size_t evaluated = 0, agreed = 0; /* agreed: both evaluated without an error */
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        if (it->kind == TCO_ITEM_INPUT && it->text == NULL && !it->structural) {
            double v = it->value;
            for (int k = 0; k < 2; k++) {
                if (tco_model_assign_input(m, (int)i, changed(it, v, k), &d) != TCO_OK)
                    continue;
                snprintf(what, sizeof what, "%s with %s = %.17g", name, it->name, it->value);
                agreed += same_both_ways(m, what);
                evaluated++;
            }
            it->value = v;
        } else if (it->kind == TCO_ITEM_INPUT && it->text && it->choices && !it->structural) {
            char *keep = strdup(it->text);
            CU_ASSERT_PTR_NOT_NULL_FATAL(keep);
            for (size_t c = 0; c < it->n_choices; c++) {
                free(it->text);
                it->text = strdup(it->choices[c]);
                snprintf(what, sizeof what, "%s with %s = %s", name, it->name, it->text);
                agreed += same_both_ways(m, what);
                evaluated++;
            }
            free(it->text);
            it->text = keep;
        } else if (it->kind == TCO_ITEM_TIER_INPUT && it->tier_texts == NULL) {
            for (int r = 0; r < m->n_tiers; r++) {
                double v = it->tiers[r];
                if (tco_model_assign_tier_input(m, (int)i, r, changed(it, v, 0), &d) != TCO_OK)
                    continue;
                snprintf(what, sizeof what, "%s with %s[%s] = %.17g", name, it->name, m->tier_names[r], it->tiers[r]);
                agreed += same_both_ways(m, what);
                evaluated++;
                it->tiers[r] = v;
            }
        }
    }
    /* Most changes evaluate (a few make a line divide by zero, and both refuse them alike). */
    CU_ASSERT(evaluated > 0 && agreed * 10 >= evaluated * 9);
    if (getenv("TCO_TEST_VERBOSE"))
        fprintf(stderr, "\n%s: %zu what-ifs, %zu evaluated\n", name, evaluated, agreed);
    CU_ASSERT_EQUAL(tco_model_evaluate(m, &d), TCO_OK);
}

static void test_every_scenario(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob(TCO_SOURCE_DIR "/scenarios/*.ini", 0, NULL, &g), 0);
    size_t models = 0;
    for (size_t k = 0; k < g.gl_pathc; k++) {
        const char *path = g.gl_pathv[k];
        if (strstr(path, "/compare-") != NULL) /* a comparison of the scenarios it names */
            continue;
        /* A question for tco advise names no card: as the advisor does, choose one (D-M in an
         * 8-card host, 8 cards, serving) for the candidate checked here. */
        FILE *f = fopen(path, "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        char line[1024];
        bool question = false;
        while (fgets(line, sizeof line, f))
            question = question || strncmp(line, "[advise]", 8) == 0;
        fclose(f);
        static const char *const sets[] = {"scenario.kind=inference", "scenario.card=D-M", "scenario.cards=8",
                                           "scenario.host=dc8", "scenario.acquisition=own"};
        tco_override o[5];
        for (size_t i = 0; i < 5; i++)
            CU_ASSERT_EQUAL_FATAL(tco_override_parse(sets[i], &o[i], NULL), TCO_OK);
        tco_model *m = NULL;
        tco_diag d = {0};
        tco_error e = load_evaluated(TCO_SOURCE_DIR, path,
            &(tco_load_options){.overrides = o, .n_overrides = question ? 5 : 0, .skip_section = "advise"}, &m, &d);
        if (e != TCO_OK)
            fprintf(stderr, "\n%s\n", d.message);
        CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
        check_model(m, path);
        models++;
        tco_model_free(m);
    }
    globfree(&g);
    CU_ASSERT(models >= 14);
}

static void test_mini_models(void)
{
    static const char *const names[] = {"good", "tiered", "lookup", "override"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[512];
        snprintf(path, sizeof path, TCO_SOURCE_DIR "/tests/fixtures/roots/mini/scenarios/%s.ini", names[k]);
        tco_model *m = NULL;
        tco_diag d = {0};
        tco_error e = load_evaluated(TCO_SOURCE_DIR "/tests/fixtures/roots/mini", path, NULL, &m, &d);
        if (e != TCO_OK)
            fprintf(stderr, "\n%s\n", d.message);
        CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
        check_model(m, path);
        tco_model_free(m);
    }
}

/* The instructions for slots of one kind (program.c, specialise(): SUM, MIN, MAX, AND and OR of
 * numbers, AND and OR of two without a loop, comparisons into TRUE/FALSE, IFs chosen or jumped over on
 * TRUE/FALSE, a CUMSUM carried on from the year before's), in a template of
 * their own over the mini model (tests/fixtures/roots/mini/templates/specialised.ini, worked there
 * by hand): the hand values, then program == tree with every input changed. */
static void test_specialised_instructions(void)
{
    tco_override o;
    CU_ASSERT_EQUAL_FATAL(tco_override_parse("scenario.template=specialised", &o, NULL), TCO_OK);
    tco_model *m = NULL;
    tco_diag d = {0};
    tco_error e = load_evaluated(TCO_SOURCE_DIR "/tests/fixtures/roots/mini",
                                 TCO_SOURCE_DIR "/tests/fixtures/roots/mini/scenarios/good.ini",
                                 &(tco_load_options){.overrides = &o, .n_overrides = 1}, &m, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    /* Evaluated twice more: the second time by the program (the first walks the trees). */
    CU_ASSERT_EQUAL_FATAL(tco_model_evaluate(m, &d), TCO_OK);
    CU_ASSERT_PTR_NOT_NULL(m->program);
    static const struct { const char *name; double value; } hand[] = {
        {"sum_args", 43}, {"largest", 30}, {"smallest", 0.5}, {"both", 30}, {"either", 5}, {"larger", 30}};
    for (size_t k = 0; k < sizeof hand / sizeof hand[0]; k++)
        CU_ASSERT_EQUAL(m->items[tco_model_find(m, hand[k].name)].value, hand[k].value);
    const tco_item *late = &m->items[tco_model_find(m, "late")];
    CU_ASSERT_EQUAL(late->years[0], 16); /* year 1: 15 + 1 */
    CU_ASSERT_EQUAL(late->years[1], 60); /* year 2: 30 x 2 */
    const tco_item *so_far = &m->items[tco_model_find(m, "so_far")];
    CU_ASSERT_EQUAL(so_far->years[0], 15); /* year 1: 0 + 15 */
    CU_ASSERT_EQUAL(so_far->years[1], 45); /* year 2: 15 + 30, carried on from year 1 (OP_RUNNING_ADD) */
    CU_ASSERT_EQUAL(m->items[tco_model_find(m, "running_total")].value, 45); /* 15 + 30 */
    check_model(m, "specialised.ini");
    tco_model_free(m);
}

/* 10^0 .. 10^22, which tco_excel_round() reads from a table, are what pow(10, k) gives. */
static void test_pow10_table(void)
{
    for (int k = 0; k < TCO_POW10_EXACT; k++)
        CU_ASSERT_EQUAL(tco_pow10_exact[k], pow(10, k));
}

/* A text input changed through the model's API (facility mode, owned -> colocation -> owned ->
 * colocation): the first evaluation with the new text walks the trees (no program: one evaluation
 * with those texts may be all there is), the second compiles the program (it folds the texts); the
 * values are the tree's either way.  tco_model_assign_text_input() changes the text alone.  A program
 * compiled before the changes fits the model again when its text is back (A -> B -> A: the model holds
 * a new copy, compared by value) and gives the figures of a fresh compile, and of the first run. */
static void test_text_input_recompiles(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &m, &d), TCO_OK);
    CU_ASSERT_PTR_NULL(m->program); /* the first evaluation walked the trees */
    CU_ASSERT_EQUAL_FATAL(tco_model_evaluate(m, &d), TCO_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m->program);
    snapshot first = take(m);
    tco_program *kept = NULL; /* compiled for facility_mode = owned, kept through the changes */
    CU_ASSERT_EQUAL_FATAL(tco_program_compile(m, &kept, &d), TCO_OK);
    static const char *const modes[] = {"colocation", "owned", "colocation"};
    for (size_t k = 0; k < 3; k++) {
        CU_ASSERT_EQUAL_FATAL(tco_model_set_text_input(m, "facility_mode", modes[k], &d), TCO_OK);
        CU_ASSERT_PTR_NULL(m->program); /* walked */
        snapshot walked = take(m);
        CU_ASSERT_EQUAL_FATAL(tco_model_evaluate(m, &d), TCO_OK);
        CU_ASSERT_PTR_NOT_NULL(m->program); /* compiled for these texts */
        snapshot ran = take(m);
        CU_ASSERT_EQUAL(tco_model_evaluate_tree(m, &d), TCO_OK);
        snapshot tree = take(m);
        CU_ASSERT_EQUAL(differences(&ran, &tree, modes[k]), 0);
        CU_ASSERT_EQUAL(differences(&walked, &tree, modes[k]), 0);
        CU_ASSERT_EQUAL(tco_program_fits(kept, m), strcmp(modes[k], "owned") == 0);
        drop(&ran);
        drop(&walked);
        drop(&tree);
    }
    /* Colocation has no cooling capex; owned has (it_peak_kw x 2,500 CNY/kW). */
    CU_ASSERT_EQUAL(m->items[tco_model_find(m, "cooling_capex")].value, 0);
    /* Assigned, not evaluated: the text changes, the figures stay colocation's until an evaluation. */
    CU_ASSERT_EQUAL_FATAL(tco_model_assign_text_input(m, "facility_mode", "OWNED", &d), TCO_OK);
    CU_ASSERT_STRING_EQUAL(m->items[tco_model_find(m, "facility_mode")].text, "owned"); /* as the template writes it */
    CU_ASSERT_EQUAL(m->items[tco_model_find(m, "cooling_capex")].value, 0);
    CU_ASSERT_EQUAL(tco_model_assign_text_input(m, "facility_mode", "cellar", &d), TCO_ERR_INI);
    CU_ASSERT_STRING_EQUAL(m->items[tco_model_find(m, "facility_mode")].text, "owned"); /* kept */
    /* The program kept from the start fits again, and gives a fresh compile's figures and the first run's. */
    CU_ASSERT_TRUE_FATAL(tco_program_fits(kept, m));
    CU_ASSERT_EQUAL_FATAL(tco_program_run(kept, m, &d), TCO_OK);
    snapshot reused = take(m);
    tco_program *fresh = NULL;
    CU_ASSERT_EQUAL_FATAL(tco_program_compile(m, &fresh, &d), TCO_OK);
    CU_ASSERT_EQUAL_FATAL(tco_program_run(fresh, m, &d), TCO_OK);
    snapshot again = take(m);
    CU_ASSERT_EQUAL(differences(&reused, &again, "owned again, the program kept against a fresh one"), 0);
    CU_ASSERT_EQUAL(differences(&reused, &first, "owned again, the program kept against the first run"), 0);
    CU_ASSERT(m->items[tco_model_find(m, "cooling_capex")].value > 0);
    tco_program_free(kept);
    tco_program_free(fresh);
    drop(&reused);
    drop(&again);
    drop(&first);
    tco_model_free(m);
}

/* cluster32 loaded with --set scenario.host=HOST (NULL: its own, dc8) and scenario.years=YEARS (0: its 3). */
static tco_model *cluster32_on(const char *host, int years)
{
    char args[2][64];
    tco_override o[2];
    size_t n = 0;
    tco_diag d = {0};
    if (host)
        snprintf(args[n++], sizeof args[0], "scenario.host=%s", host);
    if (years)
        snprintf(args[n++], sizeof args[0], "scenario.years=%d", years);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL_FATAL(tco_override_parse(args[i], &o[i], &d), TCO_OK);
    tco_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini",
                                         &(tco_load_options){.overrides = o, .n_overrides = n}, &m, &d), TCO_OK);
    return m;
}

/* A program runs another model of the same shape whose texts are its own (the advisor shares one among
 * its hosts): cluster32 in dc8 and in dc4, both module hosts, hold the same texts, and the program
 * compiled from the dc8 model gives the dc4 model its own tree's values: 32 cards over 4 slots a host
 * = 8 hosts (dc8: 32 / 8 = 4).  In ws4, a pcie host (host_slot differs), it does not fit; nor does a
 * model of 5 years (not the same shape). */
static void test_program_of_another_model(void)
{
    tco_model *dc8 = cluster32_on(NULL, 0), *dc4 = cluster32_on("dc4", 0), *ws4 = cluster32_on("ws4", 0);
    tco_model *five = cluster32_on(NULL, 5);
    tco_diag d = {0};
    CU_ASSERT_TRUE(tco_model_same_shape(dc8, dc4));
    CU_ASSERT_TRUE(tco_model_same_shape(dc8, ws4)); /* the same items: its texts differ */
    CU_ASSERT_FALSE(tco_model_same_shape(dc8, five));
    tco_program *p = NULL;
    CU_ASSERT_EQUAL_FATAL(tco_program_compile(dc8, &p, &d), TCO_OK);
    CU_ASSERT_TRUE_FATAL(tco_program_fits(p, dc4));
    CU_ASSERT_FALSE(tco_program_fits(p, ws4));
    CU_ASSERT_FALSE(tco_program_fits(p, five));
    CU_ASSERT_EQUAL_FATAL(tco_program_run(p, dc4, &d), TCO_OK);
    snapshot shared = take(dc4);
    CU_ASSERT_EQUAL(dc4->items[tco_model_find(dc4, "hosts")].value, 8);
    CU_ASSERT_EQUAL(tco_model_evaluate_tree(dc4, &d), TCO_OK);
    snapshot own = take(dc4);
    CU_ASSERT_EQUAL(differences(&shared, &own, "the dc8 program on the dc4 model"), 0);
    /* Back on its own model: it fits (the texts compared again) and gives dc8's 4 hosts. */
    CU_ASSERT_TRUE_FATAL(tco_program_fits(p, dc8));
    CU_ASSERT_EQUAL(tco_program_run(p, dc8, &d), TCO_OK);
    CU_ASSERT_EQUAL(dc8->items[tco_model_find(dc8, "hosts")].value, 4);
    drop(&shared);
    drop(&own);
    tco_program_free(p);
    tco_model_free(dc8);
    tco_model_free(dc4);
    tco_model_free(ws4);
    tco_model_free(five);
}

static int find(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    CU_ASSERT_FATAL(i >= 0);
    return i;
}

/* cluster32's electricity by hand, 1,000 times at as many prices.  Year 1 of the electricity line is
 * operating_year x facility_power_kw x hours_per_year x electricity_price x (1 + escalation)^0, with
 * operating_year 1 and the escalation 0 in pricing/site.ini: the facility's kW x 8,760 h x the price.
 * The IT load is (32 cards x 700 W x 0.9 utilisation + 4 hosts x 4,600 W) / 1000 + 2.5 kW of
 * network, storage and management = 41.06 kW; the facility draws 41.06 x PUE 1.3 = 53.378 kW, so at
 * 0.7 CNY/kWh a year is 53.378 x 8,760 x 0.7 = 327,313.896 CNY (the Budget's 27,276.158 a month). */
static void test_electricity_many_times(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &m, &d), TCO_OK);
    int price = find(m, "electricity_price"), kw = find(m, "facility_power_kw"), elec = find(m, "electricity");
    int hours = find(m, "hours_per_year"), esc = find(m, "electricity_escalation"), total = find(m, "electricity_total");
    CU_ASSERT_EQUAL(m->items[hours].value, 8760);
    CU_ASSERT_EQUAL(m->items[esc].value, 0);
    CU_ASSERT(fabs(m->items[kw].value - 53.378) < 1e-9);
    CU_ASSERT(fabs(tco_model_cell(m, elec, 1) - 327313.896) < 1e-6);
    CU_ASSERT(isnan(tco_model_cell(m, elec, 99)));
    double kw0 = m->items[kw].value;
    int checked = 0;
    for (int k = 0; k < 1000; k++) {
        double p = 0.3 + k * 0.001; /* 0.3 .. 1.299 CNY/kWh */
        CU_ASSERT_EQUAL_FATAL(tco_model_assign_input(m, price, p, &d), TCO_OK);
        CU_ASSERT_EQUAL_FATAL(tco_model_evaluate(m, &d), TCO_OK);
        /* Year 0 is the purchase (no electricity); years 1-3 each the same kW x 8760 x p, in the
         * formula's order of operations, so exactly. */
        CU_ASSERT_EQUAL(tco_model_cell(m, elec, 0), 0);
        double year = 1 * kw0 * 8760 * p * 1;
        for (int y = 1; y <= 3; y++)
            checked += tco_model_cell(m, elec, y) == year;
        CU_ASSERT_EQUAL(m->items[total].value, 0 + 0.0 + year + year + year);
        CU_ASSERT_EQUAL(m->items[kw].value, kw0); /* the price moves no kW */
    }
    CU_ASSERT_EQUAL(checked, 3000);
    /* An input out of its range is refused and keeps its value. */
    CU_ASSERT_EQUAL(tco_model_assign_input(m, price, -1, &d), TCO_ERR_INI);
    CU_ASSERT(strstr(d.message, "electricity_price") != NULL);
    CU_ASSERT_EQUAL(m->items[price].value, 0.3 + 999 * 0.001);
    CU_ASSERT_EQUAL(tco_model_assign_input(m, kw, 1, &d), TCO_ERR_UNKNOWN_NAME); /* a line, not an input */
    tco_model_free(m);
}

/* A program for a few targets (tco_program_compile_for(): Monte Carlo's three figures) gives them
 * exactly as the whole program does, for every shipped scenario with its ranged inputs moved to LOW,
 * HIGH and between; and it compiles fewer instructions.  Lines it does not need keep their values. */
static void test_program_for_targets(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob(TCO_SOURCE_DIR "/scenarios/*.ini", 0, NULL, &g), 0);
    int compared = 0;
    for (size_t f = 0; f < g.gl_pathc; f++) {
        tco_model *m = NULL;
        tco_diag d = {0};
        if (load_evaluated(TCO_SOURCE_DIR, g.gl_pathv[f], NULL, &m, &d) != TCO_OK)
            continue; /* a comparison or question file, not a scenario */
        int targets[3] = {m->role_tco, m->role_npv, m->role_unit_cost};
        tco_program *part = NULL, *whole = NULL;
        CU_ASSERT_EQUAL_FATAL(tco_program_compile_for(m, targets, 3, &part, &d), TCO_OK);
        CU_ASSERT_EQUAL_FATAL(tco_program_compile(m, &whole, &d), TCO_OK);
        CU_ASSERT(tco_program_length(part) < tco_program_length(whole));
        tco_ranged_input *in = NULL;
        size_t n = 0;
        CU_ASSERT_EQUAL_FATAL(tco_model_ranged_inputs(m, &in, &n, &d), TCO_OK);
        int irr = find(m, "irr_own_vs_rent");
        for (size_t j = 0; j < n; j++)
            for (int step = 0; step <= 4; step++) {
                tco_item *it = &m->items[in[j].item];
                double *v = in[j].tier < 0 ? &it->value : &it->tiers[in[j].tier], was = *v;
                *v = in[j].range->low + (in[j].range->high - in[j].range->low) * step / 4;
                CU_ASSERT_EQUAL_FATAL(tco_program_run(whole, m, &d), TCO_OK);
                double want[3], kept = irr >= 0 ? m->items[irr].value : 0;
                for (int t = 0; t < 3; t++)
                    want[t] = targets[t] >= 0 ? m->items[targets[t]].value : 0;
                for (int t = 0; t < 3; t++)
                    if (targets[t] >= 0)
                        m->items[targets[t]].value = -1; /* so that the part must write it */
                CU_ASSERT_EQUAL_FATAL(tco_program_run(part, m, &d), TCO_OK);
                for (int t = 0; t < 3; t++)
                    if (targets[t] >= 0 && m->items[targets[t]].text == NULL) {
                        CU_ASSERT_EQUAL(m->items[targets[t]].value, want[t]);
                        compared++;
                    }
                if (irr >= 0)
                    CU_ASSERT_EQUAL(m->items[irr].value, kept); /* not a target's: untouched */
                *v = was;
            }
        tco_ranged_inputs_free(in, n);
        tco_program_free(part);
        tco_program_free(whole);
        tco_model_free(m);
    }
    globfree(&g);
    CU_ASSERT(compared > 1000);
}

/* Run @p p (compiled with fixed inputs) and the tree on @p m: both succeed with the same cells, every
 * one (those worked out when compiling from the fixed inputs, as those a run computes), or both fail.
 * Returns 1 if both succeeded. */
static int fixed_same_as_tree(tco_program *p, tco_model *m, const char *what)
{
    tco_diag d = {0};
    tco_error ep = tco_program_run(p, m, &d);
    snapshot by_program = take(m);
    tco_error et = tco_model_evaluate_tree(m, &d);
    snapshot by_tree = take(m);
    if (ep != et)
        fprintf(stderr, "\n%s: program with fixed inputs gives %d, tree %d (%s)\n", what, ep, et, d.message);
    CU_ASSERT_EQUAL(ep, et);
    if (ep == TCO_OK && et == TCO_OK)
        CU_ASSERT_EQUAL(differences(&by_program, &by_tree, what), 0);
    drop(&by_program);
    drop(&by_tree);
    return ep == TCO_OK && et == TCO_OK;
}

/* A whole program of @p m with every number input fixed but the @p n items @p varying: as loaded, then
 * each varying input at two other values (each row of a per-tier one raised), program == tree, every
 * cell.  Returns the evaluations in which both succeeded. */
static size_t check_fixed(tco_model *m, const int *varying, size_t n, const char *name)
{
    tco_diag d = {0};
    tco_program *p = NULL;
    tco_program_options o = {.fix_inputs = true, .varying = varying, .n_varying = n};
    CU_ASSERT_EQUAL_FATAL(tco_program_compile_with(m, &o, &p, &d), TCO_OK);
    char what[600];
    snprintf(what, sizeof what, "%s as loaded, %zu inputs varying", name, n);
    size_t agreed = (size_t)fixed_same_as_tree(p, m, what);
    for (size_t j = 0; j < n; j++) {
        if (j > 0 && varying[j] == varying[j - 1])
            continue; /* a per-tier input's second range: its rows are all changed below */
        tco_item *it = &m->items[varying[j]];
        for (int r = it->kind == TCO_ITEM_TIER_INPUT ? 0 : -1; r < (it->kind == TCO_ITEM_TIER_INPUT ? m->n_tiers : 0);
             r++)
            for (int k = 0; k < (r < 0 ? 2 : 1); k++) {
                double *v = r < 0 ? &it->value : &it->tiers[r], was = *v;
                tco_error e = r < 0 ? tco_model_assign_input(m, varying[j], changed(it, was, k), &d)
                                    : tco_model_assign_tier_input(m, varying[j], r, changed(it, was, k), &d);
                if (e != TCO_OK)
                    continue;
                snprintf(what, sizeof what, "%s with %s%s%s = %.17g, the others fixed", name, it->name,
                         r < 0 ? "" : " row ", r < 0 ? "" : m->tier_names[r], *v);
                agreed += (size_t)fixed_same_as_tree(p, m, what);
                *v = was;
            }
    }
    tco_program_free(p);
    CU_ASSERT_EQUAL(tco_model_evaluate(m, &d), TCO_OK);
    return agreed;
}

/* Number inputs compiled as constants (tco_program_options.fix_inputs: Monte Carlo's and the advisor's
 * draws): for every shipped scenario with its ranged inputs varying, and for the scenarios and the mini
 * models (lookups, CUMSUM, tiers, the specialised template) with every second number input varying, a
 * whole program gives every cell as the tree does, the folded ones included, with the varying inputs
 * changed; and with no input varying, every cell of a scenario is worked out when compiling (no
 * instruction is left) and is the tree's. */
static void test_fixed_inputs_fold(void)
{
    glob_t g;
    CU_ASSERT_EQUAL_FATAL(glob(TCO_SOURCE_DIR "/scenarios/*.ini", 0, NULL, &g), 0);
    static const char *const minis[] = {"good", "tiered", "lookup", "override", "specialised"};
    size_t n_minis = sizeof minis / sizeof minis[0], models = 0, agreed = 0;
    for (size_t f = 0; f < g.gl_pathc + n_minis; f++) {
        tco_model *m = NULL;
        tco_diag d = {0};
        char path[512];
        const char *root = TCO_SOURCE_DIR;
        tco_override o;
        tco_load_options lo = {0};
        if (f < g.gl_pathc) {
            snprintf(path, sizeof path, "%s", g.gl_pathv[f]);
        } else {
            bool special = strcmp(minis[f - g.gl_pathc], "specialised") == 0;
            root = TCO_SOURCE_DIR "/tests/fixtures/roots/mini";
            snprintf(path, sizeof path, "%s/scenarios/%s.ini", root, special ? "good" : minis[f - g.gl_pathc]);
            CU_ASSERT_EQUAL_FATAL(tco_override_parse("scenario.template=specialised", &o, NULL), TCO_OK);
            lo = (tco_load_options){.overrides = &o, .n_overrides = special ? 1 : 0};
        }
        if (load_evaluated(root, path, &lo, &m, &d) != TCO_OK) {
            CU_ASSERT_FATAL(f < g.gl_pathc); /* a comparison or a question, not a scenario */
            continue;
        }
        models++;
        int *varying = malloc((m->n_items + 1) * sizeof *varying);
        CU_ASSERT_PTR_NOT_NULL_FATAL(varying);
        size_t n = 0, k = 0;
        if (f < g.gl_pathc) {
            tco_ranged_input *in = NULL;
            size_t n_in = 0;
            CU_ASSERT_EQUAL_FATAL(tco_model_ranged_inputs(m, &in, &n_in, &d), TCO_OK);
            for (size_t j = 0; j < n_in; j++)
                varying[n++] = in[j].item;
            tco_ranged_inputs_free(in, n_in);
            agreed += check_fixed(m, varying, n, path);
            /* Nothing varies: a program of constants, the tree's. */
            tco_program *p = NULL;
            tco_program_options none = {.fix_inputs = true};
            CU_ASSERT_EQUAL_FATAL(tco_program_compile_with(m, &none, &p, &d), TCO_OK);
            CU_ASSERT_EQUAL(tco_program_length(p), 0);
            agreed += (size_t)fixed_same_as_tree(p, m, path);
            tco_program_free(p);
        }
        n = 0;
        for (size_t i = 0; i < m->n_items; i++) {
            const tco_item *it = &m->items[i];
            bool number = (it->kind == TCO_ITEM_INPUT && it->text == NULL && !it->structural) ||
                          (it->kind == TCO_ITEM_TIER_INPUT && it->tier_texts == NULL);
            if (number && k++ % 2 == 0)
                varying[n++] = (int)i;
        }
        agreed += check_fixed(m, varying, n, path);
        free(varying);
        tco_model_free(m);
    }
    globfree(&g);
    CU_ASSERT(models >= 14);
    CU_ASSERT(agreed > 1000);
}

/* cluster32's Monte Carlo program (its three figures, the ranged inputs varying) with the discount rate
 * fixed at pricing/site.ini's 0.08: the Budget's monthly discount factors are worked out when compiling
 * (with the rate varying, each month's 1 / (1 + rate) ^ (month / 12) is a power and a division more in
 * every run: at least 2 x 36 instructions).  A model whose rate has moved is refused, naming it, and
 * nothing is copied; set back, it runs again; compiled again at the new rate, it gives the tree's net
 * present cost at that rate. */
static void test_fixed_input_refused(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &m, &d), TCO_OK);
    int rate = find(m, "discount_rate"), factor = find(m, "budget_discount_factor");
    CU_ASSERT_EQUAL_FATAL(m->items[rate].value, 0.08);
    CU_ASSERT_EQUAL_FATAL(m->items[rate].range.dist, TCO_DIST_NONE); /* not drawn */
    tco_ranged_input *in = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL_FATAL(tco_model_ranged_inputs(m, &in, &n, &d), TCO_OK);
    int *varying = malloc((n + 1) * sizeof *varying);
    CU_ASSERT_PTR_NOT_NULL_FATAL(varying);
    for (size_t j = 0; j < n; j++)
        varying[j] = in[j].item;
    int targets[3] = {m->role_tco, m->role_npv, m->role_unit_cost};
    tco_program_options o = {.targets = targets, .n_targets = 3, .fix_inputs = true, .varying = varying, .n_varying = n};
    tco_program *part = NULL, *with_rate = NULL, *whole = NULL;
    CU_ASSERT_EQUAL_FATAL(tco_program_compile_with(m, &o, &part, &d), TCO_OK);
    varying[n] = rate;
    o.n_varying = n + 1;
    CU_ASSERT_EQUAL_FATAL(tco_program_compile_with(m, &o, &with_rate, &d), TCO_OK);
    CU_ASSERT(tco_program_length(with_rate) >= tco_program_length(part) + 2 * 36);
    /* The folded factors are the tree's: month 12 at the end of the month is 1 / 1.08 ^ (12 / 12), and
     * pow(x, 1) is x, so exactly 1 / 1.08 (0.9259...). */
    o = (tco_program_options){.fix_inputs = true, .varying = varying, .n_varying = n};
    CU_ASSERT_EQUAL_FATAL(tco_program_compile_with(m, &o, &whole, &d), TCO_OK);
    CU_ASSERT_EQUAL_FATAL(tco_program_run(whole, m, &d), TCO_OK);
    CU_ASSERT_EQUAL(m->items[factor].years[11], 1 / 1.08);
    CU_ASSERT_EQUAL(fixed_same_as_tree(whole, m, "cluster32, the rate fixed"), 1);
    double npv = m->items[m->role_npv].value;
    /* The rate moves: refused (TCO_ERR_USAGE, naming it), the figures untouched. */
    m->items[rate].value = 0.1;
    CU_ASSERT(!tco_program_fits(part, m));
    CU_ASSERT(tco_program_fits(with_rate, m)); /* its rate is read at each run */
    m->items[m->role_npv].value = -1;
    d = (tco_diag){0};
    CU_ASSERT_EQUAL(tco_program_run(part, m, &d), TCO_ERR_USAGE);
    CU_ASSERT(strstr(d.message, "discount_rate = 0.08") != NULL);
    CU_ASSERT(strstr(d.message, "now holds 0.1") != NULL);
    CU_ASSERT_EQUAL(m->items[m->role_npv].value, -1);
    CU_ASSERT_EQUAL(tco_program_run(whole, m, &d), TCO_ERR_USAGE);
    /* Set back: it fits and runs. */
    m->items[rate].value = 0.08;
    CU_ASSERT(tco_program_fits(part, m));
    CU_ASSERT_EQUAL(tco_program_run(part, m, &d), TCO_OK);
    CU_ASSERT_EQUAL(m->items[m->role_npv].value, npv);
    /* A per-tier input fixed and moved is named with its tier. */
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        bool drawn = false;
        for (size_t j = 0; j < n; j++)
            drawn = drawn || varying[j] == (int)i;
        if (it->kind != TCO_ITEM_TIER_INPUT || it->tier_texts != NULL || drawn)
            continue;
        double was = it->tiers[1];
        it->tiers[1] = was + 1;
        CU_ASSERT_EQUAL(tco_program_run(whole, m, &d), TCO_ERR_USAGE);
        char named[200];
        snprintf(named, sizeof named, "%s[%s] = ", it->name, m->tier_names[1]);
        CU_ASSERT(strstr(d.message, named) != NULL);
        it->tiers[1] = was;
        break;
    }
    /* Compiled again at 0.1: the tree's net present cost at 0.1, below the one at 0.08 (every month's
     * cash out is positive and discounted more). */
    m->items[rate].value = 0.1;
    tco_program_free(part);
    o = (tco_program_options){.targets = targets, .n_targets = 3, .fix_inputs = true, .varying = varying,
                              .n_varying = n};
    CU_ASSERT_EQUAL_FATAL(tco_program_compile_with(m, &o, &part, &d), TCO_OK);
    CU_ASSERT_EQUAL_FATAL(tco_program_run(part, m, &d), TCO_OK);
    double npv_10 = m->items[m->role_npv].value;
    CU_ASSERT_EQUAL_FATAL(tco_model_evaluate_tree(m, &d), TCO_OK);
    CU_ASSERT_EQUAL(npv_10, m->items[m->role_npv].value);
    CU_ASSERT(npv_10 < npv);
    m->items[rate].value = 0.08;
    CU_ASSERT_EQUAL(tco_model_evaluate(m, &d), TCO_OK);
    tco_ranged_inputs_free(in, n);
    free(varying);
    tco_program_free(part);
    tco_program_free(with_rate);
    tco_program_free(whole);
    tco_model_free(m);
}

/* An evaluation error keeps the tree evaluator's message: the line, the year and the values. */
static void test_error_message(void)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &m, &d), TCO_OK);
    /* book_life_years = 0 is outside its range; the straight-line depreciation divides by it, so set
     * it behind the range check to reach the division. */
    int life = find(m, "book_life_years");
    double keep = m->items[life].value;
    m->items[life].value = 0;
    d = (tco_diag){0};
    CU_ASSERT_EQUAL(tco_model_evaluate(m, &d), TCO_ERR_EVAL);
    CU_ASSERT(strstr(d.message, "templates/tco.ini [line.") != NULL);
    CU_ASSERT(strstr(d.message, "(#DIV/0!)") != NULL);
    CU_ASSERT(strstr(d.message, "book_life_years = 0") != NULL);
    m->items[life].value = keep;
    CU_ASSERT_EQUAL(tco_model_evaluate(m, &d), TCO_OK);
    tco_model_free(m);
}

/* ROUND's quick path (tco_excel_round skips its 15-digit snap where the snap cannot change the
 * result): the snap is idempotent (a 15-digit decimal survives the round trip through a double), so
 * rounding x must give what rounding snap(x) gives, for which the snap, taken or not, is a no-op. */
static double snap15(double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.14e", v);
    return strtod(buf, NULL);
}

static void test_round_quick_path(void)
{
    static const tco_func modes[] = {TCO_FN_ROUND, TCO_FN_ROUNDUP, TCO_FN_ROUNDDOWN};
    uint64_t state = 0x9E3779B97F4A7C15u;
    size_t same = 0, cases = 0;
    for (int k = 0; k < 300000; k++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        double whole = (double)(int64_t)(state % 2000001) - 1000000, x;
        switch (k % 5) {
        case 0: x = whole + (double)(state >> 11) * 0x1p-53; break;                 /* any fraction */
        case 1: x = whole + 0.5 + ((double)(state >> 40) - 8388608) * 1e-17; break; /* near a half */
        case 2: x = whole * (1 + ((double)(state >> 40) - 8388608) * 1e-22); break; /* near a whole number */
        case 3: x = (whole / 10) * 3; break;                                        /* tenths times 3 */
        default: x = whole * 1e9 + 0.5; break;                                      /* large */
        }
        if (x == 0 || fabs(x) >= 0x1p52)
            continue;
        for (size_t j = 0; j < 3; j++) {
            double a = tco_excel_round(x, 0, modes[j]), b = tco_excel_round(snap15(x), 0, modes[j]);
            same += memcmp(&a, &b, sizeof a) == 0;
            cases++;
        }
    }
    CU_ASSERT(cases > 800000);
    CU_ASSERT_EQUAL(same, cases);
    CU_ASSERT_EQUAL(tco_excel_round(0.1 * 3, 1, TCO_FN_ROUNDUP), 0.3);
    CU_ASSERT_EQUAL(tco_excel_round(2.5, 0, TCO_FN_ROUND), 3);
    CU_ASSERT_EQUAL(tco_excel_round(-2.5, 0, TCO_FN_ROUND), -3);
    CU_ASSERT_EQUAL(tco_excel_round(3.0000000000000004, 0, TCO_FN_ROUNDUP), 3); /* snapped to 3, not 4 */
}

/* Text equality: ASCII folded, other scripts by tco_utf8_casecmp. */
static void test_text_equal(void)
{
    CU_ASSERT(tco_formula_text_equal("Colocation", "colocATION"));
    CU_ASSERT(!tco_formula_text_equal("colocation", "colocatio"));
    CU_ASSERT(!tco_formula_text_equal("N+1", "n+2"));
    CU_ASSERT(!tco_formula_text_equal("@", "`")); /* 0x40 and 0x60 differ by the case bit; not letters */
    CU_ASSERT(tco_formula_text_equal("", ""));
    CU_ASSERT(tco_formula_text_equal("d-m ÄÖ", "D-M äö"));
    CU_ASSERT(!tco_formula_text_equal("d-m ÄÖ", "D-M äo"));
}

CU_ErrorCode register_program_suite(void)
{
    CU_pSuite s = CU_add_suite("program", NULL, NULL);
    if (s == NULL ||
        !CU_add_test(s, "every shipped scenario: program equals tree, inputs changed", test_every_scenario) ||
        !CU_add_test(s, "mini models (lookups, text, CUMSUM, tiers): program equals tree", test_mini_models) ||
        !CU_add_test(s, "instructions for slots of one kind: hand values, program equals tree",
                     test_specialised_instructions) ||
        !CU_add_test(s, "powers of ten read from a table equal pow()", test_pow10_table) ||
        !CU_add_test(s, "electricity = kW x 8760 x price, 1,000 prices", test_electricity_many_times) ||
        !CU_add_test(s, "a text input changed: walked, compiled again, the tree's values; A -> B -> A reuses",
                     test_text_input_recompiles) ||
        !CU_add_test(s, "a program runs another model of its shape and texts", test_program_of_another_model) ||
        !CU_add_test(s, "an error keeps the tree's message", test_error_message) ||
        !CU_add_test(s, "a program for the figures alone gives them as the whole", test_program_for_targets) ||
        !CU_add_test(s, "number inputs fixed: every cell as the tree's, folded or run", test_fixed_inputs_fold) ||
        !CU_add_test(s, "a fixed input moved is refused, named; compiled again, the tree's", test_fixed_input_refused) ||
        !CU_add_test(s, "ROUND's quick path gives the snapped result", test_round_quick_path) ||
        !CU_add_test(s, "text equality, ASCII and other scripts", test_text_equal))
        return CU_get_error();
    return CUE_SUCCESS;
}
