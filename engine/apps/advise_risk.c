/* advise_risk.c - `tco advise NAME --monte-carlo N [--seed S]`: the top options drawn with common random
 * numbers, each one's cost per unit percentiles and the share of draws in which it is the cheapest
 * (advise_risk.h). */
#include "apps/advise_risk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apps/risk.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "model/evaluate.h"
#include "model/model.h"
#include "model/program.h"
#include "model/ranges.h"
#include "model/sample.h"
#include "price/run.h"
#include "render/report.h"

/* One option drawn: its run, its ranged inputs (each with its fitted range and the dimension of the
 * uncertain quantity it is), the program of its three figures, and its cost per unit in every draw. */
typedef struct drawn {
    tco_run *run;
    tco_ranged_input *in;
    size_t n;
    tco_dist_fit *fits;
    size_t *dim;
    tco_program *prog;
    int unit, feasible, capex;
    double *cost; /* per draw; NaN when it fails a check in that draw */
    size_t wins, passes;
} drawn;

static tco_error nomem(tco_diag *d)
{
    return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
}

/* The value slot of ranged input @p r of @p m. */
static double *slot(tco_model *m, const tco_ranged_input *r)
{
    tco_item *it = &m->items[r->item];
    return r->tier < 0 ? &it->value : &it->tiers[r->tier];
}

/* A scalar item's number; NaN when it holds text ("n.a.: ..."). */
static double num(const tco_model *m, int i)
{
    return m->items[i].text ? NAN : m->items[i].value;
}

/* The dimension of the uncertain quantity @p r is (its label and where its range was given), added to
 * @p keys when new. */
static tco_error quantity(const tco_ranged_input *r, char ***keys, size_t *n_keys, size_t *cap, size_t *out,
                          tco_diag *d)
{
    tco_strbuf k = {0};
    tco_strbuf_printf(&k, "%s\x1f%s", r->label, r->range->given ? r->range->given : "");
    if (k.failed)
        return nomem(d);
    for (size_t i = 0; i < *n_keys; i++)
        if (strcmp((*keys)[i], tco_strbuf_str(&k)) == 0) {
            tco_strbuf_free(&k);
            *out = i;
            return TCO_OK;
        }
    if (*n_keys == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        char **grown = realloc(*keys, c * sizeof *grown);
        if (grown == NULL) {
            tco_strbuf_free(&k);
            return nomem(d);
        }
        *keys = grown;
        *cap = c;
    }
    (*keys)[*n_keys] = tco_strbuf_take(&k);
    *out = (*n_keys)++;
    return TCO_OK;
}

/* Open option @p o's run and prepare it for drawing. */
static tco_error prepare(const tco_advise_request *req, const tco_advice *a, const tco_advise_option *o, drawn *x,
                         char ***keys, size_t *n_keys, size_t *cap, size_t draws, tco_diag *d)
{
    tco_error e = tco_advise_option_run(req, a, o, &x->run, d);
    if (e != TCO_OK)
        return e;
    tco_model *m = x->run->model;
    x->unit = tco_model_find(m, "cost_per_unit");
    x->feasible = tco_model_find(m, "check_feasible");
    x->capex = tco_model_find(m, "option_capex");
    if (x->unit < 0 || x->feasible < 0 || x->capex < 0) /* tco_advise() found them in the same template */
        return tco_diag_set(d, TCO_ERR_UNKNOWN_NAME, "%s: the template has no cost_per_unit, check_feasible or "
                            "option_capex", m->template_path);
    if ((e = tco_model_ranged_inputs(m, &x->in, &x->n, d)) != TCO_OK)
        return e;
    x->fits = calloc(x->n + 1, sizeof *x->fits);
    x->dim = calloc(x->n + 1, sizeof *x->dim);
    x->cost = malloc(draws * sizeof *x->cost);
    if (x->fits == NULL || x->dim == NULL || x->cost == NULL)
        return nomem(d);
    for (size_t j = 0; j < x->n && e == TCO_OK; j++) {
        const tco_range *r = x->in[j].range;
        if ((e = tco_range_fit(r, *slot(m, &x->in[j]), &x->fits[j], d)) != TCO_OK) {
            char why[TCO_DIAG_MAX];
            snprintf(why, sizeof why, "%s", d->message);
            return tco_diag_set(d, TCO_ERR_INI, "%s: %s", r->given ? r->given : x->in[j].label, why);
        }
        e = quantity(&x->in[j], keys, n_keys, cap, &x->dim[j], d);
    }
    if (e != TCO_OK)
        return e;
    /* The three figures alone, from the drawn inputs alone: every other number input is compiled as the
     * constant it holds (program.h, "Fixed inputs"); nothing but the draws changes this option's model. */
    int targets[3] = {x->unit, x->feasible, x->capex};
    int *varying = malloc(sizeof *varying * (x->n + 1));
    if (varying == NULL)
        return nomem(d);
    for (size_t j = 0; j < x->n; j++)
        varying[j] = x->in[j].item;
    tco_program_options opt = {.targets = targets, .n_targets = 3, .fix_inputs = true, .varying = varying,
                               .n_varying = x->n};
    e = tco_program_compile_with(m, &opt, &x->prog, d);
    free(varying);
    return e;
}

/* Draw @p x at the uniforms @p u (one per quantity) and evaluate its figures; the message of a failure
 * names the draw and the option. */
static tco_error draw_one(drawn *x, const double *u, size_t draw, const tco_advice *a, const tco_advise_option *o,
                          tco_diag *d)
{
    tco_model *m = x->run->model;
    for (size_t j = 0; j < x->n; j++)
        *slot(m, &x->in[j]) = tco_risk_draw_value(&m->items[x->in[j].item], &x->fits[j], u[x->dim[j]]);
    tco_error e = tco_program_run(x->prog, m, d);
    if (e == TCO_OK)
        return TCO_OK;
    if (e != TCO_ERR_EVAL) /* out of memory, or a fixed input moved (only the draws move any): its message */
        return e;
    e = tco_model_evaluate(m, d);
    tco_strbuf l = {0};
    tco_advise_option_label(a, o, &l);
    char why[TCO_DIAG_MAX];
    snprintf(why, sizeof why, "%s", e != TCO_OK ? d->message : "the compiled model failed where the formulas did not");
    e = tco_diag_set(d, TCO_ERR_EVAL, "Monte Carlo draw %zu, %s: %s", draw + 1, l.failed ? "" : tco_strbuf_str(&l),
                     why);
    tco_strbuf_free(&l);
    return e;
}

tco_error tco_advise_risk(const tco_advise_request *req, tco_advice *a, size_t draws, uint64_t seed, tco_diag *d)
{
    size_t n_opt = a->n_feasible < TCO_ADVISE_TOP ? a->n_feasible : TCO_ADVISE_TOP;
    a->risk_draws = draws;
    a->risk_seed = seed;
    a->risk_options = n_opt;
    a->risk_inputs = 0;
    a->risk_none_feasible = n_opt ? 0 : 1;
    if (n_opt == 0 || draws == 0)
        return TCO_OK;
    drawn *x = calloc(n_opt, sizeof *x);
    char **keys = NULL;
    size_t n_keys = 0, cap = 0;
    double *u = NULL, *sorted = NULL;
    uint32_t *perm = NULL;
    tco_error e = x ? TCO_OK : nomem(d);
    for (size_t i = 0; i < n_opt && e == TCO_OK; i++)
        e = prepare(req, a, &a->options[i], &x[i], &keys, &n_keys, &cap, draws, d);
    if (e == TCO_OK && n_keys == 0)
        e = tco_diag_set(d, TCO_ERR_USAGE, "--monte-carlo: no input of the top options has a range to draw (give "
                         "KEY_range = LOW, HIGH in the question or the catalog, docs/uncertainty.md)");
    if (e == TCO_OK && ((u = malloc(TCO_LHS_BLOCK * n_keys * sizeof *u)) == NULL ||
                        (perm = malloc(TCO_LHS_BLOCK * sizeof *perm)) == NULL ||
                        (sorted = malloc(draws * sizeof *sorted)) == NULL))
        e = nomem(d);
    size_t none = 0;
    for (size_t block = 0; e == TCO_OK && block * TCO_LHS_BLOCK < draws; block++) {
        size_t start = block * TCO_LHS_BLOCK;
        size_t count = draws - start < TCO_LHS_BLOCK ? draws - start : TCO_LHS_BLOCK;
        tco_lhs_block(seed, block, count, n_keys, u, perm);
        for (size_t k = 0; k < count && e == TCO_OK; k++) {
            size_t best = SIZE_MAX;
            double best_cost = 0, best_capex = 0;
            for (size_t i = 0; i < n_opt && e == TCO_OK; i++) {
                if ((e = draw_one(&x[i], &u[k * n_keys], start + k, a, &a->options[i], d)) != TCO_OK)
                    break;
                const tco_model *m = x[i].run->model;
                double c = num(m, x[i].unit), capex = num(m, x[i].capex);
                bool pass = num(m, x[i].feasible) == 1 && isfinite(c);
                x[i].cost[start + k] = pass ? c : NAN;
                x[i].passes += pass;
                /* The advisor's order: the lower cost per unit, then the cheaper capex, then the better rank. */
                if (pass && (best == SIZE_MAX || c < best_cost || (c == best_cost && capex < best_capex)))
                    best = i, best_cost = c, best_capex = capex;
            }
            if (e == TCO_OK && best == SIZE_MAX)
                none++;
            else if (e == TCO_OK)
                x[best].wins++;
        }
    }
    for (size_t i = 0; i < n_opt && e == TCO_OK; i++) {
        tco_advise_option_risk *r = &a->options[i].risk;
        size_t k = 0;
        for (size_t j = 0; j < draws; j++)
            if (!isnan(x[i].cost[j]))
                sorted[k++] = x[i].cost[j];
        tco_stats st = {0};
        if (k > 0)
            tco_stats_of(sorted, k, &st);
        *r = (tco_advise_option_risk){.drawn = true, .p10 = k ? st.p10 : NAN, .p50 = k ? st.p50 : NAN,
                                      .p90 = k ? st.p90 : NAN, .p_best = (double)x[i].wins / (double)draws,
                                      .feasible = (double)x[i].passes / (double)draws};
    }
    if (e == TCO_OK) {
        a->risk_inputs = n_keys;
        a->risk_none_feasible = (double)none / (double)draws;
    }
    for (size_t i = 0; x && i < n_opt; i++) {
        tco_program_free(x[i].prog);
        tco_ranged_inputs_free(x[i].in, x[i].n);
        free(x[i].fits);
        free(x[i].dim);
        free(x[i].cost);
        tco_run_free(x[i].run);
    }
    free(x);
    for (size_t i = 0; i < n_keys; i++)
        free(keys[i]);
    free(keys);
    free(u);
    free(perm);
    free(sorted);
    if (e != TCO_OK)
        a->risk_draws = 0;
    return e;
}

void tco_advise_risk_print_table(const tco_advice *a, FILE *out)
{
    if (a->risk_draws == 0)
        return;
    if (a->risk_options == 0) {
        fprintf(out, "\nMonte Carlo: no feasible option to draw\n");
        return;
    }
    fprintf(out, "\nUnder uncertainty: %zu draw%s (seed %llu) of %zu ranged input%s, the same draws for each of the "
            "top %zu option%s.\nP10, P50, P90: the cost per unit (%s) over the draws in which the option passes every "
            "check;\nFeasible: the share of draws it passes; Cheapest: the share of draws in which it is the cheapest "
            "of them:\n", a->risk_draws, tco_plural((double)a->risk_draws), (unsigned long long)a->risk_seed, a->risk_inputs,
            tco_plural((double)a->risk_inputs), a->risk_options, tco_plural((double)a->risk_options), a->unit);
    fprintf(out, "%4s  %-40s %12s %12s %12s %9s %9s\n", "Rank", "Option", "P10", "P50", "P90", "Feasible", "Cheapest");
    for (size_t i = 0; i < a->n_options && a->options[i].risk.drawn; i++) {
        const tco_advise_option *o = &a->options[i];
        tco_strbuf l = {0};
        tco_advise_option_label(a, o, &l);
        char p[3][64];
        const double v[3] = {o->risk.p10, o->risk.p50, o->risk.p90};
        for (int k = 0; k < 3; k++)
            if (isnan(v[k]))
                snprintf(p[k], sizeof p[k], "n.a.");
            else
                tco_format_grouped(v[k], 2, p[k], sizeof p[k]);
        char f[32], b[32]; /* a share of 1 draw in 5,000 is 0.02%, never 0.0% */
        tco_format_percent(o->risk.feasible, 1, f, sizeof f);
        tco_format_percent(o->risk.p_best, 1, b, sizeof b);
        fprintf(out, "%4d  %-40s %12s %12s %12s %9s %9s\n", o->rank, l.failed ? "" : tco_strbuf_str(&l), p[0], p[1],
                p[2], f, b);
        tco_strbuf_free(&l);
    }
    if (a->risk_none_feasible > 0) {
        char n[32];
        tco_format_percent(a->risk_none_feasible, 1, n, sizeof n);
        fprintf(out, "In %s of the draws none of these options passes every check.\n", n);
    }
}
