/* test_sample.c - the PRNG, the range distributions and their fits, Latin hypercube blocks and the
 * statistics of Monte Carlo results.  Reference figures: the xoshiro256** outputs for the state
 * {1, 2, 3, 4} and the normal and Beta(3, 3) quantiles were recomputed independently in Python
 * (the published algorithm; statistics.NormalDist, Wichura's AS241; I_z(3,3) = 10z^3 - 15z^4 + 6z^5
 * solved by bisection); the other figures are worked in the comments. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/sample.h"
#include "suites.h"

#define NEAR(a, b, tol) CU_ASSERT(fabs((a) - (b)) <= (tol))

static void test_generator(void)
{
    tco_rng r = {{1, 2, 3, 4}};
    CU_ASSERT_EQUAL(tco_rng_next(&r), UINT64_C(11520));
    CU_ASSERT_EQUAL(tco_rng_next(&r), UINT64_C(0));
    CU_ASSERT_EQUAL(tco_rng_next(&r), UINT64_C(1509978240));
    CU_ASSERT_EQUAL(tco_rng_next(&r), UINT64_C(1215971899390074240));
    /* The same seed and stream give the same draws; another seed or stream others. */
    tco_rng a, b, c, d;
    tco_rng_seed(&a, 42, 7);
    tco_rng_seed(&b, 42, 7);
    tco_rng_seed(&c, 43, 7);
    tco_rng_seed(&d, 42, 8);
    int same_b = 1, same_c = 0, same_d = 0;
    for (int i = 0; i < 100; i++) {
        uint64_t x = tco_rng_next(&a);
        same_b &= x == tco_rng_next(&b);
        same_c += x == tco_rng_next(&c);
        same_d += x == tco_rng_next(&d);
    }
    CU_ASSERT(same_b);
    CU_ASSERT_EQUAL(same_c, 0);
    CU_ASSERT_EQUAL(same_d, 0);
    /* Uniforms: inside (0, 1), mean 1/2 (standard error of 10^6 draws: 0.29 / 1000). */
    double sum = 0, lo = 1, hi = 0;
    for (int i = 0; i < 1000000; i++) {
        double u = tco_rng_uniform(&a);
        sum += u;
        lo = u < lo ? u : lo;
        hi = u > hi ? u : hi;
    }
    CU_ASSERT(lo > 0 && hi < 1);
    NEAR(sum / 1e6, 0.5, 0.0015);
    /* tco_rng_below(3): each value about a third of 300,000 (standard deviation 258). */
    long counts[3] = {0, 0, 0};
    for (int i = 0; i < 300000; i++)
        counts[tco_rng_below(&a, 3)]++;
    for (int k = 0; k < 3; k++)
        CU_ASSERT(labs(counts[k] - 100000) < 1500);
}

static void test_normal_quantile(void)
{
    NEAR(tco_normal_quantile(0.975), 1.9599639845400536, 1e-14);
    NEAR(tco_normal_quantile(0.95), 1.6448536269514715, 1e-14);
    NEAR(tco_normal_quantile(0.3), -0.5244005127080407, 1e-14);
    NEAR(tco_normal_quantile(1e-10), -6.361340902404056, 1e-12);
    NEAR(tco_normal_quantile(0.5), 0, 1e-15);
}

/* Every fit puts 5% below LOW and 5% above HIGH. */
static void check_tails(const tco_dist_fit *f, double low, double high)
{
    NEAR(tco_dist_cdf(f, low), 0.05, 1e-9);
    NEAR(tco_dist_cdf(f, high), 0.95, 1e-9);
    NEAR(tco_dist_quantile(f, 0.05), low, 1e-9 * (high - low));
    NEAR(tco_dist_quantile(f, 0.95), high, 1e-9 * (high - low));
}

static void test_fits(void)
{
    tco_dist_fit f;
    tco_diag d = {0};
    /* Triangular, PUE 1.2 .. 1.6 around 1.4: a symmetric triangle of half-width h with
     * (h - 0.2)^2 / (2 h^2) = 0.05, so h = 0.2 / (1 - sqrt(0.1)) = 0.292495. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_TRIANGULAR, 1.2, 1.4, 1.6, &f, &d), TCO_OK);
    NEAR(f.a, 1.107504940885147, 1e-12);
    NEAR(f.b, 1.6924950591148529, 1e-12);
    CU_ASSERT_EQUAL(f.c, 1.4);
    check_tails(&f, 1.2, 1.6);
    /* Skewed: mode at 1.3; still 5% in each tail, the long tail above. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_TRIANGULAR, 1.2, 1.3, 1.6, &f, &d), TCO_OK);
    check_tails(&f, 1.2, 1.6);
    CU_ASSERT(f.b - 1.6 > 1.2 - f.a);
    /* Mode at an end of the range. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_TRIANGULAR, 10, 10, 12, &f, &d), TCO_OK);
    check_tails(&f, 10, 12);
    /* Uniform: the range is the middle 90%, so the ends lie 0.05 x 0.4 / 0.9 = 0.0222 beyond it. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_UNIFORM, 1.2, 1.4, 1.6, &f, &d), TCO_OK);
    NEAR(f.a, 1.2 - 0.4 / 0.9 * 0.05, 1e-15);
    NEAR(f.b, 1.6 + 0.4 / 0.9 * 0.05, 1e-15);
    check_tails(&f, 1.2, 1.6);
    /* PERT with the mode in the middle is Beta(3, 3), whose 5th percentile is z = 0.189255: the ends
     * are 1.4 -/+ (0.4 / (1 - 2z)) / 2 = 1.078192 and 1.721808. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_PERT, 1.2, 1.4, 1.6, &f, &d), TCO_OK);
    NEAR(f.alpha, 3, 1e-9);
    NEAR(f.beta, 3, 1e-9);
    NEAR(f.a, 1.0781923394990554, 1e-9);
    NEAR(f.b, 1.7218076605009445, 1e-9);
    check_tails(&f, 1.2, 1.6);
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_PERT, 50000, 60000, 90000, &f, &d), TCO_OK);
    check_tails(&f, 50000, 90000);
    for (double x = 50000; x <= 90000; x += 5000) /* quantile and CDF agree */
        NEAR(tco_dist_quantile(&f, tco_dist_cdf(&f, x)), x, 1e-6);
    /* Normal: mean the middle, sigma = 0.2 / 1.6449 = 0.121591. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_NORMAL, 1.2, 1.4, 1.6, &f, &d), TCO_OK);
    NEAR(f.mu, 1.4, 1e-15);
    NEAR(f.sigma, 0.2 / 1.6448536269514722, 1e-15);
    check_tails(&f, 1.2, 1.6);
    /* Lognormal 1 .. 4: the median is the geometric middle, 2. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_LOGNORMAL, 1, 2, 4, &f, &d), TCO_OK);
    NEAR(tco_dist_quantile(&f, 0.5), 2, 1e-12);
    check_tails(&f, 1, 4);
    /* The table of docs/uncertainty.md: pue_range = 1.2, 1.6 around 1.3, the ends and P10, P50, P90 (6
     * decimals).  Recomputed in Python: the triangle's and the uniform's quantiles in closed form, the
     * normal and lognormal ones with statistics.NormalDist; for PERT the tails at these ends (0.05 and
     * 0.95 to 1e-6) and the quantiles (to 1e-5) by Simpson's rule on the Beta density and bisection. */
    const struct {
        tco_dist dist;
        double a, b, p10, p50, p90;
    } pue[] = {
        {TCO_DIST_TRIANGULAR, 1.129809, 1.708783, 1.229074, 1.364781, 1.554941},
        {TCO_DIST_UNIFORM, 1.177778, 1.622222, 1.222222, 1.4, 1.577778},
        {TCO_DIST_PERT, 1.158207, 1.869986, 1.221956, 1.354719, 1.545920},
        {TCO_DIST_NORMAL, NAN, NAN, 1.244174, 1.4, 1.555826},
        {TCO_DIST_LOGNORMAL, NAN, NAN, 1.238737, 1.385641, 1.549966},
    };
    for (size_t k = 0; k < sizeof pue / sizeof pue[0]; k++) {
        CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(pue[k].dist, 1.2, 1.3, 1.6, &f, &d), TCO_OK);
        if (!isnan(pue[k].a)) {
            NEAR(f.a, pue[k].a, 5e-7);
            NEAR(f.b, pue[k].b, 5e-7);
        }
        NEAR(tco_dist_quantile(&f, 0.1), pue[k].p10, 5e-7);
        NEAR(tco_dist_quantile(&f, 0.5), pue[k].p50, 5e-7);
        NEAR(tco_dist_quantile(&f, 0.9), pue[k].p90, 5e-7);
        check_tails(&f, 1.2, 1.6);
    }
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_NORMAL, 1.2, 1.3, 1.6, &f, &d), TCO_OK);
    NEAR(f.sigma, 0.121591, 5e-7);
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_LOGNORMAL, 1.2, 1.3, 1.6, &f, &d), TCO_OK);
    NEAR(f.mu, 0.326163, 5e-7);
    NEAR(f.sigma, 0.087449, 5e-7);
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_PERT, 1.2, 1.3, 1.6, &f, &d), TCO_OK);
    NEAR(f.alpha, 1.796837, 5e-7);
    NEAR(f.beta, 4.203163, 5e-7);
    /* A range of one value is that value (every distribution: test_one_point). */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_PERT, 3, 3, 3, &f, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_dist_quantile(&f, 0.9), 3);
    /* Refused. */
    CU_ASSERT_EQUAL(tco_dist_fit_range(TCO_DIST_TRIANGULAR, 1.5, 1.4, 1.6, &f, &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "LOW <= value <= HIGH"));
    CU_ASSERT_EQUAL(tco_dist_fit_range(TCO_DIST_LOGNORMAL, 0, 1, 2, &f, &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "LOW > 0"));
    CU_ASSERT_EQUAL(tco_dist_fit_range(TCO_DIST_NONE, 1, 2, 3, &f, &d), TCO_ERR_INI);
}

/* Ranges at the ends of the doubles: each fit is the fit of the same range near 1 times a power of ten,
 * or refused because its draws could pass 1.8e308, never because a width was squared (issue 24 §6). */
static void test_fits_at_the_edges(void)
{
    tco_dist_fit f;
    tco_diag d = {0};
    /* The symmetric triangle of test_fits at 1e300 and at 1e-300: half-width h = 0.2 / (1 - sqrt(0.1)) =
     * 0.292495 units, so the ends are 1.4 -/+ 0.292495 = 1.107505 and 1.692495 units, mean 1.4 units. */
    const double units[] = {1e300, 1e-300, 1e307};
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
        double x = units[k];
        CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_TRIANGULAR, 1.2 * x, 1.4 * x, 1.6 * x, &f, &d), TCO_OK);
        NEAR(f.a * f.scale / x, 1.107504940885147, 1e-12);
        NEAR(f.b * f.scale / x, 1.6924950591148529, 1e-12);
        NEAR((f.a + f.b + f.c) * f.scale / 3 / x, 1.4, 1e-12); /* the mean, (a + b + c) / 3 */
        check_tails(&f, 1.2 * x, 1.6 * x);
        /* PERT with the mode in the middle: Beta(3, 3), ends 1.078192 and 1.721808 units (test_fits). */
        CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_PERT, 1.2 * x, 1.4 * x, 1.6 * x, &f, &d), TCO_OK);
        NEAR(f.a * f.scale / x, 1.0781923394990554, 1e-9);
        NEAR(f.b * f.scale / x, 1.7218076605009445, 1e-9);
        check_tails(&f, 1.2 * x, 1.6 * x);
    }
    /* A skewed triangle 1e300 .. 4e300 around 2e300: still 5% in each tail, and every draw finite. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_TRIANGULAR, 1e300, 2e300, 4e300, &f, &d), TCO_OK);
    check_tails(&f, 1e300, 4e300);
    CU_ASSERT(isfinite(tco_dist_quantile(&f, 0x1.0p-54)) && isfinite(tco_dist_quantile(&f, 1 - 0x1.0p-53)));
    /* Uniform across zero, -1e308 .. 1e308: the range is the middle 90%, so the ends lie 0.05 x 2e308 / 0.9
     * = 1.111e307 beyond it (the width 2e308 itself is past the largest double); the median is 0. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_UNIFORM, -1e308, 0, 1e308, &f, &d), TCO_OK);
    NEAR(f.a * f.scale / 1e308, -1 - 0.05 * 2 / 0.9, 1e-12);
    NEAR(tco_dist_quantile(&f, 0.05) / 1e308, -1, 1e-12);
    NEAR(tco_dist_quantile(&f, 0.95) / 1e308, 1, 1e-12);
    NEAR(tco_dist_quantile(&f, 0.5), 0, 1e293);
    NEAR(tco_dist_cdf(&f, 1e308), 0.95, 1e-12);
    /* Normal 1e307 .. 2e307: mean 1.5e307, sigma 0.5e307 / 1.6449 = 3.0397e306. */
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_NORMAL, 1e307, 1.5e307, 2e307, &f, &d), TCO_OK);
    NEAR(f.mu * f.scale / 1e307, 1.5, 1e-15);
    NEAR(f.sigma * f.scale / 1e307, 0.5 / 1.6448536269514722, 1e-15);
    check_tails(&f, 1e307, 2e307);
    /* Refused for the true reason: the draws would pass 1.8e308.  Uniform -1.7e308 .. 1.7e308 ends at
     * -/+(1.7 + 0.05 x 3.4 / 0.9)e308 = -/+1.889e308; normal -1e308 .. 1e308 has sigma 6.08e307, and a draw
     * reaches 9.2 sigma; lognormal 1 .. 1e300 has sigma ln(1e300) / 3.29 = 210, and e^(345 + 9.2 x 210) is
     * past e^709.8. */
    const struct {
        tco_dist dist;
        double low, point, high;
    } wide[] = {
        {TCO_DIST_UNIFORM, -1.7e308, 0, 1.7e308},
        {TCO_DIST_NORMAL, -1e308, 0, 1e308},
        {TCO_DIST_LOGNORMAL, 1, 2, 1e300},
        {TCO_DIST_TRIANGULAR, -1.7e308, 0, 1.7e308},
        {TCO_DIST_PERT, -1.7e308, 0, 1.7e308},
    };
    for (size_t k = 0; k < sizeof wide / sizeof wide[0]; k++) {
        d.message[0] = '\0';
        CU_ASSERT_EQUAL(tco_dist_fit_range(wide[k].dist, wide[k].low, wide[k].point, wide[k].high, &f, &d), TCO_ERR_INI);
        CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "the largest number a draw can hold"));
    }
    /* Not a number, or infinite: refused as such. */
    CU_ASSERT_EQUAL(tco_dist_fit_range(TCO_DIST_TRIANGULAR, 1, 2, INFINITY, &f, &d), TCO_ERR_INI);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "finite"));
}

/* Block @p block of seed @p seed of a Latin hypercube of one input: TCO_LHS_BLOCK uniforms into @p u.
 * False when out of memory. */
static int lhs_one_input(uint64_t seed, uint64_t block, double *u)
{
    uint32_t *perm = malloc(sizeof(uint32_t) * TCO_LHS_BLOCK);
    if (perm == NULL)
        return 0;
    tco_lhs_block(seed, block, TCO_LHS_BLOCK, 1, u, perm);
    free(perm);
    return 1;
}

/* A range of one point (LOW = HIGH = the value) is that value exactly, for every distribution and every
 * probability a draw can have (tco_rng_uniform() gives (k + 1/2) / 2^53: 2^-54 to 1 - 2^-54), and N
 * draws of it have every percentile and the mean at the value, deviation 0. */
static void test_one_point(void)
{
    const double points[] = {0, -0.02, 1e-300, 0.1, 1.3, 95000, 7615211.688, 1e300};
    const double us[] = {0x1.0p-54, 1e-10, 0.05, 0.1, 0.5, 0.8, 0.9, 0.95, 1 - 0x1.0p-53, 1 - 0x1.0p-54};
    enum { N = 2000 };
    static double u[TCO_LHS_BLOCK], x[N];
    CU_ASSERT_FATAL(lhs_one_input(5, 0, u));
    for (int dist = TCO_DIST_TRIANGULAR; dist < TCO_DIST_COUNT_OF; dist++)
        for (size_t k = 0; k < sizeof points / sizeof points[0]; k++) {
            double v = points[k];
            tco_dist_fit f;
            tco_diag d = {0};
            tco_error e = tco_dist_fit_range((tco_dist)dist, v, v, v, &f, &d);
            if (dist == TCO_DIST_LOGNORMAL && v <= 0) { /* refused: a lognormal range needs LOW > 0 */
                CU_ASSERT_EQUAL(e, TCO_ERR_INI);
                continue;
            }
            CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
            CU_ASSERT(f.constant);
            int exact = 1;
            for (size_t i = 0; i < sizeof us / sizeof us[0]; i++)
                exact &= tco_dist_quantile(&f, us[i]) == v;
            for (size_t i = 0; i < N; i++) /* Latin hypercube draws, as a Monte Carlo run makes them */
                exact &= (x[i] = tco_dist_quantile(&f, u[i % TCO_LHS_BLOCK])) == v;
            CU_ASSERT(exact);
            CU_ASSERT_EQUAL(tco_dist_cdf(&f, v), 1);
            CU_ASSERT_EQUAL(tco_dist_cdf(&f, v - fabs(v) * 1e-15 - 1e-300), 0);
            tco_stats s;
            tco_stats_of(x, N, &s);
            CU_ASSERT(s.p10 == v && s.p50 == v && s.p80 == v && s.p90 == v && s.mean == v);
            CU_ASSERT(s.stdev == 0 && s.min == v && s.max == v && s.p80 - s.p50 == 0);
        }
}

static void test_latin_hypercube(void)
{
    enum { N = 500, DIMS = 3 };
    double *u = malloc(sizeof(double) * N * DIMS), *v = malloc(sizeof(double) * N * DIMS);
    uint32_t *perm = malloc(sizeof(uint32_t) * N);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(perm);
    tco_lhs_block(7, 0, N, DIMS, u, perm);
    for (int j = 0; j < DIMS; j++) { /* one draw in each slice of 1/N */
        int seen[N] = {0};
        for (int i = 0; i < N; i++) {
            double x = u[i * DIMS + j];
            CU_ASSERT(x > 0 && x < 1);
            seen[(int)(x * N)]++;
        }
        int ones = 0;
        for (int k = 0; k < N; k++)
            ones += seen[k] == 1;
        CU_ASSERT_EQUAL(ones, N);
    }
    tco_lhs_block(7, 0, N, DIMS, v, perm);
    CU_ASSERT(memcmp(u, v, sizeof(double) * N * DIMS) == 0);
    tco_lhs_block(7, 1, N, DIMS, v, perm);
    CU_ASSERT(memcmp(u, v, sizeof(double) * N * DIMS) != 0);
    free(u);
    free(v);
    free(perm);
}

/* The shuffle's remainder without a division (tco_lhs_remainder()) is x % d: for every divisor of a block
 * (1 .. TCO_LHS_BLOCK), at the ends of the 64-bit numbers, next to multiples of d and at random. */
static void test_lhs_remainder(void)
{
    tco_rng r;
    tco_rng_seed(&r, 99, 0);
    int wrong = 0;
    for (uint64_t d = 1; d <= TCO_LHS_BLOCK; d++) {
        const uint64_t q = UINT64_MAX / d;
        const uint64_t xs[] = {0, 1, d - 1, d, d + 1, 2 * d - 1, UINT64_MAX, UINT64_MAX - 1, UINT64_C(1) << 63,
                               (UINT64_C(1) << 63) - 1, q * d, q * d - 1, (q - 1) * d + d - 1, (UINT64_C(1) << 32) * d};
        for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++)
            wrong += tco_lhs_remainder(xs[k], d) != xs[k] % d;
        for (int k = 0; k < 2000; k++) {
            uint64_t x = tco_rng_next(&r);
            wrong += tco_lhs_remainder(x, d) != x % d;
        }
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(tco_lhs_remainder(UINT64_MAX, TCO_LHS_BLOCK + 1), UINT64_MAX % (TCO_LHS_BLOCK + 1));
}

/* A block as its definition reads (tco_lhs_block()'s comment): per input, a Fisher-Yates shuffle with
 * tco_rng_below(), then a uniform in each slice, from one stream; draw-major. */
static void lhs_by_definition(uint64_t seed, uint64_t block, size_t n, size_t dims, double *u, uint32_t *perm)
{
    tco_rng r;
    tco_rng_seed(&r, seed, block);
    for (size_t j = 0; j < dims; j++) {
        for (size_t k = 0; k < n; k++)
            perm[k] = (uint32_t)k;
        for (size_t k = n; k > 1; k--) {
            size_t pick = (size_t)tco_rng_below(&r, k);
            uint32_t t = perm[k - 1];
            perm[k - 1] = perm[pick];
            perm[pick] = t;
        }
        for (size_t i = 0; i < n; i++)
            u[i * dims + j] = ((double)perm[i] + tco_rng_uniform(&r)) / (double)n;
    }
}

/* tco_lhs_block() gives the definition's numbers to the bit (a full block, a last block of what is left,
 * one draw), and tco_lhs_block_columns() the same numbers input by input. */
static void test_lhs_as_defined(void)
{
    enum { DIMS = 5 };
    const size_t ns[] = {TCO_LHS_BLOCK, 537, 2, 1};
    double *u = malloc(sizeof(double) * TCO_LHS_BLOCK * DIMS), *v = malloc(sizeof(double) * TCO_LHS_BLOCK * DIMS),
           *w = malloc(sizeof(double) * TCO_LHS_BLOCK * DIMS);
    uint32_t *perm = malloc(sizeof(uint32_t) * TCO_LHS_BLOCK);
    CU_ASSERT_FATAL(u && v && w && perm);
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        size_t n = ns[t];
        for (uint64_t block = 0; block < 3; block++) {
            lhs_by_definition(11, block, n, DIMS, u, perm);
            tco_lhs_block(11, block, n, DIMS, v, perm);
            tco_lhs_block_columns(11, block, n, DIMS, w, perm);
            CU_ASSERT(memcmp(u, v, sizeof(double) * n * DIMS) == 0);
            int same = 1;
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < DIMS; j++)
                    same &= memcmp(&u[i * DIMS + j], &w[j * n + i], sizeof(double)) == 0;
            CU_ASSERT(same);
        }
    }
    free(u);
    free(v);
    free(w);
    free(perm);
}

/* tco_dist_quantiles() is tco_dist_quantile() at each probability, bit for bit, for every distribution (a
 * triangular fit's both sides, its mode at either end, uniform, the shaped ones, a constant), at the
 * probabilities a draw can take and in between. */
static void test_quantiles_as_one(void)
{
    enum { N = 4000 };
    static double u[N], got[N];
    tco_rng r;
    tco_rng_seed(&r, 3, 1);
    u[0] = 0x1.0p-54;
    u[1] = 1 - 0x1.0p-54;
    u[2] = 0.5;
    for (int i = 3; i < N; i++)
        u[i] = tco_rng_uniform(&r);
    const struct {
        tco_dist dist;
        double low, point, high;
        int bounds;
    } ranges[] = {{TCO_DIST_TRIANGULAR, 0.49, 0.7, 0.91, 0},  {TCO_DIST_TRIANGULAR, 0.5, 0.9, 0.9, 1},
                  {TCO_DIST_TRIANGULAR, 10, 10, 30, 1},       {TCO_DIST_TRIANGULAR, -0.02, 0, 0.05, 0},
                  {TCO_DIST_TRIANGULAR, 1e299, 1e300, 1.5e300, 0}, {TCO_DIST_UNIFORM, 1, 2, 3, 0},
                  {TCO_DIST_PERT, 1, 2, 4, 0},                {TCO_DIST_NORMAL, 1, 2, 3, 0},
                  {TCO_DIST_LOGNORMAL, 1, 2, 4, 0},           {TCO_DIST_TRIANGULAR, 5, 5, 5, 0}};
    for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++) {
        tco_dist_fit f;
        tco_diag d = {0};
        tco_error e = (ranges[k].bounds ? tco_dist_fit_bounds : tco_dist_fit_range)(
            ranges[k].dist, ranges[k].low, ranges[k].point, ranges[k].high, &f, &d);
        CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
        size_t n = ranges[k].dist == TCO_DIST_PERT ? 200 : N - 1; /* (PERT's quantile is slow; an odd count: a last one alone) */
        tco_dist_quantiles(&f, u, n, got);
        int same = 1;
        for (size_t i = 0; i < n; i++) {
            double one = tco_dist_quantile(&f, u[i]);
            same &= memcmp(&one, &got[i], sizeof one) == 0;
        }
        CU_ASSERT(same);
    }
}

static void test_stats(void)
{
    /* 1..10 (shuffled): PERCENTILE.INC at rank 9p: P10 = 1.9, P50 = 5.5, P80 = 8.2, P90 = 9.1; mean 5.5;
     * sample standard deviation sqrt(82.5 / 9) = 3.0276504. */
    double x[] = {7, 3, 10, 1, 5, 9, 2, 8, 6, 4};
    tco_stats s;
    tco_stats_of(x, 10, &s);
    NEAR(s.p10, 1.9, 1e-12);
    NEAR(s.p50, 5.5, 1e-12);
    NEAR(s.p80, 8.2, 1e-12);
    NEAR(s.p90, 9.1, 1e-12);
    NEAR(s.mean, 5.5, 1e-15);
    NEAR(s.stdev, sqrt(82.5 / 9), 1e-15);
    CU_ASSERT_EQUAL(s.min, 1);
    CU_ASSERT_EQUAL(s.max, 10);
    double one[] = {42};
    tco_stats_of(one, 1, &s);
    CU_ASSERT_EQUAL(s.p80, 42);
    CU_ASSERT(isnan(s.stdev)); /* STDEV.S of one value is #DIV/0! */
    /* Values near the largest double: the mean is still finite. */
    double big[] = {1e308, 1.5e308, 1.7e308};
    tco_stats_of(big, 3, &s);
    CU_ASSERT(isfinite(s.mean) && fabs(s.mean - 1.4e308) < 1e293);
    /* Drawn through a fit: the P5 and P95 of 100,000 Latin hypercube draws of a triangular
     * 1.2 .. 1.6 range land on 1.2 and 1.6. */
    enum { N = 100000 };
    double u[TCO_LHS_BLOCK], *draws = malloc(sizeof(double) * N);
    CU_ASSERT_PTR_NOT_NULL_FATAL(draws);
    tco_dist_fit f;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_dist_fit_range(TCO_DIST_TRIANGULAR, 1.2, 1.3, 1.6, &f, &d), TCO_OK);
    for (size_t b = 0; b < N / TCO_LHS_BLOCK; b++) {
        CU_ASSERT_FATAL(lhs_one_input(1, b, u));
        for (size_t i = 0; i < TCO_LHS_BLOCK; i++)
            draws[b * TCO_LHS_BLOCK + i] = tco_dist_quantile(&f, u[i]);
    }
    tco_stats_of(draws, N, &s);
    NEAR(tco_percentile_sorted(draws, N, 0.05), 1.2, 1e-4);
    NEAR(tco_percentile_sorted(draws, N, 0.95), 1.6, 1e-4);
    NEAR(s.mean, (f.a + f.b + f.c) / 3, 1e-4); /* a triangle's mean */
    free(draws);
}

/* Welford's updates on the values themselves, as tco_stats_of() did before it scaled them: for values of
 * ordinary size the scaled figures must be these, bit for bit. */
static void welford_plain(const double *x, size_t n, double *mean, double *stdev)
{
    double m = 0, ss = 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - m;
        m += d / (double)(i + 1);
        ss += d * (x[i] - m);
    }
    *mean = m;
    *stdev = sqrt(ss / (double)(n - 1));
}

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* tco_stats_of() sorts the values as glibc's qsort() (a merge sort: equal values keep their order) does,
 * to the bit: values of both signs and every magnitude, repeats, -0 and +0 in the order given, a few
 * values and many.  Each draw: a random sign, exponent and mantissa, or one of a few repeated values. */
static void test_sort_as_qsort(void)
{
    static const size_t sizes[] = {1, 2, 3, 17, 1000, 100003};
    static const double repeated[] = {0.0, -0.0, 1.5, -2.25, 1e300, -1e-300};
    tco_rng r;
    tco_rng_seed(&r, 12345, 0);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        for (size_t i = 0; i < n; i++) {
            uint64_t bits = tco_rng_next(&r);
            if (bits % 4 == 0) {
                a[i] = repeated[(bits >> 8) % 6];
            } else {
                double mantissa = 1 + (double)(bits >> 12) * 0x1p-52;
                a[i] = ldexp(mantissa, (int)((bits >> 2) % 2000) - 1000) * (bits & 2 ? -1 : 1);
            }
        }
        memcpy(b, a, n * sizeof *a);
        qsort(b, n, sizeof *b, by_value);
        tco_stats s;
        tco_stats_of(a, n, &s);
        CU_ASSERT_EQUAL(memcmp(a, b, n * sizeof *a), 0);
        free(a);
        free(b);
    }
}

static void test_stats_near_the_largest_double(void)
{
    tco_stats s;
    /* 1e308, 1.5e308, 1.7e308: mean 1.4e308; deviations -0.4, 0.1 and 0.3 e308, squares 0.16 + 0.01 + 0.09 =
     * 0.26 e616, over N - 1 = 2: 0.13 e616, deviation sqrt(0.13) e308 = 3.605551e307.  Unscaled, 1e308 squared
     * is INF. */
    double a[] = {1.5e308, 1e308, 1.7e308};
    tco_stats_of(a, 3, &s);
    NEAR(s.mean, 1.4e308, 1e294);
    NEAR(s.stdev, sqrt(0.13) * 1e308, 1e294);
    CU_ASSERT(s.min == 1e308 && s.max == 1.7e308);
    NEAR(s.p50, 1.5e308, 0);
    NEAR(s.p80, 1.5e308 + 0.6 * 0.2e308, 1e294); /* rank 2 x 0.8 = 1.6 */
    /* The largest double four times: mean exactly it (a last bit of rounding past it would be INF), no spread. */
    double top[] = {DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX};
    tco_stats_of(top, 4, &s);
    CU_ASSERT(s.mean == DBL_MAX && s.stdev == 0 && s.p90 == DBL_MAX);
    /* -1.7e308, 1.7e308 and 1.7e308: mean 1.7e308 / 3 = 5.666667e307; deviations -2.2667, 1.1333, 1.1333 e308,
     * squares 5.1378 + 1.2844 + 1.2844 = 7.7067 e616 (= 8/3 x 1.7^2), over 2: 3.8533 e616, deviation 1.963e308:
     * beyond the largest double, so +INF, which risk.c refuses.  The percentiles lie between neighbours of both
     * signs, whose gap overflows: P10 at rank 0.2 is 0.8 x -1.7e308 + 0.2 x 1.7e308 = -1.02e308. */
    double both[] = {1.7e308, -1.7e308, 1.7e308};
    tco_stats_of(both, 3, &s);
    NEAR(s.mean, 1.7e308 / 3, 1e294);
    CU_ASSERT(isinf(s.stdev) && s.stdev > 0);
    NEAR(s.p10, -1.02e308, 1e294);
    CU_ASSERT(isfinite(s.p10) && s.p50 == 1.7e308);
    NEAR(tco_percentile_sorted(both, 3, 0.25), 0, 1e292); /* halfway from -1.7e308 to 1.7e308 */
    /* Two of both signs whose deviation fits: -8e307 and 8e307, mean 0, deviation 8e307 x sqrt(2). */
    double pair[] = {8e307, -8e307};
    tco_stats_of(pair, 2, &s);
    CU_ASSERT(s.mean == 0);
    NEAR(s.stdev, 8e307 * sqrt(2), 1e293);
    /* Ordinary values: bit for bit the unscaled updates (scaling by a power of two is exact). */
    double ordinary[] = {7615211.688, 6566411.688, 8664011.688, 7320629.1816, 7909794.1944, 0.1, 1e-3, 3e12, 42};
    enum { K = sizeof ordinary / sizeof ordinary[0] };
    for (size_t n = 2; n <= K; n++) {
        double copy[K], mean, stdev;
        memcpy(copy, ordinary, sizeof copy);
        welford_plain(ordinary, n, &mean, &stdev);
        tco_stats_of(copy, n, &s);
        CU_ASSERT(memcmp(&s.mean, &mean, sizeof mean) == 0);
        CU_ASSERT(memcmp(&s.stdev, &stdev, sizeof stdev) == 0);
    }
}

/* KEY_range_kind = bounds: LOW and HIGH are the minimum and maximum (cluster32's utilisation 0.5 to 0.9 about
 * 0.9, seed §4.3: storage drops it from 90% to 50%).  A triangular with its mode at the maximum has
 * F(x) = (x - a)^2 / (b - a)^2, so its median is 0.5 + 0.4 x sqrt(0.5) = 0.78284 and no quantile passes 0.9;
 * the p5p95 fit of the same range reaches past 0.9 (its maximum b > HIGH, the 0.93). */
static void test_bounds(void)
{
    tco_dist_fit f, p;
    CU_ASSERT_EQUAL(tco_dist_fit_bounds(TCO_DIST_TRIANGULAR, 0.5, 0.9, 0.9, &f, NULL), TCO_OK);
    NEAR(tco_dist_quantile(&f, 0.5), 0.5 + 0.4 * sqrt(0.5), 1e-12);
    NEAR(tco_dist_quantile(&f, 0.5), 0.78284, 1e-5);
    CU_ASSERT(tco_dist_quantile(&f, 1 - 1e-12) <= 0.9);
    CU_ASSERT(tco_dist_quantile(&f, 1e-12) >= 0.5);
    NEAR(tco_dist_cdf(&f, 0.9), 1, 1e-12);
    CU_ASSERT_EQUAL(tco_dist_fit_range(TCO_DIST_TRIANGULAR, 0.5, 0.9, 0.9, &p, NULL), TCO_OK);
    CU_ASSERT(tco_dist_quantile(&p, 0.999) > 0.9);
    /* Uniform over the bounds: the quantile of u is LOW + u (HIGH - LOW): 4,400 + 0.25 x 2,000 = 4,900 W (the
     * dc8's base power, seed §4.3's 10 to 12 kW less 8 x 700 W). */
    CU_ASSERT_EQUAL(tco_dist_fit_bounds(TCO_DIST_UNIFORM, 4400, 4600, 6400, &f, NULL), TCO_OK);
    NEAR(tco_dist_quantile(&f, 0.25), 4900, 1e-9);
    /* PERT with minimum 0, mode 0.5, maximum 1 is Beta(3, 3), symmetric: median 0.5. */
    CU_ASSERT_EQUAL(tco_dist_fit_bounds(TCO_DIST_PERT, 0, 0.5, 1, &f, NULL), TCO_OK);
    NEAR(tco_dist_quantile(&f, 0.5), 0.5, 1e-9);
    /* Normal and lognormal have no minimum and maximum; a value outside the bounds is refused. */
    CU_ASSERT_EQUAL(tco_dist_fit_bounds(TCO_DIST_NORMAL, 0, 0.5, 1, &f, NULL), TCO_ERR_INI);
    CU_ASSERT_EQUAL(tco_dist_fit_bounds(TCO_DIST_LOGNORMAL, 1, 2, 3, &f, NULL), TCO_ERR_INI);
    CU_ASSERT_EQUAL(tco_dist_fit_bounds(TCO_DIST_TRIANGULAR, 0.5, 0.95, 0.9, &f, NULL), TCO_ERR_INI);
    /* tco_range_fit() takes the range's kind. */
    tco_range r = {.dist = TCO_DIST_TRIANGULAR, .low = 0.5, .high = 0.9, .bounds = true};
    CU_ASSERT_EQUAL(tco_range_fit(&r, 0.9, &f, NULL), TCO_OK);
    NEAR(f.b * f.scale, 0.9, 1e-15);
    r.bounds = false;
    CU_ASSERT_EQUAL(tco_range_fit(&r, 0.9, &f, NULL), TCO_OK);
    CU_ASSERT(f.b * f.scale > 0.9);
}

CU_ErrorCode register_sample_suite(void)
{
    CU_pSuite s = CU_add_suite("sample", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "xoshiro256** and its streams", test_generator) ||
        !CU_add_test(s, "standard normal quantile", test_normal_quantile) ||
        !CU_add_test(s, "distributions fitted to a 90% range", test_fits) ||
        !CU_add_test(s, "fits at the ends of the doubles", test_fits_at_the_edges) ||
        !CU_add_test(s, "a range of one point is that point", test_one_point) ||
        !CU_add_test(s, "ranges whose ends are bounds (KEY_range_kind = bounds)", test_bounds) ||
        !CU_add_test(s, "Latin hypercube blocks", test_latin_hypercube) ||
        !CU_add_test(s, "the shuffle's remainder is x % d", test_lhs_remainder) ||
        !CU_add_test(s, "Latin hypercube blocks as defined, draw by draw and input by input", test_lhs_as_defined) ||
        !CU_add_test(s, "quantiles of a block as one at a time, to the bit", test_quantiles_as_one) ||
        !CU_add_test(s, "percentiles, mean and deviation", test_stats) ||
        !CU_add_test(s, "values sorted as qsort() sorts them, to the bit", test_sort_as_qsort) ||
        !CU_add_test(s, "statistics near the largest double, in scaled units", test_stats_near_the_largest_double))
        return CU_get_error();
    return CUE_SUCCESS;
}
