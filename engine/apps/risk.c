/* risk.c - sensitivity and Monte Carlo runs over the loaded model (risk.h). */
#include "apps/risk.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "model/program.h"
#include "render/report.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "model/evaluate.h"
#include "model/ranges.h"

static void hash_bytes(tco_hash *h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        tco_hash_byte(h, b[i]);
}

static void hash_text(tco_hash *h, const char *s)
{
    hash_bytes(h, s, strlen(s) + 1);
}

/* A number as its shortest round-trip text, so that 0.1 + 0.2 and 0.30000000000000004 agree. */
static void hash_number(tco_hash *h, double v)
{
    char t[32];
    tco_format_double(v, t);
    hash_text(h, t);
}

/* A range: its distribution and ends (nothing for none). */
static void hash_range(tco_hash *h, const tco_range *r)
{
    if (r == NULL || r->dist == TCO_DIST_NONE)
        return;
    hash_text(h, tco_dist_name(r->dist));
    hash_number(h, r->low);
    hash_number(h, r->high);
    if (r->bounds) /* p5p95 ranges hash as before */
        hash_text(h, "bounds");
}

void tco_model_fingerprint(const tco_model *m, char out[17])
{
    tco_hash h;
    tco_fingerprint_begin(&h);
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind == TCO_ITEM_INPUT) {
            hash_text(&h, it->name);
            if (it->text)
                hash_text(&h, it->text);
            else
                hash_number(&h, it->value);
            hash_range(&h, &it->range);
        } else if (it->kind == TCO_ITEM_TIER_INPUT) {
            hash_text(&h, it->name);
            for (int r = 0; r < m->n_tiers; r++) {
                if (it->tier_texts)
                    hash_text(&h, it->tier_texts[r] ? it->tier_texts[r] : "");
                else
                    hash_number(&h, it->tiers[r]);
                hash_range(&h, it->tier_ranges ? &it->tier_ranges[r] : NULL);
            }
        }
    }
    snprintf(out, 17, "%016llx", (unsigned long long)tco_hash_end(&h));
}

/* The figure of role @p idx (tco_model_role_value()), NaN where the model gives none. */
static double figure(const tco_model *m, int idx)
{
    double v;
    return tco_model_role_value(m, idx, &v) ? v : NAN;
}

/* The value slot of ranged input @p r. */
static double *slot(tco_model *m, const tco_ranged_input *r)
{
    tco_item *it = &m->items[r->item];
    it->moved = true; /* a swing or a draw: no longer the value its place gave */
    return r->tier < 0 ? &it->value : &it->tiers[r->tier];
}

/* @p v held to the input's bounds and, for a whole-number input, rounded to the nearest whole. */
static double admissible(const tco_item *it, double v)
{
    if (it->integer)
        v = floor(v + 0.5);
    if (!isnan(it->min) && v < it->min)
        v = it->min;
    if (tco_input_below_least(it, v)) /* the nearer of 0 and least */
        v = v < it->least / 2 ? 0 : it->least;
    if (!isnan(it->max) && v > it->max)
        v = it->max;
    return v;
}

double tco_risk_draw_value(const tco_item *it, const tco_dist_fit *fit, double u)
{
    return admissible(it, tco_dist_quantile(fit, u));
}

/* tco_risk_draw_value() of @p it at each of the uniforms @p u[0 .. n), in place: the same numbers, a loop
 * per input (tco_dist_quantiles()). */
static void draw_values(const tco_item *it, const tco_dist_fit *fit, double *u, size_t n)
{
    tco_dist_quantiles(fit, u, n, u);
    if (it->integer || !isnan(it->min) || !isnan(it->max))
        for (size_t i = 0; i < n; i++)
            u[i] = admissible(it, u[i]);
}

/* "pue = 1.53, tier_price[D-M] = 61000.5" for the first few inputs, as they stand, into @p b. */
static void describe_inputs(tco_model *m, const tco_ranged_input *in, size_t n, tco_strbuf *b)
{
    for (size_t j = 0; j < n && j < 6; j++) {
        char v[32];
        tco_format_double(*slot(m, &in[j]), v);
        tco_strbuf_printf(b, "%s%s = %s", j ? ", " : "", in[j].label, v);
    }
    if (n > 6)
        tco_strbuf_printf(b, ", and %zu more", n - 6);
}

/* Evaluate after a change; on failure the message says which run it was and the inputs' values. */
static tco_error evaluate(tco_model *m, const tco_ranged_input *in, size_t n, const char *run, tco_diag *diag)
{
    tco_error e = tco_model_evaluate(m, diag);
    if (e != TCO_OK && diag != NULL) {
        tco_strbuf b = {0};
        tco_strbuf_printf(&b, "%s: %s (inputs: ", run, diag->message);
        describe_inputs(m, in, n, &b);
        tco_strbuf_append(&b, ")");
        snprintf(diag->message, sizeof diag->message, "%s", tco_strbuf_str(&b));
        tco_strbuf_free(&b);
    }
    return e;
}

/* The ranges of the first few inputs, as their files or --set give them, the widest first (by the larger
 * magnitude of LOW and HIGH), into @p b: "--set card.price_range=1e299,1.5e300 (1e+299 to 1.5e+300)". */
static double range_size(const tco_ranged_input *r)
{
    return fmax(fabs(r->range->given_low), fabs(r->range->given_high));
}

static void describe_ranges(const tco_ranged_input *in, size_t n, tco_strbuf *b)
{
    enum { SHOWN = 3 };
    size_t pick[SHOWN], k = 0;
    for (; k < SHOWN && k < n; k++) { /* the widest not yet picked; ties in input order */
        size_t best = SIZE_MAX;
        for (size_t j = 0; j < n; j++) {
            bool taken = false;
            for (size_t i = 0; i < k; i++)
                taken = taken || pick[i] == j;
            if (!taken && (best == SIZE_MAX || range_size(&in[j]) > range_size(&in[best])))
                best = j;
        }
        pick[k] = best;
    }
    for (size_t i = 0; i < k; i++) {
        const tco_range *r = in[pick[i]].range;
        char lo[32], hi[32];
        tco_format_double(r->given_low, lo);
        tco_format_double(r->given_high, hi);
        tco_strbuf_printf(b, "%s%s (%s to %s)", i ? "; " : "", r->given ? r->given : in[pick[i]].set, lo, hi);
    }
    if (n > k)
        tco_strbuf_printf(b, "; and %zu more", n - k);
}

/* Refuse a figure that cannot be reported: @p v is @p what, which exceeded the largest double. */
static tco_error too_large(const char *run, const char *what, const tco_ranged_input *in, size_t n, tco_diag *diag)
{
    tco_strbuf b = {0};
    tco_strbuf_printf(&b, "%s: %s is beyond the largest number a double holds (1.797693134862316E+308), so tco cannot "
                          "report it; narrow the range%s: ", run, what, n > 1 ? "s" : "");
    describe_ranges(in, n, &b);
    tco_error e = tco_diag_set(diag, TCO_ERR_EVAL, "%s", b.failed ? "out of memory" : tco_strbuf_str(&b));
    tco_strbuf_free(&b);
    return e;
}

/* Every number a sensitivity row reports or its sheet caches (the swing, the change from the point TCO at
 * each end) is finite, or the run is refused naming the row's input. */
static tco_error check_row(const tco_sensitivity_row *row, double base, const tco_ranged_input *in, tco_diag *diag)
{
    const struct {
        const char *what;
        double v;
    } d[] = {{"the swing |TCO at HIGH - TCO at LOW|", row->swing},
             {"the change of the TCO at LOW from the point TCO", row->tco_low - base},
             {"the change of the TCO at HIGH from the point TCO", row->tco_high - base}};
    for (size_t k = 0; k < sizeof d / sizeof d[0]; k++)
        if (!isfinite(d[k].v) && !isnan(d[k].v)) {
            char run[160];
            snprintf(run, sizeof run, "sensitivity, %s", row->input);
            return too_large(run, d[k].what, in, 1, diag);
        }
    return TCO_OK;
}

static int cmp_rows(const void *pa, const void *pb)
{
    const tco_sensitivity_row *a = pa, *b = pb;
    if (a->swing != b->swing)
        return a->swing < b->swing ? 1 : -1;
    return 0;
}

static tco_error run_sensitivity(tco_model *m, tco_ranged_input *in, size_t n, tco_risk *out, tco_diag *diag)
{
    out->rows = calloc(n, sizeof *out->rows);
    if (out->rows == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    tco_error e = TCO_OK;
    for (size_t j = 0; j < n && e == TCO_OK; j++) {
        tco_sensitivity_row *row = &out->rows[out->n_rows++];
        const tco_range *rg = in[j].range;
        double *v = slot(m, &in[j]), point = *v;
        row->input = tco_strdup(in[j].label);
        row->set = tco_strdup(in[j].set);
        if (row->input == NULL || row->set == NULL)
            return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        row->low = rg->given_low;
        row->high = rg->given_high;
        row->point = m->items[in[j].item].in_report
                         ? (in[j].tier < 0 ? m->items[in[j].item].base_value : m->items[in[j].item].base_tiers[in[j].tier])
                         : point;
        int pay = tco_model_find(m, "payback_months");
        for (int end = 0; end < 2 && e == TCO_OK; end++) {
            *v = end == 0 ? rg->low : rg->high;
            char run[160];
            snprintf(run, sizeof run, "sensitivity, %s at its %s", in[j].label, end == 0 ? "LOW" : "HIGH");
            if ((e = evaluate(m, in, n, run, diag)) != TCO_OK)
                break;
            double t = figure(m, m->role_tco), p = figure(m, m->role_npv), u = figure(m, m->role_unit_cost);
            double b = pay >= 0 && m->items[pay].text == NULL ? m->items[pay].value : NAN;
            if (end == 0)
                row->tco_low = t, row->npv_low = p, row->unit_low = u, row->payback_low = b;
            else
                row->tco_high = t, row->npv_high = p, row->unit_high = u, row->payback_high = b;
        }
        *v = point;
        row->swing = fabs(row->tco_high - row->tco_low);
        row->unit_swing = isfinite(row->unit_low) && isfinite(row->unit_high) ? fabs(row->unit_high - row->unit_low) : NAN;
        if (e == TCO_OK)
            e = check_row(row, out->base_tco, &in[j], diag);
    }
    if (e == TCO_OK && out->n_rows > 1) {
        /* A stable insertion sort by swing: ties keep the input order (n is small). */
        for (size_t j = 1; j < out->n_rows; j++) {
            tco_sensitivity_row r = out->rows[j];
            size_t k = j;
            while (k > 0 && cmp_rows(&out->rows[k - 1], &r) > 0) {
                out->rows[k] = out->rows[k - 1];
                k--;
            }
            out->rows[k] = r;
        }
    }
    /* Each row's rank by the unit cost's swing: 1 + the rows with a larger one, or an equal one before it. */
    for (size_t j = 0; e == TCO_OK && j < out->n_rows; j++) {
        const tco_sensitivity_row *a = &out->rows[j];
        out->rows[j].unit_rank = 0;
        if (isnan(a->unit_swing))
            continue;
        size_t rank = 1;
        for (size_t k = 0; k < out->n_rows; k++) {
            const tco_sensitivity_row *b = &out->rows[k];
            rank += !isnan(b->unit_swing) && (b->unit_swing > a->unit_swing || (b->unit_swing == a->unit_swing && k < j));
        }
        out->rows[j].unit_rank = rank;
    }
    return e;
}

/* Keep the applicable values of @p x (@p n of them, heap: the figure takes it), sort them and take their
 * statistics. */
static void summarise(double *x, size_t n, tco_risk_figure *f)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            x[k++] = x[i];
    f->na = n - k;
    f->sorted = x;
    if (k > 0) {
        double *shrunk = realloc(x, k * sizeof *x);
        if (shrunk != NULL)
            f->sorted = shrunk;
        tco_stats_of(f->sorted, k, &f->stats);
    } else {
        free(x);
        f->sorted = NULL;
    }
}

/* Every statistic of figure @p name that a report shows or a sheet caches is finite, or the run is refused
 * saying which and naming the ranges drawn (tco_stats_of() computes in scaled units, so only a deviation or
 * a contingency of values of both signs near the largest double can exceed it). */
static tco_error check_figure(const char *name, const tco_risk_figure *f, const tco_ranged_input *in, size_t n,
                              tco_diag *diag)
{
    const tco_stats *s = &f->stats;
    if (s->n == 0)
        return TCO_OK;
    const struct {
        const char *what;
        double v;
    } d[] = {{"P10", s->p10},   {"P50", s->p50},   {"P80", s->p80},
             {"P90", s->p90},   {"mean", s->mean}, {"standard deviation", s->n > 1 ? s->stdev : 0},
             {"least value", s->min}, {"greatest value", s->max}, {"contingency P80 - P50", s->p80 - s->p50}};
    for (size_t k = 0; k < sizeof d / sizeof d[0]; k++)
        if (!isfinite(d[k].v)) {
            char what[200], lo[32], hi[32];
            tco_format_double(s->min, lo);
            tco_format_double(s->max, hi);
            snprintf(what, sizeof what, "the %s of the %s over %zu draw%s (from %s to %s)", d[k].what, name, s->n,
                     tco_plural((double)s->n), lo, hi);
            return too_large("Monte Carlo", what, in, n, diag);
        }
    return TCO_OK;
}

/* The blocks of a Monte Carlo run, shared by its threads: each takes the next block not yet taken, so a
 * thread that starts late (the helper loads its twin model first) or runs slower takes fewer.  A block's
 * draws depend only on the seed and the block's index, and land at their places in the result arrays,
 * so the figures are the same whichever thread evaluates a block. */
typedef struct mc_blocks {
    atomic_size_t next;     /* the next block to take */
    atomic_size_t done;     /* blocks evaluated (for the progress lines) */
    atomic_size_t failed;   /* the least block in which a draw failed, SIZE_MAX when none */
    size_t blocks;
} mc_blocks;

/* One thread's part of a Monte Carlo run: blocks taken from @c shared, on its own model (the ranged
 * inputs are the same items in both), into the shared result arrays at the draws' places. */
typedef struct mc_share {
    tco_model *m;       /* NULL for the helper until it has opened its twin */
    const tco_run *run; /* the helper: the run whose twin it opens (tco_run_twin()) */
    tco_run *twin;      /* the helper's twin, freed by the caller */
    const char *fingerprint; /* the helper: the run's model's (tco_model_fingerprint()), which the twin must have */
    int role_tco;
    size_t n_items;
    const tco_ranged_input *in;
    size_t n;
    const tco_dist_fit *fits;
    size_t draws;
    uint64_t seed;
    mc_blocks *shared;
    double *t, *p, *c;
    FILE *progress; /* thread 0 only */
    tco_error err;
    tco_diag diag;
    size_t failed; /* the draw that failed (0-based), SIZE_MAX when none */
} mc_share;

/* The items a draw reads (the three figures; a per-year figure's total), for a program of those alone. */
static size_t figure_items(const tco_model *m, int out[6])
{
    size_t k = 0;
    const int roles[] = {m->role_tco, m->role_npv, m->role_unit_cost};
    for (size_t i = 0; i < 3; i++)
        if (roles[i] >= 0) {
            out[k++] = roles[i];
            if (m->items[roles[i]].kind == TCO_ITEM_YEARLY && m->items[roles[i]].partner >= 0)
                out[k++] = m->items[roles[i]].partner;
        }
    return k;
}

static void *run_share(void *arg)
{
    mc_share *sh = arg;
    if (sh->m == NULL) { /* the helper: a twin run, used only if its model is the run's */
        tco_diag ignored = {0};
        tco_model *other = tco_run_twin(sh->run, &sh->twin, &ignored) == TCO_OK ? sh->twin->model : NULL;
        char b[17];
        if (other)
            tco_model_fingerprint(other, b);
        if (other == NULL || strcmp(sh->fingerprint, b) != 0 || other->role_tco != sh->role_tco ||
            other->n_items != sh->n_items)
            return NULL; /* the run's own thread takes every block */
        sh->m = other;
    }
    size_t n = sh->n;
    mc_blocks *shared = sh->shared;
    double *u = malloc(sizeof *u * TCO_LHS_BLOCK * (n ? n : 1));
    uint32_t *perm = malloc(sizeof *perm * TCO_LHS_BLOCK);
    double **to = malloc(sizeof *to * (n ? n : 1)); /* each ranged input's value slot */
    sh->err = TCO_OK;
    sh->failed = SIZE_MAX;
    /* Each draw runs the part of the compiled model that the three figures need and that the drawn
     * inputs reach: every other number input is compiled as the constant it holds, and every cell that
     * only such inputs reach is worked out once, when compiling (program.h, "Fixed inputs"); a draw
     * that fails there is evaluated whole, by tco_model_evaluate(), for its message. */
    int targets[6];
    int *varying = malloc(sizeof *varying * (n ? n : 1));
    tco_program *prog = NULL;
    if (u == NULL || perm == NULL || to == NULL || varying == NULL) {
        sh->err = tco_diag_set(&sh->diag, TCO_ERR_NOMEM, "out of memory");
    } else {
        for (size_t j = 0; j < n; j++)
            varying[j] = sh->in[j].item;
        tco_program_options o = {.targets = targets, .n_targets = figure_items(sh->m, targets), .fix_inputs = true,
                                 .varying = varying, .n_varying = n};
        sh->err = tco_program_compile_with(sh->m, &o, &prog, &sh->diag);
    }
    free(varying);
    size_t next_report = 1;
    while (sh->err == TCO_OK) {
        size_t block = atomic_fetch_add(&shared->next, 1);
        if (block >= shared->blocks || block > atomic_load(&shared->failed))
            break; /* none left, or past a block where a draw failed: the first failure is found */
        size_t start = block * TCO_LHS_BLOCK;
        size_t count = sh->draws - start < TCO_LHS_BLOCK ? sh->draws - start : TCO_LHS_BLOCK;
        /* The block's draws input by input (u[j * count + i]: draw i of input j), then set draw by draw. */
        tco_lhs_block_columns(sh->seed, block, count, n, u, perm);
        for (size_t j = 0; j < n; j++) {
            draw_values(&sh->m->items[sh->in[j].item], &sh->fits[j], u + j * count, count);
            to[j] = slot(sh->m, &sh->in[j]);
        }
        for (size_t i = 0; i < count; i++) {
            for (size_t j = 0; j < n; j++)
                *to[j] = u[j * count + i];
            tco_error ran = tco_program_run(prog, sh->m, &sh->diag);
            if (ran != TCO_OK) {
                char run[64];
                snprintf(run, sizeof run, "Monte Carlo draw %zu", start + i + 1);
                if (ran != TCO_ERR_EVAL) /* out of memory, or a fixed input moved (only draws move any) */
                    sh->err = ran;
                else if ((sh->err = evaluate(sh->m, sh->in, n, run, &sh->diag)) == TCO_OK)
                    sh->err = tco_diag_set(&sh->diag, TCO_ERR_EVAL, "%s: the compiled model failed where the "
                                           "formulas did not (please report this scenario)", run);
                sh->failed = start + i;
                size_t least = atomic_load(&shared->failed);
                while (block < least && !atomic_compare_exchange_weak(&shared->failed, &least, block))
                    ;
                break;
            }
            sh->t[start + i] = figure(sh->m, sh->m->role_tco);
            sh->p[start + i] = figure(sh->m, sh->m->role_npv);
            sh->c[start + i] = figure(sh->m, sh->m->role_unit_cost);
        }
        size_t done = atomic_fetch_add(&shared->done, 1) + 1, blocks = shared->blocks;
        if (sh->progress && sh->err == TCO_OK && done * 10 >= next_report * blocks && done < blocks) {
            fprintf(sh->progress, "tco: Monte Carlo: %zu%% of %zu draws\n", done * 100 / blocks, sh->draws);
            while (next_report * blocks <= done * 10)
                next_report++;
        }
    }
    tco_program_free(prog);
    free(u);
    free(perm);
    free(to);
    return NULL;
}

static tco_error run_monte_carlo(const tco_run *run, tco_ranged_input *in, size_t n, size_t draws, uint64_t seed,
                                 FILE *progress, tco_risk *out, tco_diag *diag)
{
    tco_dist_fit *fits = calloc(n, sizeof *fits);
    double *saved = malloc(sizeof *saved * n);
    tco_model *m = run->model;
    double *t = malloc(sizeof *t * draws), *p = malloc(sizeof *p * draws), *c = malloc(sizeof *c * draws);
    tco_error e = TCO_OK;
    if (fits == NULL || saved == NULL || t == NULL || p == NULL || c == NULL)
        e = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory for %zu draws", draws);
    for (size_t j = 0; j < n && e == TCO_OK; j++) {
        saved[j] = *slot(m, &in[j]);
        if ((e = tco_range_fit(in[j].range, saved[j], &fits[j], diag)) != TCO_OK) {
            char why[TCO_DIAG_MAX];
            snprintf(why, sizeof why, "%s", diag ? diag->message : "");
            e = tco_diag_set(diag, TCO_ERR_INI, "%s: %s", in[j].range->given ? in[j].range->given : in[j].label, why);
        }
    }
    mc_blocks shared;
    shared.blocks = (draws + TCO_LHS_BLOCK - 1) / TCO_LHS_BLOCK;
    atomic_init(&shared.next, 0);
    atomic_init(&shared.done, 0);
    atomic_init(&shared.failed, SIZE_MAX);
    char fingerprint[17];
    tco_model_fingerprint(m, fingerprint); /* before any draw changes an input */
    mc_share share[2] = {
        {.m = m, .in = in, .n = n, .fits = fits, .draws = draws, .seed = seed, .shared = &shared, .t = t, .p = p,
         .c = c, .progress = progress, .failed = SIZE_MAX},
        /* A second thread on a twin model for a long run, when the twin has exactly these inputs: it opens
         * the twin itself while this thread draws. */
        {.run = run, .fingerprint = fingerprint, .role_tco = m->role_tco, .n_items = m->n_items, .in = in, .n = n,
         .fits = fits, .draws = draws, .seed = seed, .shared = &shared, .t = t, .p = p, .c = c, .failed = SIZE_MAX},
    };
    pthread_t helper;
    bool two = e == TCO_OK && draws >= TCO_RISK_TWIN_FROM && shared.blocks >= 2 &&
               pthread_create(&helper, NULL, run_share, &share[1]) == 0;
    if (e == TCO_OK)
        run_share(&share[0]);
    if (two)
        pthread_join(helper, NULL);
    two = two && share[1].m != NULL; /* the helper evaluated with its twin */
    tco_run_free(share[1].twin);
    if (e == TCO_OK) { /* the first failing draw, as one thread would have found it */
        const mc_share *bad = NULL;
        for (int k = 0; k < 2; k++)
            if (share[k].err != TCO_OK && (bad == NULL || share[k].failed < bad->failed))
                bad = &share[k];
        if (bad) {
            e = bad->err;
            if (diag)
                *diag = bad->diag;
        }
    }
    for (size_t j = 0; saved && j < n; j++)
        *slot(m, &in[j]) = saved[j];
    free(fits);
    free(saved);
    if (e == TCO_OK) {
        out->monte_carlo = true;
        out->draws = draws;
        out->seed = seed;
        out->inputs_drawn = n;
        out->threads = two ? 2 : 1;
        summarise(t, draws, &out->tco);
        summarise(p, draws, &out->npv);
        summarise(c, draws, &out->unit);
        const char *unit_name = m->role_unit_cost >= 0 ? m->items[m->role_unit_cost].name : "unit cost";
        e = check_figure("TCO", &out->tco, in, n, diag);
        if (e == TCO_OK)
            e = check_figure("NPV cost", &out->npv, in, n, diag);
        if (e == TCO_OK)
            e = check_figure(unit_name, &out->unit, in, n, diag);
    } else {
        free(t);
        free(p);
        free(c);
    }
    return e;
}

tco_error tco_risk_run(tco_run *run, bool sensitivity, size_t draws, uint64_t seed, FILE *progress, tco_risk *out,
                       tco_diag *diag)
{
    tco_model *m = run->model;
    memset(out, 0, sizeof *out);
    if (m->role_tco < 0)
        return tco_diag_set(diag, TCO_ERR_USAGE, "%s names no [model] tco line to vary", m->template_path);
    tco_ranged_input *in = NULL;
    size_t n = 0;
    tco_error e = tco_model_ranged_inputs(m, &in, &n, diag);
    if (e != TCO_OK)
        return e;
    if (n == 0) {
        tco_ranged_inputs_free(in, n);
        return tco_diag_set(diag, TCO_ERR_USAGE,
                            "%s: no input has a range (KEY_range = LOW, HIGH in a scenario or catalog file, or "
                            "--set SECTION.KEY_range=LOW,HIGH)",
                            m->scenario_path);
    }
    out->base_tco = figure(m, m->role_tco);
    out->base_npv = figure(m, m->role_npv);
    out->base_unit = figure(m, m->role_unit_cost);
    out->unit_item = m->role_unit_cost >= 0 ? &m->items[m->role_unit_cost] : NULL;
    out->tco_item = m->role_tco >= 0 ? &m->items[m->role_tco] : NULL;
    out->npv_item = m->role_npv >= 0 ? &m->items[m->role_npv] : NULL;
    int rank = tco_model_find(m, "cost_per_unit");
    out->rank_item = rank >= 0 ? &m->items[rank] : NULL;
    tco_model_fingerprint(m, out->fingerprint);
    if (sensitivity) {
        out->sensitivity = true;
        e = run_sensitivity(m, in, n, out, diag);
    }
    if (e == TCO_OK && draws > 0)
        e = run_monte_carlo(run, in, n, draws, seed, progress, out, diag);
    /* Back to the point values, evaluated: what the workbook and the summary show. */
    tco_diag ignored = {0};
    tco_error back = tco_model_evaluate(m, e == TCO_OK ? diag : &ignored);
    if (e == TCO_OK)
        e = back;
    tco_ranged_inputs_free(in, n);
    if (e != TCO_OK)
        tco_risk_free(out);
    return e;
}

void tco_risk_free(tco_risk *r)
{
    for (size_t j = 0; j < r->n_rows; j++) {
        free(r->rows[j].input);
        free(r->rows[j].set);
    }
    free(r->rows);
    free(r->tco.sorted);
    free(r->npv.sorted);
    free(r->unit.sorted);
    memset(r, 0, sizeof *r);
}

/* ---- reports -------------------------------------------------------------------------------- */

static void cell(double v, int decimals, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "n.a.");
    else
        tco_format_grouped(v, decimals, buf, size);
}

/* Decimals for the unit cost: two below 1,000 (CNY per GPU-hour, per million tokens). */
static int unit_decimals(double v)
{
    return !isnan(v) && fabs(v) < 1000 ? 2 : 0;
}

void tco_risk_print_table(const tco_risk *r, const char *currency, const char *workbook, FILE *out)
{
    const char *unit_name = r->unit_item ? r->unit_item->name : "unit cost";
    char a[40], b[40], c[40], d[40], e[40];
    fprintf(out, "\n  Inputs fingerprint %s%s\n", r->fingerprint,
            workbook ? " (the workbook's Sensitivity and Risk sheets say \"stale\" once an input is edited)" : "");
    if (r->sensitivity) {
        cell(r->base_tco, 0, a, sizeof a);
        fprintf(out, "\n  Sensitivity: each ranged input alone at LOW and HIGH (TCO at the point values %s %s)\n", a,
                currency);
        fprintf(out, "  %-30s %-34s %12s %12s %14s %14s %14s\n", "input", "--set", "LOW", "HIGH", "TCO at LOW",
                "TCO at HIGH", "swing");
        for (size_t j = 0; j < r->n_rows && j < TCO_RISK_TOP; j++) {
            const tco_sensitivity_row *row = &r->rows[j];
            char lo[32], hi[32];
            tco_format_double(row->low, lo);
            tco_format_double(row->high, hi);
            cell(row->tco_low, 0, a, sizeof a);
            cell(row->tco_high, 0, b, sizeof b);
            cell(row->swing, 0, c, sizeof c);
            fprintf(out, "  %-30.30s %-34.34s %12s %12s %14s %14s %14s\n", row->input, row->set, lo, hi, a, b, c);
        }
        if (r->n_rows > TCO_RISK_TOP)
            fprintf(out, "  (%zu more with --format json%s)\n", r->n_rows - TCO_RISK_TOP,
                    workbook ? " and on the workbook's Sensitivity sheet" : "");
        /* The other order: what moves the unit cost most (a utilisation moves no TCO but every unit cost). */
        bool any = false;
        for (size_t rank = 1; rank <= TCO_RISK_TOP; rank++)
            for (size_t j = 0; j < r->n_rows; j++) {
                const tco_sensitivity_row *row = &r->rows[j];
                if (row->unit_rank != rank || row->unit_swing == 0)
                    continue;
                if (!any)
                    fprintf(out, "\n  The same rows by the swing of %s (%s), the largest first:\n  %4s  %-30s %14s %14s "
                            "%14s\n", unit_name, r->unit_item && r->unit_item->unit ? r->unit_item->unit : "", "rank",
                            "input", "at LOW", "at HIGH", "swing");
                any = true;
                cell(row->unit_low, unit_decimals(row->unit_low), a, sizeof a);
                cell(row->unit_high, unit_decimals(row->unit_high), b, sizeof b);
                cell(row->unit_swing, unit_decimals(row->unit_swing), c, sizeof c);
                fprintf(out, "  %4zu  %-30.30s %14s %14s %14s  (TCO order %zu)\n", rank, row->input, a, b, c, j + 1);
            }
    }
    if (r->monte_carlo) {
        fprintf(out, "\n  Monte Carlo: %zu draw%s of %zu ranged input%s (independent, Latin hypercube), seed %llu\n",
                r->draws, tco_plural((double)r->draws), r->inputs_drawn, tco_plural((double)r->inputs_drawn),
                (unsigned long long)r->seed);
        /* Each row its label and unit as the Summary gives them, the point value beside the percentiles (the
         * median of the draws is not the figure at the values as given), and below, what each figure is. */
        const struct {
            const char *short_name;
            const tco_item *item;
            const tco_risk_figure *f;
            double point;
            int unit;
        } rows[] = {{"TCO", r->tco_item, &r->tco, r->base_tco, 0},
                    {"NPV cost", r->npv_item, &r->npv, r->base_npv, 0},
                    {unit_name, r->unit_item, &r->unit, r->base_unit, 1}};
        char names[3][160];
        int width = 28;
        for (size_t k = 0; k < 3; k++) {
            const tco_item *it = rows[k].item;
            snprintf(names[k], sizeof names[k], "%s (%s)", it ? it->label : rows[k].short_name,
                     it && it->unit ? it->unit : currency);
            width = (int)strlen(names[k]) > width ? (int)strlen(names[k]) : width;
        }
        fprintf(out, "  probability that each figure is not exceeded, over the draws (P50: their median; point: the "
                     "figure at the values as given):\n");
        fprintf(out, "  %-*s %14s %14s %14s %14s %14s %14s %14s\n", width, "", "P10", "P50", "P80", "P90", "mean",
                "P80 - P50", "point");
        for (size_t k = 0; k < 3; k++) {
            const tco_stats *s = &rows[k].f->stats;
            if (s->n == 0) {
                fprintf(out, "  %-*s not applicable in any draw\n", width, names[k]);
                continue;
            }
            int dec = rows[k].unit ? unit_decimals(s->p50) : 0;
            cell(s->p10, dec, a, sizeof a);
            cell(s->p50, dec, b, sizeof b);
            cell(s->p80, dec, c, sizeof c);
            cell(s->p90, dec, d, sizeof d);
            cell(s->mean, dec, e, sizeof e);
            char cont[40], point[40];
            cell(s->p80 - s->p50, dec, cont, sizeof cont);
            if (isnan(rows[k].point))
                snprintf(point, sizeof point, "n.a.");
            else
                cell(rows[k].point, dec, point, sizeof point);
            fprintf(out, "  %-*s %14s %14s %14s %14s %14s %14s %14s", width, names[k], a, b, c, d, e, cont, point);
            if (rows[k].f->na)
                fprintf(out, "  (n.a. in %zu draw%s)", rows[k].f->na, tco_plural((double)rows[k].f->na));
            fputc('\n', out);
        }
        for (size_t k = 0; k < 3; k++) { /* the basis: each line's name and source, as the Summary cites them */
            const tco_item *it = rows[k].item;
            if (it == NULL || it->source == NULL)
                continue;
            fprintf(out, "  %s (%s): %s", k < 2 ? rows[k].short_name : it->label, it->name, it->source);
            if (k == 2 && r->rank_item && r->rank_item != it)
                fprintf(out, "; tco advise ranks options by %s (%s)", r->rank_item->label, r->rank_item->name);
            fputc('\n', out);
        }
        fprintf(out, "  money in %s; contingency P80 - P50 is what to hold above the median to be covered 4 times in "
                     "5\n", currency);
    }
}

static void json_num(FILE *out, double v)
{
    if (isnan(v))
        fputs("null", out);
    else
        tco_report_json_number(out, v);
}

static void json_figure(FILE *out, const char *key, const tco_risk_figure *f, const tco_item *line)
{
    fprintf(out, ",\n    \"%s\": ", key);
    if (f->stats.n == 0) {
        fprintf(out, "{\"draws\": 0, \"na_draws\": %zu}", f->na);
        return;
    }
    const tco_stats *s = &f->stats;
    fputs("{", out);
    if (line) {
        fputs("\"line\": ", out);
        tco_report_json_string(out, line->name);
        fputs(", \"unit\": ", out);
        tco_report_json_string(out, line->unit ? line->unit : "");
        fputs(", ", out);
    }
    fprintf(out, "\"draws\": %zu, \"na_draws\": %zu", s->n, f->na);
    const struct {
        const char *key;
        double v;
    } v[] = {{"p10", s->p10},   {"p50", s->p50}, {"p80", s->p80}, {"p90", s->p90},
             {"mean", s->mean}, {"stdev", s->stdev}, {"min", s->min}, {"max", s->max},
             {"contingency_p80_p50", s->p80 - s->p50}};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        fprintf(out, ", \"%s\": ", v[k].key);
        json_num(out, v[k].v);
    }
    fputs("}", out);
}

void tco_risk_print_json(const tco_risk *r, FILE *out)
{
    fprintf(out, ",\n  \"fingerprint\": \"%s\"", r->fingerprint);
    if (r->sensitivity) {
        fputs(",\n  \"sensitivity\": [", out);
        for (size_t j = 0; j < r->n_rows; j++) {
            const tco_sensitivity_row *row = &r->rows[j];
            fputs(j ? ",\n    {\"input\": " : "\n    {\"input\": ", out);
            tco_report_json_string(out, row->input);
            fputs(", \"set\": ", out);
            tco_report_json_string(out, row->set);
            const struct {
                const char *key;
                double v;
            } f[] = {{"low", row->low},           {"point", row->point},         {"high", row->high},
                     {"tco_low", row->tco_low},   {"tco_high", row->tco_high},   {"swing", row->swing},
                     {"npv_cost_low", row->npv_low}, {"npv_cost_high", row->npv_high},
                     {"unit_cost_low", row->unit_low}, {"unit_cost_high", row->unit_high},
                     {"unit_cost_swing", row->unit_swing}, {"payback_months_low", row->payback_low},
                     {"payback_months_high", row->payback_high}};
            for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) {
                fprintf(out, ", \"%s\": ", f[k].key);
                json_num(out, f[k].v);
            }
            if (row->unit_rank)
                fprintf(out, ", \"unit_cost_rank\": %zu", row->unit_rank);
            else
                fputs(", \"unit_cost_rank\": null", out);
            fputs("}", out);
        }
        fputs(r->n_rows ? "\n  ]" : "]", out);
    }
    if (r->monte_carlo) {
        fprintf(out, ",\n  \"monte_carlo\": {\n    \"draws\": %zu, \"seed\": %llu, \"inputs\": %zu, \"sampling\": "
                     "\"latin_hypercube\", \"correlation\": \"none\"",
                r->draws, (unsigned long long)r->seed, r->inputs_drawn);
        json_figure(out, "tco", &r->tco, NULL);
        json_figure(out, "npv_cost", &r->npv, NULL);
        json_figure(out, "unit_cost", &r->unit, r->unit_item);
        fputs("\n  }", out);
    }
}
