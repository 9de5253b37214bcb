/* fuzz_formula.c - libFuzzer harness: any bytes through the formula parser,
 * printer and evaluator (names resolve to 1.5, vectors to {1, 2, 3}). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/formula.h"

static tco_error value(void *ctx, const tco_node *n, tco_value *v, tco_diag *d)
{
    (void)ctx, (void)n, (void)d;
    v->number = 1.5;
    v->is_bool = false;
    v->text = NULL;
    return TCO_OK;
}

static tco_error vector(void *ctx, const tco_node *n, const double **values, size_t *count, tco_diag *d)
{
    static const double v[3] = {1, 2, 3};
    (void)ctx, (void)n, (void)d;
    *values = v;
    *count = 3;
    return TCO_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    tco_node *tree = NULL;
    tco_diag d = {0};
    if (tco_formula_parse(text, &(tco_place){.file = "fuzz"}, &tree, &d) == TCO_OK) {
        tco_strbuf b = {0};
        tco_formula_print(tree, NULL, NULL, &b);
        /* The printed text parses again. */
        tco_node *again = NULL;
        if (!b.failed && tco_formula_parse(tco_strbuf_str(&b), &(tco_place){.file = "fuzz"}, &again, &d) != TCO_OK &&
            d.code != TCO_ERR_TOO_DEEP && d.code != TCO_ERR_SYNTAX)
            abort();
        tco_node_free(again);
        tco_strbuf_free(&b);
        tco_eval_env env = {value, vector, NULL, NULL, 1};
        tco_value v;
        tco_formula_eval(tree, &env, &(tco_place){.file = "fuzz"}, &v, &d);
        tco_node_free(tree);
    }
    free(text);
    return 0;
}
