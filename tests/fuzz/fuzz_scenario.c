/* fuzz_scenario.c - libFuzzer harness: any bytes as a scenario INI, loaded with
 * the project's real pricing/ and templates/ through every check (TCO_FUZZ_ROOT). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "model/model.h"
#include "load/load.h"
#include "../loaded.h"

#ifndef TCO_FUZZ_ROOT
#define TCO_FUZZ_ROOT "."
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/tco-fuzz-%ld.ini", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    tco_model *m = NULL;
    tco_diag d = {0};
    if (load_evaluated(TCO_FUZZ_ROOT, path, NULL, &m, &d) == TCO_OK)
        tco_model_free(m);
    unlink(path);
    return 0;
}
