/*
 * risk.h - ranges, not just points (issue 14 §2 and §3): `--sensitivity` moves each ranged input
 * alone to the ends of its range; `--monte-carlo N [--seed S]` draws every ranged input N times
 * and reports percentiles.  Both evaluate the loaded model itself with changed inputs (the
 * template's formulas, never a copy in C) and read back three of its lines:
 *
 *   TCO         [model] tco (the model's role_tco), CNY (or the reporting currency)
 *   NPV cost    [model] npv (role_npv): the net present cost
 *   unit cost   [model] unit_cost_KIND / unit_cost (role_unit_cost): cost per GPU-hour, per million
 *               tokens or per training run; NaN in a run where the line says "n.a."
 *
 * Which inputs: tco_model_ranged_inputs() (model.h): every number input given KEY_range, with its
 * distribution (KEY_dist, triangular by default) and its --set key.  Draws are independent: no
 * correlation between inputs is modelled (docs/uncertainty.md says so).
 *
 * Draw i of a run of seed S comes from Latin hypercube block i / TCO_LHS_BLOCK, stream S of that
 * block (sample.h), so the draws and every figure are the same on any machine for the same seed and
 * model.  A draw outside the input's bounds (the fitted ends lie beyond LOW and HIGH) is set to the
 * bound; a whole-number input is rounded to the nearest whole number.
 *
 * The figures are tco's, computed off-sheet (invariant 10): each result carries the fingerprint of
 * the inputs it came from (tco_model_fingerprint()).
 */
#ifndef TCO_RISK_H
#define TCO_RISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "model/model.h"
#include "model/sample.h"
#include "price/run.h"

/** Largest --monte-carlo N: three arrays of N doubles (240 MB at 10^7). */
#define TCO_RISK_MAX_DRAWS 10000000

/** Largest --seed S: 2^53 - 1, the largest whole number every JSON reader holds exactly (the run
 *  prints its seed; RFC 8259 section 6, "interoperable" integers). */
#define TCO_RISK_MAX_SEED 9007199254740991ULL

/** One row of a sensitivity run: one ranged input alone at LOW, then at HIGH, every other input at
 *  its point value. */
typedef struct tco_sensitivity_row {
    /** The input as tables name it ("pue", "tier_price[D-M]") and the --set key that moves it
     *  ("facility.pue"), both heap. */
    char *input, *set;
    /** LOW, the point value and HIGH in --set units (CNY for a money input): `--set SET=LOW` runs
     *  the model of tco_low. */
    double low, point, high;
    /** The three figures with the input at LOW and at HIGH (NaN: not applicable in that run). */
    double tco_low, tco_high, npv_low, npv_high, unit_low, unit_high;
    /** |tco_high - tco_low|: the rows are sorted by it, largest first (ties in input order). */
    double swing;
    /** |unit_high - unit_low|, the unit cost's swing (NaN when either end has no number), and the row's rank
     *  by it (1 the largest; ties in the rows' order; 0 when NaN): the order of what decides the cost per
     *  unit of work, which the TCO's order can hide (a utilisation moves no TCO but every unit cost). */
    double unit_swing;
    size_t unit_rank;
    /** The template line payback_months (the months of saving over renting that repay the capex, the
     *  number behind the Summary's break-even) at LOW and at HIGH; NaN where it is text ("never") or the
     *  template has no such line.  An input that moves no TCO (a cloud price) can move the break-even. */
    double payback_low, payback_high;
} tco_sensitivity_row;

/** Statistics of one figure over the draws; the draws where it was not applicable are left out
 *  (counted in na). */
typedef struct tco_risk_figure {
    tco_stats stats;
    size_t na;
    /** The figure's values over the applicable draws, sorted (stats.n of them; heap): for the
     *  S-curve and the histogram. */
    double *sorted;
} tco_risk_figure;

/** What a risk run found. */
typedef struct tco_risk {
    /** The three figures at every point value (NaN: not applicable). */
    double base_tco, base_npv, base_unit;
    /** The unit cost's line (borrowed from the model; NULL without [model] unit_cost). */
    const tco_item *unit_item;
    /** The TCO's and the NPV cost's lines, and the line tco advise ranks by (cost_per_unit: per million
     *  tokens at the target load, not at the load the scenario serves), for their labels, units and
     *  sources (borrowed from the model; NULL where the template has none). */
    const tco_item *tco_item, *npv_item, *rank_item;
    /** Fingerprint of the inputs the figures come from: 16 hex digits (tco_model_fingerprint()). */
    char fingerprint[17];
    /** --sensitivity: one row per ranged input value, sorted by swing. */
    bool sensitivity;
    tco_sensitivity_row *rows;
    size_t n_rows;
    /** --monte-carlo: draws, seed, ranged inputs drawn, the three figures. */
    bool monte_carlo;
    size_t draws, inputs_drawn;
    /** Threads that evaluated the draws (1, or 2 on a twin model). */
    int threads;
    uint64_t seed;
    tco_risk_figure tco, npv, unit;
} tco_risk;

/**
 * A fingerprint of every input value of @p model and its range (scalar inputs, numbers and texts, then
 * every tier row of the per-tier inputs, in item order; names, distributions and ends included):
 * SipHash-2-4 under tco_fingerprint()'s fixed key (names.h), as 16 lower-case hex digits into @p out.  Two models with the same
 * inputs and ranges have the same fingerprint.
 */
void tco_model_fingerprint(const tco_model *model, char out[17]);

/** Draws from which a second thread evaluates some of them on a twin model (TCO_RISK_TWIN_FROM). */
#define TCO_RISK_TWIN_FROM 20000

/**
 * Run what @p sensitivity and @p draws (0: no Monte Carlo) ask for on the model of @p run (evaluated), seed
 * @p seed, into *@p out (zeroed first; free with tco_risk_free()).  The model is left as it was
 * (every input at its point, evaluated).  @p progress, when not NULL, gets a line now and then on a
 * long run.  With at least TCO_RISK_TWIN_FROM draws, a second thread opens a twin run (tco_run_twin(),
 * used only if its fingerprint is the model's) while this one draws, and then the two take the blocks
 * of draws as they come: the figures are the same either way, since each draw depends only on the seed
 * and its place.
 * Errors: TCO_ERR_USAGE when the model has no ranged input or no [model] tco; an input whose
 * range cannot be fitted (TCO_ERR_INI, naming where the range was given); an evaluation that fails at
 * a drawn or LOW/HIGH value (TCO_ERR_EVAL, naming the run and the inputs' values: the first such draw);
 * a figure to report that exceeds the largest double (TCO_ERR_EVAL: a Monte Carlo deviation or contingency
 * P80 - P50 of draws of both signs near it, a sensitivity swing or change from the point TCO; naming the
 * widest ranges drawn, or the row's range); TCO_ERR_NOMEM.  Every number in *@p out is then finite, but a
 * deviation of one draw (NaN) and a figure not applicable in a run (NaN).
 */
tco_error tco_risk_run(tco_run *run, bool sensitivity, size_t draws, uint64_t seed, FILE *progress, tco_risk *out,
                       tco_diag *diag);

/**
 * The value a Monte Carlo draw gives input @p it for the uniform @p u (0 < u < 1) of its fitted range
 * @p fit: the quantile, held to the input's min/max and, for a whole-number input, rounded to the nearest
 * whole number (as every draw of tco_risk_run() is; tco advise --monte-carlo draws its options so too).
 */
double tco_risk_draw_value(const tco_item *it, const tco_dist_fit *fit, double u);

/** Free what tco_risk_run() filled (safe on a zeroed tco_risk). */
void tco_risk_free(tco_risk *risk);

/** The terminal report: the top TCO_RISK_TOP sensitivity rows and the Monte Carlo percentiles,
 *  money in @p currency; @p workbook the workbook written (NULL: none, so the table does not point to
 *  its sheets). */
void tco_risk_print_table(const tco_risk *risk, const char *currency, const char *workbook, FILE *out);

/** Rows of the sensitivity table the terminal shows. */
#define TCO_RISK_TOP 10

/** The JSON members `"fingerprint"`, `"sensitivity": [...]` and `"monte_carlo": {...}` (whichever
 *  ran), each preceded by ",\n  ", for the end of the run's JSON object (docs/json.md). */
void tco_risk_print_json(const tco_risk *risk, FILE *out);

#endif
