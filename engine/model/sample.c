/* sample.c - the PRNG, the range distributions and their fits, Latin hypercube blocks, statistics. */
#include "model/sample.h"
#include "model/ranges.h"

#include <math.h>
#include <pthread.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

/* ---- generator ------------------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void tco_rng_seed(tco_rng *rng, uint64_t seed, uint64_t stream)
{
    uint64_t a = seed, b = ~stream;
    uint64_t x = splitmix64(&a) ^ rotl(splitmix64(&b), 29);
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&x);
    if ((rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]) == 0)
        rng->s[0] = 1; /* splitmix64 never gives four zeros in a row; kept for the invariant */
}

uint64_t tco_rng_next(tco_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double tco_rng_uniform(tco_rng *rng)
{
    return ((double)(tco_rng_next(rng) >> 11) + 0.5) * 0x1.0p-53;
}

uint64_t tco_rng_below(tco_rng *rng, uint64_t n)
{
    /* Reject the lowest 2^64 mod n outputs: what is left is a whole number of runs of n. */
    uint64_t floor_ = (0 - n) % n;
    for (;;) {
        uint64_t x = tco_rng_next(rng);
        if (x >= floor_)
            return x % n;
    }
}

/* ---- distributions -------------------------------------------------------------------------- */

/* z with Phi(z) = 0.95. */
static const double Z95 = 1.6448536269514722;

double tco_normal_quantile(double u)
{
    /* A start within 5e-4 (Abramowitz and Stegun 26.2.23), then Halley steps on Phi(x) - u with
     * Phi from erfc, which converge cubically. */
    double p = u < 0.5 ? u : 1 - u;
    double t = sqrt(-2 * log(p));
    double x = t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
    if (u < 0.5)
        x = -x;
    for (int i = 0; i < 4; i++) {
        double e = 0.5 * erfc(-x / M_SQRT2) - u;
        double r = e * sqrt(2 * M_PI) * exp(x * x / 2); /* e / phi(x) */
        x -= r / (1 + x * r / 2);
    }
    return x;
}

static double normal_cdf(double z)
{
    return 0.5 * erfc(-z / M_SQRT2);
}

/* The regularized incomplete beta function I_x(a, b), by its continued fraction (modified Lentz),
 * using the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges faster. */
static double incomplete_beta(double x, double a, double b, double log_beta_fn)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    if (x > (a + 1) / (a + b + 2))
        return 1 - incomplete_beta(1 - x, b, a, log_beta_fn);
    const double tiny = 1e-300;
    double front = exp(a * log(x) + b * log1p(-x) - log_beta_fn) / a;
    double f = 1, c = 1, d = 0;
    for (int i = 0; i <= 300; i++) {
        double m = i / 2, num;
        if (i == 0)
            num = 1;
        else if (i % 2 == 0)
            num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        else
            num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        d = 1 + num * d;
        if (fabs(d) < tiny)
            d = tiny;
        d = 1 / d;
        c = 1 + num / c;
        if (fabs(c) < tiny)
            c = tiny;
        double cd = c * d;
        f *= cd;
        if (fabs(1 - cd) < 1e-16)
            break;
    }
    return front * (f - 1);
}

/* PERT shape for minimum a, mode c, maximum b (lambda 4). */
static void pert_shape(tco_dist_fit *f)
{
    f->alpha = 1 + 4 * (f->c - f->a) / (f->b - f->a);
    f->beta = 1 + 4 * (f->b - f->c) / (f->b - f->a);
    f->log_beta_fn = lgamma(f->alpha) + lgamma(f->beta) - lgamma(f->alpha + f->beta);
}

/* The CDF at @p x in the fit's units (x / scale). */
static double cdf_scaled(const tco_dist_fit *f, double x)
{
    switch (f->dist) {
    case TCO_DIST_TRIANGULAR:
        if (x <= f->a)
            return 0;
        if (x >= f->b)
            return 1;
        if (x <= f->c)
            return (x - f->a) * (x - f->a) / ((f->b - f->a) * (f->c - f->a));
        return 1 - (f->b - x) * (f->b - x) / ((f->b - f->a) * (f->b - f->c));
    case TCO_DIST_UNIFORM:
        return x <= f->a ? 0 : x >= f->b ? 1 : (x - f->a) / (f->b - f->a);
    case TCO_DIST_PERT:
        return incomplete_beta((x - f->a) / (f->b - f->a), f->alpha, f->beta, f->log_beta_fn);
    case TCO_DIST_NORMAL:
        return normal_cdf((x - f->mu) / f->sigma);
    case TCO_DIST_LOGNORMAL:
        return x <= 0 ? 0 : normal_cdf((log(x) - f->mu) / f->sigma);
    case TCO_DIST_NONE: case TCO_DIST_COUNT_OF:
        break;
    }
    return x < f->c ? 0 : 1;
}

double tco_dist_cdf(const tco_dist_fit *f, double x)
{
    if (f->constant)
        return x < f->c ? 0 : 1;
    return cdf_scaled(f, x / f->scale);
}

/* The quantile at @p u in the fit's units. */
static double quantile_scaled(const tco_dist_fit *f, double u)
{
    switch (f->dist) {
    case TCO_DIST_TRIANGULAR: case TCO_DIST_UNIFORM: return tco_dist_quantile_plain(f, u);
    case TCO_DIST_PERT: {
        /* Newton on I_z(alpha, beta) = u, kept inside a bracket that bisection narrows. */
        double lo = 0, hi = 1, z = (f->c - f->a) / (f->b - f->a);
        if (z <= 0 || z >= 1)
            z = 0.5;
        for (int i = 0; i < 100; i++) {
            double e = incomplete_beta(z, f->alpha, f->beta, f->log_beta_fn) - u;
            if (e == 0)
                break;
            if (e < 0)
                lo = z;
            else
                hi = z;
            double pdf = exp((f->alpha - 1) * log(z) + (f->beta - 1) * log1p(-z) - f->log_beta_fn);
            double next = pdf > 0 ? z - e / pdf : -1;
            if (!(next > lo && next < hi))
                next = (lo + hi) / 2;
            if (fabs(next - z) <= 1e-16 * (1 + z) || hi - lo <= 1e-16) {
                z = next;
                break;
            }
            z = next;
        }
        return f->a + z * (f->b - f->a);
    }
    case TCO_DIST_NORMAL:
        return f->mu + f->sigma * tco_normal_quantile(u);
    case TCO_DIST_LOGNORMAL:
        return exp(f->mu + f->sigma * tco_normal_quantile(u));
    case TCO_DIST_NONE: case TCO_DIST_COUNT_OF:
        break;
    }
    return f->c;
}

double tco_dist_quantile_shaped(const tco_dist_fit *f, double u)
{
    return quantile_scaled(f, u) * f->scale;
}

void tco_dist_quantiles(const tco_dist_fit *f, const double *u, size_t n, double *out)
{
    if (f->constant) {
        for (size_t i = 0; i < n; i++)
            out[i] = f->c;
    } else if (f->dist == TCO_DIST_TRIANGULAR) {
        /* tco_dist_quantile_plain()'s operations, in its order, on both sides */
        const double a = f->a, b = f->b, w = b - a, ca = f->c - a, bc = b - f->c, scale = f->scale;
        size_t i = 0;
#if defined(__SSE2__)
        /* Two at a time: SSE2's square root, products and sums are IEEE-754's, rounded as the scalar ones. */
        const __m128d va = _mm_set1_pd(a), vb = _mm_set1_pd(b), vw = _mm_set1_pd(w), vca = _mm_set1_pd(ca),
                      vbc = _mm_set1_pd(bc), vscale = _mm_set1_pd(scale), one = _mm_set1_pd(1);
        for (; i + 2 <= n; i += 2) {
            __m128d vu = _mm_loadu_pd(u + i), uw = _mm_mul_pd(vu, vw);
            __m128d low = _mm_add_pd(va, _mm_sqrt_pd(_mm_mul_pd(uw, vca)));
            __m128d high = _mm_sub_pd(vb, _mm_sqrt_pd(_mm_mul_pd(_mm_mul_pd(_mm_sub_pd(one, vu), vw), vbc)));
            __m128d keep_low = _mm_cmplt_pd(uw, vca);
            __m128d pick = _mm_or_pd(_mm_and_pd(keep_low, low), _mm_andnot_pd(keep_low, high));
            _mm_storeu_pd(out + i, _mm_mul_pd(pick, vscale));
        }
#endif
        for (; i < n; i++) {
            double uw = u[i] * w;
            double low = a + sqrt(uw * ca), high = b - sqrt((1 - u[i]) * w * bc), pick;
            /* uw < ca ? low : high, as bits: GCC compiles the ?: to a branch */
            uint64_t lo_bits, hi_bits, keep_low = 0 - (uint64_t)(uw < ca);
            memcpy(&lo_bits, &low, sizeof low);
            memcpy(&hi_bits, &high, sizeof high);
            lo_bits = (lo_bits & keep_low) | (hi_bits & ~keep_low);
            memcpy(&pick, &lo_bits, sizeof pick);
            out[i] = pick * scale;
        }
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = tco_dist_quantile(f, u[i]);
    }
}

/* The CDF at @p x with the free end (a when @p lower, else b) at @p end, the shape following it. */
static double cdf_with_end(tco_dist_fit *f, int lower, double end, double x)
{
    if (lower)
        f->a = end;
    else
        f->b = end;
    if (f->dist == TCO_DIST_PERT)
        pert_shape(f);
    return cdf_scaled(f, x);
}

/* Solve for the free end of a triangular or PERT fit: with the other end fixed, the end @p lower
 * (a, else b) such that the CDF at @p x is @p target.  Starting @p step away from x, the end moves
 * out until it brackets the target, then bisects (the CDF at x falls as a rises toward x and rises
 * as b falls toward x).  False when no bracket is found. */
static int solve_end(tco_dist_fit *f, int lower, double x, double target, double step)
{
    double near = x, far = lower ? x - step : x + step;
    for (int k = 0;; k++) {
        double p = cdf_with_end(f, lower, far, x);
        if (lower ? p >= target : p <= target)
            break;
        if (k == 60)
            return 0;
        near = far;
        far = lower ? x - (x - far) * 2 : x + (far - x) * 2;
    }
    for (int i = 0; i < 200; i++) {
        double mid = (near + far) / 2;
        if (mid == near || mid == far)
            break;
        double p = cdf_with_end(f, lower, mid, x);
        if (lower ? p >= target : p <= target)
            far = mid;
        else
            near = mid;
    }
    cdf_with_end(f, lower, far, x);
    return 1;
}

/* Refuse a fit whose draws could pass the largest double: tco_dist_quantile() would give infinity. */
static tco_error too_wide(const tco_dist_fit *f, tco_diag *diag)
{
    return tco_diag_set(diag, TCO_ERR_INI,
                        "the %s distribution that puts 5%% below LOW and 5%% above HIGH reaches past %s, the "
                        "largest number a draw can hold: narrow the range or choose another distribution",
                        tco_dist_name(f->dist), f->dist == TCO_DIST_LOGNORMAL ? "1.8e308" : "-/+1.8e308");
}

/* The farthest a draw lies from the middle in standard deviations: the normal quantile of the smallest
 * probability a Latin hypercube draw can have, 2^-54 (tco_rng_uniform()) over TCO_LHS_BLOCK slices (the
 * largest, 1 - 2^-53 at the most, lies nearer). */
static double draw_reach(void)
{
    return -tco_normal_quantile(0x1.0p-54 / TCO_LHS_BLOCK);
}

tco_error tco_dist_fit_range(tco_dist dist, double low, double point, double high, tco_dist_fit *out,
                             tco_diag *diag)
{
    *out = (tco_dist_fit){.dist = dist, .a = low, .c = point, .b = high, .scale = 1};
    if (dist == TCO_DIST_NONE || dist == TCO_DIST_COUNT_OF)
        return tco_diag_set(diag, TCO_ERR_INI, "no distribution given");
    if (!isfinite(low) || !isfinite(point) || !isfinite(high))
        return tco_diag_set(diag, TCO_ERR_INI, "expected finite numbers for LOW, the value and HIGH");
    if (!(low <= point && point <= high))
        return tco_diag_set(diag, TCO_ERR_INI, "the range must hold the value: LOW <= value <= HIGH");
    if (dist == TCO_DIST_LOGNORMAL && !(low > 0))
        return tco_diag_set(diag, TCO_ERR_INI, "a lognormal range needs LOW > 0");
    if (low == high) {
        out->constant = 1;
        return TCO_OK;
    }
    if (dist == TCO_DIST_LOGNORMAL) { /* in logarithms, which every positive double has */
        out->mu = (log(low) + log(high)) / 2;
        out->sigma = (log(high) - log(low)) / (2 * Z95);
        return isfinite(exp(out->mu + draw_reach() * out->sigma)) ? TCO_OK : too_wide(out, diag);
    }
    /* In units of a power of two near the largest magnitude (exact: every figure keeps its digits), LOW,
     * the value and HIGH lie within -/+2, so no width, square or sum below overflows or underflows, whatever finite
     * doubles the range holds; the figures are those of the unscaled fit wherever that did not. */
    int e;
    frexp(fmax(fabs(low), fabs(high)), &e);
    out->scale = ldexp(1, e - 1);
    low /= out->scale;
    point /= out->scale;
    high /= out->scale;
    out->a = low;
    out->c = point;
    out->b = high;
    double w = high - low;
    switch (dist) {
    case TCO_DIST_UNIFORM: {
        double full = w / (1 - 2 * TCO_RANGE_TAIL);
        out->a = low - TCO_RANGE_TAIL * full;
        out->b = high + TCO_RANGE_TAIL * full;
        out->c = (out->a + out->b) / 2;
        return isfinite(out->a * out->scale) && isfinite(out->b * out->scale) ? TCO_OK : too_wide(out, diag);
    }
    case TCO_DIST_NORMAL:
        out->mu = (low + high) / 2;
        out->sigma = w / (2 * Z95);
        return isfinite((fabs(out->mu) + draw_reach() * out->sigma) * out->scale) ? TCO_OK : too_wide(out, diag);
    case TCO_DIST_TRIANGULAR: case TCO_DIST_PERT: case TCO_DIST_LOGNORMAL: case TCO_DIST_NONE:
    case TCO_DIST_COUNT_OF:
        break;
    }
    /* Both ends at once: alternately the minimum that puts 5% below LOW with the maximum fixed, and
     * the maximum that puts 5% above HIGH with the minimum fixed, until neither moves. */
    out->a = low - w / 4;
    out->b = high + w / 4;
    int fitted = 0;
    for (int i = 0; i < 500 && !fitted; i++) {
        double a0 = out->a, b0 = out->b;
        if (!solve_end(out, 1, low, TCO_RANGE_TAIL, w / 4) || !solve_end(out, 0, high, 1 - TCO_RANGE_TAIL, w / 4))
            break;
        fitted = fabs(out->a - a0) <= 1e-14 * w && fabs(out->b - b0) <= 1e-14 * w;
    }
    if (!fitted)
        fitted = fabs(cdf_scaled(out, low) - TCO_RANGE_TAIL) < 1e-9 &&
                 fabs(cdf_scaled(out, high) - (1 - TCO_RANGE_TAIL)) < 1e-9;
    if (!fitted)
        return tco_diag_set(diag, TCO_ERR_INI,
                            "no %s distribution with its mode at the value has 5%% below LOW and 5%% above HIGH "
                            "(the value sits too close to one end of a wide range)",
                            tco_dist_name(dist));
    return isfinite(out->a * out->scale) && isfinite(out->b * out->scale) ? TCO_OK : too_wide(out, diag);
}

tco_error tco_dist_fit_bounds(tco_dist dist, double low, double point, double high, tco_dist_fit *out,
                              tco_diag *diag)
{
    if (dist == TCO_DIST_NORMAL || dist == TCO_DIST_LOGNORMAL)
        return tco_diag_set(diag, TCO_ERR_INI, "a %s distribution has no minimum and maximum: bounds take "
                            "triangular, uniform or pert", tco_dist_name(dist));
    if (dist != TCO_DIST_TRIANGULAR && dist != TCO_DIST_UNIFORM && dist != TCO_DIST_PERT)
        return tco_diag_set(diag, TCO_ERR_INI, "no distribution given");
    *out = (tco_dist_fit){.dist = dist, .a = low, .c = point, .b = high, .scale = 1};
    if (!isfinite(low) || !isfinite(point) || !isfinite(high))
        return tco_diag_set(diag, TCO_ERR_INI, "expected finite numbers for LOW, the value and HIGH");
    if (!(low <= point && point <= high))
        return tco_diag_set(diag, TCO_ERR_INI, "the range must hold the value: LOW <= value <= HIGH");
    if (low == high) {
        out->constant = 1;
        return TCO_OK;
    }
    /* In units of a power of two near the largest magnitude, as tco_dist_fit_range(): a, c and b are LOW, the
     * value and HIGH themselves (uniform's c the middle), so no draw passes them. */
    int e;
    frexp(fmax(fabs(low), fabs(high)), &e);
    out->scale = ldexp(1, e - 1);
    out->a = low / out->scale;
    out->b = high / out->scale;
    out->c = dist == TCO_DIST_UNIFORM ? (out->a + out->b) / 2 : point / out->scale;
    if (dist == TCO_DIST_PERT)
        pert_shape(out);
    return TCO_OK;
}

tco_error tco_range_fit(const tco_range *r, double point, tco_dist_fit *out, tco_diag *diag)
{
    return (r->bounds ? tco_dist_fit_bounds : tco_dist_fit_range)(r->dist, r->low, point, r->high, out, diag);
}

/* ---- Latin hypercube ------------------------------------------------------------------------ */

/* x % d for every 64-bit x and a divisor d below 2^32, without a division: Granlund and Montgomery's
 * method ("Division by invariant integers using multiplication", 1994, figure 4.1), with m = floor(2^64
 * (2^l - d) / d) + 1 and l = ceil(log2 d): the quotient is (t + ((x - t) >> 1)) >> (l - 1) for t the high
 * word of m x (for d = 1: m = 1, shifts 0).  Exact for every x, as the paper proves; tests/test_sample.c
 * compares it with % for every d of a block.  A shuffle step of a block takes one remainder; the divisors
 * are 1 .. TCO_LHS_BLOCK, so the multipliers are worked out once, for all of them. */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 u128;
typedef struct divisor {
    uint64_t m;
    unsigned char sh1, sh2;
} divisor;

static divisor divisors[TCO_LHS_BLOCK + 1];
static pthread_once_t divisors_once = PTHREAD_ONCE_INIT;

static void make_divisors(void)
{
    for (uint64_t d = 1; d <= TCO_LHS_BLOCK; d++) {
        int l = 0;
        while ((UINT64_C(1) << l) < d)
            l++;
        divisors[d].m = (uint64_t)((((u128)((UINT64_C(1) << l) - d)) << 64) / d) + 1;
        divisors[d].sh1 = l > 0;
        divisors[d].sh2 = (unsigned char)(l > 0 ? l - 1 : 0);
    }
}

static inline uint64_t remainder_by(uint64_t x, uint64_t d)
{
    const divisor *v = &divisors[d];
    uint64_t t = (uint64_t)(((u128)v->m * x) >> 64);
    return x - ((t + ((x - t) >> v->sh1)) >> v->sh2) * d;
}
#define PREPARE_DIVISORS() pthread_once(&divisors_once, make_divisors)
#else
static inline uint64_t remainder_by(uint64_t x, uint64_t d)
{
    return x % d;
}
#define PREPARE_DIVISORS() ((void)0)
#endif

uint64_t tco_lhs_remainder(uint64_t x, uint64_t d)
{
    if (d == 0 || d > TCO_LHS_BLOCK)
        return x % d;
    PREPARE_DIVISORS();
    return remainder_by(x, d);
}

/* tco_lhs_block() with draw i of input j at u[i * draw_stride + j * input_stride].  Each step of the
 * shuffle is tco_rng_below(&r, k) (the same outputs taken, the same index): an output at or above k is
 * at or above 2^64 mod k (which is below k), so that bound is worked out only for an output below k. */
static void lhs_block(uint64_t seed, uint64_t block, size_t n, size_t dims, double *u, size_t draw_stride,
                      size_t input_stride, uint32_t *perm)
{
    tco_rng r;
    tco_rng_seed(&r, seed, block);
    PREPARE_DIVISORS();
    for (size_t j = 0; j < dims; j++) {
        for (size_t k = 0; k < n; k++)
            perm[k] = (uint32_t)k;
        for (size_t k = n; k > 1; k--) { /* Fisher-Yates */
            uint64_t x = tco_rng_next(&r);
            while (x < k && x < (0 - (uint64_t)k) % k) /* tco_rng_below()'s rejection */
                x = tco_rng_next(&r);
            size_t pick = (size_t)(k <= TCO_LHS_BLOCK ? remainder_by(x, k) : x % k);
            uint32_t t = perm[k - 1];
            perm[k - 1] = perm[pick];
            perm[pick] = t;
        }
        double *col = u + j * input_stride;
        for (size_t i = 0; i < n; i++)
            col[i * draw_stride] = ((double)perm[i] + tco_rng_uniform(&r)) / (double)n;
    }
}

void tco_lhs_block(uint64_t seed, uint64_t block, size_t n, size_t dims, double *u, uint32_t *perm)
{
    lhs_block(seed, block, n, dims, u, dims, 1, perm);
}

void tco_lhs_block_columns(uint64_t seed, uint64_t block, size_t n, size_t dims, double *u, uint32_t *perm)
{
    lhs_block(seed, block, n, dims, u, 1, n, perm);
}

/* ---- statistics ----------------------------------------------------------------------------- */

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double tco_percentile_sorted(const double *x, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return x[n - 1];
    double w = h - (double)lo, gap = x[lo + 1] - x[lo];
    if (isfinite(gap))
        return x[lo] + w * gap;
    /* Two neighbours of both signs near the largest double: their gap overflows, a weighted sum of the
     * two does not (each term is at most its value). */
    return x[lo] * (1 - w) + x[lo + 1] * w;
}

/* The order of finite doubles as an unsigned key: increasing with the value, the same for -0 and +0
 * (which cmp_double() has equal). */
static inline uint64_t order_key(double x)
{
    if (x == 0)
        x = 0; /* -0 as +0 */
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b >> 63 ? ~b : b | 0x8000000000000000u;
}

/* Sort the finite values @p x[0..n) ascending, keeping equal values in the order given: the order of
 * glibc's qsort() with cmp_double() (a merge sort, which keeps it too), so the same array to the bit,
 * -0 and +0 included.  A least-significant-digit radix sort on order_key(), 11 bits a pass, a pass
 * skipped where every key has the same digit: a few passes over the values instead of n log n calls of
 * a comparison through a pointer (100,000 draws: about a millisecond, where qsort() took 15).  Without
 * memory for its scratch it is qsort(). */
static void sort_values(double *x, size_t n)
{
    enum { BITS = 11, BUCKETS = 1 << BITS, PASSES = (64 + BITS - 1) / BITS };
    double *tmp = n > 1 ? malloc(n * sizeof *tmp) : NULL;
    size_t(*count)[BUCKETS] = tmp ? calloc(PASSES, sizeof *count) : NULL;
    if (count == NULL) {
        free(tmp);
        if (n > 1)
            qsort(x, n, sizeof *x, cmp_double);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t k = order_key(x[i]);
        for (int d = 0; d < PASSES; d++)
            count[d][(k >> (d * BITS)) & (BUCKETS - 1)]++;
    }
    double *from = x, *to = tmp;
    uint64_t first = order_key(x[0]);
    for (int d = 0; d < PASSES; d++) {
        if (count[d][(first >> (d * BITS)) & (BUCKETS - 1)] == n)
            continue; /* every key has this digit: the order stays */
        size_t at = 0;
        for (size_t b = 0; b < BUCKETS; b++) {
            size_t c = count[d][b];
            count[d][b] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            to[count[d][(order_key(from[i]) >> (d * BITS)) & (BUCKETS - 1)]++] = from[i];
        double *t = from;
        from = to;
        to = t;
    }
    if (from != x)
        memcpy(x, from, n * sizeof *x);
    free(count);
    free(tmp);
}

void tco_stats_of(double *x, size_t n, tco_stats *out)
{
    /* Welford's updates, in the order given, on the values in units of 2^e, the power of two just above
     * the largest magnitude: every scaled value lies in (-1, 1), so no sum, difference or square
     * overflows wherever the values lie (a deviation of values near 1E+308 squares them).  Scaling by a
     * power of two is exact, and so is every step scaled: for values of any ordinary size the figures
     * are, bit for bit, those of the updates on the values themselves. */
    double big = 0, lo = x[0], hi = x[0];
    for (size_t i = 0; i < n; i++) {
        big = fmax(big, fabs(x[i]));
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
    }
    int e = 0;
    if (big > 0)
        (void)frexp(big, &e); /* big = f 2^e, 0.5 <= f < 1 */
    double mean = 0, ss = 0;
    for (size_t i = 0; i < n; i++) {
        double v = ldexp(x[i], -e), d = v - mean;
        mean += d / (double)(i + 1);
        ss += d * (v - mean);
    }
    /* The mean lies between the least and the greatest value; a last bit of rounding past either is
     * taken back, so that it scales back to a finite number even at the largest double. */
    mean = fmin(fmax(mean, ldexp(lo, -e)), ldexp(hi, -e));
    sort_values(x, n);
    *out = (tco_stats){
        .n = n,
        .p10 = tco_percentile_sorted(x, n, 0.10),
        .p50 = tco_percentile_sorted(x, n, 0.50),
        .p80 = tco_percentile_sorted(x, n, 0.80),
        .p90 = tco_percentile_sorted(x, n, 0.90),
        .mean = ldexp(mean, e),
        /* One draw has no sample deviation (NaN); values of both signs near the largest double can have
         * one beyond it (+INF: the caller refuses it). */
        .stdev = n > 1 ? ldexp(sqrt(ss / (double)(n - 1)), e) : NAN,
        .min = x[0],
        .max = x[n - 1],
    };
}
