/* fuzz_question.c - libFuzzer harness: any bytes as a question file of `tco advise` (a scenario INI with an
 * [advise] section, docs/advise.md), answered with the project's own pricing/ and templates/
 * (TCO_FUZZ_ROOT) as `tco advise FILE` answers it: the question's keys, lists and bounds, a model per host,
 * every candidate evaluated and ranked.  When an answer is given, its table and its JSON are printed into
 * memory and its workbook is written into a private folder and read back with the verifier.  abort() when
 * the table carries a control character or a byte that is not UTF-8 (an escape sequence from the file),
 * when the JSON printed does not parse, when writing the workbook fails with "cannot create" (exit 73: a
 * question that is answered must give a workbook that opens; a text it shows is refused when the file is
 * read), or when the workbook written does not verify. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "apps/advise.h"
#include "base/utf8.h"
#include "read/ini.h"
#include "render/output.h"

#ifndef TCO_FUZZ_ROOT
#define TCO_FUZZ_ROOT "."
#endif

static char dir[64];
static char question[96];
static char book[96];

static void cleanup(void)
{
    unlink(question);
    unlink(book);
    rmdir(dir);
}

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_question: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    cleanup(); /* abort() skips atexit */
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(dir, sizeof dir, "/tmp/tco-fuzz-question-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("fuzz_question: mkdtemp");
        abort();
    }
    snprintf(question, sizeof question, "%s/q.ini", dir);
    snprintf(book, sizeof book, "%s/advise-q.xlsx", dir);
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
    FILE *f = fopen(question, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    tco_ini_cache files = {0};
    /* as tco advise: today's date would judge quotes, and there are none; the workbook's date is fixed */
    tco_advise_request req = {.root = TCO_FUZZ_ROOT, .path = question, .name = "q", .files = &files};
    tco_advice a;
    tco_diag d = {0};
    if (tco_advise(&req, &a, &d) != TCO_OK) {
        if (d.code == TCO_ERR_CANTCREATE)
            fail("a question refused with exit 73", d.message);
        tco_advice_free(&a);
        tco_ini_cache_free(&files);
        return 0;
    }
    char *text = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&text, &n);
    if (mem == NULL)
        abort();
    tco_advise_print_table(&a, NULL, mem);
    if (fclose(mem) != 0)
        abort();
    check_table(text, n);
    free(text);
    mem = open_memstream(&text, &n);
    if (mem == NULL)
        abort();
    tco_advise_print_json(&a, NULL, mem);
    if (fclose(mem) != 0)
        abort();
    json_error_t je;
    json_t *back = json_loadb(text, n, 0, &je);
    if (back == NULL)
        fail("the JSON printed does not parse", je.text);
    json_decref(back);
    free(text);
    tco_workbook_options o = {.created = 1, .currency = a.currency};
    tco_error e = a.n_options > 0 ? tco_advise_workbook(&req, &a, book, &o, &d) : TCO_OK;
    tco_advice_free(&a);
    tco_ini_cache_free(&files);
    if (e == TCO_ERR_CANTCREATE)
        fail("an answered question's workbook was not written", d.message);
    if (e != TCO_OK || access(book, F_OK) != 0)
        return 0;
    if (tco_output_verify_xlsx(book, NULL, 0, &d) != TCO_OK)
        fail("the workbook written does not verify", d.message);
    unlink(book);
    return 0;
}
