/*
 * advise_risk.h - `tco advise NAME --monte-carlo N [--seed S]`: the ranking under uncertainty.
 *
 * The top options of the advice (the TCO_ADVISE_TOP best feasible ones) are each loaded alone
 * (tco_advise_option_run(), as the workbook's option sheets are) and drawn N times with the Monte Carlo
 * engine of `tco --scenario --monte-carlo` (risk.h: every ranged input, model/ranges.h, fitted to its
 * range, model/sample.h; Latin hypercube blocks of seed S; a draw held to the input's bounds,
 * tco_risk_draw_value()).  Common random numbers: draw i gives one uniform to each uncertain quantity,
 * and every option that has that quantity takes its value from it, so the options are compared in the same
 * world, draw by draw.  An uncertain quantity is a ranged input value as a table names it (its label,
 * "pue", "tier_price[D-M]") given its range at one place ("pricing/site.ini [facility] pue_range"): the
 * host price of a dc4 and of a dc8 (two catalog entries) are two quantities, the electricity price one.
 *
 * Each draw evaluates, for each option, the template's cost_per_unit, check_feasible and option_capex (a
 * compiled program of those alone, model/program.h).  Per option (tco_advise_option.risk): the P10, P50 and
 * P90 of cost_per_unit over the draws in which it passes every check (PERCENTILE.INC, sample.h), the share
 * of draws in which it passes, and p_best, the share of draws in which it is the cheapest of the options
 * drawn that pass: the lowest cost_per_unit, then the cheaper capex, then the better rank, as the advisor
 * orders.  One option at most is the cheapest in a draw, none when none passes, so the p_best of the options
 * sum to 1 minus the share of draws in which none passes (tco_advice.risk_none_feasible).
 *
 * The same seed and draws give the same figures on any machine (sample.h); docs/advise.md.
 */
#ifndef TCO_ADVISE_RISK_H
#define TCO_ADVISE_RISK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "apps/advise.h"
#include "base/error.h"

/** Most draws of `tco advise --monte-carlo N`: each evaluates up to TCO_ADVISE_TOP options (about
 *  0.05 ms each), so 100,000 draws take about a minute. */
#define TCO_ADVISE_MAX_DRAWS 100000

/**
 * Draw the top options of @p a (answered from @p req by tco_advise()) @p draws times (1 to
 * TCO_ADVISE_MAX_DRAWS) from seed @p seed, and fill each one's risk, and a's risk_draws, risk_seed,
 * risk_inputs, risk_options and risk_none_feasible (see the file comment).  With no feasible option
 * nothing is drawn (risk_options 0).
 * Errors: TCO_ERR_USAGE when the options have no ranged input; an input whose range cannot be fitted
 * (TCO_ERR_INI, naming where the range was given); an evaluation that fails at a drawn value (TCO_ERR_EVAL,
 * naming the draw and the option); the runs' errors (tco_run_open()); TCO_ERR_NOMEM.
 */
tco_error tco_advise_risk(const tco_advise_request *req, tco_advice *a, size_t draws, uint64_t seed,
                          tco_diag *d);

/**
 * The terminal block of the ranking under uncertainty (after tco_advise_print_table()): the draws, seed and
 * quantities drawn, then each option drawn in rank order with its P10, P50, P90 (tco_advice.unit), the
 * share of draws it passes every check and p_best as a percentage, and the share of draws with no option
 * feasible when there are such draws.  Nothing when @p a was not drawn (risk_draws 0).
 */
void tco_advise_risk_print_table(const tco_advice *a, FILE *out);

#endif /* TCO_ADVISE_RISK_H */
