/* compare.c - a comparison workbook: each option's sheets, prefixed A, B, ..., and a Compare sheet of
 * their figures as formulas over the options' names, with the differences to option A. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/formula.h"
#include "render/workbook_kit.h"
#include "render/compare.h"
#include "render/inputs_sheet.h"
#include "render/workbook.h"
#include "price/pricing.h"

typedef struct compare_ctx {
    tco_model *const *models;
    size_t n;
    const char *title;
} compare_ctx;

static void fill_compare_sheets(writer *base, void *vctx);

/* Whether option inputs @p a and @p b hold the same site or finance value, so that one shared cell can
 * stand for both: the same kind of scalar input, marked site-wide, priced by no quote, with the same
 * text or number (in the files' currency too), the same --set, and the same basis and status. */
static bool same_shared_input(const tco_item *a, const tco_item *b)
{
    if (a->kind != TCO_ITEM_INPUT || b->kind != TCO_ITEM_INPUT || !a->site_wide || !b->site_wide || a->quoted ||
        b->quoted || a->structural || b->structural || (a->text == NULL) != (b->text == NULL) ||
        (a->original == NULL) != (b->original == NULL) || a->in_report != b->in_report)
        return false;
    if (a->text ? strcmp(a->text, b->text) != 0 : a->value != b->value)
        return false;
    if (a->original && strcmp(a->original, b->original) != 0)
        return false;
    /* The same fact, not two that agree by chance: the same basis (a site's own tariff and the
     * catalog's seed figure stay apart even at one price). */
    if ((a->basis == NULL) != (b->basis == NULL) || (a->basis && strcmp(a->basis, b->basis) != 0) ||
        tco_status_of_input(a) != tco_status_of_input(b))
        return false;
    return !a->in_report || a->base_value == b->base_value;
}

/* Mark, in @p shared[k] (one flag per item of option k), the inputs every option holds alike
 * (same_shared_input()).  A money input shown over fx_report is shared only with fx_report itself,
 * since its shared cell divides by it.  False when out of memory. */
static bool mark_shared(tco_model *const *models, size_t n, unsigned char **shared)
{
    for (size_t k = 0; k < n; k++)
        if ((shared[k] = calloc(models[k]->n_items ? models[k]->n_items : 1, 1)) == NULL)
            return false;
    const tco_model *first = models[0];
    int rate = tco_model_find(first, TCO_FX_REPORT);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < first->n_items; i++) {
            const tco_item *it = &first->items[i];
            /* fx_report first, then the money inputs that divide by it */
            if ((pass == 0) != ((int)i == rate) || (it->in_report && (rate < 0 || !shared[0][rate])))
                continue;
            bool all = true;
            for (size_t k = 1; k < n && all; k++) {
                int j = tco_model_find(models[k], it->name);
                all = j >= 0 && same_shared_input(it, &models[k]->items[j]);
            }
            for (size_t k = 0; k < n && all; k++)
                shared[k][tco_model_find(models[k], it->name)] = 1;
        }
    return true;
}

/* For each shared input (@p shared, per item of option A) that the options give from files of their own,
 * every option's source ("A: ...; B: ..."), in *@p out (one heap text or NULL per item of option A; the
 * array heap, freed by the caller even on failure).  False when out of memory. */
static bool shared_sources(const compare_ctx *c, const unsigned char *shared, char ***out)
{
    const tco_model *first = c->models[0];
    char **sources = *out = calloc(first->n_items ? first->n_items : 1, sizeof *sources);
    for (size_t i = 0; sources && i < first->n_items; i++) {
        const char *src[26];
        bool differ = false;
        for (size_t k = 0; shared[i] && k < c->n; k++) {
            const char *given = c->models[k]->items[tco_model_find(c->models[k], first->items[i].name)].source;
            src[k] = given ? given : ""; /* an input tco adds (fx_report) has none */
            differ |= strcmp(src[k], src[0]) != 0;
        }
        if (!differ)
            continue;
        tco_strbuf b = {0};
        for (size_t k = 0; k < c->n; k++)
            tco_strbuf_printf(&b, "%s%c: %s", k ? "; " : "", (char)('A' + k), src[k]);
        if ((sources[i] = tco_strbuf_take(&b)) == NULL)
            return false;
    }
    return sources != NULL;
}

static void fill_compare(writer *base, void *vctx)
{
    fill_compare_sheets(base, vctx);
    tco_strbuf_free(&base->text_buf);
}

void wb_write_options(writer *base, wb_options *o)
{
    tco_model *const *models = o->models;
    const tco_model *first = models[0];
    /* The site and finance inputs the options hold alike: one cell each on the Shared inputs sheet. */
    unsigned char *shared[26] = {NULL};
    bool any_shared = false;
    if (!mark_shared(models, o->n, shared)) {
        base->err = tco_diag_set(base->diag, TCO_ERR_NOMEM, "out of memory");
    } else {
        for (size_t i = 0; i < first->n_items; i++)
            any_shared |= shared[0][i] != 0;
    }
    char **sources = NULL;
    compare_ctx c = {models, o->n, o->title};
    if (any_shared && base->err == TCO_OK && !shared_sources(&c, shared[0], &sources))
        base->err = tco_diag_set(base->diag, TCO_ERR_NOMEM, "out of memory");
    if (any_shared && base->err == TCO_OK) {
        base->m = first;
        base->footer = o->title;
        lxw_worksheet *sw = wb_add_sheet(base, TCO_SHARED_SHEET, 0xFFC000, true);
        base->footer = NULL;
        if (sw != NULL) {
            writer w = *base;
            w.np = "";
            w.sp = "";
            w.shared = shared[0];
            w.shared_sources = sources;
            w.ref = (tco_strbuf){0};
            w.text_buf = (tco_strbuf){0};
            wb_write_shared_inputs(&w, sw);
            tco_strbuf_free(&w.ref);
            tco_strbuf_free(&w.text_buf);
            base->err = w.err;
        }
    }
    /* Each option's own sheets, prefixed; hidden once written but a shown option's Summary.  The options
     * share a template: a calculation sheet's label width is worked out for the first (workbook.h). */
    struct wb_label_widths *widths = wb_label_widths_new();
    for (size_t k = 0; k < o->n && base->err == TCO_OK; k++) {
        writer w = *base;
        w.widths = widths;
        snprintf(o->sp[k], sizeof o->sp[k], "%c ", (char)('A' + k));
        snprintf(o->np[k], sizeof o->np[k], "%c_", (char)('a' + k));
        w.m = models[k];
        w.sp = o->sp[k];
        w.np = o->np[k];
        w.ref = (tco_strbuf){0};
        w.text_buf = (tco_strbuf){0};
        w.shared = any_shared ? shared[k] : NULL;
        /* Its sheets' footer: the option first ("3x D-M in dc4, owned (team-70b)"), as the footer keeps
         * the first 60 characters. */
        tco_strbuf footer = {0};
        if (o->labels && o->labels[k]) {
            tco_strbuf_printf(&footer, "%s (%s)", o->labels[k], models[k]->scenario_name);
            if (footer.failed)
                w.err = tco_diag_set(w.diag, TCO_ERR_NOMEM, "out of memory");
            else
                w.footer = tco_strbuf_str(&footer);
        }
        size_t before = base->wb->num_sheets;
        if (w.err == TCO_OK)
            wb_write_model(&w);
        tco_strbuf_free(&footer);
        w.footer = NULL;
        base->err = w.err;
        o->opex_sheet[k] = w.opex_sheet;
        o->opex_row[k] = w.opex_row;
        /* Shown (and printed): a shown option's Summary.  Every other sheet of the option stays, live
         * and hidden (a hidden sheet is not printed): the pack is the Compare or Rank sheet, the Shared
         * inputs and the options' Summaries (issue 23 §2). */
        lxw_worksheet *ws;
        size_t index = 0;
        LXW_FOREACH_WORKSHEET(ws, base->wb)
        {
            if (index >= before && (k >= o->visible || strcmp(ws->name + strlen(o->sp[k]), "Summary") != 0))
                worksheet_hide(ws);
            index++;
        }
    }
    wb_label_widths_free(widths);
    for (size_t k = 0; k < o->n; k++)
        free(shared[k]);
    for (size_t i = 0; sources && i < first->n_items; i++)
        free(sources[i]);
    free(sources);
}

static void fill_compare_sheets(writer *base, void *vctx)
{
    compare_ctx *c = vctx;
    const tco_model *first = c->models[0];
    base->m = first;
    base->footer = c->title;
    lxw_worksheet *ws = wb_add_sheet(base, "Compare", 0xC00000, true);
    base->footer = NULL;
    if (ws == NULL)
        return;
    wb_options opts = {.models = c->models, .n = c->n, .visible = c->n, .title = c->title};
    wb_write_options(base, &opts);
    int *opex_sheet = opts.opex_sheet, *opex_row = opts.opex_row;
    char (*sp)[4] = opts.sp, (*np)[4] = opts.np;
    if (base->err != TCO_OK)
        return;
    writer *w = base;
    w->m = first;
    w->np = "";
    w->sp = "";
    int ncols = (int)c->n;
    wb_write_text(w, ws, ROW_TITLE, 0, c->title, w->title);
    wb_write_text(w, ws, ROW_NOTE, 0,
                  "Each option's own sheets follow, prefixed A, B, ...; every figure here is a formula over their "
                  "names (a_tco is option A's TCO). Differences are to option A. The site and finance inputs the "
                  "options share are one cell each on the Shared inputs sheet.",
                  w->note);
    wb_write_text(w, ws, ROW_HEADER, COL_ITEM, "Metric", w->header);
    wb_write_text(w, ws, ROW_HEADER, COL_UNIT, "Unit", w->header);
    char cell[64];
    for (int k = 0; k < ncols; k++) {
        tco_strbuf h = {0};
        tco_strbuf_printf(&h, "%c: %s", 'A' + k, c->models[k]->scenario_name);
        wb_write_text(w, ws, ROW_HEADER, COL_VALUE + k, tco_strbuf_str(&h), w->header_right);
        tco_strbuf_free(&h);
    }
    for (int k = 1; k < ncols; k++) {
        snprintf(cell, sizeof cell, "%c - A", 'A' + k);
        wb_write_text(w, ws, ROW_HEADER, COL_VALUE + ncols + 2 * (k - 1), cell, w->header_right);
        snprintf(cell, sizeof cell, "%c vs A", 'A' + k);
        wb_write_text(w, ws, ROW_HEADER, COL_VALUE + ncols + 2 * (k - 1) + 1, cell, w->header_right);
    }
    int row = ROW_FIRST;
    /* A row of values (formulas per option) and its differences to option A. */
    int tco_row = -1;
    double tco_vals[26] = {0}; /* the TCO row's cached results, for the chart's cache */
    bool tco_numeric[26] = {false};
    for (size_t q = 0; q < first->n_compare + (size_t)(first->n_periods > 0 ? first->n_periods : 0) && w->err == TCO_OK;
         q++) {
        bool yearly = q >= first->n_compare;
        int year = yearly ? (int)(q - first->n_compare) : -1;
        const tco_item *it0 = yearly ? &first->items[first->role_opex] : &first->items[first->compare[q]];
        if (yearly && (first->role_opex < 0 || opex_row[0] < 0))
            break;
        tco_strbuf label = {0};
        tco_strbuf_append(&label, it0->label);
        if (yearly)
            tco_strbuf_printf(&label, ", Year %d", first->first_year + year);
        wb_write_text(w, ws, row, COL_ITEM, tco_strbuf_str(&label),
                      it0->emphasis && !yearly ? w->total_label : w->text);
        if (!yearly && first->role_tco >= 0 && first->compare[q] == first->role_tco)
            tco_row = row;
        wb_write_text(w, ws, row, COL_UNIT, it0->unit, w->text);
        double vals[26] = {0}, shown[26];
        bool have[26] = {false};
        const char *texts[26] = {NULL}; /* an option's "never" or "n.a.: ...": no difference is a number */
        /* One format for the row: from every option's value. */
        size_t n_shown = 0;
        for (int k = 0; k < ncols && !yearly; k++) {
            int idx = tco_model_find(c->models[k], it0->name);
            if (idx >= 0)
                shown[n_shown++] = c->models[k]->items[idx].value;
        }
        lxw_format *row_fmt = yearly ? w->fmt[it0->format] : wb_values_format(w, it0, shown, n_shown, false);
        for (int k = 0; k < ncols; k++) {
            const tco_model *mk = c->models[k];
            tco_strbuf f = {0};
            if (yearly) {
                if (mk->role_opex < 0 || opex_row[k] < 0 || year >= mk->n_periods)
                    continue;
                char col[4];
                wb_col_letters(COL_VALUE + year, col);
                tco_strbuf_printf(&f, "='%s%s'!%s%d", sp[k], mk->sheets[opex_sheet[k]].name, col, opex_row[k] + 1);
                vals[k] = mk->items[mk->role_opex].years[year];
            } else {
                int idx = tco_model_find(mk, it0->name);
                if (idx < 0 || mk->items[idx].kind == TCO_ITEM_YEARLY ||
                    (mk->items[idx].kind == TCO_ITEM_INPUT && mk->items[idx].text))
                    continue;
                tco_strbuf_printf(&f, "=%s%s", np[k], it0->name);
                vals[k] = mk->items[idx].value;
                texts[k] = wb_item_text(&mk->items[idx]);
            }
            have[k] = true;
            wb_write_formula_or_text(w, ws, row, COL_VALUE + k, tco_strbuf_str(&f), row_fmt, vals[k], texts[k]);
            tco_strbuf_free(&f);
        }
        if (row == tco_row)
            for (int k = 0; k < ncols; k++) {
                tco_vals[k] = vals[k];
                tco_numeric[k] = have[k] && texts[k] == NULL;
            }
        for (int k = 1; k < ncols && have[0]; k++) {
            if (!have[k])
                continue;
            char a[4], b[4];
            wb_col_letters(COL_VALUE, a);
            wb_col_letters(COL_VALUE + k, b);
            tco_strbuf f = {0};
            int dcol = COL_VALUE + ncols + 2 * (k - 1);
            /* The cached results follow the evaluator's own arithmetic (tco_formula_arith()). */
            double diff = 0, pct = 0;
            const char *why = NULL;
            bool is_pct = !(it0->format == TCO_FMT_PERCENT || it0->format == TCO_FMT_YESNO ||
                            it0->format == TCO_FMT_NEVER); /* a share's difference is already in points */
            /* A line that may say "never" or "n.a." (a scalar line) has a difference only while both
             * options give numbers: the formula tests that live, and says "n.a." otherwise. */
            bool guarded = !yearly;
            const char *na = texts[k] || texts[0] ? "n.a." : NULL;
            if (na == NULL && (tco_formula_arith(TCO_OP_SUB, vals[k], vals[0], &diff, &why) != TCO_OK ||
                               (is_pct && vals[0] != 0 &&
                                tco_formula_arith(TCO_OP_DIV, diff, vals[0], &pct, &why) != TCO_OK))) {
                if (w->err == TCO_OK)
                    w->err = tco_diag_set(w->diag, TCO_ERR_EVAL, "Compare sheet, %s: option %c against option A: %s",
                                          tco_strbuf_str(&label), 'A' + k, why);
                break;
            }
            if (guarded)
                tco_strbuf_printf(&f, "=IF(AND(ISNUMBER(%s%d),ISNUMBER(%s%d)),%s%d-%s%d,\"n.a.\")", b, row + 1, a,
                                  row + 1, b, row + 1, a, row + 1);
            else
                tco_strbuf_printf(&f, "=%s%d-%s%d", b, row + 1, a, row + 1);
            wb_write_formula_or_text(w, ws, row, dcol, tco_strbuf_str(&f),
                                     yearly ? w->fmt[it0->format] : wb_value_format(w, it0, diff, false), diff, na);
            tco_strbuf_free(&f);
            if (!is_pct)
                continue;
            if (guarded)
                tco_strbuf_printf(&f, "=IF(AND(ISNUMBER(%s%d),ISNUMBER(%s%d)),IF(%s%d=0,0,(%s%d-%s%d)/%s%d),\"n.a.\")",
                                  b, row + 1, a, row + 1, a, row + 1, b, row + 1, a, row + 1, a, row + 1);
            else
                tco_strbuf_printf(&f, "=IF(%s%d=0,0,(%s%d-%s%d)/%s%d)", a, row + 1, b, row + 1, a, row + 1, a,
                                  row + 1);
            wb_write_formula_or_text(w, ws, row, dcol + 1, tco_strbuf_str(&f), w->fmt[TCO_FMT_PERCENT], pct, na);
            tco_strbuf_free(&f);
        }
        tco_strbuf_free(&label);
        row++;
    }
    /* Checks: each option's master check, and one over all. */
    int ck = first->n_checks > 0 ? first->checks[0] : -1;
    if (ck >= 0) {
        row++;
        const char *name = first->items[ck].name;
        wb_write_text(w, ws, row, COL_ITEM, "Checks pass (each option's master check: 1 shown TRUE)", w->text);
        bool all = true;
        for (int k = 0; k < ncols; k++) {
            int idx = tco_model_find(c->models[k], name);
            double v = idx >= 0 ? c->models[k]->items[idx].value : 0;
            all = all && v == 1;
            tco_strbuf f = {0};
            tco_strbuf_printf(&f, "=%s%s", np[k], name);
            wb_write_formula(w, ws, row, COL_VALUE + k, tco_strbuf_str(&f), w->fmt_bool, v);
            tco_strbuf_free(&f);
        }
        row++;
        wb_write_text(w, ws, row, COL_ITEM, "Master check: every option passes", w->total_label);
        tco_strbuf f = {0};
        /* IF(AND(...),1,0) like every other check: a number, which its cache (1 or 0) is; a bare AND()
         * would be the boolean TRUE, and =C25=1 FALSE in Excel. */
        tco_strbuf_append(&f, "=IF(AND(");
        for (int k = 0; k < ncols; k++)
            tco_strbuf_printf(&f, "%s%s%s=1", k ? "," : "", np[k], name);
        tco_strbuf_append(&f, "),1,0)");
        wb_write_formula(w, ws, row, COL_VALUE, tco_strbuf_str(&f), w->fmt_bool, all ? 1 : 0);
        tco_strbuf_free(&f);
        row++;
    }
    /* TCO by option, a column chart over the TCO row. */
    if (tco_row >= 0 && w->err == TCO_OK) {
        lxw_chart *chart = workbook_add_chart(w->wb, LXW_CHART_COLUMN);
        if (chart == NULL) {
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
            return;
        }
        char title[40];
        snprintf(title, sizeof title, "TCO by option (%s)", w->opts->currency);
        chart_title_set_name(chart, title);
        lxw_chart_series *s = chart_add_series(chart, NULL, NULL);
        if (s == NULL) {
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
            return;
        }
        chart_series_set_categories(s, "Compare", ROW_HEADER, COL_VALUE, ROW_HEADER, (lxw_col_t)(COL_VALUE + ncols - 1));
        chart_series_set_values(s, "Compare", (lxw_row_t)tco_row, COL_VALUE, (lxw_row_t)tco_row,
                                (lxw_col_t)(COL_VALUE + ncols - 1));
        wb_chart_cache(w, s->values, tco_vals, tco_numeric, (size_t)ncols);
        chart_series_set_name(s, "TCO over the period");
        chart_axis_set_num_format(chart->y_axis, "#,##0");
        chart_legend_set_position(chart, LXW_CHART_LEGEND_NONE);
        lxw_chart_options opt = {.x_scale = 1.2, .y_scale = 1.1};
        wb_check(w, worksheet_insert_chart_opt(ws, (lxw_row_t)(row + 2), COL_ITEM, chart, &opt), "chart");
    }
    worksheet_set_column(ws, COL_ITEM, COL_ITEM, 52, NULL);
    worksheet_set_column(ws, COL_UNIT, COL_UNIT, 13, NULL);
    worksheet_set_column(ws, COL_VALUE, (lxw_col_t)(COL_VALUE + ncols + 2 * (ncols - 1)), 16, NULL);
    worksheet_activate(ws);
}

tco_error tco_workbook_write_compare(tco_model *const *models, size_t n, const char *title, const char *path,
                                     const tco_workbook_options *opts, tco_diag *diag)
{
    if (n < 2 || n > 26)
        return tco_diag_set(diag, TCO_ERR_USAGE, "a comparison takes 2 to 26 scenarios, found %zu", n);
    compare_ctx c = {models, n, title};
    tco_strbuf comments = {0};
    tco_strbuf_append(&comments, "Generated by tco: a comparison of");
    for (size_t k = 0; k < n; k++)
        tco_strbuf_printf(&comments, " %c = %s%s", (char)('A' + k), models[k]->scenario_name, k + 1 < n ? "," : ".");
    tco_error e = comments.failed ? tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory")
                                  : wb_write_book(path, opts, title, "TCO comparison", tco_strbuf_str(&comments),
                                                  fill_compare, &c, diag);
    tco_strbuf_free(&comments);
    return e;
}
