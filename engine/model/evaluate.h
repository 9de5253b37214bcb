/*
 * evaluate.h - evaluate a bound, ordered model (evaluate.c): every line in dependency order through
 * the compiled program (program.h) or the tree evaluator, one cell read back, a role's figure, the
 * month and fiscal year of a column; and the input setters.  The names say what they do: a
 * tco_model_set_*() setter checks the value, stores it and re-evaluates the model (what typing into the
 * cell does); a tco_model_assign_*() one checks and stores (a number by index, a text by name) and does
 * NOT evaluate (the caller calls tco_model_evaluate() once after several: sensitivity, Monte Carlo, the
 * advisor).  The setters of price/pricing.h (tco_model_set_currency(), _set_report_rate(),
 * _set_given_input()) re-evaluate too.
 */
#ifndef TCO_EVALUATE_H
#define TCO_EVALUATE_H

#include "base/error.h"
#include "model/model.h"

/** The calendar month of per-month column @p month (0-based) as YYYY-MM, e.g. "2027-01", into @p out. */
void tco_model_month_label(const tco_model *model, int month, char out[16]);

/**
 * The fiscal year (by the calendar year it starts in) of per-month column @p month (0-based): the
 * year of the latest fiscal_start_month at or before it.
 */
int tco_model_fiscal_year(const tco_model *model, int month);

/**
 * The name of fiscal year @p fiscal_year (the calendar year it starts in, as tco_model_fiscal_year()
 * gives) into @p out: "FY2026" when the fiscal year is the calendar year (fiscal_start_month 1),
 * else both calendar years it spans, "FY2026/27".
 */
void tco_model_fiscal_year_label(const tco_model *model, int fiscal_year, char out[24]);

/**
 * Set input @p name to @p value (checked against its range) and re-evaluate.
 * Errors: TCO_ERR_UNKNOWN_NAME, TCO_ERR_INI (out of range), TCO_ERR_EVAL.
 */
tco_error tco_model_set_input(tco_model *model, const char *name, double value, tco_diag *diag);

/** The row of tier @p tier (its code, case-insensitive, as tier_names holds it) in @p model, or -1 when
 *  the model has no such tier (or @p tier is NULL). */
int tco_model_tier_row(const tco_model *model, const char *tier);

/**
 * Set row @p tier (a tier code, case-insensitive, e.g. "D-M") of the per-tier input @p name to
 * @p value (checked against its range) and re-evaluate: what typing into that cell of the
 * workbook's tier table does.  Errors: TCO_ERR_UNKNOWN_NAME (no such per-tier number input or
 * tier), TCO_ERR_INI (out of range), TCO_ERR_EVAL.
 */
tco_error tco_model_set_tier_input(tco_model *model, const char *name, const char *tier, double value,
                                   tco_diag *diag);

/**
 * Set the text input @p name (template type = text, a single value) to @p text and re-evaluate:
 * what typing into its cell does.  An input with allowed values (values = A, B or values_from =
 * tier) takes one of them, matched without regard to case, and holds it as the template writes it.
 * Errors: TCO_ERR_UNKNOWN_NAME (no such text input), TCO_ERR_INI (not an allowed value, or a
 * structural input whose text would change), TCO_ERR_EVAL, TCO_ERR_NOMEM.
 */
tco_error tco_model_set_text_input(tco_model *model, const char *name, const char *text, tco_diag *diag);

/**
 * Set the text input @p name to @p text, checked as tco_model_set_text_input() checks it, without
 * re-evaluating: for a caller that sets several texts (the advisor: a facility mode and a card tier),
 * then calls tco_model_evaluate() once.  Errors: TCO_ERR_UNKNOWN_NAME, TCO_ERR_INI (the input keeps
 * its text), TCO_ERR_NOMEM.
 */
tco_error tco_model_assign_text_input(tco_model *model, const char *name, const char *text, tco_diag *diag);

/**
 * Fix the text input @p name at the value it holds, for a command that prices that value alone (a budget
 * owns its cards: price/run.h tco_run_options.budget fixes `acquisition` at own): it becomes structural,
 * so tco_model_set_text_input() and tco_model_assign_text_input() refuse another value and the workbook
 * shows it black on grey, accepting only that value, with @p why (copied; at most 255 characters, Excel's
 * limit for a validation message) as the message for anything else typed.  The value and every figure stay
 * as they are.  Errors: TCO_ERR_UNKNOWN_NAME (no scalar text input named @p name), TCO_ERR_NOMEM.
 */
tco_error tco_model_fix_text_input(tco_model *model, const char *name, const char *why, tco_diag *diag);

/**
 * Evaluate every line in dependency order, into the items' value, years, tiers and text.  Runs the
 * model's compiled program (program.h), whose values are the tree evaluator's to the bit: the first
 * evaluation with given texts (the model's first, or the first after a text input changed) walks
 * the trees, the second compiles the program, which runs until the model's structure or a text
 * input changes; on an error the tree evaluator runs for the message.  Errors: TCO_ERR_EVAL (names
 * the line, the year or tier and the values of its names), TCO_ERR_NOMEM.
 */
tco_error tco_model_evaluate(tco_model *model, tco_diag *diag);

/**
 * Evaluate every line by walking each formula's tree (formula.h, tco_formula_eval()), cell by
 * cell: the reference tco_model_evaluate()'s program is tested against, and what gives its error
 * messages.  Errors as tco_model_evaluate().
 */
tco_error tco_model_evaluate_tree(tco_model *model, tco_diag *diag);

/**
 * The single figure of item @p idx of @p model (a role such as role_tco): a scalar's value, a per-year
 * line's total.  False (*@p v untouched) for -1, a per-year line without a total, or a line that gives
 * text ("n.a.: ...", "never: ...") instead of a number.
 */
bool tco_model_role_value(const tco_model *model, int idx, double *v);

/**
 * Set the scalar number input at index @p item (tco_model_find()) to @p value, checked as
 * tco_model_set_input() checks it (range, whole number, structural), without re-evaluating: for
 * what-ifs that set several inputs by index, then call tco_model_evaluate() once (no name lookup).
 * Errors: TCO_ERR_UNKNOWN_NAME (not a number input), TCO_ERR_INI (out of range; the input keeps
 * its value).
 */
tco_error tco_model_assign_input(tco_model *model, int item, double value, tco_diag *diag);

/**
 * Set row @p row (0-based, in tco_model.tier_names order) of the per-tier number input at index
 * @p item to @p value, checked as tco_model_set_tier_input() checks it, without re-evaluating.
 * Errors: TCO_ERR_UNKNOWN_NAME (no such input or row), TCO_ERR_INI (out of range).
 */
tco_error tco_model_assign_tier_input(tco_model *model, int item, int row, double value, tco_diag *diag);

/**
 * The evaluated number of cell @p cell of the item at index @p item: its value for a scalar
 * (@p cell ignored), year column @p cell (0-based from Year first_year) of a per-year item, month
 * @p cell of a per-month one, tier row @p cell of a per-tier one.  NaN for text, for `year` and
 * `month`, and for an index or cell out of range.
 */
double tco_model_cell(const tco_model *model, int item, int cell);

#endif /* TCO_EVALUATE_H */
