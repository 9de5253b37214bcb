/* fuzz_quotes.c - libFuzzer harness: any bytes as a vendor quote CSV file,
 * read, checked and chosen from (rates from the project's pricing/fx.ini). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "price/quote_choice.h"
#include "read/fx.h"
#include "read/quote_csv.h"

#ifndef TCO_FUZZ_ROOT
#define TCO_FUZZ_ROOT "."
#endif

static bool keep_all(void *ctx, const tco_quote *q)
{
    (void)ctx, (void)q;
    return true;
}

static bool go_on(void *ctx, const tco_diag *p, bool warning)
{
    (void)ctx, (void)p, (void)warning;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static tco_fx fx;
    static int loaded;
    tco_diag d = {0};
    if (!loaded && tco_fx_load(TCO_FUZZ_ROOT "/pricing/fx.ini", NULL, &fx, &d) != TCO_OK)
        abort();
    loaded = 1;
    char path[64];
    snprintf(path, sizeof path, "/tmp/tco-fuzz-%ld.csv", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    tco_quote_set set = {0};
    tco_quotes_read(path, &fx, keep_all, NULL, go_on, NULL, &set, &d);
    tco_quotes_choose(&set, "D-M", 32, 20787);
    tco_quotes_free(&set);
    unlink(path);
    return 0;
}
