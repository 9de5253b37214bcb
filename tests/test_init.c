/* test_init.c - engine/apps/init.c: tco init DIR makes a working folder (the scenario, copies of the
 * catalog and template, a README), refuses a folder that is not empty, and leaves nothing behind. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/init.h"
#include "suites.h"

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static char *slurp(const char *path, long *n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)*n + 1);
    if (s != NULL && fread(s, 1, (size_t)*n, f) != (size_t)*n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s != NULL)
        s[*n] = '\0';
    return s;
}

static bool same_file(const char *a, const char *b)
{
    long na = 0, nb = 0;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    bool same = x != NULL && y != NULL && na == nb && memcmp(x, y, (size_t)na) == 0;
    free(x);
    free(y);
    return same;
}

static void test_init_folder(void)
{
    char tmp[] = "/tmp/tco-init-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmp));
    char dir[256], path[320];
    snprintf(dir, sizeof dir, "%s/work", tmp);
    tco_init_request req = {.root = TCO_SOURCE_DIR,
                            .scenario_path = TCO_SOURCE_DIR "/scenarios/cluster32.ini",
                            .name = "cluster32",
                            .dir = dir,
                            .command = "tco"};
    tco_diag d = {0};
    FILE *report = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(report);
    tco_error e = tco_init_folder(&req, report, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    const char *copies[] = {"pricing/site.ini", "pricing/cards.ini", "pricing/hosts.ini", "pricing/fx.ini",
                            "templates/tco.ini"};
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++) {
        char src[320];
        snprintf(src, sizeof src, "%s/%s", TCO_SOURCE_DIR, copies[i]);
        snprintf(path, sizeof path, "%s/%s", dir, copies[i]);
        CU_ASSERT_TRUE(same_file(src, path));
    }
    snprintf(path, sizeof path, "%s/scenarios/cluster32.ini", dir);
    CU_ASSERT_TRUE(same_file(TCO_SOURCE_DIR "/scenarios/cluster32.ini", path));
    snprintf(path, sizeof path, "%s/README.md", dir);
    long n = 0;
    char *readme = slurp(path, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(readme);
    CU_ASSERT_PTR_NOT_NULL(strstr(readme, "tco --scenario cluster32")); /* the run line, with the command given */
    free(readme);
    char said[4096] = "";
    rewind(report);
    size_t got = fread(said, 1, sizeof said - 1, report);
    said[got] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(said, "scenarios/cluster32.ini, pricing/ ("));
    fclose(report);
    /* The folder is no longer empty: refused, and what is there stays. */
    CU_ASSERT_EQUAL(tco_init_folder(&req, NULL, &d), TCO_ERR_CANTCREATE);
    snprintf(path, sizeof path, "%s/templates/tco.ini", dir);
    CU_ASSERT_TRUE(same_file(TCO_SOURCE_DIR "/templates/tco.ini", path));
    /* A parent that does not exist: refused, nothing made. */
    snprintf(dir, sizeof dir, "%s/no/such", tmp);
    CU_ASSERT_EQUAL(tco_init_folder(&req, NULL, &d), TCO_ERR_CANTCREATE);
    snprintf(path, sizeof path, "%s/no", tmp);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    CU_ASSERT_EQUAL(nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

CU_ErrorCode register_init_suite(void)
{
    CU_pSuite s = CU_add_suite("init", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "tco init DIR: the folder made, and refused", test_init_folder))
        return CU_get_error();
    return CUE_SUCCESS;
}
