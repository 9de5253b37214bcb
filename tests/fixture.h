/*
 * fixture.h - reader for the data-driven formula cases in
 * tests/fixtures/formulas/ *.test, shared by the CUnit suite and the
 * formula-book generator.
 *
 * A file is a list of cases separated by blank lines; '#' starts a comment
 * line.  Keys: "formula:" (required), "inputs:" (name = value, ...),
 * "value:" (a number, TRUE or FALSE), "print:" (expected Excel text),
 * "error:" (CODE then a fragment of the expected message).
 */
#ifndef TCO_TEST_FIXTURE_H
#define TCO_TEST_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/formula.h"

#define FIXTURE_MAX_INPUTS 8

typedef struct fixture_case {
    char file[256];
    int line;
    char formula[512];
    bool has_value, value_is_bool;
    double value;
    bool has_print;
    char print[512];
    bool has_error;
    char error_code[32];
    char error_fragment[256];
    size_t n_inputs;
    char input_names[FIXTURE_MAX_INPUTS][64];
    double input_values[FIXTURE_MAX_INPUTS];
} fixture_case;

/* Read every case of @p path; returns a heap array (caller frees) and sets *n; NULL on error. */
fixture_case *fixture_read(const char *path, size_t *n);

/* Name lookup for the formula evaluator: @p ctx is a const fixture_case *; its inputs by name. */
tco_error fixture_lookup(void *ctx, const tco_node *n, tco_value *v, tco_diag *diag);

#endif
