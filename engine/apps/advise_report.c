/* advise_report.c - what tco advise says (advise.h): an option's label and mode, the explanation of the
 * winner, the table, the JSON, the options listed; split from advise.c, which enumerates, gates and ranks. */
#include "apps/advise.h"
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "read/ini.h"
#include "render/report.h"
#include "base/text.h"
#include "base/utf8.h"
#include "apps/rank.h"
#include "load/load.h"
#include "model/bind.h"
#include "model/evaluate.h"
#include "price/quote_choice.h"
#include "price/run.h"
#include "read/dates.h"
#include "read/quote_csv.h"

/* ---- reports --------------------------------------------------------------------------------- */

/* The facility mode option @p o ran in: its mode of the list, else the question's own. */
static const char *mode_of(const tco_advice *a, const tco_advise_option *o)
{
    if (o->mode >= 0)
        return a->modes[o->mode];
    int i = tco_model_find(a->models[o->host], "facility_mode");
    return i >= 0 && a->models[o->host]->items[i].text ? a->models[o->host]->items[i].text : "owned";
}

/* "2x D-M in dc4, owned", or "4x D-M rented (cloud)". */
static void option_label(const tco_advice *a, const tco_advise_option *o, tco_strbuf *out)
{
    if (o->rent)
        tco_strbuf_printf(out, "%dx %s rented (cloud)", o->cards, a->tiers[o->tier]);
    else
        tco_strbuf_printf(out, "%dx %s in %s, %s", o->cards, a->tiers[o->tier], a->hosts[o->host], mode_of(a, o));
}

void tco_advise_option_label(const tco_advice *a, const tco_advise_option *o, tco_strbuf *out)
{
    option_label(a, o, out);
}

const char *tco_advise_option_mode(const tco_advice *a, const tco_advise_option *o)
{
    return mode_of(a, o);
}

/* The reporting currency of the advice's money figures. */
const char *tco_advise_currency(const tco_advice *a)
{
    return a->currency[0] ? a->currency : "CNY";
}

const char *tco_advise_unit(const tco_advice *a)
{
    return a->unit[0] ? a->unit : a->train ? "CNY/run" : "CNY/Mtok";
}

/* What option @p o gets, e.g. "70.89 tokens/s" or "75.95 days". */
static void gets(const tco_advice *a, const tco_advise_option *o, tco_strbuf *out)
{
    char num_text[64];
    double v = a->train ? o->train_days : o->tokens_per_s;
    if (isnan(v)) /* a layout that holds no replica: no throughput */
        snprintf(num_text, sizeof num_text, "n.a.");
    else
        tco_format_grouped(v, 2, num_text, sizeof num_text);
    tco_strbuf_printf(out, "%s %s", num_text, a->train ? "days" : "tokens/s");
}

static void money(double v, int decimals, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "n.a.");
    else
        tco_format_grouped(v, decimals, buf, size);
}

void tco_advise_explain(const tco_advice *a, tco_strbuf *out)
{
    if (a->n_feasible == 0) {
        tco_strbuf_append(out, "no option is feasible: every candidate fails a check (see the rejections)");
        return;
    }
    tco_strbuf w = {0}, ru = {0};
    option_label(a, &a->options[0], &w);
    if (a->n_feasible == 1) {
        tco_strbuf_printf(out, "%s is the only feasible option", tco_strbuf_str(&w));
        tco_strbuf_free(&w);
        return;
    }
    const tco_advise_option *x = &a->options[0], *y = &a->options[1];
    option_label(a, y, &ru);
    char cx[64], cy[64], kx[64], ky[64], tx[64], ty[64], gx[64], gy[64];
    money(x->cost_per_unit, 2, cx, sizeof cx);
    money(y->cost_per_unit, 2, cy, sizeof cy);
    money(x->capex, 0, kx, sizeof kx);
    money(y->capex, 0, ky, sizeof ky);
    money(x->cost, 0, tx, sizeof tx);
    money(y->cost, 0, ty, sizeof ty);
    const char *per = a->train ? "per training run" : "per million tokens";
    if (x->cost_per_unit == y->cost_per_unit || isnan(x->cost_per_unit) || isnan(y->cost_per_unit)) {
        /* The tie-break as the ranking applies it (compare_options()): the cheaper capex, or with the same
         * capex too (two rented options, capex 0) the faster, or the earlier candidate. */
        double sx = a->train ? x->train_days : x->tokens_per_s, sy = a->train ? y->train_days : y->tokens_per_s;
        char fx[64], fy[64];
        tco_format_grouped(sx, 2, fx, sizeof fx);
        tco_format_grouped(sy, 2, fy, sizeof fy);
        tco_strbuf_printf(out, "%s costs as much %s as %s (%s %s) and wins ", tco_strbuf_str(&w), per,
                          tco_strbuf_str(&ru), cx, tco_advise_unit(a));
        if (x->capex != y->capex)
            tco_strbuf_append(out, "on the cheaper capex");
        else if (sx != sy && !isnan(sx) && !isnan(sy))
            tco_strbuf_printf(out, "as the faster at the same capex (%s against %s %s)", fx, fy,
                              a->train ? "days a run" : "tokens/s");
        else
            tco_strbuf_append(out, "as the earlier candidate, at the same capex and speed");
    } else {
        /* As the Rank sheet's "0.0%" cell of the same share shows it (tco_format_percent()). */
        char share[32];
        tco_format_percent((y->cost_per_unit - x->cost_per_unit) / y->cost_per_unit, 1, share, sizeof share);
        tco_strbuf_printf(out, "%s is %s cheaper %s than %s (%s against %s %s)", tco_strbuf_str(&w), share, per,
                          tco_strbuf_str(&ru), cx, cy, tco_advise_unit(a));
    }
    tco_strbuf_printf(out, "; capex %s against %s %s, cost over the period %s against %s %s", kx, ky, tco_advise_currency(a), tx,
                      ty, tco_advise_currency(a));
    tco_format_grouped(a->train ? x->train_days : x->tokens_per_s, 2, gx, sizeof gx);
    tco_format_grouped(a->train ? y->train_days : y->tokens_per_s, 2, gy, sizeof gy);
    bool same = x->tier == y->tier && x->cards == y->cards;
    if (same && a->train)
        tco_strbuf_printf(out, "; the same cards, %s days a run", gx);
    else if (same)
        tco_strbuf_printf(out, "; the same cards, %s tokens/s", gx);
    else {
        /* Shares as the workbook's "0%" shows them, a small one with significant digits (never 0% when not 0). */
        char ex[32], ey[32];
        tco_format_percent(a->train ? x->train_efficiency : x->decode_efficiency, 0, ex, sizeof ex);
        tco_format_percent(a->train ? y->train_efficiency : y->decode_efficiency, 0, ey, sizeof ey);
        if (a->train)
            tco_strbuf_printf(out, "; one run takes %s days at %s training efficiency, the runner-up's %s days at %s", gx,
                              ex, gy, ey);
        else
            tco_strbuf_printf(out, "; it reaches %s tokens/s, decoding at %s of its bound, the runner-up %s at %s", gx,
                              ex, gy, ey);
    }
    tco_strbuf_free(&w);
    tco_strbuf_free(&ru);
}

/* The checks that rejected options, each once in order of first appearance, with its count. */
typedef struct check_count {
    const char *check;
    size_t count;
} check_count;

static check_count *count_checks(const tco_advice *a, size_t *n)
{
    check_count *c = NULL;
    *n = 0;
    size_t cap = 0;
    for (size_t i = a->n_feasible; i < a->n_options; i++)
        for (size_t k = 0; k < a->options[i].n_reasons; k++) {
            const char *name = a->options[i].reasons[k].check;
            size_t j = 0;
            while (j < *n && strcmp(c[j].check, name) != 0)
                j++;
            if (j == *n) {
                if (*n == cap) {
                    cap = cap ? 2 * cap : 16;
                    check_count *grown = realloc(c, cap * sizeof *grown);
                    if (grown == NULL)
                        return c;
                    c = grown;
                }
                c[(*n)++] = (check_count){name, 0};
            }
            c[j].count++;
        }
    for (size_t i = 1; i < *n; i++) /* the most frequent first; a stable insertion sort keeps ties in order */
        for (size_t j = i; j > 0 && c[j].count > c[j - 1].count; j--) {
            check_count t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    return c;
}

static const char *label_of(const tco_advice *a, const char *check)
{
    int i = tco_model_find(a->models[0], check);
    return i >= 0 ? a->models[0]->items[i].label : check;
}

/* The closest rejected option of tier @p t: fewest reasons, then the lowest cost over the period; NULL if none. */
static const tco_advise_option *closest_rejected(const tco_advice *a, int t)
{
    const tco_advise_option *best = NULL;
    for (size_t i = a->n_feasible; i < a->n_options; i++) {
        const tco_advise_option *o = &a->options[i];
        if (o->tier == t && (best == NULL || o->n_reasons < best->n_reasons ||
                             (o->n_reasons == best->n_reasons && o->cost < best->cost)))
            best = o;
    }
    return best;
}

void tco_advise_print_table(const tco_advice *a, const char *workbook, FILE *out)
{
    char n1[64], n2[64], n3[64], n4[64];
    tco_text_put_terminal(out, a->name, strlen(a->name)); /* escaped for the terminal (base/text.h) */
    fputs(": ", out);
    tco_text_put_terminal(out, a->title, strlen(a->title));
    fputc('\n', out);
    if (a->train && a->runs_per_year > 0) {
        tco_format_grouped(a->runs_per_year, a->runs_per_year == floor(a->runs_per_year) ? 0 : 2, n1, sizeof n1);
        double period_runs = a->runs_per_year * a->years;
        tco_format_grouped(period_runs, period_runs == floor(period_runs) ? 0 : 2, n2, sizeof n2);
        fprintf(out, "Training, ranked by the cost of one training run at the demand of %s run%s a year (the cost over "
                "the period / %s run%s); costs in %s over %d years\n", n1, a->runs_per_year == 1 ? "" : "s", n2,
                period_runs == 1 ? "" : "s", tco_advise_currency(a), a->years);
    } else if (a->train)
        fprintf(out, "Training, ranked by the cost of one training run, the cards busy at utilisation (no "
                "runs_per_year given); costs in %s over %d year%s\n", tco_advise_currency(a), a->years, tco_plural(a->years));
    else {
        char u[64];
        tco_format_grouped(a->target_tokens_per_s, 2, n1, sizeof n1);
        tco_format_grouped(a->utilisation, 2, u, sizeof u);
        fprintf(out, "Serving, ranked by the cost per million tokens at the target load of %s tokens/s x utilisation "
                "%s (no credit for a faster layout); costs in %s over %d year%s\n", n1, u, tco_advise_currency(a),
                a->years, tco_plural(a->years));
    }
    fprintf(out, "%zu candidate%s: %zu feasible, %zu rejected; %d tier-host pair%s skipped (the card does not fit the "
            "host)\n\n", a->n_options, tco_plural((double)a->n_options), a->n_feasible, a->n_options - a->n_feasible,
            a->skipped_pairs, tco_plural(a->skipped_pairs));
    if (a->n_feasible > 0)
        fprintf(out, "%4s  %-40s %16s %12s %12s %12s %12s\n", "Rank", "Option",
                a->train ? "Training run" : "Throughput", "Capex", "Cost", "NPV cost", tco_advise_unit(a));
    for (size_t i = 0; i < a->n_feasible && i < TCO_ADVISE_TOP; i++) {
        const tco_advise_option *o = &a->options[i];
        tco_strbuf l = {0}, g = {0};
        option_label(a, o, &l);
        gets(a, o, &g);
        money(o->capex, 0, n1, sizeof n1);
        money(o->cost, 0, n2, sizeof n2);
        money(o->npv_cost, 0, n3, sizeof n3);
        money(o->cost_per_unit, 2, n4, sizeof n4);
        fprintf(out, "%4d  %-40s %16s %12s %12s %12s %12s\n", o->rank, tco_strbuf_str(&l), tco_strbuf_str(&g), n1, n2,
                n3, n4);
        tco_strbuf_free(&l);
        tco_strbuf_free(&g);
    }
    tco_strbuf x = {0};
    tco_advise_explain(a, &x);
    fprintf(out, "%sBest: %s\n", a->n_feasible > 0 ? "\n" : "", tco_strbuf_str(&x));
    tco_strbuf_free(&x);
    size_t n_checks;
    check_count *c = count_checks(a, &n_checks);
    if (n_checks > 0)
        fprintf(out, "\nRejected options by failing check (one option may fail several):\n");
    for (size_t k = 0; k < n_checks; k++)
        fprintf(out, "  %6zu  %s (%s)\n", c[k].count, label_of(a, c[k].check), c[k].check);
    free(c);
    bool header = false;
    for (int t = 0; t < a->n_tiers; t++) {
        const tco_advise_option *best = NULL;
        for (size_t i = 0; i < a->n_feasible && best == NULL; i++)
            if (a->options[i].tier == t)
                best = &a->options[i];
        if (best && best->rank <= TCO_ADVISE_TOP)
            continue;
        if (!header)
            fprintf(out, "\nThe other tiers:\n");
        header = true;
        tco_strbuf l = {0};
        const tco_advise_option *o = best ? best : closest_rejected(a, t);
        if (o)
            option_label(a, o, &l);
        if (best) {
            const tco_advise_option *w = &a->options[0];
            money(best->cost_per_unit, 2, n1, sizeof n1);
            money(best->capex, 0, n2, sizeof n2);
            money(w->capex, 0, n3, sizeof n3);
            fprintf(out, "  %s: best at rank %d, %s, %s %s", a->tiers[t], best->rank, tco_strbuf_str(&l), n1,
                    tco_advise_unit(a));
            if (!isnan(best->cost_per_unit) && !isnan(w->cost_per_unit) && w->cost_per_unit > 0)
            {
                char more[32];
                tco_format_percent(best->cost_per_unit / w->cost_per_unit - 1, 1, more, sizeof more);
                fprintf(out, ", %s more than the best", more);
            }
            fprintf(out, " (capex %s against %s %s)\n", n2, n3, tco_advise_currency(a));
        } else if (o) {
            fprintf(out, "  %s: none feasible; closest: %s:", a->tiers[t], tco_strbuf_str(&l));
            for (size_t k = 0; k < o->n_reasons; k++)
                fprintf(out, "%s %s", k ? ";" : "", o->reasons[k].text);
            fputc('\n', out);
        } else
            fprintf(out, "  %s: no host of the list takes it\n", a->tiers[t]);
        tco_strbuf_free(&l);
    }
    if (a->quotes) {
        size_t used = 0;
        for (size_t i = 0; i < a->n_quotes; i++)
            used += a->quotes[i].candidates > 0;
        fprintf(out, "\nQuotes: %zu row%s kept; %zu priced at least one candidate, %zu none (not used)%s\n", a->n_quotes,
                tco_plural((double)a->n_quotes), used, a->n_quotes - used, used < a->n_quotes ? ":" : "");
        for (size_t i = 0; i < a->n_quotes; i++)
            if (a->quotes[i].candidates == 0)
                fprintf(out, "  %s%s(%s, %s), %s:%ld: %s\n", a->quotes[i].row->quote_id,
                        a->quotes[i].row->quote_id[0] ? " " : "", a->quotes[i].row->vendor, a->quotes[i].row->item,
                        a->quotes[i].row->file, a->quotes[i].row->line, a->quotes[i].reason);
    }
    if (workbook) {
        fputs("\nWorkbook: ", out);
        tco_text_put_terminal(out, workbook, strlen(workbook));
        fputc('\n', out);
    }
}

void tco_advise_print_json(const tco_advice *a, const char *workbook, FILE *out)
{
    fputs("{\n  \"question\": ", out);
    tco_report_json_string(out, a->name);
    fputs(",\n  \"title\": ", out);
    tco_report_json_string(out, a->title);
    fprintf(out, ",\n  \"job\": \"%s\",\n  \"currency\": \"%s\",\n  \"years\": %d,\n  \"unit\": \"%s\",\n",
            a->train ? "train" : "serve", tco_advise_currency(a), a->years, tco_advise_unit(a));
    if (!a->train) {
        fputs("  \"target_tokens_per_s\": ", out);
        tco_report_json_number(out, a->target_tokens_per_s);
        fputs(",\n  \"utilisation\": ", out);
        tco_report_json_number(out, a->utilisation);
        fputs(",\n", out);
    } else {
        fputs("  \"runs_per_year\": ", out);
        tco_report_json_number(out, a->runs_per_year);
        fputs(",\n", out);
    }
    fprintf(out, "  \"candidates\": %zu,\n  \"feasible\": %zu,\n  \"skipped_pairs\": %d,\n  \"explanation\": ",
            a->n_options, a->n_feasible, a->skipped_pairs);
    tco_strbuf x = {0};
    tco_advise_explain(a, &x);
    tco_report_json_string(out, tco_strbuf_str(&x));
    tco_strbuf_free(&x);
    fputs(",\n  \"workbook\": ", out);
    if (workbook)
        tco_report_json_string(out, workbook);
    else
        fputs("null", out);
    fputs(",\n  \"rejections\": [", out);
    size_t n_checks;
    check_count *c = count_checks(a, &n_checks);
    for (size_t k = 0; k < n_checks; k++) {
        fputs(k ? ",\n    {\"check\": " : "\n    {\"check\": ", out);
        tco_report_json_string(out, c[k].check);
        fputs(", \"label\": ", out);
        tco_report_json_string(out, label_of(a, c[k].check));
        fprintf(out, ", \"count\": %zu}", c[k].count);
    }
    free(c);
    fputs(n_checks ? "\n  ],\n  \"options\": [" : "],\n  \"options\": [", out);
    for (size_t i = 0; i < a->n_options; i++) {
        const tco_advise_option *o = &a->options[i];
        fputs(i ? ",\n    {\"rank\": " : "\n    {\"rank\": ", out);
        if (o->feasible)
            fprintf(out, "%d", o->rank);
        else
            fputs("null", out);
        fputs(", \"tier\": ", out);
        tco_report_json_string(out, a->tiers[o->tier]);
        fprintf(out, ", \"cards\": %d, \"host\": ", o->cards);
        tco_report_json_string(out, o->rent ? "cloud" : a->hosts[o->host]);
        fputs(", \"facility\": ", out);
        if (o->rent)
            fputs("null", out);
        else
            tco_report_json_string(out, mode_of(a, o));
        fprintf(out, ", \"acquisition\": \"%s\", \"feasible\": %s, \"reasons\": [", o->rent ? "rent" : "own",
                o->feasible ? "true" : "false");
        for (size_t k = 0; k < o->n_reasons; k++) {
            fputs(k ? ", " : "", out);
            tco_report_json_string(out, o->reasons[k].text);
        }
        fputs("], \"checks\": [", out);
        for (size_t k = 0; k < o->n_reasons; k++) {
            fputs(k ? ", " : "", out);
            tco_report_json_string(out, o->reasons[k].check);
        }
        const struct {
            const char *key;
            double v;
        } nums[] = {{"memory_gb", o->memory_gb}, {"need_gb", o->need_gb}, {"capex", o->capex}, {"tco", o->cost},
                    {"npv_cost", o->npv_cost}, {"cost_per_unit", o->cost_per_unit}};
        fputs("]", out);
        for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
            fprintf(out, ", \"%s\": ", nums[k].key);
            tco_report_json_number(out, nums[k].v);
        }
        fprintf(out, ", \"unit\": \"%s\"", tco_advise_unit(a));
        if (a->train) {
            fputs(", \"train_days\": ", out);
            tco_report_json_number(out, o->train_days);
        } else {
            fputs(", \"tokens_per_s\": ", out);
            tco_report_json_number(out, o->tokens_per_s);
            fputs(", \"stream_tokens_per_s\": ", out);
            tco_report_json_number(out, o->stream_tokens_per_s);
        }
        const double risk[] = {o->risk.p10, o->risk.p50, o->risk.p90, o->risk.p_best, o->risk.feasible};
        const char *risk_keys[] = {"p10", "p50", "p90", "p_best", "feasible"};
        for (size_t k = 0; o->risk.drawn && k < 5; k++) { /* --monte-carlo (advise_risk.h) */
            fprintf(out, "%s\"%s\": ", k ? ", " : ", \"risk\": {", risk_keys[k]);
            tco_report_json_number(out, risk[k]);
        }
        fputs(o->risk.drawn ? "}}" : "}", out);
    }
    fputs(a->n_options ? "\n  ]" : "]", out);
    /* The quote warnings of the runs, as on standard error (render/report.h), with the check "quotes". */
    fputs(",\n  \"warnings\": [", out);
    tco_report_json_quote_warnings(out, a->quotes ? &a->runs[0]->quotes : NULL, a->quote_warnings,
                                   a->n_quote_warnings, 0);
    fputs("]", out);
    if (a->quotes) {
        size_t used = 0;
        for (size_t i = 0; i < a->n_quotes; i++)
            used += a->quotes[i].candidates > 0;
        char day[16];
        tco_format_date(a->runs[0]->model->as_of, day); /* the day every run judged the quotes on */
        fprintf(out, ",\n  \"quotes\": {\"as_of\": \"%s\", \"rows\": %zu, \"used\": %zu, \"runs\": %zu, \"list\": [", day,
                a->n_quotes, used, a->runs_opened);
        for (size_t i = 0; i < a->n_quotes; i++) {
            const tco_advise_quote *q = &a->quotes[i];
            fputs(i ? ",\n    {\"quote_id\": " : "\n    {\"quote_id\": ", out);
            tco_report_json_string(out, q->row->quote_id);
            fputs(", \"vendor\": ", out);
            tco_report_json_string(out, q->row->vendor);
            fputs(", \"item\": ", out);
            tco_report_json_string(out, q->row->item);
            fputs(", \"file\": ", out);
            tco_report_json_string(out, q->row->file);
            fprintf(out, ", \"line\": %ld, \"candidates\": %zu, \"reason\": ", q->row->line, q->candidates);
            if (q->reason)
                tco_report_json_string(out, q->reason);
            else
                fputs("null", out);
            fputs("}", out);
        }
        fputs(a->n_quotes ? "\n  ]}" : "]}", out);
    }
    if (a->risk_draws) { /* --monte-carlo (advise_risk.h) */
        fprintf(out, ",\n  \"monte_carlo\": {\"draws\": %zu, \"seed\": %llu, \"inputs_drawn\": %zu, \"options\": %zu, "
                "\"none_feasible\": ", a->risk_draws, (unsigned long long)a->risk_seed, a->risk_inputs, a->risk_options);
        tco_report_json_number(out, a->risk_none_feasible);
        fputs("}", out);
    }
    if (a->saved_path) { /* --save-scenario (advise_save.h) */
        fputs(",\n  \"saved_scenario\": {\"path\": ", out);
        tco_report_json_string(out, a->saved_path);
        fprintf(out, ", \"rank\": %d, \"tco\": ", a->saved_rank);
        tco_report_json_number(out, a->saved_tco);
        fputs(", \"cost_per_million_tokens_served\": ", out);
        tco_report_json_number(out, a->saved_served_unit);
        fputs("}", out);
    }
    fputs("\n}\n", out);
}

/* ---- the workbook ---------------------------------------------------------------------------- */

size_t tco_advise_listed(const tco_advice *a, const tco_advise_option **out)
{
    size_t n = 0;
    for (size_t i = 0; i < a->n_feasible && i < TCO_ADVISE_TOP; i++)
        out[n++] = &a->options[i];
    for (int t = 0; t < a->n_tiers && n < TCO_ADVISE_LISTED_MAX; t++) {
        const tco_advise_option *best = NULL;
        for (size_t i = 0; i < a->n_feasible && best == NULL; i++)
            if (a->options[i].tier == t)
                best = &a->options[i];
        if (best && best->rank <= TCO_ADVISE_TOP)
            continue; /* listed among the top */
        if ((best = best ? best : closest_rejected(a, t)) != NULL)
            out[n++] = best;
    }
    return n;
}

