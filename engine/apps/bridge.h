/*
 * bridge.h - the budget bridge: `tco diff OLD.json NEW.json` (docs/bridge.md).
 *
 * Two JSON summaries of runs (`tco --scenario NAME --format json`, docs/json.md) are two budget
 * versions: each carries every input with its value (`inputs`), its --set key and the TCO.  The
 * bridge loads the cost model of OLD's scenario once (ROOT/scenarios/NAME.ini and the catalog and
 * template it names), sets it to OLD's inputs through the model's own API
 * (tco_model_set_given_input(), tco_model_set_text_input()), checks that this
 * reproduces OLD's TCO, then moves each input that differs to NEW's value, one at a time in a stated
 * order, and records the TCO after each step.  Each step's delta is the difference of two TCOs the
 * template evaluated; the C code adds no cost arithmetic of its own.  A structural input (one that
 * sets the workbook's shape, such as years) cannot move on a loaded model: it is moved last, by
 * loading the model again with NEW's value (--set SECTION.KEY from the JSON's `set`), and that step
 * is marked structural.
 *
 * In a run reported in another currency (--currency USD) every money input is its CNY value over the
 * rate fx_report, so a new rate moves each one's value in USD while no price changed: the bridge compares
 * and moves money inputs by their CNY value (the JSON's `given`, `given_by_tier`, the units their --set
 * key takes), and fx_report is an input whose step converts every money input again at the new rate
 * (tco_model_set_report_rate()).  A price that changed in CNY is a step of its own.
 *
 * What no step moves is reported as an `other` entry, never folded into a step: an input on one
 * side only, an input the model no longer has, a quote's exchange rate (the model is loaded without
 * --quotes), a money value edited by hand, a changed template (its fingerprint), a different
 * scenario name, OLD's or NEW's TCO not reproduced by their inputs, and deltas that do not add up
 * exactly in binary floating point (never seen in practice; said when it happens).
 *
 * The steps add up exactly: delta_k = TCO_k - TCO_(k-1), and the sum of the deltas, added in step
 * order, equals TCO_to - TCO_from bit for bit (checked with an error-free sum; `exact`).  The JSON
 * prints these numbers in the shortest form that reads back as the same double, so a reader's sum
 * of the printed deltas equals tco_to - tco_from exactly too.
 */
#ifndef TCO_BRIDGE_H
#define TCO_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "render/workbook.h"

/** The order the changed inputs are moved in. */
typedef enum tco_bridge_order {
    /** Largest absolute effect first: each input's effect measured alone, moved from OLD with every
     *  other input at OLD's value; ties keep file order.  The default. */
    TCO_BRIDGE_ORDER_EFFECT,
    /** The order the inputs appear in OLD's JSON (the template's order), tier rows in catalog order. */
    TCO_BRIDGE_ORDER_FILE
} tco_bridge_order;

/** One step: one input (or one tier row of a per-tier input) moved from OLD's value to NEW's. */
typedef struct tco_bridge_step {
    /** The input's name (e.g. "electricity_price", "tier_price"), and its tier row ("D-M"), NULL for
     *  a single value.  Heap. */
    char *input, *tier;
    /** The --set key that gives the value ("facility.electricity_price", "D-M.price"), or NULL when
     *  the JSON names none.  Heap. */
    char *set;
    /** The input's label and unit as NEW's JSON gives them, but for a money input of a run in another
     *  currency the catalog's unit ("CNY/kWh"), the unit of its from and to.  Heap. */
    char *label, *unit;
    /** A text input's texts (heap), else NULL; a number input's values in @c from and @c to, in the
     *  units --set takes (the `set` key's): for a money input of a run in another currency its value in
     *  CNY, the JSON's `given` (the rate fx_report is a step of its own). */
    char *from_text, *to_text;
    double from, to;
    /** Change in TCO when this input alone moves from OLD (the order's measure; for a structural step,
     *  equal to @c delta), the change at this step, and the TCO after it (reporting currency). */
    double alone, delta, tco;
    /** Moved by loading the model again with NEW's value (the input sets the workbook's shape). */
    bool structural;
} tco_bridge_step;

/** One difference no step moved (docs/bridge.md lists the kinds). */
typedef struct tco_bridge_other {
    /** What it is: "only_in_old", "only_in_new", "not_in_model", "not_in_old", "type_changed",
     *  "not_settable", "quote_rate" (a vendor quote's exchange rate, an input only of a run with --quotes,
     *  that differs), "value_not_given" (a money input of a run in another currency whose value is not
     *  its given over fx_report: edited by hand), "scenario_changed", "template_changed",
     *  "template_unknown", "old_not_reproduced", "new_not_reproduced", "structural", "inexact" or
     *  "not_listed" (how many more entries about one input each were counted, past TCO_BRIDGE_MAX_OTHER).
     *  Static text. */
    const char *kind;
    /** The input it is about (heap), or NULL. */
    char *input;
    /** What was found, in a sentence (heap). */
    char *message;
} tco_bridge_other;

/** One failing check of a side that is not feasible: the check's line and its warning text (both heap). */
typedef struct tco_bridge_reason {
    char *check, *message;
} tco_bridge_reason;

/** A computed bridge.  Free with tco_bridge_free(). */
typedef struct tco_bridge {
    /** The two files as named on the command line (heap). */
    char *old_path, *new_path;
    /** OLD's and NEW's scenario names, OLD's title and the currency (heap). */
    char *scenario, *new_scenario, *title, *currency;
    /** OLD's and NEW's analysis period in years (the files' `years`; 0 when a file does not give it). */
    int years, new_years;
    tco_bridge_order order;
    /** The TCO each file gives, and the TCO evaluated from OLD's inputs (start) and after the last step
     *  (end).  When reproduced, tco_from prints as tco_old with 16 digits, tco_to as tco_new. */
    double tco_old, tco_new, tco_from, tco_to;
    /** tco_fingerprint() of each file's bytes, and of the template as it is now (its file in heap). */
    uint64_t old_fingerprint, new_fingerprint, template_fingerprint;
    char *template_file;
    /** True when the deltas, added in step order, give tco_to - tco_from exactly. */
    bool exact;
    /** Whether OLD ([0]) and NEW ([1]) pass the model's master check (the first of [model] checks) as the
     *  bridge evaluates them at its start and its end: 1 yes, 0 no (the TCO then buys a configuration that
     *  does not do the job, so a difference is no saving), -1 the template has no checks.  For a side
     *  that fails, the warning of each failing check (tco_report_warning_text()), or the master check's
     *  label when none has a warning. */
    int feasible[2];
    tco_bridge_reason *reasons[2];
    size_t n_reasons[2];
    tco_bridge_step *steps;
    size_t n_steps;
    /** What no step moves: at most TCO_BRIDGE_MAX_OTHER entries about one input each are listed (then a
     *  "not_listed" entry counts the rest, other_unlisted), and every entry about the whole files;
     *  other_cap entries allocated, other_inputs of them about one input. */
    tco_bridge_other *other;
    size_t n_other, other_cap, other_inputs, other_unlisted;
} tco_bridge;

/** Most entries of `other` about one input each that a bridge lists (docs/bridge.md); more are counted. */
#define TCO_BRIDGE_MAX_OTHER 1000

/** What to bridge. */
typedef struct tco_bridge_request {
    /** The project root holding scenarios/, pricing/ and templates/. */
    const char *root;
    /** OLD.json and NEW.json. */
    const char *old_path, *new_path;
    tco_bridge_order order;
} tco_bridge_request;

/**
 * Compute the bridge from @p req->old_path to @p req->new_path into @p out (zeroed first; free it
 * with tco_bridge_free() whatever the result).
 * Errors, each naming the file and what was expected: TCO_ERR_NOINPUT (a file missing or
 * unreadable, OLD's scenario file missing under the root), TCO_ERR_INI (not JSON, JSON that is not
 * one scenario's summary: an array of --scenario all or --compare, the answer of tco advise, a quotes
 * check report, a tco diff output; an input entry of the wrong shape; no TCO; a "currency" that is not a
 * text or not the file's inputs.currency; the two in different currencies; a value the model refuses,
 * said in the units --set takes with its bounds, a structural one by its file and key too; a text the
 * table or the workbook shows that holds a control character, or a non-character, or is too long, named
 * "FILE: KEY: ..." with the place as data; a file name that holds a control character; OLD's scenario
 * a question), the errors of tco_model_load() for OLD's scenario,
 * TCO_ERR_EVAL, TCO_ERR_NOMEM.
 */
tco_error tco_bridge_run(const tco_bridge_request *req, tco_bridge *out, tco_diag *diag);

/** Append to @p out the period the two runs' TCOs are over, for a title: "TCO over 3 years" when both
 *  give the same, "TCO over 3 years (OLD) and 5 years (NEW)" when they differ, and says which file gives
 *  none.  @p out's failed flag is set when memory runs out. */
void tco_bridge_period(const tco_bridge *b, tco_strbuf *out);

/** What a side that is not feasible means for the difference (@p side 0 OLD, 1 NEW): "its TCO is the cost
 *  of a configuration that does not do the job, so NEW - OLD is no saving" (static text). */
const char *tco_bridge_infeasible_meaning(int side);

/** Print one warning line to @p out ("tco: warning: NEW (new.json) is not feasible: ...") for each side of
 *  @p b that is not feasible (its master check fails), naming its failing checks; file names escaped for a
 *  terminal.  Returns the number of lines printed. */
size_t tco_bridge_print_warnings(const tco_bridge *b, FILE *out);

/** Print @p b as a table for people: each step with from, to, delta, the running TCO and the unit of
 *  from and to (a money input of a run in another currency in CNY), then OLD, NEW and NEW - OLD, in
 *  another currency a line saying which figures are in which, then the other differences. */
void tco_bridge_print_table(const tco_bridge *b, FILE *out);

/**
 * Print @p b as one JSON object (docs/bridge.md): {"from", "to" (the files), "scenario", "currency",
 * "order", "feasible_old", "feasible_new" (true, false, or null when the template has no checks),
 * "not_feasible_old", "not_feasible_new" ([{"check", "message"}] of a side that is not feasible, else []),
 * "tco_old", "tco_new" (as the files say), "tco_from", "tco_to" (evaluated), "difference"
 * (tco_to - tco_from), "exact", "steps": [{"input", "tier" (per-tier rows only), "label", "unit",
 * "set", "from", "to", "alone", "delta", "tco", "structural"}], "other": [{"kind", "input",
 * "message"}]}.  Numbers of the steps and the TCOs in the shortest form that reads back as the same
 * double.
 */
void tco_bridge_print_json(const tco_bridge *b, FILE *out);

/**
 * Write @p b to @p path as a standalone workbook with one Bridge sheet (bridge_book.c): the steps (with
 * the unit of from and to), OLD and NEW as values tco computed, the running TCO and the sums as live formulas over them, two
 * live checks (the steps add up to NEW - OLD; the running TCO ends at NEW) that say "no" once a
 * figure is edited, the fingerprints of the two files and the template, and a waterfall chart
 * (stacked columns over an invisible base).  Written through output.h (temporary, verification,
 * rename).  Errors as tco_workbook_write().
 */
tco_error tco_bridge_write_book(const tco_bridge *b, const char *path, const tco_workbook_options *opts,
                                tco_diag *diag);

/** Free what @p b holds and zero it (a zeroed bridge is fine). */
void tco_bridge_free(tco_bridge *b);

#endif /* TCO_BRIDGE_H */
