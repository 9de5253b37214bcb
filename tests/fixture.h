/*
 * fixture.h - reader for the data-driven formula cases in
 * tests/fixtures/formulas/ *.test, shared by the CUnit suite and the
 * formula-book generator.
 *
 * A file is a list of cases separated by blank lines; '#' starts a comment
 * line.  Keys: "formula:" (required), "inputs:" (name = value, ...),
 * "value:" (a number, TRUE or FALSE), "print:" (expected Excel text),
 * "error:" (CODE then a fragment of the expected message).
 *
 * Also the helpers the quote suites share (test_quote_csv.c, test_quote_choice.c, test_fx.c,
 * test_pricing.c): the shipped exchange rates, a problem counter, and a quote file written from bytes
 * to a temporary file.  They assert nothing (formula_book links this file without CUnit): the caller
 * asserts on what they return.
 */
#ifndef TCO_TEST_FIXTURE_H
#define TCO_TEST_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "model/model.h"
#include "model/formula.h"
#include "read/fx.h"
#include "read/quote_csv.h"

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

/* Quote files. */

/* What a quote read reported (a tco_quote_problem_fn's context): the first error's message, and counts. */
typedef struct fixture_problems {
    char first[TCO_DIAG_MAX];
    size_t errors, warnings;
} fixture_problems;

/* A tco_quote_keep_fn that keeps every row. */
bool fixture_keep_all(void *ctx, const tco_quote *q);

/* A tco_quote_problem_fn counting into @p ctx (a fixture_problems *); it never stops the read. */
bool fixture_collect(void *ctx, const tco_diag *problem, bool warning);

/* @p root/pricing/fx.ini (shown as "pricing/fx.ini") into @p fx: the shipped file has CNY reporting,
 * 7.1 CNY per USD, 7.7 per EUR. */
tco_error fixture_fx(const char *root, tco_fx *fx, tco_diag *d);

/* Write @p len bytes of @p data to a new file /tmp/tco-test-quotes-XXXXXX; its name goes to @p path (at
 * least 64 bytes).  False when the file cannot be made or written whole. */
bool fixture_temp_file(char *path, const char *data, size_t len);

/* Read @p len bytes of @p data as a quote file (through a temporary file, removed after), every row kept,
 * problems counted in @p pr, with @p root's exchange rates.  TCO_ERR_NOINPUT (and a message) when the
 * temporary file or the rates cannot be had; else what tco_quotes_read() returns. */
tco_error fixture_read_quote_bytes(const char *root, const char *data, size_t len, fixture_problems *pr,
                                   tco_quote_set *set, tco_diag *d);

/* The model of scenario file @p path under project root @p root, loaded and evaluated (loaded.h
 * load_evaluated()); when it does not load, its message is shown and the test stops (a CUnit fatal
 * assertion).  The caller frees the model. */
tco_model *fixture_load_ok(const char *root, const char *path);

#endif
