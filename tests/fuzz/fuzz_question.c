/* fuzz_question.c - libFuzzer harness: any bytes as a question file of `tco advise` (a scenario INI with an
 * [advise] section, docs/advise.md), answered with the project's own pricing/ and templates/
 * (TCO_FUZZ_ROOT) as `tco advise FILE` answers it: the question's keys, lists and bounds, a model per host,
 * every candidate evaluated and ranked.  When an answer is given, its table and its JSON are printed into
 * memory and its workbook is written into a private folder and read back with the verifier.  abort() when
 * the table carries a control character or a byte that is not UTF-8 (an escape sequence from the file),
 * when the JSON printed does not parse, when writing the workbook fails with "cannot create" (exit 73: a
 * question that is answered must give a workbook that opens; a text it shows is refused when the file is
 * read), or when the workbook written does not verify. */
#include "apps/advise.h"
#include "read/ini.h"
#include "render/output.h"

#include "fuzz_kit.h"

#ifndef TCO_FUZZ_ROOT
#define TCO_FUZZ_ROOT "."
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_setup("fuzz_question", "q.ini", "advise-q.xlsx");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_input(data, size);
    tco_ini_cache files = {0};
    /* as tco advise: today's date would judge quotes, and there are none; the workbook's date is fixed */
    tco_advise_request req = {.root = TCO_FUZZ_ROOT, .path = fuzz_input, .name = "q", .files = &files};
    tco_advice a;
    tco_diag d = {0};
    if (tco_advise(&req, &a, &d) != TCO_OK) {
        if (d.code == TCO_ERR_CANTCREATE)
            fuzz_fail("a question refused with exit 73", d.message);
        tco_advice_free(&a);
        tco_ini_cache_free(&files);
        return 0;
    }
    char *text = NULL;
    size_t n = 0;
    FILE *mem = fuzz_print_open(&text, &n);
    tco_advise_print_table(&a, NULL, mem);
    fuzz_printed(mem, &text, &n, 0);
    mem = fuzz_print_open(&text, &n);
    tco_advise_print_json(&a, NULL, mem);
    fuzz_printed(mem, &text, &n, 1);
    tco_workbook_options o = {.created = 1, .currency = a.currency};
    tco_error e = a.n_options > 0 ? tco_advise_workbook(&req, &a, fuzz_book, &o, &d) : TCO_OK;
    tco_advice_free(&a);
    tco_ini_cache_free(&files);
    if (e == TCO_ERR_CANTCREATE)
        fuzz_fail("an answered question's workbook was not written", d.message);
    if (e != TCO_OK || access(fuzz_book, F_OK) != 0)
        return 0;
    if (tco_output_verify_xlsx(fuzz_book, NULL, 0, &d) != TCO_OK)
        fuzz_fail("the workbook written does not verify", d.message);
    unlink(fuzz_book);
    return 0;
}
