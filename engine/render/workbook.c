/* workbook.c - a scenario's workbook (tco_workbook_write()): Summary, Inputs (inputs_sheet.c), Quotes, the
 * template's calculation sheets by year, month and tier, Charts and Conventions, then any sheets of
 * the caller's own (tco_workbook_options.more_sheets).  The cells are written with the kit
 * (workbook_kit.c); compare.c puts several models in one book. */
#include "render/workbook.h"

#include <ctype.h>
#include <errno.h>
#include <strings.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xlsxwriter.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "model/conventions.h"
#include "read/ini.h"
#include "render/workbook_kit.h"
#include "render/inputs_sheet.h"
#include "model/bind.h"
#include "model/evaluate.h"
#include "price/pricing.h"
#include "price/quote_choice.h"
#include "read/dates.h"
#include "read/quote_csv.h"

/* Header row: label, unit, then Year first_year to the last of @p periods year columns and Total
 * (@p yearly), or Value; the source column's header when @p source. */
static void write_headers(writer *w, lxw_worksheet *ws, int row, bool yearly, int periods, const char *first,
                          bool source)
{
    const tco_model *m = w->m;
    wb_write_text(w, ws, row, COL_ITEM, first, w->header);
    wb_write_text(w, ws, row, COL_UNIT, "Unit", w->header);
    if (yearly) {
        for (int y = 0; y < periods; y++)
            wb_check(w,
                     worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)(COL_VALUE + y), m->first_year + y,
                                            w->header_year),
                     "header");
        wb_write_text(w, ws, row, wb_total_col(periods), "Total", w->header_right);
    } else {
        wb_write_text(w, ws, row, COL_VALUE, "Value", w->header_right);
    }
    if (source)
        wb_write_text(w, ws, row, wb_source_col(periods, yearly), "Source / basis", w->header_indent);
}

/* Width of the wrapped source column of a per-month sheet, in characters. */
#define SOURCE_WIDTH 70

/* Neither libxlsxwriter nor LibreOffice's import fits row heights to wrapped
 * text, so set the height from the text length: 15 points a line. */
/* A calculation sheet's label and source columns (both wrapped) share the width its other columns leave at
 * PRINT_TEXT_SCALE (text_widths()).  A sheet too wide for that (Depreciation's eleven years) prints at
 * PRINT_WIDE_SCALE across pages: these widths, its label and source on the pages of their rows. */
#define YEARLY_LABEL_WIDTH 40
#define YEARLY_SOURCE_WIDTH 40
/* The Conventions sheet's meaning column. */
#define SCALAR_SOURCE_WIDTH 100
/* The narrowest label or source column of a sheet fitted one page wide. */
#define TEXT_MIN_WIDTH 30
/* The widest source column of a sheet printed across pages (text_widths()). */
#define WIDE_SOURCE_MAX 100

/* The Unit column of calculation sheet @p s: as wide as its widest unit ("CNY/GPU-hour"), at least "Unit". */
static double unit_width(writer *w, int s)
{
    double width = 6;
    for (size_t i = 0; i < w->m->n_items; i++) {
        const tco_item *it = &w->m->items[i];
        if ((it->kind == TCO_ITEM_LINE || it->kind == TCO_ITEM_YEARLY) && w->place[i].sheet == s)
            width = wb_text_width(it->unit, width);
    }
    return width;
}

/* One question of wb_split_label_width() and its answer: the key is n, total and min, then every label
 * and source with a NUL after each (NULL as empty: wb_text_lines() gives 0 lines for both). */
typedef struct label_width_entry {
    char *key;
    size_t len, answer;
} label_width_entry;

struct wb_label_widths {
    label_width_entry *v;
    size_t n, cap;
};

struct wb_label_widths *wb_label_widths_new(void)
{
    return calloc(1, sizeof(struct wb_label_widths));
}

void wb_label_widths_free(struct wb_label_widths *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->n; i++)
        free(c->v[i].key);
    free(c->v);
    free(c);
}

/* wb_split_label_width(), its answer taken from @p c when the same question was asked before (and kept
 * there if not); @p c NULL: worked out. */
static size_t split_label_width(struct wb_label_widths *c, const char *const *labels, const char *const *sources,
                                size_t n, size_t total, size_t min)
{
    if (c == NULL)
        return wb_split_label_width(labels, sources, n, total, min);
    tco_strbuf key = {0};
    tco_strbuf_printf(&key, "%zu %zu %zu", n, total, min);
    tco_strbuf_append_n(&key, "", 1);
    for (size_t i = 0; i < n; i++) {
        const char *l = labels[i] ? labels[i] : "", *src = sources[i] ? sources[i] : "";
        tco_strbuf_append_n(&key, l, strlen(l) + 1);
        tco_strbuf_append_n(&key, src, strlen(src) + 1);
    }
    if (key.failed) {
        tco_strbuf_free(&key);
        return wb_split_label_width(labels, sources, n, total, min);
    }
    for (size_t i = 0; i < c->n; i++)
        if (c->v[i].len == key.len && memcmp(c->v[i].key, key.data, key.len) == 0) {
            tco_strbuf_free(&key);
            return c->v[i].answer;
        }
    size_t answer = wb_split_label_width(labels, sources, n, total, min);
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        label_width_entry *v = realloc(c->v, cap * sizeof *v);
        if (v == NULL) { /* not kept: asked again, worked out again */
            tco_strbuf_free(&key);
            return answer;
        }
        c->v = v, c->cap = cap;
    }
    c->v[c->n].len = key.len;
    c->v[c->n].answer = answer;
    c->v[c->n++].key = tco_strbuf_take(&key);
    return answer;
}

/* Widths in characters of calculation sheet @p s's label (@p label) and source (@p source) columns, beside
 * @p values value columns @p value_width characters wide and the Unit column (@p unit): what a page's width
 * at PRINT_TEXT_SCALE leaves, split between label and source so that the rows take the fewest lines
 * (wb_split_label_width()): Cash flow's 19 lines print on one page.  Too little left: the wide sheet's. */
static void text_widths(writer *w, int s, double unit, int values, double value_width, size_t *label,
                        size_t *source)
{
    const tco_model *m = w->m;
    double fixed = (unit * 7 + 5) + values * (value_width * 7 + 5) + 2 * 5;
    double room = (PRINT_TEXT_WIDTH_PX - fixed) / 7;
    *label = YEARLY_LABEL_WIDTH, *source = YEARLY_SOURCE_WIDTH;
    if (room < YEARLY_LABEL_WIDTH + YEARLY_SOURCE_WIDTH) {
        /* Printed across pages at PRINT_WIDE_SCALE, label and Unit repeated on each: the value columns fill
         * the pages in turn, and the source column takes what the page it lands on leaves (Depreciation: 3 of
         * 12 value columns on the last; a page of its own when the last is full), so that its text wraps into
         * fewer lines than at YEARLY_SOURCE_WIDTH. */
        double page = PRINT_WIDTH_PX * 100 / PRINT_WIDE_SCALE / PRINT_LO_WIDER;
        double repeated = (YEARLY_LABEL_WIDTH * 7 + 5) + (unit * 7 + 5), col = value_width * 7 + 5;
        int per_page = (int)((page - repeated) / col);
        double left = (page - repeated - (per_page > 0 ? values % per_page : 0) * col - 2 * 5) / 7;
        if (left > YEARLY_SOURCE_WIDTH)
            *source = left > WIDE_SOURCE_MAX ? WIDE_SOURCE_MAX : (size_t)left;
        return;
    }
    size_t total = (size_t)room, n = 0;
    const char **labels = malloc((m->n_items ? m->n_items : 1) * sizeof *labels);
    const char **sources = malloc((m->n_items ? m->n_items : 1) * sizeof *sources);
    if (labels && sources) {
        for (size_t i = 0; i < m->n_items; i++) {
            const tco_item *it = &m->items[i];
            if ((it->kind == TCO_ITEM_LINE || it->kind == TCO_ITEM_YEARLY) && w->place[i].sheet == s)
                labels[n] = it->label, sources[n++] = it->source;
        }
        *label = split_label_width(w->widths, labels, sources, n, total, TEXT_MIN_WIDTH);
        *source = total - *label;
    } else if (w->err == TCO_OK)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    free(labels);
    free(sources);
}

/* Assign cells on the calculation sheets (needed before any formula is printed):
 * scalar and per-year lines one row each; per-tier lines one column each. */
static void place_lines(writer *w)
{
    const tco_model *m = w->m;
    for (size_t s = 0; s < m->n_sheets; s++) {
        int row = ROW_FIRST, col = COL_ITEM + 1;
        for (size_t i = 0; i < m->n_items; i++) {
            const tco_item *it = &m->items[i];
            if (it->kind == TCO_ITEM_TOTAL || it->sheet == NULL || strcmp(it->sheet, m->sheets[s].name) != 0)
                continue;
            int listed = w->place[i].list_row; /* a price line's row on the Inputs list, written before */
            if (it->kind == TCO_ITEM_TIER_LINE)
                w->place[i] = (placement){(int)s, ROW_FIRST, col++, 0, 0, listed};
            else
                w->place[i] = (placement){(int)s, row++, COL_VALUE, 0, 0, listed};
        }
    }
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].kind == TCO_ITEM_TOTAL) {
            w->place[i] = w->place[m->items[i].partner];
            w->place[i].col = wb_total_col(tco_item_periods(m, &m->items[i]));
        }
}

/* The most columns after the tier column a source note below a per-tier table spans (the shipped
 * template's table has 14: A:O). */
#define NOTE_COLUMNS 14

/* A per-tier sheet: one row per tier, one column per line, the same formula down each column. */
static void write_tier_sheet(writer *w, lxw_worksheet *ws, int s)
{
    const tco_model *m = w->m;
    wb_write_text(w, ws, ROW_HEADER, COL_ITEM, "Tier", w->header);
    for (int r = 0; r < m->n_tiers; r++)
        wb_write_text(w, ws, ROW_FIRST + r, COL_ITEM, m->tier_names[r], w->text);
    int notes = ROW_FIRST + m->n_tiers + 1;
    wb_write_text(w, ws, notes++, COL_ITEM, "Columns", w->total_label);
    /* The columns first: each column's source note below the table wraps within them (wb_write_across()). */
    int last = COL_ITEM;
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].kind == TCO_ITEM_TIER_LINE && w->place[i].sheet == s && w->place[i].col > last)
            last = w->place[i].col;
    worksheet_set_column(ws, COL_ITEM, COL_ITEM, 12, NULL);
    if (last > COL_ITEM) /* 11: "1,134.75 CNY"; the headers wrap */
        worksheet_set_column(ws, COL_ITEM + 1, (lxw_col_t)last, 11, NULL);
    size_t head_lines = 1;
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind != TCO_ITEM_TIER_LINE || w->place[i].sheet != s)
            continue;
        int col = w->place[i].col;
        tco_strbuf h = {0};
        tco_strbuf_printf(&h, "%s (%s)", it->label, it->unit);
        wb_write_text(w, ws, ROW_HEADER, col, tco_strbuf_str(&h), w->header_wrap);
        size_t n = wb_header_lines(tco_strbuf_str(&h), 11);
        head_lines = n > head_lines ? n : head_lines;
        tco_strbuf_free(&h);
        for (int r = 0; r < m->n_tiers; r++) {
            w->current_tier = r;
            wb_write_item_formula(w, ws, (int)i, ROW_FIRST + r, col, it->tiers[r]);
        }
        w->current_tier = -1;
        tco_strbuf src = {0};
        tco_strbuf_printf(&src, "%s (%s, %s): %s", it->label, it->name, it->unit, it->source);
        /* Across the table, or the first NOTE_COLUMNS columns of a wider one: a page's width to read, and
         * no merge (a blank cell per column) that grows with the columns times the notes. */
        wb_write_across(w, ws, notes++, COL_ITEM, last < COL_ITEM + NOTE_COLUMNS ? last : COL_ITEM + NOTE_COLUMNS,
                        tco_strbuf_str(&src), w->source);
        tco_strbuf_free(&src);
    }
    /* As tall as the longest header wrapped in its column (a fixed 80 points cut the Cards sheet's
     * longest, seven lines, in print). */
    wb_set_row_lines(w, ws, ROW_HEADER, head_lines);
    wb_check(w, worksheet_repeat_columns(ws, COL_ITEM, COL_ITEM), "print titles"); /* when printed wider than a page */
}

#define MONTH_LABEL_WIDTH 22

/* Width in characters of a column whose cells show @p v with grouping ("#,##0", or "#,##0.00" with
 * @p cents): the figure's pixels in Calibri 11 (a digit 7, a comma 3.4, a point 3.5, a minus 4.2, as
 * wb_text_width() counts them) and a digit to spare, within the 7 W pixels a column of W characters leaves
 * inside its padding; at least 8.  ("-60,355.33" of solo's Budget: 10, so that 14 months print on a page
 * beside Item and Unit, as whole-CNY figures do.) */
static double month_col_width(double v, bool cents)
{
    double a = fabs(v);
    int digits = a >= 1 ? (int)floor(log10(a)) + 1 : 1;
    double px = 7.0 * digits + (digits - 1) / 3 * (511 * 7.0 / 1038) + (v < 0 ? 627 * 7.0 / 1038 : 0) +
                (cents ? 2 * 7.0 + 517 * 7.0 / 1038 : 0);
    int width = (int)ceil((px + 7) / 7);
    return width < 8 ? 8 : width;
}

/* A per-month sheet: Month 1 to years x 12 (their calendar months above), a subtotal per fiscal
 * year and the Total (in the currency, said above them; the months' unit is the Unit column's), the
 * cells without the currency code so that 14 months print on a page; the sources below the table. */
static void write_month_sheet(writer *w, lxw_worksheet *ws, int s)
{
    const tco_model *m = w->m;
    const tco_sheet *sh = &m->sheets[s];
    int n_fy = wb_fiscal_years(m), fy0 = m->n_months > 0 ? tco_model_fiscal_year(m, 0) : 0;
    int tot_col = wb_month_total_col(m), last_row = ROW_HEADER;
    double width = 8;
    w->money_bare = true;
    wb_write_text(w, ws, ROW_HEADER, COL_ITEM, "Item", w->header);
    wb_write_text(w, ws, ROW_HEADER, COL_UNIT, "Unit", w->header);
    wb_write_text(w, ws, ROW_HEADER - 1, COL_UNIT, "Month", w->header);
    for (int k = 0; k < m->n_months; k++) {
        char label[16];
        tco_model_month_label(m, k, label);
        wb_write_text(w, ws, ROW_HEADER - 1, COL_VALUE + k, label, w->header_right);
        wb_check(w,
                 worksheet_write_number(ws, (lxw_row_t)ROW_HEADER, (lxw_col_t)(COL_VALUE + k), k + 1, w->header_month),
                 "header");
    }
    for (int f = 0; f < n_fy; f++) {
        char label[24];
        tco_model_fiscal_year_label(m, fy0 + f, label);
        wb_write_text(w, ws, ROW_HEADER, COL_VALUE + m->n_months + f, label, w->header_right);
        wb_write_text(w, ws, ROW_HEADER - 1, COL_VALUE + m->n_months + f, w->opts->currency, w->header_right);
    }
    wb_write_text(w, ws, ROW_HEADER, tot_col, "Total", w->header_right);
    wb_write_text(w, ws, ROW_HEADER - 1, tot_col, w->opts->currency, w->header_right);
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind != TCO_ITEM_MONTHLY || w->place[i].sheet != s)
            continue;
        int row = w->place[i].row;
        last_row = row > last_row ? row : last_row;
        wb_write_text(w, ws, row, COL_ITEM, it->label, it->emphasis ? w->total_label_wrap : w->text_wrap);
        wb_write_text(w, ws, row, COL_UNIT, it->unit, it->emphasis ? w->total_label : w->text);
        for (int k = 0; k < m->n_months; k++) {
            w->current_month = k;
            w->current_year = tco_model_year_of_month(m, k); /* a per-year line: its month's year */
            wb_write_item_formula(w, ws, (int)i, row, COL_VALUE + k, it->years[k]);
        }
        w->current_month = w->current_year = -1;
        /* Fiscal-year subtotals: SUM over that year's months, summed as the cells are (a line that is
         * not summed, sum = no, such as a discount factor or a running total, has none, as no Total). */
        for (int f = 0; f < n_fy && it->partner >= 0; f++) {
            int k0 = -1, k1 = -1;
            double sum = 0;
            for (int k = 0; k < m->n_months; k++)
                if (tco_model_fiscal_year(m, k) == fy0 + f) {
                    if (k0 < 0)
                        k0 = k;
                    k1 = k;
                    sum += it->years[k];
                }
            const char *fml = wb_row_sum_text(w, row, COL_VALUE + k0, COL_VALUE + k1);
            if (fml)
                wb_write_formula(w, ws, row, COL_VALUE + m->n_months + f, fml, wb_value_format(w, it, sum, false), sum);
        }
        if (it->partner >= 0) {
            const char *fml = wb_row_sum_text(w, row, COL_VALUE, COL_VALUE + m->n_months - 1);
            const tco_item *tot = &m->items[it->partner];
            if (fml)
                wb_write_formula(w, ws, row, tot_col, fml, wb_value_format(w, tot, tot->value, false), tot->value);
            wb_define_name(w, tot->name, sh->name, row, tot_col);
            double tw = month_col_width(tot->value, false);
            width = tw > width ? tw : width;
        }
        for (int k = 0; k < m->n_months; k++) {
            double mw = month_col_width(it->years[k], w->needs_cents);
            width = mw > width ? mw : width;
        }
        wb_set_row_lines(w, ws, row, wb_text_lines(it->label, MONTH_LABEL_WIDTH));
    }
    w->money_bare = false;
    /* A narrow, wrapped label and columns as wide as the largest figure: 14 months beside it on each
     * printed page (75%). */
    worksheet_set_column(ws, COL_ITEM, COL_ITEM, MONTH_LABEL_WIDTH, NULL);
    worksheet_set_column(ws, COL_UNIT, COL_UNIT, 10, NULL);
    worksheet_set_column(ws, COL_VALUE, (lxw_col_t)tot_col, width, NULL);
    /* Print: at PRINT_WIDE_SCALE, Item and Unit (and the two header rows) on every page, a page break after
     * as many months as a page holds beside them, so that each page's columns are whole and known. */
    double page_px = PRINT_WIDTH_PX * 100 / PRINT_WIDE_SCALE / PRINT_LO_WIDER - wb_cols_px(ws, COL_ITEM, COL_UNIT);
    int per_page = (int)(page_px / wb_cols_px(ws, COL_VALUE, COL_VALUE)), columns = tot_col - COL_VALUE + 1;
    if (per_page < 1)
        per_page = 1;
    /* As many pages as that takes, the columns shared out evenly (no page of the Total alone). */
    int pages = (columns + per_page - 1) / per_page;
    per_page = (columns + pages - 1) / pages;
    lxw_col_t vbreaks[64];
    size_t n_v = 0;
    for (int c = COL_VALUE + per_page; c <= tot_col && n_v + 1 < sizeof vbreaks / sizeof vbreaks[0]; c += per_page)
        vbreaks[n_v++] = (lxw_col_t)c;
    vbreaks[n_v] = 0;
    if (n_v > 0)
        wb_check(w, worksheet_set_v_pagebreaks(ws, vbreaks), "page break");
    int first_page_last = COL_VALUE + per_page - 1 < tot_col ? COL_VALUE + per_page - 1 : tot_col;
    /* The sources below the table, each wrapped across the first page's columns (Item to its last month),
     * so that none runs onto the other pages' columns; on a page of their own when table and sources do
     * not fit one, printed after the table's pages (across, then down). */
    int row = last_row + 2;
    double table_px = 0;
    for (int r = 0; r < row; r++) {
        lxw_row *rr = lxw_worksheet_find_row(ws, (lxw_row_t)r);
        table_px += (rr ? rr->height : LXW_DEF_ROW_HEIGHT) * 4 / 3;
    }
    int sources_row = row;
    wb_write_text(w, ws, row++, COL_ITEM, "Source / basis", w->header);
    for (int c = COL_UNIT; c <= first_page_last; c++)
        wb_write_text(w, ws, sources_row, c, "", w->header);
    double sources_px = LXW_DEF_ROW_HEIGHT * 4 / 3;
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind != TCO_ITEM_MONTHLY || w->place[i].sheet != s)
            continue;
        tco_strbuf src = {0};
        tco_strbuf_printf(&src, "%s: %s", it->label, it->source);
        if (src.failed)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        else
            wb_write_across(w, ws, row, COL_ITEM, first_page_last, tco_strbuf_str(&src), w->source);
        lxw_row *rr = lxw_worksheet_find_row(ws, (lxw_row_t)row);
        sources_px += (rr ? rr->height : LXW_DEF_ROW_HEIGHT) * 4 / 3;
        row++;
        tco_strbuf_free(&src);
    }
    /* A page at PRINT_WIDE_SCALE, less the two header rows repeated on it and 3% for rounding. */
    double page_h = PRINT_HEIGHT_PX * 100 / PRINT_WIDE_SCALE * 0.97 - 2 * LXW_DEF_ROW_HEIGHT * 4 / 3;
    if (table_px + sources_px > page_h) {
        lxw_row_t hbreaks[] = {(lxw_row_t)sources_row, 0};
        wb_check(w, worksheet_set_h_pagebreaks(ws, hbreaks), "page break");
    }
    worksheet_print_across(ws);
    worksheet_set_print_scale(ws, PRINT_WIDE_SCALE);
    wb_check(w, worksheet_repeat_columns(ws, COL_ITEM, COL_UNIT), "print titles");
    worksheet_freeze_panes(ws, ROW_FIRST, COL_VALUE);
    wb_check(w, worksheet_repeat_rows(ws, ROW_HEADER - 1, ROW_HEADER), "print titles"); /* the calendar months too */
}

static void write_calc_sheet(writer *w, lxw_worksheet *ws, int s)
{
    const tco_model *m = w->m;
    const tco_sheet *sh = &m->sheets[s];
    w->current_sheet = s;
    wb_write_text(w, ws, ROW_TITLE, 0, sh->name, w->title);
    wb_write_text(w, ws, ROW_NOTE, 0,
                  sh->yearly    ? "One formula per row, the same in every year column; Total = sum of the years."
                  : sh->monthly ? "One formula per row, the same in every month column; a subtotal per fiscal year, "
                                  "Total = sum of the months."
                  : sh->tiered  ? "One row per tier, one formula per column, the same in every row."
                                : "Every value is a formula over the named inputs and the lines above it.",
                  w->note);
    if (sh->tiered) {
        write_tier_sheet(w, ws, s);
        return;
    }
    if (sh->monthly) {
        write_month_sheet(w, ws, s);
        return;
    }
    int periods = wb_sheet_periods(m, s);
    write_headers(w, ws, ROW_HEADER, sh->yearly, periods, "Item", true);
    /* 14: "12,345,678 CNY"; a scalar sheet's one value column 16 */
    double value_width = sh->yearly ? 14 : 16;
    size_t label_width, source_width;
    double unit = unit_width(w, s);
    text_widths(w, s, unit, sh->yearly ? periods + 1 : 1, value_width, &label_width, &source_width);
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (!(it->kind == TCO_ITEM_LINE || it->kind == TCO_ITEM_YEARLY) || w->place[i].sheet != s)
            continue;
        int row = w->place[i].row;
        wb_write_text(w, ws, row, COL_ITEM, it->label, it->emphasis ? w->total_label_wrap : w->text_wrap);
        wb_write_text(w, ws, row, COL_UNIT, it->unit, it->emphasis ? w->total_label : w->text);
        if (it->kind == TCO_ITEM_YEARLY) {
            for (int y = 0; y < periods; y++) {
                w->current_year = y;
                wb_write_item_formula(w, ws, (int)i, row, COL_VALUE + y, it->years[y]);
            }
            w->current_year = -1;
            if (it->partner >= 0) {
                const char *f = wb_row_sum_text(w, row, COL_VALUE, COL_VALUE + periods - 1);
                const tco_item *tot = &m->items[it->partner];
                if (f)
                    wb_write_formula(w, ws, row, wb_total_col(periods), f, wb_value_format(w, tot, tot->value, false),
                                     tot->value);
                wb_define_name(w, tot->name, sh->name, row, wb_total_col(periods));
            }
        } else {
            wb_write_item_formula(w, ws, (int)i, row, COL_VALUE, it->value);
            wb_define_name(w, it->name, sh->name, row, COL_VALUE);
        }
        wb_write_text(w, ws, row, wb_source_col(periods, sh->yearly), it->source, w->source);
        /* The label wraps too: the row is as tall as the taller of the two. */
        size_t a = wb_text_lines(it->label, label_width), b = wb_text_lines(it->source, source_width);
        wb_set_row_lines(w, ws, row, a > b ? a : b);
    }
    worksheet_set_column(ws, COL_ITEM, COL_ITEM, (double)label_width, NULL);
    worksheet_set_column(ws, COL_UNIT, COL_UNIT, unit, NULL);
    int last = sh->yearly ? wb_total_col(periods) : COL_VALUE;
    worksheet_set_column(ws, COL_VALUE, (lxw_col_t)last, value_width, NULL);
    worksheet_set_column(ws, (lxw_col_t)(last + 1), (lxw_col_t)(last + 1), (double)source_width, NULL);
}

/* For each quote, the inputs it prices and their cells ("card_price (Inputs!C8); tier_price, D-M row
 * (Inputs!O13)"), within a cell; an array of set->n texts (empty for a quote that prices nothing), or
 * NULL when out of memory.  Needs the Inputs sheet placed (w->place). */
static tco_strbuf *quote_prices(writer *w)
{
    const tco_model *m = w->m;
    const tco_quote_set *set = m->quotes;
    tco_strbuf *out = calloc(set->n ? set->n : 1, sizeof *out);
    size_t *held = calloc(set->n ? set->n : 1, sizeof *held);
    bool failed = out == NULL || held == NULL;
    for (size_t i = 0; i < m->n_items && !failed; i++) {
        const tco_item *it = &m->items[i];
        for (int r = -1; r < (it->tier_quotes ? m->n_tiers : 0); r++) {
            size_t q;
            if (r < 0 && it->kind == TCO_ITEM_INPUT && it->quoted)
                q = it->quote_index;
            else if (r >= 0 && it->tier_quotes[r] >= 0)
                q = (size_t)it->tier_quotes[r];
            else
                continue;
            char c[4];
            wb_col_letters(w->place[i].col, c);
            tco_strbuf one = {0};
            tco_strbuf_printf(&one, "%s%s%s", out[q].len ? "; " : "", w->np, it->name);
            if (r >= 0)
                tco_strbuf_printf(&one, ", %s row", m->tier_names[r]);
            tco_strbuf_printf(&one, " (%sInputs!%s%d)", w->sp, c, w->place[i].row + (r < 0 ? 0 : r) + 1);
            tco_strbuf_append_capped(&out[q], tco_strbuf_str(&one), TCO_XLSX_CELL_MAX - 64, &held[q]);
            failed = one.failed || out[q].failed;
            tco_strbuf_free(&one);
        }
    }
    for (size_t q = 0; !failed && q < set->n; q++)
        if (held[q])
            tco_strbuf_printf(&out[q], "; %zu more", held[q]);
    free(held);
    if (failed && out) {
        for (size_t q = 0; q < set->n; q++)
            tco_strbuf_free(&out[q]);
        free(out);
        out = NULL;
    }
    return out;
}

/* The Quotes sheet: every quote kept, its conversion as a live formula over the fx_ inputs,
 * whether it was used (or why not), and the input cells a used quote prices (each a formula over
 * its unit price and rate).  Text from the files is written as text. */
static void write_quotes(writer *w, lxw_worksheet *ws)
{
    const tco_model *m = w->m;
    const tco_quote_set *set = m->quotes;
    tco_strbuf *prices = quote_prices(w);
    if (prices == NULL) {
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return;
    }
    char asof[16];
    tco_format_date(m->as_of, asof);
    wb_write_text(w, ws, ROW_TITLE, 0, "Quotes", w->title);
    tco_strbuf note = {0};
    tco_strbuf_printf(&note, "Vendor quotes read (%zu row%s); each priced item takes the lowest quote valid on %s "
                      "whose minimum quantity the scenario meets (the choice is tco's, made at these rates). "
                      "Converted = unit price x the fx_ rate on Inputs, over 1 + VAT rate when the price includes "
                      "VAT (the model's prices exclude it); each input a quote prices (column Prices) is the same "
                      "live formula, so editing a rate moves the TCO.",
                      set->rows, tco_plural((double)set->rows), asof);
    /* One page wide in print (issue 23: it took three): the columns narrow, their text and headers wrapped,
     * each row as tall as its longest text; the widths in characters, 183 in all, which Excel and LibreOffice
     * fit one page wide at about 73% (wb_print_layout(), at least PRINT_QUOTES_SCALE). */
    static const double widths[] = {14, 4, 10, 10, 9, 10, 9, 5, 8, 5, 10, 10, 10, 5, 7, 10, 14, 22, 11};
    for (int c = 0; c < 19; c++)
        worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, widths[c], NULL);
    wb_write_across(w, ws, ROW_NOTE, 0, 18, tco_strbuf_str(&note), w->note_wrap);
    tco_strbuf_free(&note);
    char converted_head[32];
    snprintf(converted_head, sizeof converted_head, "Converted ex VAT (%s)", tco_model_currency(m));
    const char *const heads[] = {"File", "Line", "Vendor", "Quote id", "Item", "Unit price", "Currency",
                                        "Rate", "VAT included", "VAT rate", converted_head, "Quote date",
                                        "Valid until", "Min qty", "Lead time (weeks)", "Status", "Prices", "Reason",
                                        "Notes"};
    /* Numbers right-aligned under right-aligned headers; text columns left, headers indented one step
     * so that a right-aligned header and the next left one never run together in print. */
    lxw_format *vendor_fmt = workbook_add_format(w->wb); /* wrapped, a step in from the Line number before it */
    format_set_text_wrap(vendor_fmt);
    format_set_indent(vendor_fmt, 1);
    size_t head_lines = 1;
    for (int c = 0; c < 19; c++) {
        wb_write_text(w, ws, ROW_HEADER, c, heads[c],
                      c == 1 || c == 5 || (c >= 7 && c <= 10) || c == 13 || c == 14 ? w->header_wrap : w->header_wrap_left);
        size_t n = wb_header_lines(heads[c], widths[c]);
        head_lines = n > head_lines ? n : head_lines;
    }
    wb_set_row_lines(w, ws, ROW_HEADER, head_lines);
    int row = ROW_FIRST;
    for (size_t i = 0; i < set->n && w->err == TCO_OK; i++, row++) {
        const tco_quote *q = &set->quotes[i];
        char d[16];
        wb_write_text(w, ws, row, 0, q->file, w->text_wrap);
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, 1, (double)q->line, w->fmt[TCO_FMT_COUNT]), "quote");
        wb_write_text(w, ws, row, 2, q->vendor, vendor_fmt);
        wb_write_text(w, ws, row, 3, q->quote_id, w->text);
        wb_write_text(w, ws, row, 4, q->item, w->text);
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, 5, q->unit_price,
                                           wb_number_format(w, TCO_FMT_NUMBER, q->unit_price)), "quote");
        wb_write_text(w, ws, row, 6, q->currency, w->text);
        char rate_name[16];
        wb_quote_rate_name(m, q, rate_name);
        tco_strbuf f = {0};
        char c6[4], c8[4];
        wb_col_letters(QCOL_UNIT_PRICE, c6);
        wb_col_letters(QCOL_RATE, c8);
        if (q->status == TCO_QUOTE_NO_RATE) {
            /* No rate, so no input is made up for it: Rate and Converted stay empty, the Reason says why. */
        } else if (rate_name[0]) {
            tco_strbuf_printf(&f, "=%s%s", w->np, rate_name);
            wb_write_formula(w, ws, row, 7, tco_strbuf_str(&f), wb_number_format(w, TCO_FMT_RATIO, q->rate), q->rate);
        } else {
            wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, 7, q->rate,
                                               wb_number_format(w, TCO_FMT_RATIO, q->rate)), "quote");
        }
        tco_strbuf_free(&f);
        wb_write_text(w, ws, row, QCOL_VAT_INCLUDED, q->vat_included ? "yes" : "no", w->text_right);
        if (!isnan(q->vat_rate))
            wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, QCOL_VAT_RATE, q->vat_rate, w->fmt[TCO_FMT_PERCENT]),
                     "quote");
        char ci[4], cj[4];
        wb_col_letters(QCOL_VAT_INCLUDED, ci);
        wb_col_letters(QCOL_VAT_RATE, cj);
        /* One formula down the column: the price over 1 + VAT where it includes VAT, over 1 where not. */
        tco_strbuf_printf(&f, "=%s%d*%s%d/IF(%s%d=\"yes\",1+%s%d,1)", c6, row + 1, c8, row + 1, ci, row + 1, cj,
                          row + 1);
        int rep = tco_model_find(m, TCO_FX_REPORT);
        if (rep >= 0) /* in the reporting currency, as the prices it sets */
            tco_strbuf_printf(&f, "/%s%s", w->np, TCO_FX_REPORT);
        double conv = q->unit_price * q->rate / (q->vat_included ? 1 + q->vat_rate : 1);
        conv = rep >= 0 ? conv / m->items[rep].value : conv;
        if (q->status != TCO_QUOTE_NO_RATE)
            wb_write_formula(w, ws, row, QCOL_CONVERTED, tco_strbuf_str(&f),
                             wb_number_format(w, TCO_FMT_NUMBER, conv), conv);
        tco_strbuf_free(&f);
        if (q->quote_date != TCO_NO_DATE) {
            tco_format_date(q->quote_date, d);
            wb_write_text(w, ws, row, 11, d, w->text);
        }
        if (q->valid_until != TCO_NO_DATE) {
            tco_format_date(q->valid_until, d);
            wb_write_text(w, ws, row, 12, d, w->text);
        }
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, 13, q->min_qty, w->fmt[TCO_FMT_COUNT]), "quote");
        if (!isnan(q->lead_time_weeks))
            wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, 14, q->lead_time_weeks, w->fmt[TCO_FMT_KW]),
                     "quote");
        wb_write_text(w, ws, row, 15, tco_quote_status_name(q->status), w->text_wrap);
        if (prices[i].len)
            wb_write_text(w, ws, row, 16, tco_strbuf_str(&prices[i]), w->source);
        wb_write_text(w, ws, row, 17, q->reason, w->source);
        wb_write_text(w, ws, row, 18, q->notes, w->text_wrap);
        /* The row as tall as its longest wrapped text (an indented format's: a character less). */
        const char *texts[] = {q->file, q->vendor, tco_quote_status_name(q->status), tco_strbuf_str(&prices[i]),
                               q->reason, q->notes};
        const int cols[] = {0, 2, 15, 16, 17, 18};
        size_t lines = 1;
        for (int k = 0; k < 6; k++) {
            size_t n = wb_text_lines(texts[k], (size_t)widths[cols[k]] - (cols[k] == 2 || cols[k] == 16 || cols[k] == 17));
            lines = n > lines ? n : lines;
        }
        wb_set_row_lines(w, ws, row, lines);
    }
    for (size_t i = 0; i < set->n; i++)
        tco_strbuf_free(&prices[i]);
    free(prices);
    if (set->not_kept > 0) {
        tco_strbuf more = {0};
        tco_strbuf_printf(&more, "%zu further row%s read and counted but not listed: the sheet lists at most "
                          "%d rows for each price quotes set and %d for other items, %d in all, and the best valid "
                          "quote for each price always, so every quote used is listed.",
                          set->not_kept, set->not_kept == 1 ? " was" : "s were", TCO_QUOTE_LIST_CAP,
                          TCO_QUOTE_LIST_CAP, TCO_QUOTE_LIST_TOTAL);
        wb_write_across(w, ws, row + 1, 0, 18, tco_strbuf_str(&more), w->note_wrap);
        tco_strbuf_free(&more);
    }
}

/* The Charts sheet: each [chart.NAME] fed by the live cells.  Column and line charts read
 * the per-year rows where they are; a pie reads a small block of formulas (=card_capex, ...)
 * written here, since its slices live on several sheets. */
static void write_charts(writer *w, lxw_worksheet *ws)
{
    const tco_model *m = w->m;
    wb_write_text(w, ws, ROW_TITLE, 0, "Charts", w->title);
    wb_write_text(w, ws, ROW_NOTE, 0, "Each chart reads the workbook's own cells and follows every change of an input.",
                  w->note);
    int data_row = ROW_FIRST; /* pie data blocks, in columns A-C */
    int chart_row = ROW_FIRST;
    /* Print: one page wide (A:D and the widest chart from E), and a page break before a chart that
     * would not fit below the one before, so that no chart is cut across pages. */
    /* Rows a chart takes below its heading: a pie 288 x 1.1 = 317 px of 320, the others 288 x 0.75 = 216 px
     * of 220, so that tco.ini's three charts (a column chart, the pie, a line chart) print on one page: at
     * the sheet's 77% (A:D and the pie's 768 px) a page is 712 / 0.77 = 925 px, and the title (90 px) and
     * the three blocks with their headings (240 + 340 + 240 px) take 910 (issue 23 §2: the pack on 30
     * pages; the pie took 440 px and the others 320, so the third chart printed on a page of its own). */
    enum { ROW_PX = 20, CHART_W = 480, CHART_H = 288, PIE_ROWS = 16, CHART_ROWS = 11 };
    worksheet_set_column(ws, 0, 0, 44, NULL);
    worksheet_set_column(ws, 1, 1, 16, NULL);
    worksheet_set_column(ws, 2, 2, 8, NULL); /* a pie's slices' shares */
    bool any_pie = false;
    for (size_t c = 0; c < m->n_charts; c++)
        any_pie |= m->charts[c].type == TCO_CHART_PIE;
    /* LibreOffice prints the columns wider (PRINT_LO_WIDER), the charts as wide as they are. */
    int scale = wb_fit_scale(wb_cols_px(ws, 0, 3) * PRINT_LO_WIDER + CHART_W * (any_pie ? 1.6 : 1.3) + 20);
    worksheet_set_print_scale(ws, (uint16_t)scale);
    double page_px = PRINT_HEIGHT_PX * 100 / scale, y_px = ROW_FIRST * ROW_PX + 10; /* the title is 14 pt */
    lxw_row_t breaks[64];
    size_t n_breaks = 0;
    for (size_t c = 0; c < m->n_charts && w->err == TCO_OK; c++) {
        const tco_chart *ch = &m->charts[c];
        uint8_t type = ch->type == TCO_CHART_PIE ? LXW_CHART_PIE
                       : ch->type == TCO_CHART_LINE ? LXW_CHART_LINE
                                                    : LXW_CHART_COLUMN_STACKED;
        lxw_chart *chart = workbook_add_chart(w->wb, type);
        if (chart == NULL) {
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
            return;
        }
        /* Titles and series names from the template are cell references, so text that
         * starts with '=' stays text (a name of "=..." would be a chart formula), and the
         * cached text lets every viewer show it. */
        /* The heading spans the chart's width (E:M), so its fill runs under the whole title. */
        double block_px = ROW_PX * (1 + (ch->type == TCO_CHART_PIE ? PIE_ROWS : CHART_ROWS));
        if (c > 0 && y_px + block_px > page_px && n_breaks + 1 < sizeof breaks / sizeof breaks[0]) {
            breaks[n_breaks++] = (lxw_row_t)chart_row;
            y_px = ROW_PX; /* the repeated header row */
        }
        y_px += block_px;
        const char *heading = wb_xl_text(w, ch->title);
        if (heading)
            wb_check(w,
                     worksheet_merge_range(ws, (lxw_row_t)chart_row, 4, (lxw_row_t)chart_row, 12, heading, w->header),
                     "chart heading");
        chart_title_set_name_range(chart, wb_sheet_name(w, "Charts"), (lxw_row_t)chart_row, 4);
        chart_row++;
        if (ch->type == TCO_CHART_PIE) {
            wb_write_text(w, ws, data_row, 0, ch->title, w->header);
            wb_write_text(w, ws, data_row, 1, w->opts->currency, w->header_right);
            wb_write_text(w, ws, data_row, 2, "Share", w->header_right);
            int first = data_row + 1;
            for (size_t k = 0; k < ch->n_series && w->err == TCO_OK; k++) {
                const tco_item *it = &m->items[ch->series[k]];
                int row = first + (int)k;
                wb_write_text(w, ws, row, 0, it->label, w->text);
                tco_strbuf f = {0};
                tco_strbuf_printf(&f, "=%s%s", w->np, it->name);
                wb_write_formula_or_text(w, ws, row, 1, tco_strbuf_str(&f), wb_value_format(w, it, it->value, false),
                                         it->value, wb_item_text(it));
                tco_strbuf_free(&f);
            }
            int last = first + (int)ch->n_series - 1;
            /* Each slice's share of the whole, beside its value: the pie's legend names the slices, this
             * block gives their figures (labels on the slices overlapped where slices are thin). */
            double whole = 0;
            for (size_t k = 0; k < ch->n_series; k++)
                if (wb_item_text(&m->items[ch->series[k]]) == NULL)
                    whole += m->items[ch->series[k]].value;
            for (int row = first; row <= last && w->err == TCO_OK; row++) {
                const tco_item *it = &m->items[ch->series[row - first]];
                tco_strbuf f = {0};
                tco_strbuf_printf(&f, "=IF(ISNUMBER(B%d),IF(SUM($B$%d:$B$%d)=0,0,B%d/SUM($B$%d:$B$%d)),\"n.a.\")", row + 1,
                                  first + 1, last + 1, row + 1, first + 1, last + 1);
                bool number = wb_item_text(it) == NULL;
                double share = number && whole != 0 ? it->value / whole : 0;
                if (f.failed)
                    w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
                else
                    wb_write_formula_or_text(w, ws, row, 2, tco_strbuf_str(&f), w->fmt[TCO_FMT_PERCENT], share,
                                             number ? NULL : "n.a.");
                tco_strbuf_free(&f);
            }
            lxw_chart_series *s = chart_add_series(chart, NULL, NULL);
            if (s == NULL) {
                w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
                return;
            }
            chart_series_set_categories(s, wb_sheet_name(w, "Charts"), (lxw_row_t)first, 0, (lxw_row_t)last, 0);
            chart_series_set_values(s, wb_sheet_name(w, "Charts"), (lxw_row_t)first, 1, (lxw_row_t)last, 1);
            /* The slices' cached values, as the cells above cache them (a slice that says "n.a." has none). */
            double slice[TCO_MAX_CHART_SERIES];
            bool numeric[TCO_MAX_CHART_SERIES];
            for (size_t k = 0; k < ch->n_series; k++) {
                const tco_item *it = &m->items[ch->series[k]];
                slice[k] = it->value;
                numeric[k] = wb_item_text(it) == NULL;
            }
            wb_chart_cache(w, s->values, slice, numeric, ch->n_series);
            /* One colour per slice: the applications' default palettes repeat within 11 slices. */
            static const lxw_color_t palette[] = {0x4472C4, 0xED7D31, 0xA5A5A5, 0xFFC000, 0x5B9BD5, 0x70AD47,
                                                  0x264478, 0x9E480E, 0x636363, 0x997300, 0x255E91, 0x43682B,
                                                  0x7CAFDD, 0xF1975A, 0xB7B7B7, 0xFFCD33};
            enum { N_PALETTE = sizeof palette / sizeof palette[0] };
            lxw_chart_fill fills[N_PALETTE];
            lxw_chart_point pts[N_PALETTE], *ptrs[N_PALETTE + 1];
            size_t np = ch->n_series < N_PALETTE ? ch->n_series : N_PALETTE;
            for (size_t k = 0; k < np; k++) {
                fills[k] = (lxw_chart_fill){.color = palette[k]};
                pts[k] = (lxw_chart_point){.fill = &fills[k]};
                ptrs[k] = &pts[k];
            }
            ptrs[np] = NULL;
            wb_check(w, chart_series_set_points(s, ptrs), "chart colours");
            data_row = last + 2;
        } else {
            for (size_t k = 0; k < ch->n_series; k++) {
                const placement *p = &w->place[ch->series[k]];
                const char *sheet = wb_sheet_name(w, m->sheets[p->sheet].name);
                lxw_chart_series *s = chart_add_series(chart, NULL, NULL);
                if (s == NULL) {
                    w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
                    return;
                }
                int periods = tco_item_periods(m, &m->items[ch->series[k]]);
                chart_series_set_categories(s, sheet, ROW_HEADER, COL_VALUE, ROW_HEADER,
                                            (lxw_col_t)(COL_VALUE + periods - 1));
                chart_series_set_values(s, sheet, (lxw_row_t)p->row, COL_VALUE, (lxw_row_t)p->row,
                                        (lxw_col_t)(COL_VALUE + periods - 1));
                /* The year cells' cached results: the line's value in each period. */
                wb_chart_cache(w, s->values, m->items[ch->series[k]].years, NULL, (size_t)periods);
                chart_series_set_name_range(s, sheet, (lxw_row_t)p->row, COL_ITEM);
            }
            chart_axis_set_name(chart->y_axis, w->opts->currency);
            chart_axis_set_num_format(chart->x_axis, "\"Year \"0");
            chart_axis_set_num_format(chart->y_axis, "#,##0");
        }
        /* A pie with up to 16 slices needs room for its legend beside the pie. */
        bool pie = ch->type == TCO_CHART_PIE;
        lxw_chart_options opt = {.x_scale = pie ? 1.6 : 1.3, .y_scale = pie ? 1.1 : 0.75};
        wb_check(w, worksheet_insert_chart_opt(ws, (lxw_row_t)chart_row, 4, chart, &opt), "chart");
        chart_row += pie ? PIE_ROWS : CHART_ROWS;
    }
    breaks[n_breaks] = 0;
    if (n_breaks > 0)
        wb_check(w, worksheet_set_h_pagebreaks(ws, breaks), "page break");
}

/* The Conventions sheet: the template's [convention.NAME] rows, each a label, the live formula =NAME
 * when the row names an input or line (its cached value the engine's), and what it means. */
static void write_conventions(writer *w, lxw_worksheet *ws)
{
    const tco_model *m = w->m;
    wb_write_text(w, ws, ROW_TITLE, 0, "Conventions", w->title);
    wb_write_text(w, ws, ROW_NOTE, 0,
                  "How to read every figure in this workbook. A value is a live formula over its input or line, so "
                  "it follows an edit on the Inputs sheet.",
                  w->note);
    wb_write_text(w, ws, ROW_HEADER, 0, "Convention", w->header);
    wb_write_text(w, ws, ROW_HEADER, 1, "Value", w->header_right);
    wb_write_text(w, ws, ROW_HEADER, 2, "Meaning", w->header_indent);
    int row = ROW_FIRST;
    for (size_t k = 0; k < m->n_conventions && w->err == TCO_OK; k++, row++) {
        const tco_convention *c = &m->conventions[k];
        wb_write_text(w, ws, row, 0, c->label, w->text);
        if (c->value >= 0) {
            const tco_item *it = &m->items[c->value];
            tco_strbuf f = {0};
            tco_strbuf_printf(&f, "=%s%s", w->np, it->name);
            wb_write_formula_or_text(w, ws, row, 1, tco_strbuf_str(&f), wb_value_format(w, it, it->value, false),
                                     it->value, wb_item_text(it));
            tco_strbuf_free(&f);
        }
        if (c->text) {
            wb_write_text(w, ws, row, 2, c->text, w->source);
            wb_set_row_lines(w, ws, row, wb_text_lines(c->text, SCALAR_SOURCE_WIDTH));
        }
    }
    worksheet_set_column(ws, 0, 0, 44, NULL);
    worksheet_set_column(ws, 1, 1, 16, NULL);
    worksheet_set_column(ws, 2, 2, SCALAR_SOURCE_WIDTH, NULL);
}

/* Into @p out, "'Inputs'!" with the option's sheet prefix (quotes in it doubled). */
static void inputs_sheet_ref(const writer *w, tco_strbuf *out)
{
    tco_strbuf_append(out, "'");
    for (const char *p = w->sp; *p; p++)
        tco_strbuf_append(out, *p == '\'' ? "''" : (char[2]){*p, '\0'});
    tco_strbuf_append(out, "Inputs'!");
}

/* Into @p out, the live Status of price @p p as a formula term, @p sheet the Inputs sheet's reference
 * (inputs_sheet_ref()): its Status cell on the Inputs list ('Inputs'!$F$12), or for a lookup in the tier
 * table with no row on the list but a Status column of its own (card_import_duty = INDEX(tier_import_duty,
 * card_row)), that column at the chosen row, INDEX('Inputs'!$X$165:$X$174,card_row), as the list's row of
 * card_price reads it.  False, nothing appended: a price with neither. */
static bool price_status_term(const writer *w, int p, const char *sheet, tco_strbuf *out)
{
    const tco_model *m = w->m;
    int tier_input, row_item;
    if (w->place[p].list_row > 0)
        tco_strbuf_printf(out, "%s$F$%d", sheet, w->place[p].list_row);
    else if (tco_price_tier_lookup(m, p, &tier_input, &row_item) && w->place[tier_input].status_col > 0) {
        char sc[4];
        wb_col_letters(w->place[tier_input].status_col, sc);
        tco_strbuf_printf(out, "INDEX(%s$%s$%d:$%s$%d,%s%s)", sheet, sc, w->tier_row + 1, sc, w->tier_row + m->n_tiers,
                          w->np, m->items[row_item].name);
    } else
        return false;
    return true;
}

/* Into @p out, capex line @p k's live status as a formula term: its price's Status (price_status_term():
 * 'Inputs'!$F$12; for a lookup such as card_price, the list's row that reads the tier table's Status; for
 * card_import_duty, the tier table's Status column at card_row), or for a line on several prices (a price
 * and its import duty, the network's four) the weakest of theirs, the last in the Status legend, where
 * "edited" is last of all (one of them typed over makes the line edited), a "stated" one left out while any
 * other is there (tco_capex_status(): a stated 0 duty beside a quoted price leaves the line quoted).  A
 * stated price counts as minus its place in the legend, so that the largest is another's place when there is
 * one, and ABS of it the place of "stated" when every price is:
 *   INDEX(L,ABS(MAX(IF(S1="stated",-MATCH("stated",L,0),MATCH(S1,L,0)),IF(S2=...))))
 * L the legend ('Inputs'!$A$149:$A$155), S1 a price's Status ('Inputs'!$F$30).  A price with no live Status
 * gives its status as the run found it, a constant. */
static void capex_line_status(writer *w, size_t k, tco_strbuf *out)
{
    const tco_model *m = w->m;
    const tco_capex_basis *c = &m->capex_basis[k];
    tco_strbuf sheet = {0};
    inputs_sheet_ref(w, &sheet);
    char legend[96] = "";
    if (w->legend_n > 0)
        snprintf(legend, sizeof legend, "%s$A$%d:$A$%d", tco_strbuf_str(&sheet), w->legend_row + 1,
                 w->legend_row + w->legend_n);
    bool several = c->n_prices > 1 && legend[0];
    const char *stated = tco_status_name(TCO_STATUS_STATED);
    if (several)
        tco_strbuf_printf(out, "INDEX(%s,ABS(MAX(", legend);
    tco_strbuf term = {0};
    for (size_t p = 0; p < c->n_prices && (several || p == 0); p++) {
        tco_strbuf_clear(&term);
        if (!price_status_term(w, c->prices[p], tco_strbuf_str(&sheet), &term))
            tco_strbuf_printf(&term, "\"%s\"", tco_status_name(tco_status_of_price(m, c->prices[p])));
        if (several)
            tco_strbuf_printf(out, "%sIF(%s=\"%s\",-MATCH(\"%s\",%s,0),MATCH(%s,%s,0))", p ? "," : "",
                              tco_strbuf_str(&term), stated, stated, legend, tco_strbuf_str(&term), legend);
        else
            tco_strbuf_append(out, tco_strbuf_str(&term));
    }
    if (term.failed)
        out->failed = true;
    tco_strbuf_free(&term);
    if (several)
        tco_strbuf_append(out, ")))");
    if (c->n_prices == 0)
        tco_strbuf_printf(out, "\"%s\"", tco_status_name(TCO_STATUS_STATED));
    tco_strbuf_free(&sheet);
}

/* Into @p out, the text expression naming capex line @p k and its prices with their live statuses, as the
 * Summary lists it after a comma: ", card_capex (card_price: "&'Inputs'!$F$153&", card_import_duty:
 * "&INDEX('Inputs'!$X$165:$X$174,card_row)&")"; a price with no live Status gives the status the run
 * found, a constant.  Into @p text, the same as the run wrote it. */
static void capex_line_text(writer *w, size_t k, tco_strbuf *out, tco_strbuf *text)
{
    const tco_model *m = w->m;
    const tco_capex_basis *c = &m->capex_basis[k];
    tco_strbuf sheet = {0};
    inputs_sheet_ref(w, &sheet);
    tco_strbuf_printf(out, "\", %s (", m->items[c->line].name);
    tco_strbuf_printf(text, ", %s (", m->items[c->line].name);
    for (size_t p = 0; p < c->n_prices; p++) {
        const char *found = tco_status_name(tco_status_of_price(m, c->prices[p]));
        tco_strbuf_printf(out, "%s%s: ", p ? ", " : "", m->items[c->prices[p]].name);
        tco_strbuf_printf(text, "%s%s: %s", p ? ", " : "", m->items[c->prices[p]].name, found);
        tco_strbuf term = {0};
        if (price_status_term(w, c->prices[p], tco_strbuf_str(&sheet), &term))
            tco_strbuf_printf(out, "\"&%s&\"", tco_strbuf_str(&term));
        else
            tco_strbuf_append(out, found);
        if (term.failed)
            out->failed = true;
        tco_strbuf_free(&term);
    }
    tco_strbuf_append(out, ")\"");
    tco_strbuf_append(text, ")");
    tco_strbuf_free(&sheet);
}

/* The Summary's capex by the status of its prices ([model] capex_prices): for each status, the live
 * sum of the capex lines resting on it and its share of capex, with the lines and prices named.  Live in
 * the status too: each row sums IF(the line's status = the row's, the line, 0) over every capex line,
 * the line's status read from its prices' Status cells on Inputs (capex_line_status()), so typing a real
 * price (or an import duty) over an illustrative one moves its line's capex from "Capex on illustrative
 * prices" to "Capex on prices edited in this workbook", a row always shown.  The lines named beside each sum
 * are live the same way (capex_line_text(): joined with &, the first ", " cut by MID), so the line moves out of the
 * illustrative row's list into the edited row's, with its price's Status (issue 23 §2: the names stayed as
 * tco wrote them, "none" beside a sum that had moved).  The cached sums follow the evaluator's own
 * arithmetic (tco_formula_arith()), as the Compare sheet's; the cached names are the run's. */
static int write_capex_status(writer *w, lxw_worksheet *ws, int row)
{
    const tco_model *m = w->m;
    if (m->n_capex_basis == 0 || m->role_capex < 0 || w->err != TCO_OK)
        return row;
    const tco_item *capex = &m->items[m->role_capex];
    row++;
    wb_write_text(w, ws, row, COL_ITEM, "Capex by the status of its prices", w->header);
    wb_write_text(w, ws, row, COL_UNIT, "Unit", w->header);
    wb_write_text(w, ws, row, COL_VALUE, "Value", w->header_right);
    wb_write_text(w, ws, row, COL_VALUE + 1, "Share of capex", w->header_right);
    wb_write_text(w, ws, row, COL_VALUE + 2, "Capex lines (their prices: status)", w->header_indent);
    row++;
    /* TCO_STATUS_COUNT_OF: the row of prices edited in this workbook (none when the run wrote it). */
    static const tco_status order[] = {TCO_STATUS_QUOTE, TCO_STATUS_MEASURED, TCO_STATUS_SEED,   TCO_STATUS_STATED,
                                       TCO_STATUS_WHATIF, TCO_STATUS_COUNT_OF, TCO_STATUS_ILLUSTRATIVE};
    for (size_t o = 0; o < sizeof order / sizeof order[0] && w->err == TCO_OK; o++) {
        tco_status st = order[o];
        bool edited = st == TCO_STATUS_COUNT_OF;
        const char *name = edited ? TCO_INPUT_EDITED : tco_status_name(st);
        /* f: the live sum; named: the lines of this status, named live (each ", line (price: status)" when
         * its status is the row's, joined); lines: the text as the run wrote it, its cached value. */
        tco_strbuf f = {0}, named = {0}, lines = {0}, listed = {0};
        double sum = 0;
        const char *why = NULL;
        size_t n = 0;
        for (size_t k = 0; k < m->n_capex_basis && w->err == TCO_OK; k++) {
            const tco_item *line = &m->items[m->capex_basis[k].line];
            tco_strbuf status = {0}; /* the line's live status, in the sum and in the names */
            capex_line_status(w, k, &status);
            tco_strbuf_printf(&f, "%sIF(%s=\"%s\",%s%s,0)", k ? "+" : "=", tco_strbuf_str(&status), name, w->np,
                              line->name);
            tco_strbuf_printf(&named, "%sIF(%s=\"%s\",", k ? "&" : "", tco_strbuf_str(&status), name);
            if (status.failed)
                f.failed = true;
            tco_strbuf_free(&status);
            tco_strbuf run = {0};
            capex_line_text(w, k, &named, &run);
            tco_strbuf_append(&named, ",\"\")");
            if (!edited && tco_capex_status(m, k) == st) {
                tco_strbuf_append(&listed, tco_strbuf_str(&run));
                if (tco_formula_arith(TCO_OP_ADD, sum, line->value, &sum, &why) != TCO_OK)
                    w->err = tco_diag_set(w->diag, TCO_ERR_EVAL, "Summary, capex by status: %s: %s", line->name, why);
                n++;
            }
            if (run.failed)
                w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
            tco_strbuf_free(&run);
        }
        /* The lines as the run found them, without the first ", "; live, the same of the statuses the
         * Inputs read now, so that a price typed over moves its line's name as well as its capex. */
        tco_strbuf text = {0};
        if (edited && w->legend_n > 0) { /* none at first: 0, and what moves here is named on Inputs */
            static const char head[] = "each capex line whose price is typed over in this workbook (its Status on "
                                       "Inputs reads edited)";
            tco_strbuf_printf(&lines, "%s; none as tco wrote it", head);
            tco_strbuf_printf(&text, "=\"%s\"&IF(%s=\"\",\"; none as tco wrote it\",\": \"&MID(%s,3,32767))", head,
                              tco_strbuf_str(&named), tco_strbuf_str(&named));
        } else if (n > 0) {
            tco_strbuf_append(&lines, tco_strbuf_str(&listed) + 2);
            tco_strbuf_printf(&text, "=MID(%s,3,32767)", tco_strbuf_str(&named));
        }
        tco_strbuf_free(&named);
        tco_strbuf_free(&listed);
        if ((n == 0 && !(edited && w->legend_n > 0)) || w->err != TCO_OK) {
            tco_strbuf_free(&f);
            tco_strbuf_free(&lines);
            tco_strbuf_free(&text);
            continue;
        }
        tco_strbuf label = {0};
        if (edited)
            tco_strbuf_append(&label, "Capex on prices edited in this workbook");
        else
            tco_strbuf_printf(&label, "Capex on %s prices", st == TCO_STATUS_QUOTE  ? "quoted"
                                                            : st == TCO_STATUS_SEED ? "seed-figure"
                                                                                    : tco_status_name(st));
        wb_write_text(w, ws, row, COL_ITEM, tco_strbuf_str(&label), w->fmt_status[edited ? TCO_STATUS_WHATIF : st]);
        wb_write_text(w, ws, row, COL_UNIT, capex->unit, w->text);
        tco_strbuf_free(&label);
        wb_write_formula(w, ws, row, COL_VALUE, tco_strbuf_str(&f), wb_value_format(w, capex, sum, false), sum);
        /* Its share of capex: 0 when there is no capex (a tier that costs nothing). */
        double share = 0;
        if (capex->value != 0 && tco_formula_arith(TCO_OP_DIV, sum, capex->value, &share, &why) != TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_EVAL, "Summary, capex by status: %s", why);
        char c[4];
        wb_col_letters(COL_VALUE, c);
        tco_strbuf sf = {0};
        tco_strbuf_printf(&sf, "=IF(%s%s=0,0,%s%d/%s%s)", w->np, capex->name, c, row + 1, w->np, capex->name);
        wb_write_formula(w, ws, row, COL_VALUE + 1, tco_strbuf_str(&sf), w->fmt[TCO_FMT_PERCENT], share);
        tco_strbuf_free(&sf);
        /* The lines and their prices, wrapped across the columns to the By year table's Total (at least
         * three), so that the Summary prints one page wide at a legible size. */
        int last = wb_total_col(m->n_periods) > COL_VALUE + 4 ? wb_total_col(m->n_periods) : COL_VALUE + 4;
        wb_check(w, worksheet_merge_range(ws, (lxw_row_t)row, COL_VALUE + 2, (lxw_row_t)row, (lxw_col_t)last, "",
                                          w->source), "capex by status");
        if (f.failed || lines.failed || text.failed)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        else
            wb_write_formula_or_text(w, ws, row, COL_VALUE + 2, tco_strbuf_str(&text), w->source, 0,
                                     tco_strbuf_str(&lines));
        wb_set_row_lines(w, ws, row, wb_text_lines(tco_strbuf_str(&lines), (size_t)(16 * (last - COL_VALUE - 1))));
        tco_strbuf_free(&f);
        tco_strbuf_free(&lines);
        tco_strbuf_free(&text);
        row++;
    }
    return row;
}

/* "Capex sheet, capex_total" style pointer from a Summary row to the line it shows. */
static void write_summary_source(writer *w, lxw_worksheet *ws, int row, int col, const tco_item *it)
{
    tco_strbuf b = {0};
    if (it->kind == TCO_ITEM_INPUT)
        tco_strbuf_printf(&b, "%sInputs sheet, %s%s", w->sp, w->np, it->name);
    else
        tco_strbuf_printf(&b, "%s%s sheet, %s%s", w->sp, it->sheet, w->np, it->name);
    wb_write_text(w, ws, row, col, tco_strbuf_str(&b), w->source_nowrap);
    tco_strbuf_free(&b);
}

/* The Summary's label and value columns, in characters. */
#define SUMMARY_ITEM_WIDTH 58
#define SUMMARY_VALUE_WIDTH 16

/* Row @p row at least @p lines tall (a wrapped cell's), never lower than it is. */
static void summary_row_lines(writer *w, lxw_worksheet *ws, int row, size_t lines)
{
    lxw_row *r = lxw_worksheet_find_row(ws, (lxw_row_t)row);
    if (15.0 * (double)lines > (r ? r->height : LXW_DEF_ROW_HEIGHT))
        wb_set_row_lines(w, ws, row, lines);
}

static void write_summary(writer *w, lxw_worksheet *ws)
{
    const tco_model *m = w->m;
    tco_strbuf t = {0};
    /* A text value ("excl. VAT (recovered)", "on demand, used hours") wraps within the value column,
     * right-aligned as the numbers, rather than being cut at its edge when printed. */
    lxw_format *text_value = workbook_add_format(w->wb);
    format_set_align(text_value, LXW_ALIGN_RIGHT);
    format_set_text_wrap(text_value);
    wb_write_text(w, ws, ROW_TITLE, 0, m->scenario_title, w->title);
    tco_strbuf_printf(&t, "%s over %d year%s, scenario %s (%s, %s). Costs in %s, positive; TCO undiscounted, NPV discounted.", m->title,
                      m->n_years, m->n_years == 1 ? "" : "s", m->scenario_name, m->scenario_shown, m->template_shown,
                      w->opts->currency);
    wb_write_text(w, ws, ROW_NOTE, 0, tco_strbuf_str(&t), w->note);
    tco_strbuf_free(&t);
    write_headers(w, ws, ROW_HEADER, false, m->n_periods, "Key figures", true);
    w->current_sheet = -2;
    int row = ROW_FIRST;
    for (size_t k = 0; k < m->n_summary && w->err == TCO_OK; k++) {
        const tco_item *it = &m->items[m->summary[k]];
        if (it->kind == TCO_ITEM_YEARLY)
            continue;
        lxw_format *label = it->emphasis ? w->total_label : w->text;
        wb_write_text(w, ws, row, COL_ITEM, it->label, label);
        wb_write_text(w, ws, row, COL_UNIT, it->unit, label);
        tco_strbuf f = {0};
        tco_strbuf_printf(&f, "=%s%s", w->np, it->name);
        const char *text = wb_item_text(it);
        wb_write_formula_or_text(w, ws, row, COL_VALUE, tco_strbuf_str(&f),
                                 text ? text_value : wb_value_format(w, it, it->value, false), it->value, text);
        tco_strbuf_free(&f);
        summary_row_lines(w, ws, row, wb_text_lines(text, SUMMARY_VALUE_WIDTH));
        write_summary_source(w, ws, row, wb_source_col(m->n_periods, false), it);
        row++;
    }
    bool any_yearly = false;
    for (size_t k = 0; k < m->n_summary; k++)
        any_yearly |= m->items[m->summary[k]].kind == TCO_ITEM_YEARLY;
    int blocks[4], n_blocks = 0; /* the rows of the blocks' headers after Key figures */
    if (any_yearly && w->err == TCO_OK) {
        row++;
        blocks[n_blocks++] = row;
        write_headers(w, ws, row, true, m->n_periods, "By year", false);
        row++;
        for (size_t k = 0; k < m->n_summary && w->err == TCO_OK; k++) {
            int idx = m->summary[k];
            const tco_item *it = &m->items[idx];
            if (it->kind != TCO_ITEM_YEARLY)
                continue;
            wb_write_text(w, ws, row, COL_ITEM, it->label, it->emphasis ? w->total_label : w->text);
            wb_write_text(w, ws, row, COL_UNIT, it->unit, it->emphasis ? w->total_label : w->text);
            const placement *p = &w->place[idx];
            for (int y = 0; y < m->n_periods; y++) {
                tco_strbuf f = {0};
                char c[4];
                wb_col_letters(COL_VALUE + y, c);
                tco_strbuf_append(&f, "=");
                wb_append_sheet_ref(w, &f, m->sheets[p->sheet].name);
                tco_strbuf_printf(&f, "%s%d", c, p->row + 1);
                wb_write_formula(w, ws, row, COL_VALUE + y, tco_strbuf_str(&f),
                                 wb_value_format(w, it, it->years[y], false), it->years[y]);
                tco_strbuf_free(&f);
            }
            if (it->partner >= 0) {
                const tco_item *tot = &m->items[it->partner];
                tco_strbuf f = {0};
                tco_strbuf_printf(&f, "=%s%s", w->np, tot->name);
                wb_write_formula(w, ws, row, wb_total_col(m->n_periods), tco_strbuf_str(&f),
                                 wb_value_format(w, tot, tot->value, false), tot->value);
                tco_strbuf_free(&f);
            }
            row++;
        }
    }
    /* The checks block: the master check first; each a formula naming its line. */
    if (m->n_checks > 0 && w->err == TCO_OK) {
        row++;
        blocks[n_blocks++] = row;
        wb_write_text(w, ws, row, COL_ITEM, "Checks", w->header);
        wb_write_text(w, ws, row, COL_UNIT, "", w->header);
        wb_write_text(w, ws, row, COL_VALUE, "Result", w->header_right);
        row++;
        for (size_t k = 0; k < m->n_checks && w->err == TCO_OK; k++, row++) {
            const tco_item *it = &m->items[m->checks[k]];
            /* A long check's label wraps within its column (the label column is not cut when printed). */
            lxw_format *label = k == 0 ? w->total_label_wrap : w->text_wrap;
            wb_write_text(w, ws, row, COL_ITEM, it->label, label);
            summary_row_lines(w, ws, row, wb_text_lines(it->label, SUMMARY_ITEM_WIDTH));
            tco_strbuf f = {0};
            tco_strbuf_printf(&f, "=%s%s", w->np, it->name);
            wb_write_formula_or_text(w, ws, row, COL_VALUE, tco_strbuf_str(&f),
                                     wb_value_format(w, it, it->value, false), it->value, wb_item_text(it));
            tco_strbuf_free(&f);
            write_summary_source(w, ws, row, wb_source_col(m->n_periods, false), it);
        }
    }
    blocks[n_blocks] = row + 1; /* write_capex_status()'s header, when it writes one */
    int after = write_capex_status(w, ws, row);
    n_blocks += after > row;
    row = after;
    /* Say so when this is a what-if (--set) or priced from quotes. */
    /* 64 --set values of up to 512 bytes, each with its prior value, could pass a cell: the note
     * lists them up to about half a cell and counts the rest (Inputs shows every one). */
    tco_strbuf whatif = {0};
    size_t untold = 0;
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].original) {
            char num[32];
            tco_format_double(m->items[i].value, num);
            tco_strbuf one = {0};
            tco_strbuf_printf(&one, "%s%s = %s (was %s)", whatif.len ? ", " : "", m->items[i].name,
                              m->items[i].text ? m->items[i].text : num, m->items[i].original);
            tco_strbuf_append_capped(&whatif, tco_strbuf_str(&one), TCO_XLSX_CELL_MAX / 2, &untold);
            tco_strbuf_free(&one);
        }
    if (untold)
        tco_strbuf_printf(&whatif, "; %zu more (the Inputs sheet shows each value before --set)", untold);
    if (whatif.len) {
        row++;
        tco_strbuf note = {0};
        tco_strbuf_printf(&note, "What-if (--set): %s.", tco_strbuf_str(&whatif));
        wb_write_text(w, ws, row, COL_ITEM, tco_strbuf_str(&note), w->total_label);
        tco_strbuf_free(&note);
    }
    tco_strbuf_free(&whatif);
    if (m->quotes) {
        char asof[16];
        tco_format_date(m->as_of, asof);
        size_t used = 0;
        for (size_t q = 0; q < m->quotes->n; q++)
            used += m->quotes->quotes[q].status == TCO_QUOTE_USED;
        tco_strbuf note = {0};
        tco_strbuf_printf(&note, "Priced from vendor quotes valid on %s: %zu used (Quotes sheet), from ", asof, used);
        /* The files read, in the order given (a long list: the first few and a count). */
        size_t listed = 0;
        for (size_t f = 0; f < m->quotes->n_files; f++)
            if (listed < 8 && note.len + strlen(m->quotes->files[f]) < 2000)
                tco_strbuf_printf(&note, "%s%s", listed++ ? ", " : "", m->quotes->files[f]);
        if (listed < m->quotes->n_files)
            tco_strbuf_printf(&note, " and %zu more file%s", m->quotes->n_files - listed,
                              m->quotes->n_files - listed == 1 ? "" : "s");
        tco_strbuf_append(&note, ".");
        row++;
        wb_write_text(w, ws, row, COL_ITEM, tco_strbuf_str(&note), w->total_label);
        tco_strbuf_free(&note);
    }
    /* Say so when any price is illustrative (the catalog's own wording). */
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].kind == TCO_ITEM_INPUT && m->items[i].source && strstr(m->items[i].source, "illustrative")) {
            row++;
            wb_write_text(w, ws, row, COL_ITEM,
                          "Some inputs are illustrative (see their source on the Inputs sheet); replace them with "
                          "quotes before relying on these figures.",
                          w->note);
            break;
        }
    /* Print the figures, checks and notes above; the Contents below are links for the screen (on paper each
     * page's footer names its sheet), so that a Summary prints on one or two pages. */
    int last_col = wb_source_col(m->n_periods, false) > wb_total_col(m->n_periods) ? wb_source_col(m->n_periods, false)
                                                                                   : wb_total_col(m->n_periods);
    wb_check(w, worksheet_print_area(ws, 0, 0, (lxw_row_t)row, (lxw_col_t)last_col), "print area");
    /* Contents: a link to each sheet. */
    row += 2;
    /* An option of a comparison or an advice shows its Summary alone (wb_write_options()). */
    wb_write_text(w, ws, row++, COL_ITEM, *w->sp ? "Contents (hidden sheets: unhide one to read it)" : "Contents",
                  w->header);
    const char *builtin[] = {"Inputs", m->quotes ? "Quotes" : NULL};
    for (size_t s = 0; s < 3 + m->n_sheets && w->err == TCO_OK; s++) {
        const char *name = s < 2 ? builtin[s] : s - 2 < m->n_sheets ? m->sheets[s - 2].name
                           : m->n_charts > 0 ? "Charts" : NULL;
        if (name == NULL)
            continue;
        tco_strbuf url = {0};
        tco_strbuf_printf(&url, "internal:'%s%s'!A1", w->sp, name);
        wb_check(w, worksheet_write_url_opt(ws, (lxw_row_t)row++, COL_ITEM, tco_strbuf_str(&url), NULL, name, NULL),
                 "contents");
        tco_strbuf_free(&url);
    }
    if (m->n_conventions > 0 && w->err == TCO_OK) {
        tco_strbuf url = {0};
        tco_strbuf_printf(&url, "internal:'%sConventions'!A1", w->sp);
        wb_check(
            w, worksheet_write_url_opt(ws, (lxw_row_t)row++, COL_ITEM, tco_strbuf_str(&url), NULL, "Conventions", NULL),
            "contents");
        tco_strbuf_free(&url);
    }
    worksheet_set_column(ws, COL_ITEM, COL_ITEM, SUMMARY_ITEM_WIDTH, NULL);
    worksheet_set_column(ws, COL_UNIT, COL_UNIT, 13, NULL);
    worksheet_set_column(ws, COL_VALUE, (lxw_col_t)wb_total_col(m->n_periods), SUMMARY_VALUE_WIDTH, NULL);
    if (wb_source_col(m->n_periods, false) > wb_total_col(m->n_periods))
        worksheet_set_column(ws, (lxw_col_t)wb_source_col(m->n_periods, false),
                             (lxw_col_t)wb_source_col(m->n_periods, false), 30, NULL);
    wb_print_blocks(w, ws, blocks, (size_t)n_blocks);
    worksheet_activate(ws);
}

/* Add every sheet of w->m to w->wb: Summary, Inputs, Quotes, the template's sheets, Charts
 * (each name prefixed by w->sp, defined names by w->np, in a comparison). */
void wb_write_model(writer *w)
{
    const tco_model *m = w->m;
    w->fmt_item = NULL;
    w->place = calloc(m->n_items ? m->n_items : 1, sizeof *w->place);
    lxw_worksheet **calc = calloc(m->n_sheets ? m->n_sheets : 1, sizeof *calc);
    if (w->place == NULL || calc == NULL) {
        free(calc);
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return;
    }
    lxw_worksheet *summary = wb_add_sheet(w, "Summary", 0x70AD47, true);
    /* With a tier catalog beside the inputs, print the two tables on separate pages. */
    lxw_worksheet *inputs = w->err == TCO_OK ? wb_add_sheet(w, "Inputs", 0xFFC000, m->n_tiers == 0) : NULL;
    lxw_worksheet *quotes = m->quotes && w->err == TCO_OK ? wb_add_sheet(w, "Quotes", 0xFFC000, false) : NULL;
    for (size_t s = 0; s < m->n_sheets && w->err == TCO_OK; s++)
        calc[s] = wb_add_sheet(w, m->sheets[s].name, 0x808080, true);
    lxw_worksheet *charts = m->n_charts > 0 && w->err == TCO_OK ? wb_add_sheet(w, "Charts", 0x4472C4, true) : NULL;
    /* Last, so the other sheets keep their places (xl/worksheets/sheetN.xml). */
    lxw_worksheet *conventions =
        m->n_conventions > 0 && w->err == TCO_OK ? wb_add_sheet(w, "Conventions", 0x70AD47, true) : NULL;
    if (w->err == TCO_OK) {
        wb_write_inputs(w, inputs);
        if (quotes && w->err == TCO_OK)
            write_quotes(w, quotes);
        place_lines(w);
        tco_strbuf_free(&w->error_cells); /* made from the places */
        w->opex_sheet = w->opex_row = -1;
        if (m->role_opex >= 0 && m->items[m->role_opex].kind == TCO_ITEM_YEARLY) {
            w->opex_sheet = w->place[m->role_opex].sheet;
            w->opex_row = w->place[m->role_opex].row;
        }
        for (size_t s = 0; s < m->n_sheets && w->err == TCO_OK; s++)
            if (calc[s])
                write_calc_sheet(w, calc[s], (int)s);
        if (summary && w->err == TCO_OK)
            write_summary(w, summary);
        if (charts && w->err == TCO_OK)
            write_charts(w, charts);
        if (conventions && w->err == TCO_OK)
            write_conventions(w, conventions);
        if (w->opts->more_sheets && w->err == TCO_OK)
            w->opts->more_sheets(w, w->opts->more_ctx);
    }
    free(calc);
    free(w->place);
    w->place = NULL;
    tco_strbuf_free(&w->ref);
    tco_strbuf_free(&w->text_buf);
    tco_strbuf_free(&w->error_cells);
}


static void fill_one(writer *w, void *ctx)
{
    w->m = ctx;
    wb_write_model(w);
}

tco_error tco_workbook_write(const tco_model *m, const char *path, const tco_workbook_options *opts, tco_diag *diag)
{
    tco_strbuf title = {0}, subject = {0}, comments = {0};
    tco_strbuf_printf(&title, "%s: %s", m->title, m->scenario_title);
    tco_strbuf_printf(&subject, "TCO scenario %s", m->scenario_name);
    tco_strbuf_printf(&comments, "Generated by tco from %s and %s. Every derived cell is a live formula.",
                      m->scenario_shown, m->template_shown);
    tco_error e = title.failed || subject.failed || comments.failed
                      ? tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory")
                      : wb_write_book(path, opts, tco_strbuf_str(&title), tco_strbuf_str(&subject),
                                      tco_strbuf_str(&comments), fill_one, (void *)(uintptr_t)m, diag);
    tco_strbuf_free(&title);
    tco_strbuf_free(&subject);
    tco_strbuf_free(&comments);
    return e;
}
