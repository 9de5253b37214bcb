/*
 * bridge_book.c - the Bridge workbook of tco diff (bridge.h tco_bridge_write_book()).
 *
 * One sheet, Bridge: OLD's TCO, one row per step (the input, its --set key, from, to, the delta and
 * the effect alone) and NEW's TCO, written as the values tco diff computed by evaluating the model;
 * the running TCO, the sum of the steps, NEW - OLD and two checks are live formulas over them.  The
 * waterfall chart is the classic construction (libxlsxwriter 1.1.4 has no waterfall type): stacked
 * columns of an invisible base (the lower of the TCO before and after the step), the increase, the
 * decrease and the totals, each a live formula over the table.  The figures are tco's, not live
 * formulas over inputs (DESIGN.md invariant 10): the sheet says so, names the fingerprints of the
 * two files and of the template, and its checks say "no" once a figure is edited.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "apps/bridge.h"
#include "render/workbook_kit.h"

#define BRIDGE_SHEET "Bridge"

/* Columns of the table, and of the chart's series. */
enum {
    B_INPUT, B_SET, B_FROM, B_TO, B_UNIT, B_DELTA, B_RUNNING, B_ALONE,
    B_BASE = B_ALONE + 2, B_UP, B_DOWN, B_TOTAL
};

typedef struct book_ctx {
    const tco_bridge *b;
} book_ctx;

/* "$C$5" style: column @p col, 0-based row @p row, into @p out. */
static const char *cell(int col, int row, char out[16])
{
    char letters[4];
    wb_col_letters(col, letters);
    snprintf(out, 16, "%s%d", letters, row + 1);
    return out;
}

/* Write the formula made of @p fmt with its cached number @p v. */
static void formula(writer *w, lxw_worksheet *ws, int row, int col, lxw_format *f, double v, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static void formula(writer *w, lxw_worksheet *ws, int row, int col, lxw_format *f, double v, const char *fmt, ...)
{
    tco_strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    tco_strbuf_vprintf(&b, fmt, ap);
    va_end(ap);
    if (b.failed && w->err == TCO_OK)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    else
        wb_write_formula(w, ws, row, col, tco_strbuf_str(&b), f, v);
    tco_strbuf_free(&b);
}

/* A step's from or to value: text as text, a number in a number format that shows it. */
static void write_value(writer *w, lxw_worksheet *ws, int row, int col, const char *text, double v)
{
    if (text)
        wb_write_text(w, ws, row, col, text, w->text_right);
    else
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)col, v,
                                           v == floor(v) ? w->fmt[TCO_FMT_COUNT] : w->fmt[TCO_FMT_NUMBER]),
                 "value");
}

/* A round number at or below @p v (a multiple of the power of ten below @p span): the value axis's
 * start, so that steps of a few per cent of the TCO show. */
static double axis_floor(double v, double span)
{
    if (!(span > 0) || !(v > 0))
        return 0;
    double unit = pow(10, floor(log10(span)));
    double lo = floor(v / unit) * unit;
    return lo > 0 ? lo : 0;
}

static void fill_bridge(writer *w, void *vctx)
{
    const tco_bridge *b = ((book_ctx *)vctx)->b;
    w->footer = b->scenario;
    lxw_worksheet *ws = wb_add_sheet(w, BRIDGE_SHEET, 0x4472C4, true);
    if (ws == NULL)
        return;
    lxw_format *money = w->fmt[TCO_FMT_MONEY], *total = w->fmt_total[TCO_FMT_MONEY];
    tco_strbuf t = {0};
    tco_strbuf_printf(&t, "Budget bridge: %s, ", b->scenario);
    tco_bridge_period(b, &t); /* each run's period when they differ (issue 23 §4) */
    tco_strbuf_printf(&t, " (%s)", b->currency);
    if (b->feasible[1] == 0 || b->feasible[0] == 0) /* never a plain saving: said in the title */
        tco_strbuf_printf(&t, "; %s NOT FEASIBLE (its checks fail): NEW - OLD is %s",
                          b->feasible[0] == 0 && b->feasible[1] == 0 ? "OLD and NEW are"
                          : b->feasible[1] == 0                      ? "NEW is"
                                                                     : "OLD is",
                          b->feasible[1] == 0 ? "no saving" : "no like-for-like change");
    wb_write_text(w, ws, ROW_TITLE, 0, tco_strbuf_str(&t), w->title);
    /* The two notes span the table's columns, wrapped: what the sheet is, and where it came from. */
    static const char what[] =
        "What this is: the change in TCO from one budget version to another, one input at a time, as tco diff "
        "computed it by evaluating the cost model. The deltas and the two TCOs are values tco computed, not live "
        "formulas: this workbook stands alone and holds no inputs, so editing a figure re-evaluates nothing (run "
        "tco diff again). The running TCO, the sums and the checks are live formulas over the figures; the checks "
        "say no once one is edited.";
    wb_check(w, worksheet_merge_range(ws, ROW_NOTE, 0, ROW_NOTE, B_ALONE, what, w->source), "note");
    worksheet_set_row(ws, ROW_NOTE, 48, NULL);
    t.len = 0;
    tco_strbuf_printf(&t, "From %s (fingerprint %016llx) to %s (fingerprint %016llx); template %s (fingerprint "
                      "%016llx); order: %s.", b->old_path, (unsigned long long)b->old_fingerprint, b->new_path,
                      (unsigned long long)b->new_fingerprint, b->template_file,
                      (unsigned long long)b->template_fingerprint,
                      b->order == TCO_BRIDGE_ORDER_FILE ? "as the inputs appear in the file" : "largest effect first");
    if (t.failed && w->err == TCO_OK)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    else {
        const char *note = wb_xl_text(w, tco_strbuf_str(&t)); /* escaped: a file name may hold "_xHHHH_" */
        if (note)
            wb_check(w, worksheet_merge_range(ws, ROW_NOTE + 1, 0, ROW_NOTE + 1, B_ALONE, note, w->source), "note");
    }
    worksheet_set_row(ws, ROW_NOTE + 1, 32, NULL);
    /* Unit: of From and To, as --set takes them (a money input of a run in another currency in CNY); the
     * deltas and TCOs are in the reporting currency, as the title says. */
    static const char *const heads[] = {"Step", "Set with --set", "From", "To", "Unit", "Delta", "Running TCO",
                                        "Effect alone", NULL, "Chart: base", "Increase", "Decrease", "Total"};
    for (int c = 0; c <= B_TOTAL; c++)
        if (heads[c])
            wb_write_text(w, ws, ROW_HEADER, c, heads[c],
                          c == B_INPUT || c == B_SET || c == B_UNIT ? w->header : w->header_right);

    /* Rows: OLD, the steps, NEW; the chart's series beside them. */
    int first = ROW_FIRST, new_row = ROW_FIRST + 1 + (int)b->n_steps;
    size_t n_rows = b->n_steps + 2;
    double *base = calloc(n_rows, sizeof *base), *up = calloc(n_rows, sizeof *up),
           *down = calloc(n_rows, sizeof *down), *tot = calloc(n_rows, sizeof *tot);
    if (base == NULL || up == NULL || down == NULL || tot == NULL) {
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        goto done;
    }
    char r1[16], r2[16], r3[16];
    for (size_t k = 0; k < n_rows && w->err == TCO_OK; k++) {
        int row = first + (int)k;
        bool end = k == 0 || k + 1 == n_rows;
        if (end) {
            t.len = 0;
            tco_strbuf_printf(&t, "%s: %s%s", k == 0 ? "OLD" : "NEW", k == 0 ? b->old_path : b->new_path,
                              b->feasible[k == 0 ? 0 : 1] == 0 ? " (not feasible: its checks fail)" : "");
            wb_write_text(w, ws, row, B_INPUT, tco_strbuf_str(&t), w->total_label);
            double v = k == 0 ? b->tco_from : b->tco_to;
            wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, B_RUNNING, v, total), "TCO");
            tot[k] = v;
            formula(w, ws, row, B_TOTAL, money, v, "=%s", cell(B_RUNNING, row, r1));
            for (int c = B_BASE; c < B_TOTAL; c++)
                wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)c, 0, money), "chart");
            continue;
        }
        const tco_bridge_step *s = &b->steps[k - 1];
        double before = k == 1 ? b->tco_from : b->steps[k - 2].tco;
        t.len = 0;
        tco_strbuf_printf(&t, "%zu. %s%s%s%s: %s%s", k, s->input, s->tier ? " [" : "", s->tier ? s->tier : "",
                          s->tier ? "]" : "", s->label, s->structural ? " (structural: moved last, by reloading)" : "");
        wb_write_text(w, ws, row, B_INPUT, tco_strbuf_str(&t), w->text);
        if (s->set)
            wb_write_text(w, ws, row, B_SET, s->set, w->text);
        write_value(w, ws, row, B_FROM, s->from_text, s->from);
        write_value(w, ws, row, B_TO, s->to_text, s->to);
        if (s->unit && s->unit[0])
            wb_write_text(w, ws, row, B_UNIT, s->unit, w->text);
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, B_DELTA, s->delta, money), "delta");
        formula(w, ws, row, B_RUNNING, money, s->tco, "=%s+%s", cell(B_RUNNING, row - 1, r1), cell(B_DELTA, row, r2));
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, B_ALONE, s->alone, money), "effect");
        base[k] = before < s->tco ? before : s->tco;
        up[k] = s->delta > 0 ? s->delta : 0;
        down[k] = s->delta < 0 ? -s->delta : 0;
        formula(w, ws, row, B_BASE, money, base[k], "=MIN(%s,%s)", cell(B_RUNNING, row - 1, r1),
                cell(B_RUNNING, row, r2));
        formula(w, ws, row, B_UP, money, up[k], "=MAX(%s,0)", cell(B_DELTA, row, r1));
        formula(w, ws, row, B_DOWN, money, down[k], "=MAX(-%s,0)", cell(B_DELTA, row, r1));
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, B_TOTAL, 0, money), "chart");
    }

    /* The sums and the checks. */
    double sum = 0;
    for (size_t k = 0; k < b->n_steps; k++)
        sum += b->steps[k].delta;
    /* A cent, or for a large TCO a part in 10^12 of it (a double's rounding of 2.4e14 CNY is 0.03). */
    double scale = fmax(fabs(b->tco_from), fabs(b->tco_to));
    for (size_t k = 0; k < b->n_steps; k++)
        scale = fmax(scale, fabs(b->steps[k].tco));
    double diff = b->tco_to - b->tco_from, tolerance = fmax(0.01, 1e-12 * scale);
    int row = new_row + 1, sum_row = row, diff_row = row + 1, tol_row = row + 2;
    wb_write_text(w, ws, sum_row, B_INPUT, "Sum of the steps", w->text);
    if (b->n_steps > 0)
        formula(w, ws, sum_row, B_DELTA, total, sum, "=SUM(%s:%s)", cell(B_DELTA, first + 1, r1),
                cell(B_DELTA, new_row - 1, r2));
    else
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)sum_row, B_DELTA, 0, total), "sum");
    wb_write_text(w, ws, diff_row, B_INPUT,
                  b->feasible[1] == 0   ? "NEW - OLD (no saving: NEW is not feasible)"
                  : b->feasible[0] == 0 ? "NEW - OLD (OLD is not feasible)"
                                        : "NEW - OLD",
                  w->text);
    formula(w, ws, diff_row, B_DELTA, total, diff, "=%s-%s", cell(B_RUNNING, new_row, r1), cell(B_RUNNING, first, r2));
    t.len = 0;
    tco_strbuf_printf(&t, "Tolerance of the checks (%s)", b->currency);
    wb_write_text(w, ws, tol_row, B_INPUT, tco_strbuf_str(&t), w->text);
    wb_check(w, worksheet_write_number(ws, (lxw_row_t)tol_row, B_DELTA, tolerance, w->fmt_input_money_cents),
             "tolerance");
    const char *stale = "no: a figure was edited after tco diff wrote it; run tco diff again";
    bool adds = fabs(sum - diff) <= tolerance;
    double last = b->n_steps ? b->steps[b->n_steps - 1].tco : b->tco_from;
    bool ends = fabs(last - b->tco_to) <= tolerance;
    wb_write_text(w, ws, tol_row + 1, B_INPUT, "Check: the steps add up to NEW - OLD", w->text);
    t.len = 0;
    tco_strbuf_printf(&t, "=IF(ABS(%s-%s)<=%s,\"yes\",\"%s\")", cell(B_DELTA, sum_row, r1), cell(B_DELTA, diff_row, r2),
                      cell(B_DELTA, tol_row, r3), stale);
    wb_write_formula_or_text(w, ws, tol_row + 1, B_DELTA, tco_strbuf_str(&t), w->text_right, 0, adds ? "yes" : stale);
    wb_write_text(w, ws, tol_row + 2, B_INPUT, "Check: the running TCO ends at NEW", w->text);
    t.len = 0;
    tco_strbuf_printf(&t, "=IF(ABS(%s-%s)<=%s,\"yes\",\"%s\")", cell(B_RUNNING, new_row - 1, r1),
                      cell(B_RUNNING, new_row, r2), cell(B_DELTA, tol_row, r3), stale);
    wb_write_formula_or_text(w, ws, tol_row + 2, B_DELTA, tco_strbuf_str(&t), w->text_right, 0, ends ? "yes" : stale);
    row = tol_row + 4;

    /* A side that is not feasible, and each of its failing checks. */
    for (int side = 0; side < 2 && w->err == TCO_OK; side++) {
        if (b->feasible[side] != 0)
            continue;
        t.len = 0;
        tco_strbuf_printf(&t, "%s (%s) is not feasible: %s", side ? "NEW" : "OLD", side ? b->new_path : b->old_path,
                          tco_bridge_infeasible_meaning(side));
        wb_write_text(w, ws, row++, B_INPUT, tco_strbuf_str(&t), w->header);
        for (size_t k = 0; k < b->n_reasons[side] && w->err == TCO_OK; k++, row++) {
            wb_write_text(w, ws, row, B_INPUT, b->reasons[side][k].check, w->text);
            wb_write_text(w, ws, row, B_SET, b->reasons[side][k].message, w->source_nowrap);
        }
        row++;
    }

    /* What no step moves. */
    wb_write_text(w, ws, row++, B_INPUT, b->n_other ? "Other differences (no step moves them)"
                                                    : "Other differences: none", w->header);
    for (size_t k = 0; k < b->n_other && w->err == TCO_OK; k++, row++) {
        t.len = 0;
        tco_strbuf_printf(&t, "%s%s%s", b->other[k].kind, b->other[k].input ? ": " : "",
                          b->other[k].input ? b->other[k].input : "");
        wb_write_text(w, ws, row, B_INPUT, tco_strbuf_str(&t), w->text);
        wb_write_text(w, ws, row, B_SET, b->other[k].message, w->source_nowrap);
    }
    row++;

    /* The waterfall: an invisible base under the increase, the decrease and the two totals. */
    lxw_chart *chart = workbook_add_chart(w->wb, LXW_CHART_COLUMN_STACKED);
    if (chart == NULL) {
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        goto done;
    }
    t.len = 0;
    tco_strbuf_printf(&t, "TCO from OLD to NEW, step by step (%s)", b->currency);
    chart_title_set_name(chart, tco_strbuf_str(&t));
    const double *series[] = {base, up, down, tot};
    static const lxw_color_t colours[] = {0, 0xC00000, 0x548235, 0x4472C4};
    double lo = b->tco_from, hi = b->tco_from;
    for (size_t k = 1; k < n_rows; k++) {
        double v = k + 1 == n_rows ? b->tco_to : b->steps[k - 1].tco;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    for (int s = 0; s < 4 && w->err == TCO_OK; s++) {
        lxw_chart_series *cs = chart_add_series(chart, NULL, NULL);
        if (cs == NULL) {
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
            break;
        }
        chart_series_set_categories(cs, BRIDGE_SHEET, (lxw_row_t)first, B_INPUT, (lxw_row_t)new_row, B_INPUT);
        chart_series_set_values(cs, BRIDGE_SHEET, (lxw_row_t)first, (lxw_col_t)(B_BASE + s), (lxw_row_t)new_row,
                                (lxw_col_t)(B_BASE + s));
        chart_series_set_name_range(cs, BRIDGE_SHEET, ROW_HEADER, (lxw_col_t)(B_BASE + s));
        wb_chart_cache(w, cs->values, series[s], NULL, n_rows);
        lxw_chart_fill fill = {.color = colours[s], .none = s == 0};
        lxw_chart_line line = {.none = LXW_TRUE};
        chart_series_set_fill(cs, &fill);
        chart_series_set_line(cs, &line);
    }
    chart_set_series_gap(chart, 60);
    int16_t hidden[] = {0, -1};
    wb_check(w, chart_legend_delete_series(chart, hidden), "chart legend");
    chart_axis_set_num_format(chart->y_axis, "#,##0");
    chart_axis_set_name(chart->y_axis, b->currency);
    double span = hi - lo;
    double axis = axis_floor(lo - span, span > 0 ? span : fabs(lo) / 10);
    if (axis > 0)
        chart_axis_set_min(chart->y_axis, axis);
    lxw_chart_options opt = {.x_scale = 2.0, .y_scale = 1.5};
    wb_check(w, worksheet_insert_chart_opt(ws, (lxw_row_t)row, 0, chart, &opt), "chart");
    /* Printed: the table and the chart (about 22 rows below it), not the chart's series beside them. */
    wb_check(w, worksheet_print_area(ws, 0, 0, (lxw_row_t)(row + 22), B_ALONE), "print area");

    worksheet_set_column(ws, B_INPUT, B_INPUT, 48, NULL);
    worksheet_set_column(ws, B_SET, B_SET, 28, NULL);
    worksheet_set_column(ws, B_FROM, B_TO, 12, NULL);
    worksheet_set_column(ws, B_UNIT, B_UNIT, 12, NULL);
    worksheet_set_column(ws, B_DELTA, B_ALONE, 15, NULL);
    worksheet_set_column(ws, B_ALONE + 1, B_ALONE + 1, 3, NULL);
    worksheet_set_column(ws, B_BASE, B_TOTAL, 13, NULL);
done:
    tco_strbuf_free(&w->text_buf); /* the writer's scratch for escaped text (as compare.c's fill frees it) */
    tco_strbuf_free(&t);
    free(base);
    free(up);
    free(down);
    free(tot);
}

tco_error tco_bridge_write_book(const tco_bridge *b, const char *path, const tco_workbook_options *opts,
                                tco_diag *diag)
{
    book_ctx c = {b};
    tco_strbuf title = {0}, comments = {0};
    tco_strbuf_printf(&title, "Budget bridge: %s", b->scenario);
    tco_strbuf_printf(&comments, "Written by tco diff from %s (fingerprint %016llx) and %s (fingerprint %016llx); a "
                      "standalone workbook of figures tco computed", b->old_path,
                      (unsigned long long)b->old_fingerprint, b->new_path, (unsigned long long)b->new_fingerprint);
    tco_error e = title.failed || comments.failed
                      ? tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory")
                      : wb_write_book(path, opts, tco_strbuf_str(&title), "TCO budget bridge",
                                      tco_strbuf_str(&comments), fill_bridge, &c, diag);
    tco_strbuf_free(&title);
    tco_strbuf_free(&comments);
    return e;
}
