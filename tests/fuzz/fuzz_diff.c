/* fuzz_diff.c - libFuzzer harness: any bytes as NEW.json of `tco diff OLD.json NEW.json`, against a fixed
 * OLD summary (tests/fuzz/diff/cluster32.json, written by tco --scenario cluster32 --format json
 * --no-workbook) over the project's own root.  When the bridge is computed, its table and its JSON are
 * printed into memory and its workbook is written into a private folder and read back with the
 * verifier.  abort() when the table carries a control character (an escape sequence from the file) or
 * a non-UTF-8 byte, when the JSON printed does not parse, when writing the workbook fails with "cannot
 * create" (exit 73: a text the bridge shows must be refused when the file is read, naming the file and
 * the key), or when the workbook written does not verify. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "apps/bridge.h"
#include "base/utf8.h"
#include "render/output.h"

#ifndef TCO_FUZZ_ROOT
#define TCO_FUZZ_ROOT "."
#endif
#define OLD TCO_FUZZ_ROOT "/tests/fuzz/diff/cluster32.json"

static char dir[64];
static char json[96];
static char book[96];

static void cleanup(void)
{
    unlink(json);
    unlink(book);
    rmdir(dir);
}

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_diff: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    cleanup(); /* abort() skips atexit */
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(dir, sizeof dir, "/tmp/tco-fuzz-diff-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("fuzz_diff: mkdtemp");
        abort();
    }
    snprintf(json, sizeof json, "%s/new.json", dir);
    snprintf(book, sizeof book, "%s/bridge.xlsx", dir);
    atexit(cleanup);
    return 0;
}

/* The table's bytes: UTF-8 without a control character but the line end (no escape sequence). */
static void check_table(const char *s, size_t n)
{
    if (!tco_utf8_valid(s, n, NULL))
        fail("the table is not UTF-8", NULL);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\n') || c == 0x7F || (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] < 0xA0))
            fail("the table carries a control character", s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(json, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    tco_bridge_request req = {TCO_FUZZ_ROOT, OLD, json, TCO_BRIDGE_ORDER_EFFECT};
    tco_bridge b;
    tco_diag d = {0};
    if (tco_bridge_run(&req, &b, &d) != TCO_OK) {
        if (d.code == TCO_ERR_CANTCREATE)
            fail("a bridge refused with exit 73", d.message);
        tco_bridge_free(&b);
        return 0;
    }
    char *text = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&text, &n);
    if (mem == NULL)
        abort();
    tco_bridge_print_table(&b, mem);
    if (fclose(mem) != 0)
        abort();
    check_table(text, n);
    free(text);
    mem = open_memstream(&text, &n);
    if (mem == NULL)
        abort();
    tco_bridge_print_json(&b, mem);
    if (fclose(mem) != 0)
        abort();
    json_error_t je;
    json_t *back = json_loadb(text, n, 0, &je);
    if (back == NULL)
        fail("the JSON printed does not parse", je.text);
    json_decref(back);
    free(text);
    tco_workbook_options o = {.created = 1, .currency = b.currency};
    tco_error e = tco_bridge_write_book(&b, book, &o, &d);
    tco_bridge_free(&b);
    if (e == TCO_ERR_CANTCREATE)
        fail("a bridge computed was not written", d.message);
    if (e != TCO_OK)
        return 0;
    if (tco_output_verify_xlsx(book, NULL, 0, &d) != TCO_OK)
        fail("the workbook written does not verify", d.message);
    unlink(book);
    return 0;
}
