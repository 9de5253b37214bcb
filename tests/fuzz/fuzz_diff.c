/* fuzz_diff.c - libFuzzer harness: any bytes as NEW.json of `tco diff OLD.json NEW.json`, against a fixed
 * OLD summary (tests/fuzz/diff/cluster32.json, written by tco --scenario cluster32 --format json
 * --no-workbook) over the project's own root.  When the bridge is computed, its table and its JSON are
 * printed into memory and its workbook is written into a private folder and read back with the
 * verifier.  abort() when the table carries a control character (an escape sequence from the file) or
 * a non-UTF-8 byte, when the JSON printed does not parse, when writing the workbook fails with "cannot
 * create" (exit 73: a text the bridge shows must be refused when the file is read, naming the file and
 * the key), or when the workbook written does not verify. */
#include "apps/bridge.h"
#include "render/output.h"

#include "fuzz_kit.h"

#ifndef TCO_FUZZ_ROOT
#define TCO_FUZZ_ROOT "."
#endif
#define OLD TCO_FUZZ_ROOT "/tests/fuzz/diff/cluster32.json"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_setup("fuzz_diff", "new.json", "bridge.xlsx");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_input(data, size);
    tco_bridge_request req = {TCO_FUZZ_ROOT, OLD, fuzz_input, TCO_BRIDGE_ORDER_EFFECT};
    tco_bridge b;
    tco_diag d = {0};
    if (tco_bridge_run(&req, &b, &d) != TCO_OK) {
        if (d.code == TCO_ERR_CANTCREATE)
            fuzz_fail("a bridge refused with exit 73", d.message);
        tco_bridge_free(&b);
        return 0;
    }
    char *text = NULL;
    size_t n = 0;
    FILE *mem = fuzz_print_open(&text, &n);
    tco_bridge_print_table(&b, mem);
    fuzz_printed(mem, &text, &n, 0);
    mem = fuzz_print_open(&text, &n);
    tco_bridge_print_json(&b, mem);
    fuzz_printed(mem, &text, &n, 1);
    tco_workbook_options o = {.created = 1, .currency = b.currency};
    tco_error e = tco_bridge_write_book(&b, fuzz_book, &o, &d);
    tco_bridge_free(&b);
    if (e == TCO_ERR_CANTCREATE)
        fuzz_fail("a bridge computed was not written", d.message);
    if (e != TCO_OK)
        return 0;
    if (tco_output_verify_xlsx(fuzz_book, NULL, 0, &d) != TCO_OK)
        fuzz_fail("the workbook written does not verify", d.message);
    unlink(fuzz_book);
    return 0;
}
