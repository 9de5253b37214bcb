/* workbook.c - the XLSX renderer (libxlsxwriter): a scenario's sheets; compare.c adds the Compare sheet. */
#include "workbook.h"

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

#include "conventions.h"
#include "ini.h"
#include "output.h"
#include "strbuf.h"
#include "workbook_kit.h"
#include "risk_sheets.h"

const char *tco_workbook_item_name(const tco_model *model, int index)
{
    return model->items[index].name;
}

/* Year columns of calculation sheet @p s: the schedule sheet's run past Year N (tco_sheet.schedule);
 * -1 (the Summary's By year table) has the analysis period's. */
static int sheet_periods(const tco_model *m, int s)
{
    return s >= 0 && m->sheets[s].schedule ? m->n_schedule_periods : m->n_periods;
}

/* The Total column after @p periods year columns. */
static int total_col(int periods)
{
    return COL_VALUE + periods;
}

static int source_col(int periods, bool yearly)
{
    return yearly ? total_col(periods) + 1 : COL_VALUE + 1;
}

/* A per-month sheet: the month columns from COL_VALUE, then one subtotal column per fiscal year,
 * then the Total.  Fiscal years are counted from the first month's. */
static int n_fiscal_years(const tco_model *m)
{
    return m->n_months > 0 ? tco_model_fiscal_year(m, m->n_months - 1) - tco_model_fiscal_year(m, 0) + 1 : 0;
}

static int month_total_col(const tco_model *m)
{
    return COL_VALUE + m->n_months + n_fiscal_years(m);
}

/* Sheet name as it appears in a reference, always quoted ('Opex'!C5): a name
 * such as 2024, A1 or TRUE would otherwise be read as something else. */
void wb_append_sheet_ref(const writer *w, tco_strbuf *b, const char *sheet)
{
    tco_strbuf_append(b, "'");
    tco_strbuf_append(b, w->sp);
    for (const char *p = sheet; *p;) { /* a quote doubled; the runs between as they are */
        size_t run = strcspn(p, "'");
        tco_strbuf_append_n(b, p, run);
        p += run;
        if (*p == '\'') {
            tco_strbuf_append(b, "''");
            p++;
        }
    }
    tco_strbuf_append(b, "'!");
}

/* Append the cell address of 0-based (@p row, @p col): column letters and row number ("C5"), each
 * with a '$' when absolute ("$C$5"), as one piece. */
static void append_address(tco_strbuf *b, int row, int col, bool abs_row, bool abs_col)
{
    char t[32], digits[16];
    size_t n = 0, d = 0;
    if (abs_col)
        t[n++] = '$';
    n += wb_col_letters(col, t + n);
    if (abs_row)
        t[n++] = '$';
    for (unsigned v = (unsigned)row + 1; v > 0 || d == 0; v /= 10)
        digits[d++] = (char)('0' + v % 10);
    while (d > 0)
        t[n++] = digits[--d];
    tco_strbuf_put(b, t, n);
}

size_t wb_col_letters(int col, char out[4])
{
    char tmp[4];
    size_t n = 0;
    col++;
    while (col > 0 && n < 3) {
        tmp[n++] = (char)('A' + (col - 1) % 26);
        col = (col - 1) / 26;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
    return n;
}

/* "=SUM(C7:E7)", the cells of row @p row from column @p c1 to @p c2, in w->ref; NULL (and w->err set)
 * when out of memory. */
static const char *row_sum_text(writer *w, int row, int c1, int c2)
{
    tco_strbuf *b = &w->ref;
    tco_strbuf_clear(b);
    tco_strbuf_put(b, "=SUM(", 5);
    append_address(b, row, c1, false, false);
    tco_strbuf_put(b, ":", 1);
    append_address(b, row, c2, false, false);
    tco_strbuf_put(b, ")", 1);
    if (!b->failed)
        return tco_strbuf_str(b);
    if (w->err == TCO_OK)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    return NULL;
}

/* Append to @p b the reference to cell (row, col) of calc sheet @p sheet (-1 = Inputs), with the
 * sheet named unless it is the sheet being written; `abs` makes it $C$5. */
static void append_cell(writer *w, tco_strbuf *b, int sheet, int row, int col, bool abs_row, bool abs_col)
{
    if (sheet != w->current_sheet)
        wb_append_sheet_ref(w, b, sheet < 0 ? "Inputs" : w->m->sheets[sheet].name);
    append_address(b, row, col, abs_row, abs_col);
}

/* True if item @p idx uses error_cells, directly or through other lines (such a cell cannot be in
 * the count: it would refer to itself).  @p seen is a per-item memo: 0 unknown, 1 no, 2 yes. */
typedef struct err_dep_ctx {
    const tco_model *m;
    unsigned char *seen;
} err_dep_ctx;

static bool counts_errors(const tco_model *m, int idx, unsigned char *seen);

static tco_error err_dep_visit(void *vctx, tco_node *name)
{
    err_dep_ctx *c = vctx;
    return name->ref >= 0 && counts_errors(c->m, name->ref, c->seen) ? TCO_ERR_EVAL : TCO_OK; /* stop: found */
}

static bool counts_errors(const tco_model *m, int idx, unsigned char *seen)
{
    if (seen[idx] != 0)
        return seen[idx] == 2;
    const tco_item *it = &m->items[idx];
    bool uses = it->kind == TCO_ITEM_ERROR_COUNT;
    if (it->kind == TCO_ITEM_TOTAL)
        uses = counts_errors(m, it->partner, seen);
    else if (!uses && it->formula) { /* the loader refused cycles, and formulas nest at most 64 deep */
        err_dep_ctx c = {m, seen};
        uses = tco_formula_walk_names(it->formula, err_dep_visit, &c) != TCO_OK;
    }
    seen[idx] = uses ? 2 : 1;
    return uses;
}

/* Append "+SUM(ISERROR('Sheet'!$C$r1:$N$r2)*1)" for one block of cells (in an array formula: see
 * write_item_formula). */
static void append_error_block(writer *w, tco_strbuf *b, int sheet, int r1, int c1, int r2, int c2)
{
    char a[4], z[4];
    wb_col_letters(c1, a);
    wb_col_letters(c2, z);
    tco_strbuf_append(b, b->len ? "+SUM(ISERROR(" : "SUM(ISERROR(");
    wb_append_sheet_ref(w, b, sheet < 0 ? "Inputs" : w->m->sheets[sheet].name);
    tco_strbuf_printf(b, "$%s$%d:$%s$%d)*1)", a, r1 + 1, z, r2 + 1);
}

/* The workbook text of error_cells: the number of error values among the input cells and every
 * line cell (year columns and Totals, tier columns) that does not itself depend on error_cells. */
static void error_cells_text(writer *w, tco_strbuf *out)
{
    const tco_model *m = w->m;
    unsigned char *seen = calloc(m->n_items ? m->n_items : 1, 1);
    if (seen == NULL) {
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return;
    }
    tco_strbuf b = {0};
    /* Inputs: the value column of the scalar inputs, and the tier table (quoted prices are formulas). */
    int r1 = -1, r2 = -1, c1 = -1, c2 = -1;
    for (size_t i = 0; i < m->n_items; i++) {
        const placement *p = &w->place[i];
        if (p->sheet == PLACE_NONE)
            continue; /* not written (writer.needed) */
        if (m->items[i].kind == TCO_ITEM_INPUT) {
            r1 = r1 < 0 || p->row < r1 ? p->row : r1;
            r2 = p->row > r2 ? p->row : r2;
        } else if (m->items[i].kind == TCO_ITEM_TIER_INPUT) {
            c1 = c1 < 0 || p->col < c1 ? p->col : c1;
            c2 = p->col > c2 ? p->col : c2;
        }
    }
    if (r1 >= 0)
        append_error_block(w, &b, -1, r1, 2, r2, 2);
    if (c1 >= 0 && m->n_tiers > 0)
        append_error_block(w, &b, -1, ROW_FIRST, c1, ROW_FIRST + m->n_tiers - 1, c2);
    /* Calculation sheets: runs of rows (or of tier columns) whose lines do not use error_cells. */
    for (size_t s = 0; s < m->n_sheets; s++) {
        int run_start = -1, run_end = -1;
        bool tiered = m->sheets[s].tiered;
        int last_col = m->sheets[s].yearly    ? total_col(sheet_periods(m, (int)s))
                       : m->sheets[s].monthly ? month_total_col(m)
                                              : COL_VALUE;
        for (size_t i = 0; i <= m->n_items; i++) {
            bool member = false, cut = i == m->n_items;
            int at = -1;
            if (!cut) {
                const tco_item *it = &m->items[i];
                if (w->place[i].sheet != (int)s || it->kind == TCO_ITEM_TOTAL || it->sheet == NULL)
                    continue;
                at = tiered ? w->place[i].col : w->place[i].row;
                member = !counts_errors(m, (int)i, seen);
                cut = !member || (run_start >= 0 && at != run_end + 1);
            }
            if (cut && run_start >= 0) {
                if (tiered)
                    append_error_block(w, &b, (int)s, ROW_FIRST, run_start, ROW_FIRST + m->n_tiers - 1, run_end);
                else
                    append_error_block(w, &b, (int)s, run_start, COL_VALUE, run_end, last_col);
                run_start = -1;
            }
            if (member) {
                if (run_start < 0)
                    run_start = at;
                run_end = at;
            }
        }
    }
    free(seen);
    tco_strbuf_printf(out, "(%s)", b.len ? tco_strbuf_str(&b) : "0");
    tco_strbuf_free(&b);
}

/* Name text for the printer, appended to @p out: defined names for scalars; cell references for the
 * same year or tier; a whole row or column range as the only argument of SUM/MIN/MAX.  A use of
 * error_cells is noted in w->error_cells_used (write_item_formula() writes such a formula as an array). */
static bool name_text(void *vctx, const tco_node *n, tco_ref_mode mode, tco_strbuf *out)
{
    bool whole = mode == TCO_REF_WHOLE;
    writer *w = vctx;
    const tco_item *it = &w->m->items[n->ref];
    const placement *p = &w->place[n->ref];
    switch (it->kind) {
    case TCO_ITEM_YEARLY:
        if (mode == TCO_REF_TO_DATE) { /* $C7:E7: anchored at Year 1, up to this year */
            append_cell(w, out, p->sheet, p->row, COL_VALUE, false, true);
            tco_strbuf_put(out, ":", 1);
            append_address(out, p->row, COL_VALUE + w->current_year, false, false);
        } else if (whole) {
            append_cell(w, out, p->sheet, p->row, COL_VALUE, true, true);
            tco_strbuf_put(out, ":", 1);
            append_address(out, p->row, COL_VALUE + tco_item_periods(w->m, it) - 1, true, true);
        } else {
            append_cell(w, out, p->sheet, p->row, COL_VALUE + w->current_year, false, false);
        }
        return true;
    case TCO_ITEM_YEAR_INDEX:
        append_address(out, ROW_HEADER, COL_VALUE + w->current_year, true, false);
        return true;
    case TCO_ITEM_TIER_INPUT: case TCO_ITEM_TIER_LINE: case TCO_ITEM_TIER_CODE:
        if (whole) {
            append_cell(w, out, p->sheet, p->row, p->col, true, true);
            tco_strbuf_put(out, ":", 1);
            append_address(out, p->row + w->m->n_tiers - 1, p->col, true, true);
        } else {
            append_cell(w, out, p->sheet, p->row + w->current_tier, p->col, false, false);
        }
        return true;
    case TCO_ITEM_ERROR_COUNT: /* the same text for every use: made once (a walk over the whole model) */
        if (w->error_cells.len == 0)
            error_cells_text(w, &w->error_cells);
        if (w->error_cells.failed && w->err == TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        tco_strbuf_put(out, tco_strbuf_str(&w->error_cells), w->error_cells.len);
        w->error_cells_used = true;
        return true;
    case TCO_ITEM_MONTHLY:
        if (mode == TCO_REF_TO_DATE) { /* $C7:E7: anchored at Month 1, up to this month */
            append_cell(w, out, p->sheet, p->row, COL_VALUE, false, true);
            tco_strbuf_put(out, ":", 1);
            append_address(out, p->row, COL_VALUE + w->current_month, false, false);
        } else if (whole) { /* the months only: the fiscal-year subtotals and the Total follow them */
            append_cell(w, out, p->sheet, p->row, COL_VALUE, true, true);
            tco_strbuf_put(out, ":", 1);
            append_address(out, p->row, COL_VALUE + w->m->n_months - 1, true, true);
        } else {
            append_cell(w, out, p->sheet, p->row, COL_VALUE + w->current_month, false, false);
        }
        return true;
    case TCO_ITEM_MONTH_INDEX:
        append_address(out, ROW_HEADER, COL_VALUE + w->current_month, true, false);
        return true;
    default:
        tco_strbuf_put(out, w->np, strlen(w->np));
        tco_strbuf_put(out, it->name, strlen(it->name));
        return true;
    }
}

/* The worksheet name of sheet @p base in this model: "Opex", or "A Opex" in a comparison. */
static const char *sname(writer *w, const char *base)
{
    snprintf(w->sheetbuf, sizeof w->sheetbuf, "%s%s", w->sp, base);
    return w->sheetbuf;
}

bool wb_check(writer *w, lxw_error e, const char *what)
{
    if (e == LXW_NO_ERROR || w->err != TCO_OK)
        return w->err == TCO_OK;
    w->err = tco_diag_set(w->diag, TCO_ERR_CANTCREATE, "%s: %s", what, lxw_strerror(e));
    return false;
}

/* The number format for @p v: inputs blue on yellow, structural inputs grey, totals bold with a rule. */
/* Widen *@p cents and *@p sci for the @p n values @p v of money item @p money (see wb_value_format()). */
static void format_needs(const double *v, size_t n, bool money, bool *cents, bool *sci)
{
    for (size_t k = 0; v && k < n; k++) {
        *cents |= money && v[k] != floor(v[k]) && fabs(v[k]) < 1000;
        *sci |= fabs(v[k]) >= 1e10;
    }
}

/* Every value of @p it's cells (value, each year, month or tier), and of its Total or per-year partner. */
static void item_format_needs(const tco_model *m, const tco_item *it, bool money, bool *cents, bool *sci, int depth)
{
    format_needs(&it->value, 1, money, cents, sci);
    if (it->kind == TCO_ITEM_YEARLY || it->kind == TCO_ITEM_MONTHLY)
        format_needs(it->years, (size_t)tco_item_periods(m, it), money, cents, sci);
    else if (it->kind == TCO_ITEM_TIER_INPUT || it->kind == TCO_ITEM_TIER_LINE)
        format_needs(it->tiers, (size_t)m->n_tiers, money, cents, sci);
    if (depth == 0 && it->partner >= 0 && (size_t)it->partner < m->n_items)
        item_format_needs(m, &m->items[it->partner], money, cents, sci, 1);
}

lxw_format *wb_value_format(writer *w, const tco_item *it, double v, bool input)
{
    return wb_values_format(w, it, &v, 1, input);
}

/* The format of a cell of @p it whose values need cents (@p cents) or, beyond ten digits, the scientific
 * format (@p sci); @p input for an input's cell. */
static lxw_format *pick_format(writer *w, const tco_item *it, bool input, bool cents, bool sci)
{
    if (sci && it->format != TCO_FMT_PERCENT && it->format != TCO_FMT_YESNO)
        return input ? w->fmt_input_sci : w->fmt_sci;
    if (cents)
        return input ? w->fmt_input_money_cents : w->fmt_money_cents;
    if (input)
        return w->fmt_input[it->format];
    return it->emphasis ? w->fmt_total[it->format] : w->fmt[it->format];
}

lxw_format *wb_values_format(writer *w, const tco_item *it, const double *v, size_t n, bool input)
{
    if (input && it->structural)
        return w->fmt_fixed[it->format];
    /* One format for all of an item's cells (a row of years and its Total, a column of tiers): cents
     * when a money value below 1,000 has them, and beyond ten digits (FLOP counts, token counts), where
     * a grouped number would not fit, 4.20E+22. */
    bool money = it->format == TCO_FMT_MONEY, cents = false, sci = false;
    format_needs(v, n, money, &cents, &sci);
    item_format_needs(w->m, it, money, &cents, &sci, 0);
    return pick_format(w, it, input, cents, sci);
}

/* wb_value_format(w, @p it, @p v, false) for each cell of a line: what the item's values need
 * (item_format_needs()) is found once for the item, not for each of its year, month or tier cells. */
static lxw_format *line_format(writer *w, const tco_item *it, double v)
{
    bool money = it->format == TCO_FMT_MONEY;
    if (w->fmt_item != it) {
        w->needs_cents = w->needs_sci = false;
        item_format_needs(w->m, it, money, &w->needs_cents, &w->needs_sci, 0);
        w->fmt_item = it;
    }
    bool cents = w->needs_cents, sci = w->needs_sci;
    format_needs(&v, 1, money, &cents, &sci);
    return pick_format(w, it, false, cents, sci);
}

static lxw_format *header_format(writer *w, bool right)
{
    lxw_format *f = workbook_add_format(w->wb);
    format_set_bold(f);
    format_set_bottom(f, LXW_BORDER_THIN);
    format_set_bg_color(f, 0xD9E1F2);
    if (right)
        format_set_align(f, LXW_ALIGN_RIGHT);
    else /* one step in: a left header never runs into a right-aligned one before it ("Value Name") */
        format_set_indent(f, 1);
    return f;
}

static void make_formats(writer *w)
{
    lxw_workbook *wb = w->wb;
    w->title = workbook_add_format(wb);
    format_set_bold(w->title);
    format_set_font_size(w->title, 14);
    w->note = workbook_add_format(wb);
    format_set_italic(w->note);
    format_set_font_color(w->note, 0x595959);
    w->header = header_format(w, false);
    w->header_right = header_format(w, true);
    w->header_year = header_format(w, true);
    format_set_num_format(w->header_year, "\"Year \"0");
    w->header_month = header_format(w, true);
    format_set_num_format(w->header_month, "\"Month \"0");
    w->text = workbook_add_format(wb);
    w->text_right = workbook_add_format(wb);
    format_set_align(w->text_right, LXW_ALIGN_RIGHT);
    w->total_label = workbook_add_format(wb);
    format_set_bold(w->total_label);
    format_set_top(w->total_label, LXW_BORDER_THIN);
    w->text_wrap = workbook_add_format(wb);
    format_set_text_wrap(w->text_wrap);
    w->total_label_wrap = workbook_add_format(wb);
    format_set_bold(w->total_label_wrap);
    format_set_top(w->total_label_wrap, LXW_BORDER_THIN);
    format_set_text_wrap(w->total_label_wrap);
    /* Source text: grey, indented away from the numbers, wrapped. */
    w->source = workbook_add_format(wb);
    format_set_font_color(w->source, 0x595959);
    format_set_indent(w->source, 1);
    format_set_text_wrap(w->source);
    w->source_nowrap = workbook_add_format(wb);
    format_set_font_color(w->source_nowrap, 0x595959);
    format_set_indent(w->source_nowrap, 1);

    char money[64], cents[64];
    snprintf(money, sizeof money, "#,##0 \"%s\"", w->opts->currency);
    snprintf(cents, sizeof cents, "#,##0.00 \"%s\"", w->opts->currency);
    const char *nums[TCO_FMT_COUNT_OF] = {
        [TCO_FMT_NUMBER] = "#,##0.00", [TCO_FMT_MONEY] = money,  [TCO_FMT_KW] = "#,##0.0",
        [TCO_FMT_PERCENT] = "0.0%",    [TCO_FMT_COUNT] = "#,##0", [TCO_FMT_RATIO] = "0.00",
        [TCO_FMT_YESNO] = "\"yes\";\"yes\";\"no\"",
        [TCO_FMT_NEVER] = "#,##0.0;-#,##0.0;\"never\"",
    };
    for (int i = 0; i < TCO_FMT_COUNT_OF; i++) {
        w->fmt[i] = workbook_add_format(wb);
        format_set_num_format(w->fmt[i], nums[i]);
        /* FAST / ICAEW: inputs in blue on pale yellow. */
        w->fmt_input[i] = workbook_add_format(wb);
        format_set_num_format(w->fmt_input[i], nums[i]);
        format_set_font_color(w->fmt_input[i], 0x0000FF);
        format_set_bg_color(w->fmt_input[i], 0xFFF2CC);
        w->fmt_total[i] = workbook_add_format(wb);
        format_set_num_format(w->fmt_total[i], nums[i]);
        format_set_bold(w->fmt_total[i]);
        format_set_top(w->fmt_total[i], LXW_BORDER_THIN);
        /* Structural inputs (fixed by the scenario): black on grey. */
        w->fmt_fixed[i] = workbook_add_format(wb);
        format_set_num_format(w->fmt_fixed[i], nums[i]);
        format_set_bg_color(w->fmt_fixed[i], 0xE7E6E6);
    }
    w->fmt_input_text = workbook_add_format(wb);
    format_set_font_color(w->fmt_input_text, 0x0000FF);
    format_set_bg_color(w->fmt_input_text, 0xFFF2CC);
    format_set_align(w->fmt_input_text, LXW_ALIGN_RIGHT);
    w->header_indent = header_format(w, false);
    format_set_indent(w->header_indent, 1);
    w->header_wrap = header_format(w, true);
    format_set_text_wrap(w->header_wrap);
    format_set_align(w->header_wrap, LXW_ALIGN_VERTICAL_BOTTOM);
    w->fmt_bool = workbook_add_format(wb);
    format_set_num_format(w->fmt_bool, "\"TRUE\";\"TRUE\";\"FALSE\"");
    format_set_bold(w->fmt_bool);
    w->fmt_sci = workbook_add_format(wb);
    format_set_num_format(w->fmt_sci, "0.00E+00");
    w->fmt_input_sci = workbook_add_format(wb);
    format_set_num_format(w->fmt_input_sci, "0.00E+00");
    format_set_font_color(w->fmt_input_sci, 0x0000FF);
    format_set_bg_color(w->fmt_input_sci, 0xFFF2CC);
    w->fmt_money_cents = workbook_add_format(wb);
    format_set_num_format(w->fmt_money_cents, cents);
    w->fmt_input_money_cents = workbook_add_format(wb);
    format_set_num_format(w->fmt_input_money_cents, cents);
    format_set_font_color(w->fmt_input_money_cents, 0x0000FF);
    format_set_bg_color(w->fmt_input_money_cents, 0xFFF2CC);
    /* Status fills (the legend below the inputs explains them): green for a quote, blue measured,
     * lavender a seed figure, grey stated, amber a what-if, orange illustrative. */
    static const lxw_color_t fills[TCO_STATUS_COUNT_OF] = {
        [TCO_STATUS_QUOTE] = 0xC6EFCE,  [TCO_STATUS_MEASURED] = 0xBDD7EE,     [TCO_STATUS_SEED] = 0xE4DFEC,
        [TCO_STATUS_STATED] = 0xEDEDED, [TCO_STATUS_WHATIF] = 0xFFEB9C, [TCO_STATUS_ILLUSTRATIVE] = 0xF8CBAD,
    };
    for (int i = 0; i < TCO_STATUS_COUNT_OF; i++) {
        w->fmt_status[i] = workbook_add_format(wb);
        format_set_bg_color(w->fmt_status[i], fills[i]);
        format_set_border(w->fmt_status[i], LXW_BORDER_HAIR);
    }
}

const char *wb_xl_text(writer *w, const char *s);

/* Printing (issue 11 §9): A4 landscape between 0.25" side margins and 0.75" top and bottom.  Sizes are
 * in pixels of the sheet at 100% (96 per inch; a column of width W characters is 7 W + 5 pixels with the
 * default 11-point Calibri, as libxlsxwriter and Excel count).  A sheet is fitted to one page wide when
 * that keeps it at PRINT_MIN_SCALE % or more (11 pt x 0.75 = 8.25 pt); a wider one prints at
 * PRINT_WIDE_SCALE % with its first columns and header row repeated on every page. */
#define PRINT_MARGIN_LR 0.25
#define PRINT_WIDTH_PX ((297.0 / 25.4 - 2 * PRINT_MARGIN_LR) * 96)
#define PRINT_HEIGHT_PX ((210.0 / 25.4 - 2 * 0.75) * 96)
#define PRINT_MIN_SCALE 75
#define PRINT_WIDE_SCALE 80
#define PRINT_LO_WIDER 1.08

/* Width of column @p col in pixels, as libxlsxwriter sizes it for charts (64 when not set). */
static double col_px(const lxw_worksheet *ws, int col)
{
    for (int c = 0; c < ws->col_options_max; c++) {
        const lxw_col_options *o = ws->col_options[c];
        if (o && col >= o->firstcol && col <= o->lastcol)
            return o->hidden || o->width == 0 ? 0 : o->width < 1 ? floor(o->width * 12 + 0.5)
                                                                  : floor(o->width * 7 + 0.5) + 5;
    }
    return 64;
}

static double cols_px(const lxw_worksheet *ws, int first, int last)
{
    double px = 0;
    for (int c = first; c <= last; c++)
        px += col_px(ws, c);
    return px;
}

/* The print scale that fits @p px pixels in one page's width, at most 100. */
static int fit_scale(double px)
{
    return px <= PRINT_WIDTH_PX ? 100 : (int)floor(PRINT_WIDTH_PX * 100 / px);
}

/* Print layout of one worksheet once it is written: the columns up to the first manual column break
 * (Inputs: the inputs, not the tier table to the right) or the last column used, one page wide when
 * that stays legible.  A sheet with manual breaks takes the scale itself (Excel ignores manual breaks
 * under "fit to").  A sheet whose writer set a scale (Charts) keeps it. */
void wb_print_layout(writer *w, lxw_worksheet *ws)
{
    if (!ws->fit_page && ws->print_scale != 100) /* laid out by its writer (Charts) */
        return;
    int last = ws->vbreaks_count > 0 && ws->vbreaks[0] > 0 ? (int)ws->vbreaks[0] - 1 : (int)ws->dim_colmax;
    /* A scale tco sets (manual breaks) must hold in LibreOffice too, whose columns print about 8%
     * wider than Excel's for the same width in characters; "fit to" lets each application fit itself. */
    double px = cols_px(ws, 0, last);
    int scale = fit_scale(ws->vbreaks_count > 0 ? px * PRINT_LO_WIDER : px);
    /* A Quotes sheet repeats who quoted what (Vendor, Quote id, Item); the others their label columns. */
    size_t n = strlen(ws->name);
    bool quotes = strcmp(ws->name, "Quotes") == 0 || (n == 8 && ws->name[1] == ' ' && strcmp(ws->name + 2, "Quotes") == 0);
    if (scale >= PRINT_MIN_SCALE && ws->vbreaks_count == 0)
        worksheet_fit_to_pages(ws, 1, 0);
    else if (scale >= PRINT_MIN_SCALE)
        worksheet_set_print_scale(ws, (uint16_t)scale);
    else {
        worksheet_set_print_scale(ws, PRINT_WIDE_SCALE);
        if (!ws->repeat_cols.in_use) /* a per-tier sheet repeats its Tier column (write_tier_sheet) */
            wb_check(w, quotes ? worksheet_repeat_columns(ws, 2, 4) : worksheet_repeat_columns(ws, 0, 1), ws->name);
    }
}

static void print_layout_all(writer *w)
{
    lxw_sheet *sh;
    if (w->err != TCO_OK)
        return;
    STAILQ_FOREACH(sh, w->wb->sheets, list_pointers)
        if (!sh->is_chartsheet)
            wb_print_layout(w, sh->u.worksheet);
}

lxw_worksheet *wb_add_sheet(writer *w, const char *base, lxw_color_t tab, bool fit_width)
{
    const char *name = sname(w, base);
    lxw_worksheet *ws = workbook_add_worksheet(w->wb, name);
    if (ws == NULL) {
        if (w->err == TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_CANTCREATE, "cannot add worksheet '%s'", name);
        return NULL;
    }
    worksheet_set_tab_color(ws, tab);
    worksheet_set_landscape(ws);
    worksheet_set_paper(ws, 9); /* A4 */
    worksheet_set_margins(ws, PRINT_MARGIN_LR, PRINT_MARGIN_LR, 0.75, 0.75); /* Excel's "Narrow" sides */
    if (fit_width)
        worksheet_fit_to_pages(ws, 1, 0);
    wb_check(w, worksheet_repeat_rows(ws, ROW_HEADER, ROW_HEADER), name);
    worksheet_freeze_panes(ws, ROW_FIRST, 1);
    tco_strbuf footer = {0};
    /* &A sheet name, &P page, &N pages; '&' in the scenario name is doubled. */
    tco_strbuf_append(&footer, "&L&A&C");
    /* Excel caps a footer at 255 characters: at most 200 from the scenario name. */
    const char *fname = w->footer ? w->footer : w->m->scenario_name;
    /* At most 60 characters (whole UTF-8 sequences) of the name, within Excel's 255. */
    size_t chars = 0;
    for (const char *p = fname; *p && !(((unsigned char)*p & 0xC0) != 0x80 && chars++ >= 60); p++)
        tco_strbuf_append(&footer, *p == '&' ? "&&" : (char[2]){*p, '\0'});
    tco_strbuf_append(&footer, "&RPage &P of &N");
    const char *ft = footer.failed ? NULL : wb_xl_text(w, tco_strbuf_str(&footer));
    if (ft && tco_utf16_units(ft) <= 255)
        wb_check(w, worksheet_set_footer(ws, ft), name);
    tco_strbuf_free(&footer);
    return ws;
}

/* Text for a cell, data-validation message or footer, with Excel's escape before every literal
 * "_xHHHH_" (tco_xlsx_escape()).  Valid until the next call; NULL when out of memory. */
const char *wb_xl_text(writer *w, const char *s)
{
    w->text_buf.len = 0;
    if (w->text_buf.data)
        w->text_buf.data[0] = '\0';
    tco_xlsx_escape(s, &w->text_buf);
    if (w->text_buf.failed) {
        if (w->err == TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return NULL;
    }
    return tco_strbuf_str(&w->text_buf);
}

void wb_write_text(writer *w, lxw_worksheet *ws, int row, int col, const char *s, lxw_format *f)
{
    /* worksheet_write_string always stores text, so "=..." from a file stays text.  The
     * readers check every text against the cell limit; this is the last guard. */
    if (s == NULL || s[0] == '\0' || w->err != TCO_OK)
        return;
    /* Without a '_' no escape applies, and no text holds more UTF-16 units than bytes: such text of at
     * most a cell's length in bytes is written as it is (most labels, units and sources). */
    if (strchr(s, '_') == NULL && strnlen(s, TCO_XLSX_CELL_MAX + 1) <= TCO_XLSX_CELL_MAX) {
        wb_check(w, worksheet_write_string(ws, (lxw_row_t)row, (lxw_col_t)col, s, f), "writing text");
        return;
    }
    if (tco_xlsx_text_units(s) > TCO_XLSX_CELL_MAX) {
        w->err = tco_diag_set(w->diag, TCO_ERR_EVAL, "text '%.*s...' is %zu characters, more than a cell holds (%d)",
                              (int)tco_utf8_prefix(s, 60), s, tco_xlsx_text_units(s), TCO_XLSX_CELL_MAX);
        return;
    }
    const char *t = wb_xl_text(w, s);
    if (t)
        wb_check(w, worksheet_write_string(ws, (lxw_row_t)row, (lxw_col_t)col, t, f), "writing text");
}

void wb_write_formula(writer *w, lxw_worksheet *ws, int row, int col, const char *formula, lxw_format *f,
                      double value)
{
    wb_check(w, worksheet_write_formula_num(ws, (lxw_row_t)row, (lxw_col_t)col, formula, f, value), formula);
}

void wb_chart_cache(writer *w, lxw_series_range *range, const double *values, const bool *numeric, size_t n)
{
    if (range == NULL || range->data_cache == NULL || !STAILQ_EMPTY(range->data_cache) || n > UINT16_MAX)
        return; /* nothing to fill, or not a range this writer made: the library's own cache stays */
    range->ignore_cache = LXW_TRUE; /* from now the list is ours: the library neither reads nor adds */
    for (size_t k = 0; k < n; k++) {
        lxw_series_data_point *p = calloc(1, sizeof *p); /* freed by the library with the chart */
        if (p == NULL) {
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
            return;
        }
        p->number = values[k];
        p->no_data = numeric != NULL && !numeric[k];
        STAILQ_INSERT_TAIL(range->data_cache, p, list_pointers);
        range->num_data_points = (uint16_t)(k + 1);
    }
}

/* A formula whose cached result is @p text when that is not NULL (a line that says "never" or
 * "n.a.: ..."), else the number @p value. */
void wb_write_formula_or_text(writer *w, lxw_worksheet *ws, int row, int col, const char *formula, lxw_format *f,
                              double value, const char *text)
{
    if (text == NULL) {
        wb_write_formula(w, ws, row, col, formula, f, value);
        return;
    }
    const char *t = wb_xl_text(w, text);
    if (t)
        wb_check(w, worksheet_write_formula_str(ws, (lxw_row_t)row, (lxw_col_t)col, formula, f, t), formula);
}

/* The text a scalar line or text input holds instead of a number, else NULL. */
const char *wb_item_text(const tco_item *it)
{
    return it->kind == TCO_ITEM_LINE || it->kind == TCO_ITEM_INPUT ? it->text : NULL;
}

/* Write item @p idx's formula for the current year/scalar context at (row, col). */
static void write_item_formula(writer *w, lxw_worksheet *ws, int idx, int row, int col, double value)
{
    const tco_item *it = &w->m->items[idx];
    tco_strbuf *f = &w->ref; /* emptied, not freed: one buffer for every formula */
    tco_strbuf_clear(f);
    tco_strbuf_put(f, "=", 1);
    w->error_cells_used = false;
    tco_formula_print(it->formula, name_text, w, f);
    if (f->failed)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    else if (f->len - 1 > TCO_FORMULA_MAX_LEN && w->err == TCO_OK)
        w->err = tco_diag_set(w->diag, TCO_ERR_SYNTAX,
                              "%s: the workbook formula would be %zu characters long, Excel allows %d", it->where,
                              f->len - 1, TCO_FORMULA_MAX_LEN);
    else if (w->error_cells_used)
        /* ISERROR over a range counts cell by cell only in an array formula: Gnumeric intersects a
         * range with the formula's row in an ordinary one, even inside SUMPRODUCT. */
        wb_check(w,
                 worksheet_write_array_formula_num(ws, (lxw_row_t)row, (lxw_col_t)col, (lxw_row_t)row, (lxw_col_t)col,
                                                   tco_strbuf_str(f), line_format(w, it, value), value),
                 it->name);
    else
        wb_write_formula_or_text(w, ws, row, col, tco_strbuf_str(f), line_format(w, it, value), value,
                                 it->kind == TCO_ITEM_LINE ? it->text : NULL);
}

/* Name the cell (@p row, @p col) of @p sheet: held in w->names until define_names().  The key (the name
 * in lower case), the name and its target ("='Sheet'!$C$5", built in w->ref) share one allocation. */
void wb_define_name(writer *w, const char *name, const char *sheet, int row, int col)
{
    tco_strbuf *b = &w->ref;
    tco_strbuf_clear(b);
    tco_strbuf_put(b, "=", 1);
    wb_append_sheet_ref(w, b, sheet);
    append_address(b, row, col, true, true);
    pending_names *p = w->names;
    size_t pl = strlen(w->np), bl = strlen(name), nl = pl + bl;
    char *text = b->failed ? NULL : malloc(2 * (nl + 1) + b->len + 1);
    if (text != NULL && p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 256;
        pending_name *grown = realloc(p->v, cap * sizeof *grown);
        if (grown == NULL) {
            free(text);
            text = NULL;
        } else {
            p->v = grown;
            p->cap = cap;
        }
    }
    if (text == NULL) {
        if (w->err == TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return;
    }
    pending_name *pn = &p->v[p->n++];
    pn->key = text;
    pn->name = text + nl + 1;
    pn->formula = pn->name + nl + 1;
    memcpy(pn->name, w->np, pl);
    memcpy(pn->name + pl, name, bl + 1);
    for (size_t i = 0; i <= nl; i++)
        pn->key[i] = (char)tolower((unsigned char)pn->name[i]);
    memcpy(pn->formula, tco_strbuf_str(b), b->len + 1);
}

static int pending_name_descending(const void *a, const void *b)
{
    return strcmp(((const pending_name *)b)->key, ((const pending_name *)a)->key);
}

/* Give libxlsxwriter the held names and free them.  It keeps its names in a list sorted by the lower-case
 * name and puts a new one before the first that is not smaller, scanning from the head; given in
 * descending order each goes to the head at once (n^2/2 comparisons otherwise: 30 s for 49,000 names).
 * The list, and so the workbook, is the same whatever the order of the calls. */
static void define_names(writer *w)
{
    pending_names *p = w->names;
    if (p->n > 1)
        qsort(p->v, p->n, sizeof *p->v, pending_name_descending);
    for (size_t i = 0; i < p->n && w->err == TCO_OK; i++) {
        /* libxlsxwriter refuses a name it has, except one equal to its head, which it would keep twice. */
        if (i > 0 && strcmp(p->v[i].key, p->v[i - 1].key) == 0)
            w->err = tco_diag_set(w->diag, TCO_ERR_DUPLICATE, "%s: the workbook would define this name twice",
                                  p->v[i].name);
        else
            wb_check(w, workbook_define_name(w->wb, p->v[i].name, p->v[i].formula), p->v[i].name);
    }
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].key);
    free(p->v);
    *p = (pending_names){0};
}

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
        wb_write_text(w, ws, row, total_col(periods), "Total", w->header_right);
    } else {
        wb_write_text(w, ws, row, COL_VALUE, "Value", w->header_right);
    }
    if (source)
        wb_write_text(w, ws, row, source_col(periods, yearly), "Source / basis", w->header_indent);
}

/* Width of the wrapped source columns, in characters. */
#define SOURCE_WIDTH 70

/* Neither libxlsxwriter nor LibreOffice's import fits row heights to wrapped
 * text, so set the height from the text length: 15 points a line. */
/* Per-year sheets: a narrower label and source column (wrapped), so that Year 0 to Year N, Total and the
 * source still print one page wide at 75% or more for a short period (wb_print_layout()). */
#define YEARLY_LABEL_WIDTH 50
/* A sheet of single values: the label column, wrapped too. */
#define SCALAR_LABEL_WIDTH 62
#define YEARLY_SOURCE_WIDTH 40

/* Lines @p text takes in a wrapped column @p width characters wide. */
size_t wb_text_lines(const char *text, size_t width)
{
    size_t len = text ? strlen(text) : 0;
    return (len + width - 9) / (width - 8); /* margin for word breaks and indent */
}

void wb_set_row_lines(writer *w, lxw_worksheet *ws, int row, size_t lines)
{
    /* Excel's tallest row is 409 points (27 lines); longer text scrolls within the cell. */
    double height = lines > 27 ? 409.0 : 15.0 * (double)lines;
    if (lines > 1)
        wb_check(w, worksheet_set_row(ws, (lxw_row_t)row, height, NULL), "row height");
}

static void fit_row(writer *w, lxw_worksheet *ws, int row, const char *text)
{
    wb_set_row_lines(w, ws, row, wb_text_lines(text, SOURCE_WIDTH));
}


/* Assign cells on the calculation sheets (needed before any formula is printed):
 * scalar and per-year lines one row each; per-tier lines one column each. */
static void place_lines(writer *w)
{
    const tco_model *m = w->m;
    for (size_t i = 0; w->needed && i < m->n_items; i++)
        if (m->items[i].sheet != NULL && !w->needed[i])
            w->place[i] = (placement){PLACE_NONE, 0, 0, 0}; /* not written (writer.needed) */
    for (size_t s = 0; s < m->n_sheets; s++) {
        int row = ROW_FIRST, col = COL_ITEM + 1;
        for (size_t i = 0; i < m->n_items; i++) {
            const tco_item *it = &m->items[i];
            if (it->kind == TCO_ITEM_TOTAL || it->sheet == NULL || strcmp(it->sheet, m->sheets[s].name) != 0 ||
                (w->needed && !w->needed[i]))
                continue;
            if (it->kind == TCO_ITEM_TIER_LINE)
                w->place[i] = (placement){(int)s, ROW_FIRST, col++, 0};
            else
                w->place[i] = (placement){(int)s, row++, COL_VALUE, 0};
        }
    }
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].kind == TCO_ITEM_TOTAL && w->place[m->items[i].partner].sheet != PLACE_NONE) {
            w->place[i] = w->place[m->items[i].partner];
            w->place[i].col = total_col(tco_item_periods(m, &m->items[i]));
        } else if (m->items[i].kind == TCO_ITEM_TOTAL) {
            w->place[i] = (placement){PLACE_NONE, 0, 0, 0};
        }
}

/* True when sheet @p s of w->m has a line to write (writer.needed). */
static bool sheet_needed(const writer *w, size_t s)
{
    for (size_t i = 0; i < w->m->n_items; i++) {
        const tco_item *it = &w->m->items[i];
        if (it->sheet != NULL && w->needed[i] && strcmp(it->sheet, w->m->sheets[s].name) == 0)
            return true;
    }
    return false;
}

/* A per-tier sheet: one row per tier, one column per line, the same formula down each column. */
static void write_tier_sheet(writer *w, lxw_worksheet *ws, int s)
{
    const tco_model *m = w->m;
    wb_write_text(w, ws, ROW_HEADER, COL_ITEM, "Tier", w->header);
    for (int r = 0; r < m->n_tiers; r++)
        wb_write_text(w, ws, ROW_FIRST + r, COL_ITEM, m->tier_names[r], w->text);
    int notes = ROW_FIRST + m->n_tiers + 1;
    wb_write_text(w, ws, notes++, COL_ITEM, "Columns", w->total_label);
    int last = COL_ITEM;
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind != TCO_ITEM_TIER_LINE || w->place[i].sheet != s)
            continue;
        int col = w->place[i].col;
        tco_strbuf h = {0};
        tco_strbuf_printf(&h, "%s (%s)", it->label, it->unit);
        wb_write_text(w, ws, ROW_HEADER, col, tco_strbuf_str(&h), w->header_wrap);
        tco_strbuf_free(&h);
        for (int r = 0; r < m->n_tiers; r++) {
            w->current_tier = r;
            write_item_formula(w, ws, (int)i, ROW_FIRST + r, col, it->tiers[r]);
        }
        w->current_tier = -1;
        tco_strbuf src = {0};
        tco_strbuf_printf(&src, "%s (%s, %s): %s", it->label, it->name, it->unit, it->source);
        wb_write_text(w, ws, notes++, COL_ITEM, tco_strbuf_str(&src), w->source_nowrap);
        tco_strbuf_free(&src);
        last = col;
    }
    worksheet_set_column(ws, COL_ITEM, COL_ITEM, 12, NULL);
    if (last > COL_ITEM)
        worksheet_set_column(ws, COL_ITEM + 1, (lxw_col_t)last, 14, NULL);
    wb_check(w, worksheet_set_row(ws, ROW_HEADER, 80, NULL), "row height");
    wb_check(w, worksheet_repeat_columns(ws, COL_ITEM, COL_ITEM), "print titles"); /* when printed wider than a page */
}

/* A per-month sheet: Month 1 to years x 12 (their calendar months above), a subtotal per fiscal
 * year, the Total, then the source. */
static void write_month_sheet(writer *w, lxw_worksheet *ws, int s)
{
    const tco_model *m = w->m;
    const tco_sheet *sh = &m->sheets[s];
    int n_fy = n_fiscal_years(m), fy0 = m->n_months > 0 ? tco_model_fiscal_year(m, 0) : 0;
    int tot_col = month_total_col(m), src_col = tot_col + 1;
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
        char label[32];
        snprintf(label, sizeof label, "FY%d", fy0 + f);
        wb_write_text(w, ws, ROW_HEADER, COL_VALUE + m->n_months + f, label, w->header_right);
    }
    wb_write_text(w, ws, ROW_HEADER, tot_col, "Total", w->header_right);
    wb_write_text(w, ws, ROW_HEADER, src_col, "Source / basis", w->header_indent);
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind != TCO_ITEM_MONTHLY || w->place[i].sheet != s)
            continue;
        int row = w->place[i].row;
        wb_write_text(w, ws, row, COL_ITEM, it->label, it->emphasis ? w->total_label : w->text);
        wb_write_text(w, ws, row, COL_UNIT, it->unit, it->emphasis ? w->total_label : w->text);
        for (int k = 0; k < m->n_months; k++) {
            w->current_month = k;
            w->current_year = tco_model_year_of_month(m, k); /* a per-year line: its month's year */
            write_item_formula(w, ws, (int)i, row, COL_VALUE + k, it->years[k]);
        }
        w->current_month = w->current_year = -1;
        /* Fiscal-year subtotals: SUM over that year's months, summed as the cells are. */
        for (int f = 0; f < n_fy; f++) {
            int k0 = -1, k1 = -1;
            double sum = 0;
            for (int k = 0; k < m->n_months; k++)
                if (tco_model_fiscal_year(m, k) == fy0 + f) {
                    if (k0 < 0)
                        k0 = k;
                    k1 = k;
                    sum += it->years[k];
                }
            const char *fml = row_sum_text(w, row, COL_VALUE + k0, COL_VALUE + k1);
            if (fml)
                wb_write_formula(w, ws, row, COL_VALUE + m->n_months + f, fml, wb_value_format(w, it, sum, false), sum);
        }
        if (it->partner >= 0) {
            const char *fml = row_sum_text(w, row, COL_VALUE, COL_VALUE + m->n_months - 1);
            const tco_item *tot = &m->items[it->partner];
            if (fml)
                wb_write_formula(w, ws, row, tot_col, fml, wb_value_format(w, tot, tot->value, false), tot->value);
            wb_define_name(w, tot->name, sh->name, row, tot_col);
        }
        wb_write_text(w, ws, row, src_col, it->source, w->source);
        fit_row(w, ws, row, it->source);
    }
    worksheet_set_column(ws, COL_ITEM, COL_ITEM, 48, NULL);
    worksheet_set_column(ws, COL_UNIT, COL_UNIT, 11, NULL);
    worksheet_set_column(ws, COL_VALUE, (lxw_col_t)tot_col, 12, NULL);
    worksheet_set_column(ws, (lxw_col_t)src_col, (lxw_col_t)src_col, SOURCE_WIDTH, NULL);
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
    int periods = sheet_periods(m, s);
    write_headers(w, ws, ROW_HEADER, sh->yearly, periods, "Item", true);
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
                write_item_formula(w, ws, (int)i, row, COL_VALUE + y, it->years[y]);
            }
            w->current_year = -1;
            if (it->partner >= 0) {
                const char *f = row_sum_text(w, row, COL_VALUE, COL_VALUE + periods - 1);
                const tco_item *tot = &m->items[it->partner];
                if (f)
                    wb_write_formula(w, ws, row, total_col(periods), f, wb_value_format(w, tot, tot->value, false),
                                     tot->value);
                wb_define_name(w, tot->name, sh->name, row, total_col(periods));
            }
        } else {
            write_item_formula(w, ws, (int)i, row, COL_VALUE, it->value);
            wb_define_name(w, it->name, sh->name, row, COL_VALUE);
        }
        wb_write_text(w, ws, row, source_col(periods, sh->yearly), it->source, w->source);
        /* The label wraps too on a per-year sheet: the row is as tall as the taller of the two. */
        if (sh->yearly)
            wb_set_row_lines(w, ws, row, wb_text_lines(it->source, YEARLY_SOURCE_WIDTH) > wb_text_lines(it->label, YEARLY_LABEL_WIDTH)
                                          ? wb_text_lines(it->source, YEARLY_SOURCE_WIDTH)
                                          : wb_text_lines(it->label, YEARLY_LABEL_WIDTH));
        else
            wb_set_row_lines(w, ws, row, wb_text_lines(it->source, SOURCE_WIDTH) > wb_text_lines(it->label, SCALAR_LABEL_WIDTH)
                                          ? wb_text_lines(it->source, SOURCE_WIDTH)
                                          : wb_text_lines(it->label, SCALAR_LABEL_WIDTH));
    }
    worksheet_set_column(ws, COL_ITEM, COL_ITEM, sh->yearly ? YEARLY_LABEL_WIDTH : SCALAR_LABEL_WIDTH, NULL);
    worksheet_set_column(ws, COL_UNIT, COL_UNIT, 13, NULL);
    int last = sh->yearly ? total_col(periods) : COL_VALUE;
    worksheet_set_column(ws, COL_VALUE, (lxw_col_t)last, 16, NULL);
    worksheet_set_column(ws, (lxw_col_t)(last + 1), (lxw_col_t)(last + 1),
                         sh->yearly ? YEARLY_SOURCE_WIDTH : SOURCE_WIDTH, NULL);
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
    tco_strbuf_printf(&note, "Vendor quotes read (%zu rows); each priced item takes the lowest quote valid on %s "
                      "whose minimum quantity the scenario meets (the choice is tco's, made at these rates). "
                      "Converted = unit price x the fx_ rate on Inputs, over 1 + VAT rate when the price includes "
                      "VAT (the model's prices exclude it); each input a quote prices (column Prices) is the same "
                      "live formula, so editing a rate moves the TCO.",
                      set->rows, asof);
    wb_write_text(w, ws, ROW_NOTE, 0, tco_strbuf_str(&note), w->note);
    tco_strbuf_free(&note);
    char converted_head[32];
    snprintf(converted_head, sizeof converted_head, "Converted ex VAT (%s)", tco_model_currency(m));
    const char *const heads[] = {"File", "Line", "Vendor", "Quote id", "Item", "Unit price", "Currency",
                                        "Rate", "VAT included", "VAT rate", converted_head, "Quote date",
                                        "Valid until", "Min qty", "Lead time (weeks)", "Status", "Prices", "Reason",
                                        "Notes"};
    /* Numbers right-aligned under right-aligned headers; text columns left, headers indented one step
     * so that a right-aligned header and the next left one never run together in print. */
    for (int c = 0; c < 19; c++)
        wb_write_text(w, ws, ROW_HEADER, c, heads[c],
                      c == 1 || c == 5 || (c >= 7 && c <= 10) || c == 13 || c == 14 ? w->header_right
                                                                                    : w->header_indent);
    int row = ROW_FIRST;
    for (size_t i = 0; i < set->n && w->err == TCO_OK; i++, row++) {
        const tco_quote *q = &set->quotes[i];
        char d[16];
        wb_write_text(w, ws, row, 0, q->file, w->text);
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, 1, (double)q->line, w->fmt[TCO_FMT_COUNT]), "quote");
        wb_write_text(w, ws, row, 2, q->vendor, w->text);
        wb_write_text(w, ws, row, 3, q->quote_id, w->text);
        wb_write_text(w, ws, row, 4, q->item, w->text);
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, 5, q->unit_price, w->fmt[TCO_FMT_NUMBER]), "quote");
        wb_write_text(w, ws, row, 6, q->currency, w->text);
        char rate_name[16];
        wb_quote_rate_name(m, q, rate_name);
        tco_strbuf f = {0};
        char c6[4], c8[4];
        wb_col_letters(QCOL_UNIT_PRICE, c6);
        wb_col_letters(QCOL_RATE, c8);
        if (rate_name[0]) {
            tco_strbuf_printf(&f, "=%s%s", w->np, rate_name);
            wb_write_formula(w, ws, row, 7, tco_strbuf_str(&f), w->fmt[TCO_FMT_RATIO], q->rate);
        } else {
            wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, 7, q->rate, w->fmt[TCO_FMT_RATIO]), "quote");
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
        wb_write_formula(w, ws, row, QCOL_CONVERTED, tco_strbuf_str(&f), w->fmt[TCO_FMT_NUMBER],
                         rep >= 0 ? conv / m->items[rep].value : conv);
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
        wb_write_text(w, ws, row, 15, tco_quote_status_name(q->status), w->text);
        if (prices[i].len)
            wb_write_text(w, ws, row, 16, tco_strbuf_str(&prices[i]), w->source_nowrap);
        wb_write_text(w, ws, row, 17, q->reason, w->source_nowrap);
        wb_write_text(w, ws, row, 18, q->notes, w->source_nowrap);
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
        wb_write_text(w, ws, row + 1, 0, tco_strbuf_str(&more), w->note);
        tco_strbuf_free(&more);
    }
    worksheet_set_column(ws, 0, 0, 30, NULL);
    worksheet_set_column(ws, 1, 1, 6, NULL);
    worksheet_set_column(ws, 2, 2, 24, NULL);
    worksheet_set_column(ws, 3, 4, 14, NULL);
    worksheet_set_column(ws, 5, 7, 15, NULL);
    worksheet_set_column(ws, 8, 9, 13, NULL);
    worksheet_set_column(ws, 10, 10, 22, NULL);
    worksheet_set_column(ws, 11, 14, 15, NULL);
    worksheet_set_column(ws, 15, 15, 22, NULL);
    worksheet_set_column(ws, 16, 16, 40, NULL);
    worksheet_set_column(ws, 17, 17, 80, NULL);
    worksheet_set_column(ws, 18, 18, 40, NULL);
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
    enum { ROW_PX = 20, CHART_W = 480, CHART_H = 288 };
    worksheet_set_column(ws, 0, 0, 44, NULL);
    worksheet_set_column(ws, 1, 1, 16, NULL);
    bool any_pie = false;
    for (size_t c = 0; c < m->n_charts; c++)
        any_pie |= m->charts[c].type == TCO_CHART_PIE;
    int scale = fit_scale(cols_px(ws, 0, 3) + CHART_W * (any_pie ? 1.6 : 1.3));
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
        double block_px = ROW_PX * (1 + (ch->type == TCO_CHART_PIE ? 27 : 21));
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
        chart_title_set_name_range(chart, sname(w, "Charts"), (lxw_row_t)chart_row, 4);
        chart_row++;
        if (ch->type == TCO_CHART_PIE) {
            wb_write_text(w, ws, data_row, 0, ch->title, w->header);
            wb_write_text(w, ws, data_row, 1, w->opts->currency, w->header_right);
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
            lxw_chart_series *s = chart_add_series(chart, NULL, NULL);
            if (s == NULL) {
                w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
                return;
            }
            chart_series_set_categories(s, sname(w, "Charts"), (lxw_row_t)first, 0, (lxw_row_t)last, 0);
            chart_series_set_values(s, sname(w, "Charts"), (lxw_row_t)first, 1, (lxw_row_t)last, 1);
            /* The slices' cached values, as the cells above cache them (a slice that says "n.a." has none). */
            double slice[TCO_MAX_CHART_SERIES];
            bool numeric[TCO_MAX_CHART_SERIES];
            for (size_t k = 0; k < ch->n_series; k++) {
                const tco_item *it = &m->items[ch->series[k]];
                slice[k] = it->value;
                numeric[k] = wb_item_text(it) == NULL;
            }
            wb_chart_cache(w, s->values, slice, numeric, ch->n_series);
            chart_series_set_labels(s);
            chart_series_set_labels_options(s, LXW_FALSE, LXW_FALSE, LXW_FALSE);
            chart_series_set_labels_percentage(s);
            chart_series_set_labels_position(s, LXW_CHART_LABEL_POSITION_BEST_FIT);
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
                const char *sheet = sname(w, m->sheets[p->sheet].name);
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
        lxw_chart_options opt = {.x_scale = pie ? 1.6 : 1.3, .y_scale = pie ? 1.6 : 1.2};
        wb_check(w, worksheet_insert_chart_opt(ws, (lxw_row_t)chart_row, 4, chart, &opt), "chart");
        chart_row += pie ? 27 : 21;
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
            fit_row(w, ws, row, c->text);
        }
    }
    worksheet_set_column(ws, 0, 0, 44, NULL);
    worksheet_set_column(ws, 1, 1, 16, NULL);
    worksheet_set_column(ws, 2, 2, SOURCE_WIDTH, NULL);
}

/* The Summary's capex by the status of its prices ([model] capex_prices): for each status, the live
 * sum of the capex lines resting on it and its share of capex, with the lines and prices named.  The
 * cached sums follow the evaluator's own arithmetic (tco_formula_arith()), as the Compare sheet's. */
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
    static const tco_status order[] = {TCO_STATUS_QUOTE, TCO_STATUS_MEASURED, TCO_STATUS_SEED,
                                       TCO_STATUS_STATED, TCO_STATUS_WHATIF, TCO_STATUS_ILLUSTRATIVE};
    for (size_t o = 0; o < sizeof order / sizeof order[0] && w->err == TCO_OK; o++) {
        tco_status st = order[o];
        tco_strbuf f = {0}, lines = {0};
        double sum = 0;
        const char *why = NULL;
        size_t n = 0;
        for (size_t k = 0; k < m->n_capex_basis && w->err == TCO_OK; k++) {
            if (tco_capex_status(m, k) != st)
                continue;
            const tco_capex_basis *c = &m->capex_basis[k];
            const tco_item *line = &m->items[c->line];
            tco_strbuf_printf(&f, "%s%s%s", n ? "+" : "=", w->np, line->name);
            tco_strbuf_printf(&lines, "%s%s (", n ? ", " : "", line->name);
            for (size_t p = 0; p < c->n_prices; p++)
                tco_strbuf_printf(&lines, "%s%s: %s", p ? ", " : "", m->items[c->prices[p]].name,
                                  tco_status_name(tco_status_of_price(m, c->prices[p])));
            tco_strbuf_append(&lines, ")");
            if (tco_formula_arith(TCO_OP_ADD, sum, line->value, &sum, &why) != TCO_OK)
                w->err = tco_diag_set(w->diag, TCO_ERR_EVAL, "Summary, capex by status: %s: %s", line->name, why);
            n++;
        }
        if (n == 0 || w->err != TCO_OK) {
            tco_strbuf_free(&f);
            tco_strbuf_free(&lines);
            continue;
        }
        tco_strbuf label = {0};
        tco_strbuf_printf(&label, "Capex on %s prices", st == TCO_STATUS_QUOTE  ? "quoted"
                                                        : st == TCO_STATUS_SEED ? "seed-figure"
                                                                                : tco_status_name(st));
        wb_write_text(w, ws, row, COL_ITEM, tco_strbuf_str(&label), w->fmt_status[st]);
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
        int last = total_col(m->n_periods) > COL_VALUE + 4 ? total_col(m->n_periods) : COL_VALUE + 4;
        wb_check(w, worksheet_merge_range(ws, (lxw_row_t)row, COL_VALUE + 2, (lxw_row_t)row, (lxw_col_t)last, "",
                                          w->source), "capex by status");
        wb_write_text(w, ws, row, COL_VALUE + 2, tco_strbuf_str(&lines), w->source);
        wb_set_row_lines(w, ws, row, wb_text_lines(tco_strbuf_str(&lines), (size_t)(16 * (last - COL_VALUE - 1))));
        if (f.failed || lines.failed)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        tco_strbuf_free(&f);
        tco_strbuf_free(&lines);
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

static void write_summary(writer *w, lxw_worksheet *ws)
{
    const tco_model *m = w->m;
    tco_strbuf t = {0};
    wb_write_text(w, ws, ROW_TITLE, 0, m->scenario_title, w->title);
    tco_strbuf_printf(&t, "%s over %d year%s, scenario %s (%s, %s). Costs in %s, positive; TCO undiscounted, NPV discounted.", m->title,
                      m->n_years, m->n_years == 1 ? "" : "s", m->scenario_name, m->scenario_path, m->template_path,
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
        wb_write_formula_or_text(w, ws, row, COL_VALUE, tco_strbuf_str(&f), wb_value_format(w, it, it->value, false),
                                 it->value, wb_item_text(it));
        tco_strbuf_free(&f);
        write_summary_source(w, ws, row, source_col(m->n_periods, false), it);
        row++;
    }
    bool any_yearly = false;
    for (size_t k = 0; k < m->n_summary; k++)
        any_yearly |= m->items[m->summary[k]].kind == TCO_ITEM_YEARLY;
    if (any_yearly && w->err == TCO_OK) {
        row++;
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
                wb_write_formula(w, ws, row, total_col(m->n_periods), tco_strbuf_str(&f),
                                 wb_value_format(w, tot, tot->value, false), tot->value);
                tco_strbuf_free(&f);
            }
            row++;
        }
    }
    /* The checks block: the master check first; each a formula naming its line. */
    if (m->n_checks > 0 && w->err == TCO_OK) {
        row++;
        wb_write_text(w, ws, row, COL_ITEM, "Checks", w->header);
        wb_write_text(w, ws, row, COL_UNIT, "", w->header);
        wb_write_text(w, ws, row, COL_VALUE, "Result", w->header_right);
        row++;
        for (size_t k = 0; k < m->n_checks && w->err == TCO_OK; k++, row++) {
            const tco_item *it = &m->items[m->checks[k]];
            lxw_format *label = k == 0 ? w->total_label : w->text;
            wb_write_text(w, ws, row, COL_ITEM, it->label, label);
            tco_strbuf f = {0};
            tco_strbuf_printf(&f, "=%s%s", w->np, it->name);
            wb_write_formula_or_text(w, ws, row, COL_VALUE, tco_strbuf_str(&f),
                                     wb_value_format(w, it, it->value, false), it->value, wb_item_text(it));
            tco_strbuf_free(&f);
            write_summary_source(w, ws, row, source_col(m->n_periods, false), it);
        }
    }
    row = write_capex_status(w, ws, row);
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
    /* Contents: a link to each sheet. */
    row += 2;
    wb_write_text(w, ws, row++, COL_ITEM, "Contents", w->header);
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
    worksheet_set_column(ws, COL_ITEM, COL_ITEM, 58, NULL);
    worksheet_set_column(ws, COL_UNIT, COL_UNIT, 13, NULL);
    worksheet_set_column(ws, COL_VALUE, (lxw_col_t)total_col(m->n_periods), 16, NULL);
    if (source_col(m->n_periods, false) > total_col(m->n_periods))
        worksheet_set_column(ws, (lxw_col_t)source_col(m->n_periods, false),
                             (lxw_col_t)source_col(m->n_periods, false), 30, NULL);
    worksheet_activate(ws);
}

bool tco_workbook_locked(const char *path, char *lock, size_t size)
{
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    struct stat st;
    snprintf(lock, size, "%.*s~$%s", dirlen, path, base);
    if (lstat(lock, &st) == 0)
        return true;
    snprintf(lock, size, "%.*s.~lock.%s#", dirlen, path, base);
    return lstat(lock, &st) == 0;
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
    bool whole = w->needed == NULL; /* else the lines the Rank sheet needs, on their sheets, and Inputs */
    lxw_worksheet *summary = whole ? wb_add_sheet(w, "Summary", 0x70AD47, true) : NULL;
    /* With a tier catalog beside the inputs, print the two tables on separate pages. */
    lxw_worksheet *inputs = w->err == TCO_OK ? wb_add_sheet(w, "Inputs", 0xFFC000, m->n_tiers == 0) : NULL;
    lxw_worksheet *quotes = m->quotes && w->err == TCO_OK ? wb_add_sheet(w, "Quotes", 0xFFC000, false) : NULL;
    for (size_t s = 0; s < m->n_sheets && w->err == TCO_OK; s++)
        calc[s] = whole || sheet_needed(w, s) ? wb_add_sheet(w, m->sheets[s].name, 0x808080, true) : NULL;
    lxw_worksheet *charts =
        whole && m->n_charts > 0 && w->err == TCO_OK ? wb_add_sheet(w, "Charts", 0x4472C4, true) : NULL;
    /* Last, so the other sheets keep their places (xl/worksheets/sheetN.xml). */
    lxw_worksheet *conventions =
        whole && m->n_conventions > 0 && w->err == TCO_OK ? wb_add_sheet(w, "Conventions", 0x70AD47, true) : NULL;
    if (w->err == TCO_OK) {
        wb_write_inputs(w, inputs);
        if (quotes && w->err == TCO_OK)
            write_quotes(w, quotes);
        place_lines(w);
        tco_strbuf_free(&w->error_cells); /* made from the places */
        w->opex_sheet = w->opex_row = -1;
        if (m->role_opex >= 0 && m->items[m->role_opex].kind == TCO_ITEM_YEARLY &&
            w->place[m->role_opex].sheet != PLACE_NONE) {
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
        if (w->opts->risk && w->err == TCO_OK)
            wb_write_risk_sheets(w, w->opts->risk);
    }
    free(calc);
    free(w->place);
    w->place = NULL;
    tco_strbuf_free(&w->ref);
    tco_strbuf_free(&w->text_buf);
    tco_strbuf_free(&w->error_cells);
}


/* Create @p path through a verified temporary in its folder (output.h), fill it, close it, put it in place. */
tco_error wb_write_book(const char *path, const tco_workbook_options *opts, const char *title, const char *subject,
                        const char *comments, book_fill_fn fill, void *ctx, tco_diag *diag)
{
    tco_output out;
    tco_error e = tco_output_begin(&out, path, diag);
    if (e != TCO_OK)
        return e;
    pending_names names = {0};
    writer w = {.opts = opts, .diag = diag, .err = TCO_OK, .current_year = -1, .current_tier = -1,
                .current_month = -1, .np = "", .sp = "", .names = &names};
    /* libxlsxwriter's own temporaries (one per XML part) go beside the workbook, not to a /tmp that may be
     * full; it opens the temporary through /proc/self/fd, never by a name in the folder. */
    lxw_workbook_options wopts = {.constant_memory = LXW_FALSE, .tmpdir = out.lib_tmpdir};
    /* Its own "[ERROR]" lines are held back: tco's message comes first and carries their cause. */
    if (!tco_output_quiet(&out)) {
        int err = errno;
        tco_output_abandon(&out);
        return tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot write the workbook: %s (setting aside the "
                            "library's messages)", path, strerror(err));
    }
    w.wb = workbook_new_opt(out.write_path, &wopts);
    if (w.wb == NULL) {
        char *detail = NULL;
        tco_output_loud(&out, &detail);
        tco_output_abandon(&out);
        e = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot create workbook%s%s", path, detail ? ": " : "",
                         detail ? detail : "");
        free(detail);
        return e;
    }
    make_formats(&w);
    char author[] = "tco", category[] = "Total cost of ownership", keywords[] = "TCO, capex, opex, accelerator";
    char *title_s = tco_strdup(title), *subject_s = tco_strdup(subject), *comments_s = tco_strdup(comments);
    lxw_doc_properties props = {
        .title = title_s,
        .subject = subject_s,
        .author = author,
        .category = category,
        .keywords = keywords,
        .comments = comments_s,
        .created = opts->created,
    };
    if (title_s == NULL || subject_s == NULL || comments_s == NULL)
        w.err = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    else
        wb_check(&w, workbook_set_properties(w.wb, &props), "document properties");
    free(title_s);
    free(subject_s);
    free(comments_s);
    if (w.err == TCO_OK)
        fill(&w, ctx);
    print_layout_all(&w);
    define_names(&w);
    size_t sheets = w.wb->num_sheets;
    lxw_error ce = workbook_close(w.wb); /* frees the workbook whatever happens */
    char *detail = NULL;
    tco_output_loud(&out, ce != LXW_NO_ERROR || w.err != TCO_OK ? &detail : NULL);
    if (ce != LXW_NO_ERROR && w.err == TCO_OK) {
        /* The cause first ("No space left on device"), then libxlsxwriter's description without its full stop. */
        const char *what = lxw_strerror(ce);
        int wl = (int)strlen(what);
        while (wl > 0 && what[wl - 1] == '.')
            wl--;
        if (detail)
            w.err = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: writing the workbook failed: %s (libxlsxwriter: %.*s)",
                                 path, detail, wl, what);
        else
            w.err = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: writing the workbook failed: %.*s", path, wl, what);
    }
    free(detail);
    if (w.err != TCO_OK) {
        tco_output_abandon(&out);
        return w.err;
    }
    return tco_output_commit(&out, sheets, diag);
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
                      m->scenario_path, m->template_path);
    tco_error e = title.failed || subject.failed || comments.failed
                      ? tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory")
                      : wb_write_book(path, opts, tco_strbuf_str(&title), tco_strbuf_str(&subject),
                                      tco_strbuf_str(&comments), fill_one, (void *)(uintptr_t)m, diag);
    tco_strbuf_free(&title);
    tco_strbuf_free(&subject);
    tco_strbuf_free(&comments);
    return e;
}

