/* fuzz_workbook.c - libFuzzer harness: any bytes as a scenario INI for the mini root
 * (tests/fixtures/roots/mini).  When the scenario loads, its workbook is written into a private
 * folder and read back with the verifier (every part there, every XML part well-formed): a model
 * that loads must give a workbook that opens.  abort() when it does not - whether tco_workbook_write()
 * itself refused the written package or a written one fails verification - or when writing a loaded
 * model fails with "cannot create" (exit 73: bad input must be refused when it is read, with its place
 * named, never surface as a workbook that cannot be made). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "render/output.h"
#include "render/workbook.h"
#include "load/load.h"
#include "../loaded.h"

#ifndef TCO_FUZZ_ROOT
#define TCO_FUZZ_ROOT "."
#endif
#define MINI TCO_FUZZ_ROOT "/tests/fixtures/roots/mini"

static char dir[64];
static char ini[96];
static char book[96];

static void cleanup(void)
{
    unlink(ini);
    unlink(book);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(dir, sizeof dir, "/tmp/tco-fuzz-workbook-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("fuzz_workbook: mkdtemp");
        abort();
    }
    snprintf(ini, sizeof ini, "%s/fuzz.ini", dir);
    snprintf(book, sizeof book, "%s/fuzz.xlsx", dir);
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(ini, "wb");
    if (f == NULL)
        abort();
    if (fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    tco_model *m = NULL;
    tco_diag d = {0};
    if (load_evaluated(MINI, ini, NULL, &m, &d) != TCO_OK)
        return 0;
    tco_workbook_options o = {.created = 1, .currency = "CNY"};
    tco_error e = tco_workbook_write(m, book, &o, &d);
    tco_model_free(m);
    if (e == TCO_ERR_CANTCREATE) { /* a located data error (65) found while writing is not this harness's concern */
        fprintf(stderr, "fuzz_workbook: a scenario that loads was not written: %s\n", d.message);
        cleanup(); /* abort() skips atexit */
        abort();
    }
    if (e != TCO_OK)
        return 0;
    if (tco_output_verify_xlsx(book, NULL, 0, &d) != TCO_OK) {
        fprintf(stderr, "fuzz_workbook: the workbook written does not verify: %s\n", d.message);
        cleanup();
        abort();
    }
    unlink(book);
    return 0;
}
