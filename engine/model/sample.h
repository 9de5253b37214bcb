/*
 * sample.h - random draws for Monte Carlo (issue 14 §3): the project's own PRNG, the five
 * distributions an input range may have, Latin hypercube blocks and the statistics of N results.
 *
 * Nothing here knows the cost model: the risk module draws each ranged input from its fitted
 * distribution, sets it on the loaded model and reads the model's own lines back.
 *
 * Reproducibility: the generator is xoshiro256** (Blackman and Vigna, "Scrambled linear
 * pseudorandom number generators", 2018), seeded through splitmix64; every block of draws has a
 * stream of its own, derived from the run's seed and the block's index alone, so the draws do
 * not depend on how many threads evaluate the blocks or in which order.  Only integer arithmetic
 * and IEEE-754 double operations (plus libm's log, exp, sqrt, erfc and lgamma) are used.
 */
#ifndef TCO_SAMPLE_H
#define TCO_SAMPLE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "model/model.h" /* tco_dist, tco_dist_name() */

/** xoshiro256** state: four 64-bit words, never all zero. */
typedef struct tco_rng {
    uint64_t s[4];
} tco_rng;

/** Seed @p rng for stream @p stream of seed @p seed (e.g. the block index of a Monte Carlo run):
 *  splitmix64 over seed and stream gives the four words. */
void tco_rng_seed(tco_rng *rng, uint64_t seed, uint64_t stream);

/** The next 64 random bits. */
uint64_t tco_rng_next(tco_rng *rng);

/** A uniform double in (0, 1), never 0 or 1: (k + 1/2) / 2^53 for k the top 53 bits of the next output. */
double tco_rng_uniform(tco_rng *rng);

/** A uniform integer in [0, @p n) for n >= 1 (Lemire's multiply-and-reject: no modulo bias). */
uint64_t tco_rng_below(tco_rng *rng, uint64_t n);

/** Probability below LOW and above HIGH: a range is a 90% interval, its ends the 5th and 95th
 *  percentiles. */
#define TCO_RANGE_TAIL 0.05

/**
 * A distribution fitted to a range.  For triangular, uniform and PERT, a (minimum), c (mode) and b
 * (maximum) are chosen so that the 5th percentile is LOW and the 95th HIGH, with the mode at the
 * point value (uniform has none); so the ends lie beyond the range.  For normal and lognormal, mu
 * and sigma of the value (its logarithm) put LOW and HIGH at mu -/+ 1.6449 sigma.  A range with
 * LOW == HIGH is the constant LOW.
 *
 * Units: a, c, b, and the normal's mu and sigma are in units of @c scale, a power of two between half
 * the largest magnitude of LOW and HIGH and that magnitude (a value is scale times the figure), so
 * that the fit squares no number near the ends of the doubles' range (1e-308 .. 1.8e308); the
 * lognormal's mu and sigma are of the logarithm (scale 1), and so is a constant's c.
 */
typedef struct tco_dist_fit {
    tco_dist dist;
    double a, c, b;
    double mu, sigma;
    /** The unit of a, c, b, mu and sigma (a power of two; 1 for lognormal and a constant). */
    double scale;
    /** PERT only: its Beta shape parameters and log of the Beta function B(alpha, beta). */
    double alpha, beta, log_beta_fn;
    /** True for LOW == HIGH (every draw the same value). */
    int constant;
} tco_dist_fit;

/**
 * Fit @p dist to the range @p low .. @p high around @p point (LOW <= point <= HIGH, all finite).
 * Any finite doubles are fitted, or refused for one of these reasons.
 * Errors (TCO_ERR_INI, message without a place: the caller prefixes file and key): TCO_DIST_NONE;
 * a number that is not finite; LOW > point or point > HIGH; lognormal with LOW <= 0; a triangular or
 * PERT range whose mode sits at one end while the other is wider than 10^6 times the near side allows
 * (the fit does not converge); a fit whose draws could pass -/+DBL_MAX (the ends of a triangular,
 * uniform or PERT fit; for normal and lognormal the farthest quantile a draw can take, that of
 * probability 2^-54 / TCO_LHS_BLOCK: about 9.2 sigma).
 */
tco_error tco_dist_fit_range(tco_dist dist, double low, double point, double high, tco_dist_fit *out,
                             tco_diag *diag);

/**
 * Fit @p dist to a range whose ends are its minimum and maximum (KEY_range_kind = bounds: LOW and HIGH are
 * physical bounds, no draw passes them): triangular and PERT with minimum LOW, mode the value and maximum
 * HIGH; uniform from LOW to HIGH.  A range with LOW == HIGH is the constant LOW.
 * Errors (TCO_ERR_INI, message without a place): normal and lognormal (no minimum and maximum), or no
 * distribution; a number that is not finite; LOW > point or point > HIGH.
 */
tco_error tco_dist_fit_bounds(tco_dist dist, double low, double point, double high, tco_dist_fit *out,
                              tco_diag *diag);

/**
 * Fit the distribution of range @p r (model.h: its dist, low and high, in the units of the item's value)
 * around @p point as its kind says: tco_dist_fit_bounds() for a bounds range, else tco_dist_fit_range()
 * (LOW and HIGH the 5th and 95th percentiles).  What Monte Carlo draws from.  Errors as those.
 */
tco_error tco_range_fit(const tco_range *r, double point, tco_dist_fit *out, tco_diag *diag);

/** The quantile of a triangular or uniform fit in units of its scale (tco_dist_quantile()). */
static inline double tco_dist_quantile_plain(const tco_dist_fit *f, double u)
{
    if (f->dist == TCO_DIST_UNIFORM)
        return f->a + u * (f->b - f->a);
    double w = f->b - f->a; /* triangular */
    if (u * w < f->c - f->a)
        return f->a + sqrt(u * w * (f->c - f->a));
    return f->b - sqrt((1 - u) * w * (f->b - f->c));
}

/** The quantile of a PERT, normal or lognormal fit (tco_dist_quantile(), out of line). */
double tco_dist_quantile_shaped(const tco_dist_fit *fit, double u);

/** The value at probability @p u (0 < u < 1) of a fitted distribution: its quantile function.  Inline
 *  for a constant, triangular and uniform fit (a Monte Carlo run draws millions: no call each). */
static inline double tco_dist_quantile(const tco_dist_fit *f, double u)
{
    if (f->constant)
        return f->c;
    if (f->dist == TCO_DIST_TRIANGULAR || f->dist == TCO_DIST_UNIFORM)
        return tco_dist_quantile_plain(f, u) * f->scale;
    return tco_dist_quantile_shaped(f, u);
}

/** tco_dist_quantile() of @p f at each of @p u[0 .. n) into @p out (the same doubles, bit for bit): a
 *  triangular fit computes both sides' square roots and keeps one, rather than a branch that random
 *  probabilities mispredict half the time. */
void tco_dist_quantiles(const tco_dist_fit *f, const double *u, size_t n, double *out);

/** The cumulative probability of @p x under a fitted distribution (for tests and the S-curve). */
double tco_dist_cdf(const tco_dist_fit *fit, double x);

/** The standard normal quantile: x with Phi(x) = @p u, 0 < u < 1 (to about 1e-15). */
double tco_normal_quantile(double u);

/** Draws per Latin hypercube block: each block stratifies every input into this many equal
 *  slices of probability, one draw in each (a smaller last block, of what is left). */
#define TCO_LHS_BLOCK 1000

/**
 * Fill @p u (@p n x @p dims, draw-major: u[i * dims + j]) with a Latin hypercube of @p n draws
 * of @p dims uniforms from stream @p block of @p seed: for each input j, the draws fall one in
 * each of the n slices [k/n, (k+1)/n), in a random order, at a random place in the slice.
 * @p perm is scratch room for n indexes.
 */
void tco_lhs_block(uint64_t seed, uint64_t block, size_t n, size_t dims, double *u, uint32_t *perm);

/** tco_lhs_block() with the uniforms input by input: draw i of input j at u[j * @p n + i] (the same
 *  numbers, each input's draws side by side). */
void tco_lhs_block_columns(uint64_t seed, uint64_t block, size_t n, size_t dims, double *u, uint32_t *perm);

/** @p x % @p d as a Latin hypercube block's shuffle computes it (for 1 <= d <= TCO_LHS_BLOCK by a
 *  multiplication, not a division; % itself for any other d): the same number, for the tests. */
uint64_t tco_lhs_remainder(uint64_t x, uint64_t d);

/** Statistics of N results ("probability that the cost is not exceeded"). */
typedef struct tco_stats {
    size_t n;
    /** Percentiles by linear interpolation between order statistics, as Excel's PERCENTILE.INC
     *  (rank (N - 1) p, 0-based). */
    double p10, p50, p80, p90;
    /** Mean and sample standard deviation (N - 1; NaN for one value), by Welford's updates in the order
     *  given, on the values in units of the power of two above the largest magnitude (so nothing
     *  overflows: values near 1E+308 have a finite mean and deviation); min and max.  Every figure is
     *  finite except the deviation, which is +INF when it exceeds the largest double (only values of
     *  both signs near it: a caller refuses it, it is never reported). */
    double mean, stdev, min, max;
} tco_stats;

/** Sort @p x (@p n values, finite) in place and fill @p out; n >= 1. */
void tco_stats_of(double *x, size_t n, tco_stats *out);

/** The percentile @p p (0..1) of sorted values @p x (@p n >= 1, finite), as tco_stats_of() computes them:
 *  finite, between the two values it lies between (also two of both signs near the largest double). */
double tco_percentile_sorted(const double *x, size_t n, double p);

#endif
