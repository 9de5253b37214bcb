/* test_bridge.c - engine/apps/bridge.c: the budget bridge between two JSON summaries of cluster32 (tco diff).
 * NEW sets PUE 1.2 (from 1.3) and electricity 0.85 CNY/kWh (from 0.7).  In effect order:
 *   electricity alone  41.06 kW x 1.3 x 8,760 h x 3 yr x 0.15 CNY/kWh = +210,416.076 CNY
 *   then PUE at 0.85   -75,533.976 x 0.85 / 0.7                      =  -91,719.828 CNY
 * (PUE alone at 0.7 is 41.06 kW x 0.1 x 8,760 h x 3 yr x 0.7 = -75,533.976), and the deltas add up
 * exactly to NEW - OLD. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apps/bridge.h"
#include "model/model.h"
#include "render/report.h"
#include "load/load.h"
#include "loaded.h"
#include "suites.h"

static bool near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

/* Write cluster32's JSON summary with the --set values @p sets (n of them) to @p path. */
static void write_summary(const char *path, const char *const *sets, size_t n)
{
    tco_override ov[2];
    tco_diag d = {0};
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL_FATAL(tco_override_parse(sets[i], &ov[i], &d), TCO_OK);
    tco_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(
        load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", &(tco_load_options){.overrides = ov, .n_overrides = n}, &m, &d), TCO_OK);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    tco_report_json(m, "CNY", NULL, f);
    CU_ASSERT_EQUAL(fclose(f), 0);
    tco_model_free(m);
}

static void test_two_steps_by_hand(void)
{
    char dir[] = "/tmp/tco-bridge-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char old_path[64], new_path[64];
    snprintf(old_path, sizeof old_path, "%s/old.json", dir);
    snprintf(new_path, sizeof new_path, "%s/new.json", dir);
    write_summary(old_path, NULL, 0);
    const char *sets[] = {"facility.pue=1.2", "facility.electricity_price=0.85"};
    write_summary(new_path, sets, 2);
    tco_bridge_request req = {TCO_SOURCE_DIR, old_path, new_path, TCO_BRIDGE_ORDER_EFFECT};
    tco_bridge b;
    tco_diag d = {0};
    tco_error e = tco_bridge_run(&req, &b, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL(e, TCO_OK);
    if (e == TCO_OK) {
        CU_ASSERT_TRUE(near(b.tco_old, 7724461.688));
        CU_ASSERT_TRUE(near(b.tco_from, b.tco_old));
        CU_ASSERT_TRUE(b.exact);
        CU_ASSERT_EQUAL_FATAL(b.n_steps, 2);
        CU_ASSERT_STRING_EQUAL(b.steps[0].input, "electricity_price");
        CU_ASSERT_STRING_EQUAL(b.steps[0].set, "facility.electricity_price");
        CU_ASSERT_TRUE(near(b.steps[0].from, 0.7) && near(b.steps[0].to, 0.85));
        CU_ASSERT_TRUE(near(b.steps[0].alone, 210416.076));
        CU_ASSERT_TRUE(near(b.steps[0].delta, 210416.076));
        CU_ASSERT_STRING_EQUAL(b.steps[1].input, "pue");
        CU_ASSERT_TRUE(near(b.steps[1].alone, -75533.976));
        CU_ASSERT_TRUE(near(b.steps[1].delta, -91719.828));
        CU_ASSERT_TRUE(near(b.steps[1].tco, b.tco_new));
        CU_ASSERT_TRUE(near(b.tco_new - b.tco_old, 210416.076 - 91719.828));
        CU_ASSERT_EQUAL(b.tco_from + b.steps[0].delta + b.steps[1].delta, b.tco_to); /* exactly */
        CU_ASSERT_EQUAL(b.n_other, 0);
    }
    tco_bridge_free(&b);
    /* A file that is not a summary is refused, naming it. */
    FILE *f = fopen(new_path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("[1, 2]\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(tco_bridge_run(&req, &b, &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "new.json"));
    tco_bridge_free(&b);
    unlink(old_path);
    unlink(new_path);
    CU_ASSERT_EQUAL(rmdir(dir), 0);
}

CU_ErrorCode register_bridge_suite(void)
{
    CU_pSuite s = CU_add_suite("bridge", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "PUE and electricity price: two steps by hand", test_two_steps_by_hand))
        return CU_get_error();
    return CUE_SUCCESS;
}
