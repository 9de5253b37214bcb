/*
 * loaded.h - a model loaded and evaluated, for the tests, fuzzers and benchmarks that read its values:
 * the loader binds and orders (load.h), the caller evaluates (evaluate.h).
 */
#ifndef TCO_TEST_LOADED_H
#define TCO_TEST_LOADED_H

#include <stddef.h>

#include "load/load.h"
#include "model/evaluate.h"

/* tco_model_load() then tco_model_evaluate(): TCO_OK with *@p out evaluated, or the first error with
 * *@p out NULL (the model freed). */
static inline tco_error load_evaluated(const char *root, const char *path, const tco_load_options *opts,
                                       tco_model **out, tco_diag *d)
{
    tco_error e = tco_model_load(root, path, opts, out, d);
    if (e == TCO_OK && (e = tco_model_evaluate(*out, d)) != TCO_OK) {
        tco_model_free(*out);
        *out = NULL;
    }
    return e;
}

#endif
