/*
 * formula_book.c - write every value case of tests/fixtures/formulas/ *.test
 * into one workbook, each as the formula tco would write (printed from the
 * tree) with the engine's value cached, so that a spreadsheet application's
 * recalculation (tests/recalc.py check) proves the engine evaluates the subset
 * exactly as Gnumeric and LibreOffice do.
 *
 * Usage: formula_book OUT.xlsx FIXTURE.test...
 * Inputs of case N become defined names case_N_<name> on the Inputs sheet.
 * Boolean results are written as IF(formula,1,0) so the cached value is a number.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xlsxwriter.h>

#include "fixture.h"
#include "model/formula.h"

typedef struct book_ctx {
    const fixture_case *c;
    size_t index;
} book_ctx;

static bool book_name(void *vctx, const tco_node *n, tco_ref_mode mode, tco_strbuf *out)
{
    (void)mode;
    /* Print the name as it was defined: Gnumeric matches defined names case-sensitively
     * (a formula reading case_1_PUE finds no name case_1_pue and gives #NAME?). */
    book_ctx *bc = vctx;
    const char *canonical = n->name;
    for (size_t i = 0; i < bc->c->n_inputs; i++)
        if (strcasecmp(bc->c->input_names[i], n->name) == 0)
            canonical = bc->c->input_names[i];
    tco_strbuf_printf(out, "case_%zu_%s", bc->index, canonical);
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: formula_book OUT.xlsx FIXTURE.test...\n");
        return 64;
    }
    lxw_workbook *wb = workbook_new(argv[1]);
    if (wb == NULL)
        return 73;
    lxw_worksheet *cases_ws = workbook_add_worksheet(wb, "Cases");
    lxw_worksheet *inputs_ws = workbook_add_worksheet(wb, "Inputs");
    size_t row = 0, input_row = 0, index = 0;
    int rc = 0;
    for (int a = 2; a < argc; a++) {
        size_t n;
        fixture_case *cases = fixture_read(argv[a], &n);
        if (cases == NULL) {
            rc = 65;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            const fixture_case *c = &cases[i];
            if (!c->has_value)
                continue;
            book_ctx bc = {.c = c, .index = ++index};
            tco_node *tree = NULL;
            tco_diag d = {0};
            tco_value v;
            if (tco_formula_parse(c->formula, &(tco_place){.file = "case"}, &tree, &d) != TCO_OK ||
                tco_formula_eval(tree, &(tco_eval_env){fixture_lookup, NULL, NULL, (void *)(uintptr_t)c, -1},
                                 &(tco_place){.file = "case"}, &v, &d) != TCO_OK) {
                fprintf(stderr, "%s:%d: %s\n", c->file, c->line, d.message);
                rc = 1;
                tco_node_free(tree);
                continue;
            }
            for (size_t k = 0; k < c->n_inputs; k++) {
                char name[128], ref[64];
                snprintf(name, sizeof name, "case_%zu_%s", index, c->input_names[k]);
                snprintf(ref, sizeof ref, "=Inputs!$B$%zu", input_row + 1);
                worksheet_write_string(inputs_ws, (lxw_row_t)input_row, 0, name, NULL);
                worksheet_write_number(inputs_ws, (lxw_row_t)input_row, 1, c->input_values[k], NULL);
                workbook_define_name(wb, name, ref);
                input_row++;
            }
            tco_strbuf f = {0};
            tco_strbuf_append(&f, v.is_bool ? "=IF(" : "=");
            tco_formula_print(tree, book_name, &bc, &f);
            if (v.is_bool)
                tco_strbuf_append(&f, ",1,0)");
            char where[300];
            snprintf(where, sizeof where, "%s:%d", c->file, c->line);
            worksheet_write_string(cases_ws, (lxw_row_t)row, 0, where, NULL);
            worksheet_write_string(cases_ws, (lxw_row_t)row, 1, c->formula, NULL);
            worksheet_write_formula_num(cases_ws, (lxw_row_t)row, 2, tco_strbuf_str(&f), NULL, v.number);
            row++;
            tco_strbuf_free(&f);
            tco_node_free(tree);
        }
        free(cases);
    }
    if (workbook_close(wb) != LXW_NO_ERROR)
        return 73;
    printf("%zu formula cases written to %s\n", row, argv[1]);
    return rc;
}
