/* risk_sheets.c - the Sensitivity and Risk sheets of a --sensitivity / --monte-carlo run, and the
 * Run snapshot sheet whose live check says when an edited input has made them stale (invariant 10;
 * risk.h, docs/uncertainty.md).
 *
 * The figures on Sensitivity and Risk are tco's (values, not formulas: each is a whole evaluation
 * of the model with other inputs); the cells derived from them on the sheet (swing, change from the
 * point value, contingency) are formulas over those values.  Run snapshot lists every input as it
 * was in the run beside a live reference to the input's cell; the check at its top counts the
 * inputs that differ and says "stale: run tco again" once one does; it is hidden (a data sheet, not
 * printed: unhide it to read it). */
#include "apps/risk_sheets.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/report.h"

#define SNAPSHOT_SHEET "Run snapshot"
/* The Risk sheet's Figure column (a label wraps in it): with the other columns 162 characters, one A4
 * landscape page wide at RISK_PRINT_SCALE % with the charts beside the tables from column H: the columns
 * A to G are 763 pixels (809 in LibreOffice, PRINT_LO_WIDER) and a chart 576 (611), within the 1,471 of a
 * page at 73%.  Each figure's basis is a row of its own below the table, across it. */
#define RISK_FIGURE_WIDTH 20
#define RISK_PRINT_SCALE PRINT_MIN_SCALE
/* The check cell on Run snapshot (B3), as formulas elsewhere refer to it. */
#define SNAPSHOT_CHECK "='Run snapshot'!$B$3"
#define STATUS_CURRENT "current: the inputs are those these figures came from"
#define STATUS_STALE "stale: run tco again"
/* A number of the run against its live cell: "In the run" is a constant, which the file holds to 16
 * significant digits (libxlsxwriter's %.16G), so a value such as 200000/7.1 reads back up to half a unit
 * in the 16th digit away from the cell that computes it; Gnumeric's = is exact.  Equal within 1E-14 of
 * the value (20 times that rounding), exactly for 0. */
#define SNAPSHOT_DIFFERS "=IF(ABS(C%d - B%d) <= 1E-14 * ABS(B%d), 0, 1)"
/* Rows of the tornado chart and points of the S-curve, bins of the histogram. */
enum { TORNADO_ROWS = 15, CURVE_POINTS = 101, HISTOGRAM_BINS = 20 };

static void nomem(writer *w)
{
    if (w->err == TCO_OK)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
}

static void write_number(writer *w, lxw_worksheet *ws, int row, int col, double v, lxw_format *f)
{
    if (w->err != TCO_OK)
        return;
    if (isnan(v))
        wb_write_text(w, ws, row, col, "n.a.", w->text_right);
    else
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)col, v, f), "number");
}

/* A formula over cells of this sheet, with its cached value; "n.a." text when @p v is NaN. */
static void write_formula(writer *w, lxw_worksheet *ws, int row, int col, const char *formula, lxw_format *f, double v)
{
    wb_write_formula_or_text(w, ws, row, col, formula, f, isnan(v) ? 0 : v, isnan(v) ? "n.a." : NULL);
}

/* Title, note and the check line (row 3: "Check" and a reference to Run snapshot's check). */
static void write_head(writer *w, lxw_worksheet *ws, const char *title, const char *note)
{
    wb_write_text(w, ws, ROW_TITLE, 0, title, w->title);
    wb_write_text(w, ws, ROW_NOTE, 0, note, w->note);
    wb_write_text(w, ws, 2, 0, "Check", w->header);
    wb_write_formula_or_text(w, ws, 2, 1, SNAPSHOT_CHECK, w->text, 0, STATUS_CURRENT);
}

/* The Run snapshot sheet: every input of the model as the run had it, the live cell beside it, and
 * whether they differ (1) or not (0); B3 says current or stale. */
static void write_snapshot(writer *w, lxw_worksheet *ws, const tco_risk *r)
{
    const tco_model *m = w->m;
    wb_write_text(w, ws, ROW_TITLE, 0, "The inputs the Sensitivity and Risk figures came from", w->title);
    tco_strbuf note = {0};
    tco_strbuf_printf(&note,
                      "Fingerprint %s. Each input as tco read it for the run, then its live cell: once any differs, "
                      "the check says '" STATUS_STALE "' (the figures on Sensitivity and Risk are values from "
                      "that run, not formulas).",
                      r->fingerprint);
    wb_write_text(w, ws, ROW_NOTE, 0, tco_strbuf_str(&note), w->note);
    tco_strbuf_free(&note);
    wb_write_text(w, ws, 2, 0, "Check", w->header);
    wb_write_text(w, ws, ROW_HEADER, 0, "Input", w->header);
    wb_write_text(w, ws, ROW_HEADER, 1, "In the run", w->header_right);
    wb_write_text(w, ws, ROW_HEADER, 2, "Now", w->header_right);
    wb_write_text(w, ws, ROW_HEADER, 3, "Differs", w->header_right);
    int row = ROW_FIRST;
    tco_strbuf f = {0};
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind != TCO_ITEM_INPUT && it->kind != TCO_ITEM_TIER_INPUT)
            continue;
        int rows = it->kind == TCO_ITEM_INPUT ? 1 : m->n_tiers;
        for (int k = 0; k < rows && w->err == TCO_OK; k++, row++) {
            const char *text = it->kind == TCO_ITEM_INPUT ? it->text : it->tier_texts ? it->tier_texts[k] : NULL;
            double v = it->kind == TCO_ITEM_INPUT ? it->value : it->tiers[k];
            f.len = 0;
            if (it->kind == TCO_ITEM_INPUT) {
                wb_write_text(w, ws, row, 0, it->name, w->text);
                tco_strbuf_printf(&f, "=%s", it->name);
            } else {
                tco_strbuf_printf(&f, "%s[%s]", it->name, m->tier_names[k]);
                wb_write_text(w, ws, row, 0, tco_strbuf_str(&f), w->text);
                f.len = 0;
                /* A tier row has no name of its own: its cell in the tier table. */
                const placement *pl = &w->place[i];
                char col[4];
                wb_col_letters(pl->col, col);
                tco_strbuf_printf(&f, "='%s'!$%s$%d", pl->sheet < 0 ? "Inputs" : m->sheets[pl->sheet].name, col,
                                  pl->row + k + 1);
            }
            lxw_format *fmt = text ? w->text : wb_value_format(w, it, v, false);
            if (text) {
                wb_write_text(w, ws, row, 1, text, w->text);
                wb_write_formula_or_text(w, ws, row, 2, tco_strbuf_str(&f), w->text, 0, text);
            } else {
                write_number(w, ws, row, 1, v, fmt);
                wb_write_formula(w, ws, row, 2, tco_strbuf_str(&f), fmt, v);
            }
            f.len = 0;
            if (text)
                tco_strbuf_printf(&f, "=IF(EXACT(C%d, B%d), 0, 1)", row + 1, row + 1);
            else
                tco_strbuf_printf(&f, SNAPSHOT_DIFFERS, row + 1, row + 1, row + 1);
            wb_write_formula(w, ws, row, 3, tco_strbuf_str(&f), w->fmt[TCO_FMT_COUNT], 0);
        }
        /* The ranges the draws and ends came from: a scalar input's Low and High cells on Inputs, each
         * ranged tier row's in the tier table's Low and High columns. */
        for (int k = 0; k < rows && w->err == TCO_OK; k++) {
            const tco_range *rg = it->kind == TCO_ITEM_INPUT ? &it->range : it->tier_ranges ? &it->tier_ranges[k] : NULL;
            const placement *pl = &w->place[i];
            if (rg == NULL || rg->dist == TCO_DIST_NONE || (it->kind == TCO_ITEM_TIER_INPUT && pl->range_col == 0))
                continue;
            for (int end = 0; end < 2; end++, row++) {
                double v = end == 0 ? rg->low : rg->high;
                char col[4];
                wb_col_letters(it->kind == TCO_ITEM_INPUT ? (end == 0 ? COL_INPUT_LOW : COL_INPUT_HIGH)
                                                          : pl->range_col + end,
                               col);
                f.len = 0;
                if (it->kind == TCO_ITEM_INPUT)
                    tco_strbuf_printf(&f, "%s (%s)", it->name, end == 0 ? "Low" : "High");
                else
                    tco_strbuf_printf(&f, "%s[%s] (%s)", it->name, m->tier_names[k], end == 0 ? "Low" : "High");
                wb_write_text(w, ws, row, 0, tco_strbuf_str(&f), w->text);
                lxw_format *fmt = wb_value_format(w, it, v, false);
                write_number(w, ws, row, 1, v, fmt);
                f.len = 0;
                tco_strbuf_printf(&f, "='Inputs'!$%s$%d", col, pl->row + (it->kind == TCO_ITEM_INPUT ? 0 : k) + 1);
                wb_write_formula(w, ws, row, 2, tco_strbuf_str(&f), fmt, v);
                f.len = 0;
                tco_strbuf_printf(&f, SNAPSHOT_DIFFERS, row + 1, row + 1, row + 1);
                wb_write_formula(w, ws, row, 3, tco_strbuf_str(&f), w->fmt[TCO_FMT_COUNT], 0);
            }
        }
    }
    f.len = 0;
    tco_strbuf_printf(&f, "=IF(SUM(D%d:D%d) = 0, \"" STATUS_CURRENT "\", \"" STATUS_STALE "\")", ROW_FIRST + 1,
                      row > ROW_FIRST ? row : ROW_FIRST + 1);
    if (f.failed)
        nomem(w);
    else
        wb_write_formula_or_text(w, ws, 2, 1, tco_strbuf_str(&f), w->text, 0, STATUS_CURRENT);
    tco_strbuf_free(&f);
    worksheet_set_column(ws, 0, 0, 36, NULL);
    worksheet_set_column(ws, 1, 2, 18, NULL);
    worksheet_set_column(ws, 3, 3, 9, NULL);
    worksheet_freeze_panes(ws, ROW_FIRST, 1);
    /* A data sheet for the stale check, read on screen: hidden, so that it does not print (every input and
     * range, 9 or 10 pages, the last one blank) in the pack; Sensitivity and Risk show its check in B3. */
    worksheet_hide(ws);
}

static lxw_chart_series *add_series(writer *w, lxw_chart *chart)
{
    lxw_chart_series *s = chart ? chart_add_series(chart, NULL, NULL) : NULL;
    if (s == NULL)
        nomem(w);
    return s;
}

/* The Sensitivity sheet: two tables below each other in columns A to SENS_LAST_COL, one page wide at
 * PRINT_WIDE_SCALE (A 30, B 28 and eight of 15 characters: 1,296 pixels, 1,374 as LibreOffice lays them out,
 * of the page's 1,432): the TCO table (Input, --set, LOW, Point, HIGH, TCO at LOW and HIGH, Swing, Change at
 * LOW and HIGH) with the tornado chart below it, then on a page of its own the table of the other figures at
 * each end (Input, NPV cost, unit cost, its swing, both orders, payback). */
#define SENS_LAST_COL 9
enum { SENS_TCO, SENS_OTHER };

/* Rows laid out on pages as they are written: each page's height at PRINT_WIDE_SCALE, what the current one
 * holds so far, and the rows that start a page. */
typedef struct {
    double cap, used;
    lxw_row_t breaks[64];
    size_t n;
} sens_pages;

/* A page break before row @p y (the page then holds nothing). */
static void sens_break(sens_pages *p, lxw_row_t y)
{
    if (p->n + 1 < sizeof p->breaks / sizeof p->breaks[0])
        p->breaks[p->n++] = y;
    p->used = 0;
}

/* Header row @p y of table @p table (SENS_TCO, SENS_OTHER), as tall as its longest wrapped header. */
static void sens_header(writer *w, lxw_worksheet *ws, int y, int table, const char *unit)
{
    static const char *const tco_heads[] = {"Input", "--set", "LOW", "Point", "HIGH", "TCO at LOW", "TCO at HIGH",
                                            "Swing", "Change at LOW", "Change at HIGH"};
    if (table == SENS_TCO) {
        for (int c = 0; c <= SENS_LAST_COL; c++)
            wb_write_text(w, ws, y, c, tco_heads[c], c < 2 ? w->header : w->header_right);
        return;
    }
    tco_strbuf h[SENS_LAST_COL + 1] = {{0}};
    tco_strbuf_append(&h[0], "Input");
    tco_strbuf_append(&h[1], "NPV cost at LOW");
    tco_strbuf_append(&h[2], "NPV cost at HIGH");
    tco_strbuf_printf(&h[3], "%s at LOW", unit);
    tco_strbuf_printf(&h[4], "%s at HIGH", unit);
    tco_strbuf_printf(&h[5], "%s: swing", unit);
    tco_strbuf_append(&h[6], "Order by TCO swing");
    tco_strbuf_printf(&h[7], "Order by %s swing", unit);
    tco_strbuf_append(&h[8], "Payback at LOW (months)");
    tco_strbuf_append(&h[9], "Payback at HIGH (months)");
    size_t lines = 1;
    for (int c = 0; c <= SENS_LAST_COL; c++) {
        wb_write_text(w, ws, y, c, tco_strbuf_str(&h[c]), c == 0 ? w->header : w->header_wrap);
        size_t n = c == 0 ? 1 : wb_header_lines(tco_strbuf_str(&h[c]), c == 1 ? 28 : 15);
        lines = n > lines ? n : lines;
        tco_strbuf_free(&h[c]);
    }
    wb_set_row_lines(w, ws, y, lines);
}

/* The rows of table @p table: row j's sheet row (0-based) in @p at, from @p y on.  A page that is full
 * breaks before the next row, which the table's header row starts again (each page with its headers). */
static int sens_rows(writer *w, lxw_worksheet *ws, sens_pages *p, int y, int table, const char *unit, size_t n,
                     int *at)
{
    for (size_t j = 0; j < n; j++) {
        double h = wb_rows_px(ws, (lxw_row_t)y, (lxw_row_t)y);
        if (p->used + h > p->cap && p->used > 0) {
            sens_break(p, (lxw_row_t)y);
            sens_header(w, ws, y, table, unit);
            p->used = wb_rows_px(ws, (lxw_row_t)y, (lxw_row_t)y);
            y++;
        }
        at[j] = y++;
        p->used += h;
    }
    return y;
}

static void write_sensitivity(writer *w, lxw_worksheet *ws, const tco_risk *r)
{
    const char *unit = r->unit_item ? r->unit_item->label : "unit cost";
    char base[40];
    tco_format_grouped(r->base_tco, 0, base, sizeof base);
    tco_strbuf note = {0};
    tco_strbuf_printf(&note,
                      "Each ranged input (KEY_range) alone at its LOW and at its HIGH, every other input at its value: "
                      "the model evaluated by tco for each (values, not formulas; --set SET=LOW reproduces a LOW "
                      "column). TCO at the point values: %s %s. Sorted by the TCO's swing; below the chart, the same "
                      "rows' NPV cost, the unit cost's swing and the order by it (an input that moves no TCO, a "
                      "utilisation, can move every unit cost), and the payback of owning over renting at each end "
                      "(payback_months: a cloud price moves it, not the TCO). Inputs fingerprint %s (Run snapshot).",
                      base, w->opts->currency, r->fingerprint);
    worksheet_set_column(ws, 0, 0, 30, NULL);
    worksheet_set_column(ws, 1, 1, 28, NULL);
    worksheet_set_column(ws, 2, SENS_LAST_COL, 15, NULL);
    write_head(w, ws, "Sensitivity: which assumptions move the TCO most", tco_strbuf_str(&note));
    wb_write_across(w, ws, ROW_NOTE, 0, SENS_LAST_COL, tco_strbuf_str(&note), w->note_wrap);
    tco_strbuf_free(&note);
    /* F3: the TCO at the point values, which the change columns subtract. */
    wb_write_text(w, ws, 2, 4, "TCO at the point values", w->header_right);
    lxw_format *money = w->fmt[TCO_FMT_MONEY];
    write_number(w, ws, 2, 5, r->base_tco, money);
    sens_header(w, ws, ROW_HEADER, SENS_TCO, unit);
    worksheet_freeze_panes(ws, ROW_FIRST, 1);
    sens_pages pages = {.cap = PRINT_HEIGHT_PX * 100 / PRINT_WIDE_SCALE * 0.97};
    pages.used = wb_rows_px(ws, 0, ROW_HEADER);
    size_t n = r->n_rows;
    int *at = malloc((2 * n + 1) * sizeof *at), *at2 = at ? at + n : NULL;
    if (at == NULL) {
        nomem(w);
        return;
    }
    int y = sens_rows(w, ws, &pages, ROW_FIRST, SENS_TCO, unit, n, at);
    int first1 = n > 0 ? at[0] + 1 : ROW_FIRST + 1, last1 = n > 0 ? at[n - 1] + 1 : ROW_FIRST; /* 1-based */
    tco_strbuf f = {0};
    for (size_t j = 0; j < n && w->err == TCO_OK; j++) {
        const tco_sensitivity_row *row = &r->rows[j];
        int yj = at[j], ex = yj + 1;
        wb_write_text(w, ws, yj, 0, row->input, w->text);
        wb_write_text(w, ws, yj, 1, row->set, w->text);
        write_number(w, ws, yj, 2, row->low, w->fmt[TCO_FMT_NUMBER]);
        write_number(w, ws, yj, 3, row->point, w->fmt[TCO_FMT_NUMBER]);
        write_number(w, ws, yj, 4, row->high, w->fmt[TCO_FMT_NUMBER]);
        write_number(w, ws, yj, 5, row->tco_low, money);
        write_number(w, ws, yj, 6, row->tco_high, money);
        f.len = 0;
        tco_strbuf_printf(&f, "=ABS(G%d - F%d)", ex, ex);
        write_formula(w, ws, yj, 7, tco_strbuf_str(&f), money, fabs(row->tco_high - row->tco_low));
        f.len = 0;
        tco_strbuf_printf(&f, "=F%d - $F$3", ex);
        write_formula(w, ws, yj, 8, tco_strbuf_str(&f), money, row->tco_low - r->base_tco);
        f.len = 0;
        tco_strbuf_printf(&f, "=G%d - $F$3", ex);
        write_formula(w, ws, yj, 9, tco_strbuf_str(&f), money, row->tco_high - r->base_tco);
    }
    /* The tornado two rows below the TCO table: the change in TCO at LOW and at HIGH, the largest swing on
     * top; on the table's last page when it fits there, else on the next, a row below its top (LibreOffice
     * drew the top of a chart anchored at a page's first row on the page before). */
    lxw_chart_options opt = {.x_scale = 1.6, .y_scale = 1.4};
    const double chart_px = 288 * opt.y_scale, row_px = LXW_DEF_ROW_HEIGHT * 4 / 3;
    int chart_at = -1;
    if (n > 0) {
        chart_at = y + 2;
        if (pages.used + 2 * row_px + chart_px > pages.cap) {
            sens_break(&pages, (lxw_row_t)(y + 1));
            pages.used = row_px;
        } else
            pages.used += 2 * row_px;
        pages.used += chart_px;
        y = chart_at + (int)ceil(chart_px / row_px) + 1;
    }
    /* The other figures' table on a page of its own unless it fits below what this one holds. */
    y++;
    sens_header(w, ws, y, SENS_OTHER, unit);
    double table2 = wb_rows_px(ws, (lxw_row_t)y, (lxw_row_t)y) + (double)n * row_px;
    if (pages.used + row_px + table2 > pages.cap)
        sens_break(&pages, (lxw_row_t)y);
    else
        pages.used += row_px;
    pages.used += wb_rows_px(ws, (lxw_row_t)y, (lxw_row_t)y);
    sens_rows(w, ws, &pages, y + 1, SENS_OTHER, unit, n, at2);
    int first2 = n > 0 ? at2[0] + 1 : y + 2, last2 = n > 0 ? at2[n - 1] + 1 : y + 1;
    lxw_format *unit_fmt = r->unit_item ? w->fmt[r->unit_item->format] : w->fmt[TCO_FMT_NUMBER];
    for (size_t j = 0; j < n && w->err == TCO_OK; j++) {
        const tco_sensitivity_row *row = &r->rows[j];
        int yj = at2[j], ex = yj + 1;
        wb_write_text(w, ws, yj, 0, row->input, w->text);
        write_number(w, ws, yj, 1, row->npv_low, money);
        write_number(w, ws, yj, 2, row->npv_high, money);
        write_number(w, ws, yj, 3, row->unit_low, unit_fmt);
        write_number(w, ws, yj, 4, row->unit_high, unit_fmt);
        f.len = 0;
        tco_strbuf_printf(&f, "=IF(AND(ISNUMBER(D%d), ISNUMBER(E%d)), ABS(E%d - D%d), \"n.a.\")", ex, ex, ex, ex);
        write_formula(w, ws, yj, 5, tco_strbuf_str(&f), unit_fmt, row->unit_swing);
        /* Both orders, live: the rank of the row's swing among all (RANK, largest first), ties in row order; the
         * TCO's swing in the table above (a header row that starts a page again is text, which RANK and COUNTIF
         * pass over, as they pass over an "n.a."). */
        for (int k = 0; k < 2; k++) {
            const char *col = k == 0 ? "H" : "F";
            int top = k == 0 ? first1 : first2, bottom = k == 0 ? last1 : last2, cell = k == 0 ? at[j] + 1 : ex;
            f.len = 0;
            tco_strbuf_printf(&f, "=IF(ISNUMBER(%s%d), RANK(%s%d, %s$%d:%s$%d)", col, cell, col, cell, col, top, col,
                              bottom);
            if (j > 0)
                tco_strbuf_printf(&f, " + COUNTIF(%s$%d:%s%d, %s%d)", col, top, col, cell - 1, col, cell);
            tco_strbuf_append(&f, ", \"n.a.\")");
            double rank = k == 0 ? (double)(j + 1) : row->unit_rank ? (double)row->unit_rank : NAN;
            write_formula(w, ws, yj, 6 + k, tco_strbuf_str(&f), w->fmt[TCO_FMT_COUNT], rank);
        }
        write_number(w, ws, yj, 8, row->payback_low, w->fmt[TCO_FMT_NUMBER]);
        write_number(w, ws, yj, 9, row->payback_high, w->fmt[TCO_FMT_NUMBER]);
    }
    tco_strbuf_free(&f);
    /* Print: one page wide, each table's rows filling its pages, no print titles (each page of a table starts
     * with its own header row). */
    pages.breaks[pages.n] = 0;
    if (pages.n > 0)
        wb_check(w, worksheet_set_h_pagebreaks(ws, pages.breaks), "page break");
    worksheet_set_print_scale(ws, PRINT_WIDE_SCALE);
    ws->repeat_rows.in_use = 0; /* wb_add_sheet() repeats ROW_HEADER */
    if (n == 0 || w->err != TCO_OK) {
        free(at);
        return;
    }
    /* The chart's rows: the first TORNADO_ROWS, on the table's first page (a page holds some 40). */
    size_t k = n < TORNADO_ROWS ? n : TORNADO_ROWS;
    while (k > 1 && at[k - 1] != at[0] + (int)k - 1)
        k--;
    lxw_row_t first = (lxw_row_t)at[0], last = (lxw_row_t)at[k - 1];
    free(at);
    lxw_chart *chart = workbook_add_chart(w->wb, LXW_CHART_BAR);
    lxw_chart_series *lo = add_series(w, chart), *hi = add_series(w, chart);
    if (lo == NULL || hi == NULL)
        return;
    double *dl = malloc(k * sizeof *dl), *dh = malloc(k * sizeof *dh);
    if (dl == NULL || dh == NULL) {
        free(dl);
        free(dh);
        nomem(w);
        return;
    }
    for (size_t j = 0; j < k; j++) {
        dl[j] = r->rows[j].tco_low - r->base_tco;
        dh[j] = r->rows[j].tco_high - r->base_tco;
    }
    chart_series_set_categories(lo, "Sensitivity", first, 0, last, 0);
    chart_series_set_values(lo, "Sensitivity", first, 8, last, 8);
    chart_series_set_name_range(lo, "Sensitivity", ROW_HEADER, 8);
    chart_series_set_categories(hi, "Sensitivity", first, 0, last, 0);
    chart_series_set_values(hi, "Sensitivity", first, 9, last, 9);
    chart_series_set_name_range(hi, "Sensitivity", ROW_HEADER, 9);
    wb_chart_cache(w, lo->values, dl, NULL, k);
    wb_chart_cache(w, hi->values, dh, NULL, k);
    free(dl);
    free(dh);
    chart_set_series_overlap(chart, 100);
    chart_set_series_gap(chart, 40);
    chart_title_set_name(chart, "Change in TCO with each input alone at LOW and HIGH");
    chart_axis_set_reverse(chart->y_axis); /* a bar chart's category axis: the first row on top */
    chart_axis_set_label_position(chart->y_axis, LXW_CHART_AXIS_LABEL_POSITION_LOW); /* names left of the bars */
    chart_axis_set_num_format(chart->x_axis, "#,##0");
    chart_axis_set_name(chart->x_axis, w->opts->currency);
    chart_legend_set_position(chart, LXW_CHART_LEGEND_BOTTOM);
    wb_check(w, worksheet_insert_chart_opt(ws, (lxw_row_t)chart_at, 0, chart, &opt), "chart");
}

/* One row of the percentile table: a figure's statistics over the draws. */
static void write_figure_row(writer *w, lxw_worksheet *ws, int y, const char *name, const char *unit,
                             const tco_risk_figure *fig, lxw_format *fmt, double point)
{
    const tco_stats *s = &fig->stats;
    wb_write_text(w, ws, y, 0, name, w->text_wrap);
    wb_write_text(w, ws, y, 1, unit, w->text);
    /* The figure at the values as given (the P50 is the draws' median, not it), and what the figure is. */
    if (isnan(point))
        wb_write_text(w, ws, y, 11, "n.a.", w->text_right);
    else
        write_number(w, ws, y, 11, point, fmt);
    wb_set_row_lines(w, ws, y, wb_text_lines(name, RISK_FIGURE_WIDTH));
    if (s->n == 0) {
        wb_write_text(w, ws, y, 2, "not applicable in any draw", w->text);
        return;
    }
    const double v[] = {s->p10, s->p50, s->p80, s->p90, s->mean, s->stdev};
    for (int c = 0; c < 6; c++)
        write_number(w, ws, y, 2 + c, v[c], fmt);
    char f[32];
    snprintf(f, sizeof f, "=E%d - D%d", y + 1, y + 1);
    write_formula(w, ws, y, 8, f, fmt, s->p80 - s->p50);
    write_number(w, ws, y, 9, (double)s->n, w->fmt[TCO_FMT_COUNT]);
    write_number(w, ws, y, 10, (double)fig->na, w->fmt[TCO_FMT_COUNT]);
}

/* The histogram's bins: HISTOGRAM_BINS equal ones from @p lo to @p hi (the least and greatest draw).  Where
 * hi - lo overflows (draws of both signs near the largest double) the same in halves, which cannot. */
static int histogram_bin(double x, double lo, double hi)
{
    double width = (hi - lo) / HISTOGRAM_BINS;
    if (isfinite(width))
        return width > 0 ? (int)((x - lo) / width) : 0;
    return (int)((x / 2 - lo / 2) / (hi / 2 - lo / 2) * HISTOGRAM_BINS);
}

/* The lower edge of bin @p b (HISTOGRAM_BINS: @p hi itself). */
static double histogram_edge(int b, double lo, double hi)
{
    double width = (hi - lo) / HISTOGRAM_BINS;
    if (b == HISTOGRAM_BINS)
        return hi;
    if (isfinite(width))
        return lo + b * width;
    double t = (double)b / HISTOGRAM_BINS;
    return lo * (1 - t) + hi * t;
}

static void write_risk(writer *w, lxw_worksheet *ws, const tco_risk *r)
{
    tco_strbuf note = {0};
    tco_strbuf_printf(&note,
                      "Probability that the cost is not exceeded, from %zu draws of the %zu ranged inputs (Latin "
                      "hypercube in blocks of %d, seed %llu; inputs drawn independently, no correlation): each draw "
                      "the model evaluated by tco (values, not formulas). A range is read as a 90%% interval. "
                      "P50 is the draws' median, not the point value (the figure at the inputs as given). "
                      "Inputs fingerprint %s (Run snapshot).",
                      r->draws, r->inputs_drawn, TCO_LHS_BLOCK, (unsigned long long)r->seed, r->fingerprint);
    write_head(w, ws, "Risk: the budget not exceeded with 80% confidence", tco_strbuf_str(&note));
    static const char *const heads[] = {"Figure", "Unit", "P10", "P50", "P80", "P90", "Mean", "Std deviation",
                                        "Contingency P80 - P50", "Draws", "n.a. draws", "Point value"};
    /* Columns: Figure, Unit (the S-curve's TCO below it), P10 to the contingency, Draws and n.a. draws, Point
     * value. */
    static const double widths[] = {RISK_FIGURE_WIDTH, 14, 14, 14, 14, 14, 14, 14, 14, 8, 8, 14};
    const int last_col = (int)(sizeof widths / sizeof widths[0]) - 1;
    size_t head_lines = 1;
    for (int c = 0; c < (int)(sizeof heads / sizeof heads[0]); c++) {
        worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, widths[c], NULL);
        wb_write_text(w, ws, ROW_HEADER, c, heads[c], c < 2 ? w->header_wrap_left : w->header_wrap);
        size_t n = wb_header_lines(heads[c], widths[c]);
        head_lines = n > head_lines ? n : head_lines;
    }
    wb_set_row_lines(w, ws, ROW_HEADER, head_lines);
    wb_write_across(w, ws, ROW_NOTE, 0, last_col, tco_strbuf_str(&note), w->note_wrap);
    tco_strbuf_free(&note);
    lxw_format *money = w->fmt[TCO_FMT_MONEY];
    /* Each figure named as the Summary names it (label and unit), with its point value; below the table its
     * basis, a row each across the table ("Total cost of ownership ... (tco): capex + opex ..."). */
    const tco_item *items[] = {r->tco_item, r->npv_item, r->unit_item};
    const tco_risk_figure *figs[] = {&r->tco, &r->npv, &r->unit};
    const double points[] = {r->base_tco, r->base_npv, r->base_unit};
    const char *fallback[] = {"TCO", "Net present cost", NULL};
    for (int k = 0; k < 3 && w->err == TCO_OK; k++) {
        const tco_item *it = items[k];
        if (it == NULL && fallback[k] == NULL)
            continue;
        tco_strbuf basis = {0};
        if (it)
            tco_strbuf_printf(&basis, "%s (%s): %s", it->label, it->name, it->source ? it->source : "");
        if (k == 2 && r->rank_item && r->rank_item != it)
            tco_strbuf_printf(&basis, "; tco advise ranks options by %s (%s)", r->rank_item->label,
                              r->rank_item->name);
        write_figure_row(w, ws, ROW_FIRST + k, it ? it->label : fallback[k],
                         k == 2 && it->unit ? it->unit : w->opts->currency, figs[k], k < 2 ? money : w->fmt[it->format],
                         points[k]);
        if (basis.len)
            wb_write_across(w, ws, ROW_FIRST + 3 + k, 0, last_col, tco_strbuf_str(&basis), w->source);
        tco_strbuf_free(&basis);
    }
    if (r->tco.stats.n == 0 || w->err != TCO_OK)
        return;
    /* The S-curve: the TCO at each probability 0%, 1%, ..., 100% (the draws' percentiles). */
    const int curve_head = ROW_FIRST + 7, curve = curve_head + 1;
    wb_write_text(w, ws, curve_head, 0, "Probability not exceeded", w->header_wrap_left);
    wb_set_row_lines(w, ws, curve_head, wb_header_lines("Probability not exceeded", RISK_FIGURE_WIDTH));
    wb_write_text(w, ws, curve_head, 1, "TCO", w->header_right);
    double px[CURVE_POINTS], py[CURVE_POINTS];
    for (int k = 0; k < CURVE_POINTS; k++) {
        py[k] = k / (double)(CURVE_POINTS - 1);
        px[k] = tco_percentile_sorted(r->tco.sorted, r->tco.stats.n, py[k]);
        write_number(w, ws, curve + k, 0, py[k], w->fmt[TCO_FMT_PERCENT]);
        write_number(w, ws, curve + k, 1, px[k], money);
    }
    /* The histogram: the draws' TCO in equal bins from the least to the greatest. */
    const int hist_head = curve_head, hist = curve;
    wb_write_text(w, ws, hist_head, 3, "TCO from", w->header_right);
    wb_write_text(w, ws, hist_head, 4, "TCO to", w->header_right);
    wb_write_text(w, ws, hist_head, 5, "Draws", w->header_right);
    double lo = r->tco.stats.min, hi = r->tco.stats.max, counts[HISTOGRAM_BINS] = {0};
    for (size_t i = 0; i < r->tco.stats.n; i++) {
        int b = histogram_bin(r->tco.sorted[i], lo, hi);
        counts[b < 0 ? 0 : b >= HISTOGRAM_BINS ? HISTOGRAM_BINS - 1 : b]++;
    }
    for (int b = 0; b < HISTOGRAM_BINS; b++) {
        write_number(w, ws, hist + b, 3, histogram_edge(b, lo, hi), money);
        write_number(w, ws, hist + b, 4, histogram_edge(b + 1, lo, hi), money);
        write_number(w, ws, hist + b, 5, counts[b], w->fmt[TCO_FMT_COUNT]);
    }
    lxw_chart *s_curve = workbook_add_chart(w->wb, LXW_CHART_SCATTER_STRAIGHT);
    lxw_chart_series *s = add_series(w, s_curve);
    if (s == NULL)
        return;
    chart_series_set_categories(s, "Risk", (lxw_row_t)curve, 1, (lxw_row_t)(curve + CURVE_POINTS - 1), 1);
    chart_series_set_values(s, "Risk", (lxw_row_t)curve, 0, (lxw_row_t)(curve + CURVE_POINTS - 1), 0);
    chart_series_set_name(s, "Probability that the TCO is not exceeded");
    chart_title_set_name(s_curve, "S-curve: probability that the TCO is not exceeded");
    chart_axis_set_num_format(s_curve->x_axis, "#,##0");
    chart_axis_set_name(s_curve->x_axis, w->opts->currency);
    chart_axis_set_num_format(s_curve->y_axis, "0%");
    chart_axis_set_max(s_curve->y_axis, 1);
    chart_legend_set_position(s_curve, LXW_CHART_LEGEND_NONE);
    /* Print: one page wide at RISK_PRINT_SCALE; the figures and the S-curve's first rows on page 1, both charts
     * whole on page 2 (beside the table's rows there), the rest of the S-curve's rows after; the table's header
     * row (curve_head) on every page after the first. */
    lxw_chart_options opt = {.x_scale = 1.2, .y_scale = 1.2};
    const double chart_px = 288 * opt.y_scale, cap = PRINT_HEIGHT_PX * 100 / RISK_PRINT_SCALE * 0.97;
    const double rep = wb_rows_px(ws, (lxw_row_t)curve_head, (lxw_row_t)curve_head);
    const lxw_row_t last = (lxw_row_t)(curve + CURVE_POINTS - 1);
    lxw_row_t breaks[8] = {0}, first = 0;
    size_t n_breaks = 0;
    while (n_breaks + 1 < sizeof breaks / sizeof breaks[0]) {
        lxw_row_t b = first;
        double used = first > 0 ? rep : 0;
        for (; b <= last && used + wb_rows_px(ws, b, b) <= cap; b++)
            used += wb_rows_px(ws, b, b);
        if (b > last)
            break;
        if (b <= (lxw_row_t)curve_head) /* the figures alone on page 1 */
            b = (lxw_row_t)curve_head + 1;
        else if (n_breaks == 0 && b < (lxw_row_t)(hist + HISTOGRAM_BINS)) /* the histogram's bins whole */
            b = (lxw_row_t)curve_head;
        breaks[n_breaks++] = first = b;
    }
    /* The charts on the first page after the figures' that holds them both (the rows 20 px each at 100%), a row
     * below its first: LibreOffice, whose row heights round otherwise, drew the top of a chart anchored at a
     * page's first row on the page before. */
    lxw_row_t at = n_breaks > 0 ? breaks[0] + 1 : (lxw_row_t)curve_head;
    lxw_row_t below = at + (lxw_row_t)ceil(chart_px / (LXW_DEF_ROW_HEIGHT * 4 / 3)) + 1;
    worksheet_set_print_scale(ws, RISK_PRINT_SCALE);
    wb_check(w, worksheet_repeat_rows(ws, (lxw_row_t)curve_head, (lxw_row_t)curve_head), "print titles");
    if (n_breaks > 0)
        wb_check(w, worksheet_set_h_pagebreaks(ws, breaks), "page break");
    wb_check(w, worksheet_insert_chart_opt(ws, at, 7, s_curve, &opt), "chart");
    lxw_chart *histogram = workbook_add_chart(w->wb, LXW_CHART_COLUMN);
    lxw_chart_series *hs = add_series(w, histogram);
    if (hs == NULL)
        return;
    chart_series_set_categories(hs, "Risk", (lxw_row_t)hist, 3, (lxw_row_t)(hist + HISTOGRAM_BINS - 1), 3);
    chart_series_set_values(hs, "Risk", (lxw_row_t)hist, 5, (lxw_row_t)(hist + HISTOGRAM_BINS - 1), 5);
    chart_series_set_name(hs, "Draws");
    chart_set_series_gap(histogram, 10);
    chart_title_set_name(histogram, "Histogram of the TCO over the draws (bins from the value shown)");
    chart_axis_set_num_format(histogram->x_axis, "#,##0");
    chart_legend_set_position(histogram, LXW_CHART_LEGEND_NONE);
    wb_check(w, worksheet_insert_chart_opt(ws, below, 7, histogram, &opt), "chart");
}

void wb_write_risk_sheets(writer *w, const tco_risk *r)
{
    lxw_worksheet *sens = r->sensitivity ? wb_add_sheet(w, "Sensitivity", 0xC00000, true) : NULL;
    lxw_worksheet *risk = r->monte_carlo && w->err == TCO_OK ? wb_add_sheet(w, "Risk", 0xC00000, true) : NULL;
    lxw_worksheet *snap = w->err == TCO_OK ? wb_add_sheet(w, SNAPSHOT_SHEET, 0xA5A5A5, true) : NULL;
    if (w->err != TCO_OK)
        return;
    if (sens)
        write_sensitivity(w, sens, r);
    if (risk && w->err == TCO_OK)
        write_risk(w, risk, r);
    if (w->err == TCO_OK)
        write_snapshot(w, snap, r);
}

void tco_risk_more_sheets(struct writer *w, const void *risk)
{
    wb_write_risk_sheets(w, risk);
}
