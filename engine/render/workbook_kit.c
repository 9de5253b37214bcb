/* workbook_kit.c - the kit every workbook writer uses (workbook_kit.h): where a model's columns are,
 * references and defined names, formulas and their cached values, number formats, text cells, row
 * heights, the print layout, and one book's life from a verified temporary to its place (output.h).
 * The sheets themselves are written by workbook.c (a scenario), inputs_sheet.c, compare.c, and the
 * apps' own (apps/rank.c, apps/risk_sheets.c, apps/bridge_book.c). */
#include "render/workbook_kit.h"

#include <ctype.h>
#include <errno.h>
#include <strings.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xlsxwriter.h>

#include "base/text.h"
#include "base/utf8.h"
#include "model/conventions.h"
#include "read/ini.h"
#include "render/output.h"
#include "model/bind.h"
#include "model/evaluate.h"

const char *tco_workbook_item_name(const tco_model *model, int index)
{
    return model->items[index].name;
}

/* Year columns of calculation sheet @p s: the schedule sheet's run past Year N (tco_sheet.schedule);
 * -1 (the Summary's By year table) has the analysis period's. */
int wb_sheet_periods(const tco_model *m, int s)
{
    return s >= 0 && m->sheets[s].schedule ? m->n_schedule_periods : m->n_periods;
}

/* The Total column after @p periods year columns. */
int wb_total_col(int periods)
{
    return COL_VALUE + periods;
}

int wb_source_col(int periods, bool yearly)
{
    return yearly ? wb_total_col(periods) + 1 : COL_VALUE + 1;
}

/* A per-month sheet: the month columns from COL_VALUE, then one subtotal column per fiscal year,
 * then the Total.  Fiscal years are counted from the first month's. */
int wb_fiscal_years(const tco_model *m)
{
    return m->n_months > 0 ? tco_model_fiscal_year(m, m->n_months - 1) - tco_model_fiscal_year(m, 0) + 1 : 0;
}

int wb_month_total_col(const tco_model *m)
{
    return COL_VALUE + m->n_months + wb_fiscal_years(m);
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
const char *wb_row_sum_text(writer *w, int row, int c1, int c2)
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
    int r1 = -1, r2 = -1, c1 = -1, c2 = -1, tier_row = ROW_FIRST;
    for (size_t i = 0; i < m->n_items; i++) {
        const placement *p = &w->place[i];
        if (m->items[i].kind == TCO_ITEM_INPUT) {
            r1 = r1 < 0 || p->row < r1 ? p->row : r1;
            r2 = p->row > r2 ? p->row : r2;
        } else if (m->items[i].kind == TCO_ITEM_TIER_INPUT) {
            c1 = c1 < 0 || p->col < c1 ? p->col : c1;
            c2 = p->col > c2 ? p->col : c2;
            tier_row = p->row; /* the tier table's first row, below the inputs list */
        }
    }
    if (r1 >= 0)
        append_error_block(w, &b, -1, r1, 2, r2, 2);
    if (c1 >= 0 && m->n_tiers > 0)
        append_error_block(w, &b, -1, tier_row, c1, tier_row + m->n_tiers - 1, c2);
    /* Calculation sheets: runs of rows (or of tier columns) whose lines do not use error_cells. */
    for (size_t s = 0; s < m->n_sheets; s++) {
        int run_start = -1, run_end = -1;
        bool tiered = m->sheets[s].tiered;
        int last_col = m->sheets[s].yearly    ? wb_total_col(wb_sheet_periods(m, (int)s))
                       : m->sheets[s].monthly ? wb_month_total_col(m)
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
 * error_cells is noted in w->error_cells_used (wb_write_item_formula() writes such a formula as an array). */
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
const char *wb_sheet_name(writer *w, const char *base)
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

/* The decimals format @p fmt shows (money: with cents, the only money a value below 0.5 is shown with),
 * of the value times 100 for a share; -1 for a format that shows no figure (yes/no). */
static int shown_decimals(tco_format fmt)
{
    static const signed char d[TCO_FMT_COUNT_OF] = {
        [TCO_FMT_NUMBER] = 2, [TCO_FMT_MONEY] = 2, [TCO_FMT_KW] = 1,  [TCO_FMT_PERCENT] = 1,
        [TCO_FMT_COUNT] = 0,  [TCO_FMT_RATIO] = 2, [TCO_FMT_YESNO] = -1, [TCO_FMT_NEVER] = 1,
    };
    return fmt >= 0 && fmt < TCO_FMT_COUNT_OF ? d[fmt] : -1;
}

/* Widen *@p cents, *@p sci and *@p places for the @p n values @p v of an item of format @p fmt (see
 * wb_value_format()): *@p places, the decimals a value that is not 0 but would show as 0 needs for two
 * significant digits (0.001 in "0.00": 4, shown "0.001" as the terminal shows it, tco_format_grouped());
 * below 1e-15 (more than 15 decimals) the scientific format, as the terminal's 1.0e-20. */
static void format_needs(const double *v, size_t n, tco_format fmt, bool *cents, bool *sci, int *places)
{
    bool money = fmt == TCO_FMT_MONEY;
    int shown = shown_decimals(fmt);
    for (size_t k = 0; v && k < n; k++) {
        *cents |= money && v[k] != floor(v[k]) && fabs(v[k]) < 1000;
        *sci |= fabs(v[k]) >= 1e10;
        double a = fabs(v[k]) * (fmt == TCO_FMT_PERCENT ? 100 : 1);
        if (shown < 0 || !(a > 0) || !isfinite(a) || a >= 0.5 * pow(10, -shown))
            continue;
        int need = 1 - (int)floor(log10(a));
        if (need > 15)
            *sci = true;
        else if (need > *places)
            *places = need;
    }
}

/* Every value of @p it's cells (value, each year, month or tier), and of its Total or per-year partner. */
static void item_format_needs(const tco_model *m, const tco_item *it, bool *cents, bool *sci, int *places, int depth)
{
    format_needs(&it->value, 1, it->format, cents, sci, places);
    if (it->kind == TCO_ITEM_YEARLY || it->kind == TCO_ITEM_MONTHLY)
        format_needs(it->years, (size_t)tco_item_periods(m, it), it->format, cents, sci, places);
    else if (it->kind == TCO_ITEM_TIER_INPUT || it->kind == TCO_ITEM_TIER_LINE)
        format_needs(it->tiers, (size_t)m->n_tiers, it->format, cents, sci, places);
    if (depth == 0 && it->partner >= 0 && (size_t)it->partner < m->n_items)
        item_format_needs(m, &m->items[it->partner], cents, sci, places, 1);
}

lxw_format *wb_value_format(writer *w, const tco_item *it, double v, bool input)
{
    return wb_values_format(w, it, &v, 1, input);
}

/* A cell's look beside its number format (make_formats()): plain, an input (blue on pale yellow), a total
 * (bold, a rule above), a structural input (grey). */
enum { LOOK_PLAIN, LOOK_INPUT, LOOK_TOTAL, LOOK_FIXED };

static void set_look(lxw_format *f, int look)
{
    if (look == LOOK_INPUT) { /* FAST / ICAEW: inputs in blue on pale yellow */
        format_set_font_color(f, 0x0000FF);
        format_set_bg_color(f, 0xFFF2CC);
    } else if (look == LOOK_TOTAL) {
        format_set_bold(f);
        format_set_top(f, LXW_BORDER_THIN);
    } else if (look == LOOK_FIXED) /* structural inputs (fixed by the scenario): black on grey */
        format_set_bg_color(f, 0xE7E6E6);
}

/* Format @p fmt (@p cents: money with cents; @p bare: money without its currency code) in look @p look,
 * showing @p places decimals where its own show fewer: the decimals it always shows, then optional
 * ones up to @p places ("#,##0.00##": 1.5 stays "1.50", 0.001 is "0.001"; at least one always, so that
 * a whole number never shows as "5."), made once and kept (w->small). */
static lxw_format *small_format(writer *w, tco_format fmt, bool cents, bool bare, int look, int places)
{
    int key = ((((int)fmt * 2 + cents) * 2 + bare) * 4 + look) * 16 + places;
    small_formats *c = w->small;
    for (size_t i = 0; i < c->n; i++)
        if (c->v[i].key == key)
            return c->v[i].format;
    int fixed = fmt == TCO_FMT_MONEY && !cents ? 0 : shown_decimals(fmt);
    fixed = fixed < 1 ? 1 : fixed;
    char dec[40];
    int k = 0;
    for (; k < places && k < 32; k++)
        dec[k] = k < fixed ? '0' : '#';
    dec[k] = '\0';
    char num[160];
    if (fmt == TCO_FMT_PERCENT)
        snprintf(num, sizeof num, "0.%s%%", dec);
    else if (fmt == TCO_FMT_RATIO)
        snprintf(num, sizeof num, "0.%s", dec);
    else if (fmt == TCO_FMT_NEVER)
        snprintf(num, sizeof num, "#,##0.%s;-#,##0.%s;\"never\"", dec, dec);
    else if (fmt == TCO_FMT_MONEY && !bare)
        snprintf(num, sizeof num, "#,##0.%s \"%s\"", dec, w->opts->currency);
    else
        snprintf(num, sizeof num, "#,##0.%s", dec);
    lxw_format *f = workbook_add_format(w->wb);
    format_set_num_format(f, num);
    set_look(f, look);
    if (c->n < sizeof c->v / sizeof c->v[0]) /* always (small_formats); else made again when asked again */
        c->v[c->n].key = key, c->v[c->n++].format = f;
    return f;
}

/* The format of a cell of @p it whose values need cents (@p cents), beyond ten digits or below 1e-15 the
 * scientific format (@p sci), or more decimals than its format shows (@p places, format_needs());
 * @p input for an input's cell. */
static lxw_format *pick_format(writer *w, const tco_item *it, bool input, bool cents, bool sci, int places)
{
    if (sci && it->format != TCO_FMT_PERCENT && it->format != TCO_FMT_YESNO)
        return input ? w->fmt_input_sci : w->fmt_sci;
    int look = input ? LOOK_INPUT : it->emphasis ? LOOK_TOTAL : LOOK_PLAIN;
    bool bare = w->money_bare && it->format == TCO_FMT_MONEY;
    if (places > 0)
        return small_format(w, it->format, cents, bare, look, places);
    if (bare) /* the currency in the headers, not the cells */
        return (input ? w->fmt_input : it->emphasis ? w->fmt_total : w->fmt)[cents ? TCO_FMT_NUMBER : TCO_FMT_COUNT];
    if (cents)
        return input ? w->fmt_input_money_cents : w->fmt_money_cents;
    if (input)
        return w->fmt_input[it->format];
    return it->emphasis ? w->fmt_total[it->format] : w->fmt[it->format];
}

lxw_format *wb_values_format(writer *w, const tco_item *it, const double *v, size_t n, bool input)
{
    /* One format for all of an item's cells (a row of years and its Total, a column of tiers): cents
     * when a money value below 1,000 has them, beyond ten digits (FLOP counts, token counts), where
     * a grouped number would not fit, 4.20E+22, and more decimals for a value that would show as 0. */
    bool cents = false, sci = false;
    int places = 0;
    format_needs(v, n, it->format, &cents, &sci, &places);
    item_format_needs(w->m, it, &cents, &sci, &places, 0);
    if (input && it->structural)
        return places > 0 ? small_format(w, it->format, cents, false, LOOK_FIXED, places) : w->fmt_fixed[it->format];
    return pick_format(w, it, input, cents, sci, places);
}

lxw_format *wb_number_format(writer *w, tco_format fmt, double v)
{
    bool cents = false, sci = false;
    int places = 0;
    format_needs(&v, 1, fmt, &cents, &sci, &places);
    return places > 0 ? small_format(w, fmt, fmt == TCO_FMT_MONEY, false, LOOK_PLAIN, places) : w->fmt[fmt];
}

/* wb_value_format(w, @p it, @p v, false) for each cell of a line: what the item's values need
 * (item_format_needs()) is found once for the item, not for each of its year, month or tier cells. */
static lxw_format *line_format(writer *w, const tco_item *it, double v)
{
    if (w->fmt_item != it) {
        w->needs_cents = w->needs_sci = false;
        w->needs_places = 0;
        item_format_needs(w->m, it, &w->needs_cents, &w->needs_sci, &w->needs_places, 0);
        w->fmt_item = it;
    }
    bool cents = w->needs_cents, sci = w->needs_sci;
    int places = w->needs_places;
    format_needs(&v, 1, it->format, &cents, &sci, &places);
    return pick_format(w, it, false, cents, sci, places);
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
    w->note_wrap = workbook_add_format(wb);
    format_set_italic(w->note_wrap);
    format_set_font_color(w->note_wrap, 0x595959);
    format_set_text_wrap(w->note_wrap);
    format_set_align(w->note_wrap, LXW_ALIGN_VERTICAL_TOP);
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
        lxw_format **looks[] = {[LOOK_PLAIN] = &w->fmt[i], [LOOK_INPUT] = &w->fmt_input[i],
                                [LOOK_TOTAL] = &w->fmt_total[i], [LOOK_FIXED] = &w->fmt_fixed[i]};
        for (int look = LOOK_PLAIN; look <= LOOK_FIXED; look++) {
            *looks[look] = workbook_add_format(wb);
            format_set_num_format(*looks[look], nums[i]);
            set_look(*looks[look], look);
        }
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
    w->header_wrap_left = header_format(w, false);
    format_set_text_wrap(w->header_wrap_left);
    format_set_align(w->header_wrap_left, LXW_ALIGN_VERTICAL_BOTTOM);
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
        format_set_indent(w->fmt_status[i], 1); /* apart from the High value that ends at its left border */
    }
}

const char *wb_xl_text(writer *w, const char *s);


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

double wb_cols_px(const lxw_worksheet *ws, int first, int last)
{
    double px = 0;
    for (int c = first; c <= last; c++)
        px += col_px(ws, c);
    return px;
}

/* The print scale that fits @p px pixels in one page's width, at most 100. */
int wb_fit_scale(double px)
{
    return px <= PRINT_WIDTH_PX ? 100 : (int)floor(PRINT_WIDTH_PX * 100 / px);
}

/* The last row that prints: the print area's, or the last used. */
static lxw_row_t last_printed_row(const lxw_worksheet *ws)
{
    return ws->print_area.in_use && ws->print_area.last_row < ws->dim_rowmax ? ws->print_area.last_row : ws->dim_rowmax;
}

/* Height of @p ws's rows in pixels at 100% (a row's height in points x 4/3; 20 for a row of the default). */
static double rows_px(lxw_worksheet *ws)
{
    double px = 0;
    for (lxw_row_t r = 0; r <= last_printed_row(ws); r++) {
        lxw_row *row = lxw_worksheet_find_row(ws, r);
        px += (row ? row->height : LXW_DEF_ROW_HEIGHT) * 4 / 3;
    }
    return px;
}

/* Pages tall for a sheet fitted one page wide (@p cols_px its columns' pixels): 0 (as many as it takes)
 * unless its last page would hold less than a third of a page, which a slightly smaller scale, still
 * PRINT_MIN_SCALE or more in LibreOffice (PRINT_LO_WIDER), takes onto the pages before. */
static uint16_t fit_pages_tall(lxw_worksheet *ws, double cols_px)
{
    double width_scale = PRINT_WIDTH_PX / (cols_px * PRINT_LO_WIDER);
    if (width_scale > 1)
        width_scale = 1;
    /* Pages at the width's scale, 3% of each page left for the repeated header row and rounding. */
    double rows = rows_px(ws), page = PRINT_HEIGHT_PX * 0.97, pages = rows * width_scale / page;
    double whole = floor(pages);
    if (whole < 1) /* one page by this estimate: LibreOffice's wider columns may wrap a few rows onto a second */
        whole = 1;
    if (pages - whole >= 1.0 / 3 || PRINT_HEIGHT_PX * whole / rows * 100 < PRINT_MIN_SCALE)
        return 0;
    return (uint16_t)whole;
}

/* Pages of rows @p first to @p last of @p ws, each at most @p limit pixels (at 100%) and each page but the
 * sheet's first starting with the repeated rows (@p rep pixels); with @p breaks, the rows after @p first that
 * start a page (0-ended, room for @p max). */
static size_t paginate_rows(lxw_worksheet *ws, lxw_row_t first, lxw_row_t last, double limit, double rep,
                            lxw_row_t *breaks, size_t max)
{
    size_t pages = 1, n = 0;
    double used = first > 0 ? rep : 0;
    for (lxw_row_t r = first; r <= last; r++) {
        lxw_row *row = lxw_worksheet_find_row(ws, r);
        double h = (row ? row->height : LXW_DEF_ROW_HEIGHT) * 4 / 3;
        if (used + h > limit && used > rep) {
            pages++;
            if (breaks && n + 1 < max)
                breaks[n++] = r;
            used = rep;
        }
        used += h;
    }
    if (breaks)
        breaks[n] = 0;
    return pages;
}

/* The rows that start the parts of @p ws its writer set breaks between (the Inputs' tier table), the
 * first 0: @p starts (room for @p max) and how many. */
static size_t sections(const lxw_worksheet *ws, lxw_row_t *starts, size_t max)
{
    size_t n = 0;
    starts[n++] = 0;
    for (size_t k = 0; k < ws->hbreaks_count && n < max; k++)
        if (ws->hbreaks[k] > starts[n - 1] && ws->hbreaks[k] <= last_printed_row(ws))
            starts[n++] = ws->hbreaks[k];
    return n;
}

#define SECTIONS_MAX 8

/* Pages of @p ws (each part of it apart: sections()), each at most @p limit pixels (at 100%), the pages
 * after the first starting with the repeated rows (@p rep pixels). */
static size_t paginate(lxw_worksheet *ws, double limit, double rep)
{
    lxw_row_t starts[SECTIONS_MAX];
    size_t n = sections(ws, starts, SECTIONS_MAX), pages = 0;
    for (size_t k = 0; k < n; k++)
        pages += paginate_rows(ws, starts[k], k + 1 < n ? starts[k + 1] - 1 : last_printed_row(ws), limit, rep, NULL,
                               0);
    return pages;
}

/* Height of the rows @p ws repeats on every page, in pixels at 100%. */
static double repeated_px(lxw_worksheet *ws)
{
    double rep = 0;
    if (ws->repeat_rows.in_use)
        for (lxw_row_t r = ws->repeat_rows.first_row; r <= ws->repeat_rows.last_row; r++) {
            lxw_row *row = lxw_worksheet_find_row(ws, r);
            rep += (row ? row->height : LXW_DEF_ROW_HEIGHT) * 4 / 3;
        }
    return rep;
}

/* A page's height in pixels of the sheet at 100% when printed at @p scale (%), 0.5% left for rounding (row
 * heights print as set). */
static double page_px(double scale)
{
    return PRINT_HEIGHT_PX * 100 / scale * 0.995;
}

/* The scale, from @p widest (the width's) down to PRINT_MIN_SCALE, at which @p ws prints on the fewest
 * pages, the largest of those: a sheet a little taller than a page at the width's scale fits one at a
 * smaller one that is still legible (the Rank sheet of tco advise team-70b: 77% takes two pages, 76% one). */
static int scale_for_pages(lxw_worksheet *ws, int widest)
{
    double rep = repeated_px(ws);
    int best = widest;
    size_t fewest = paginate(ws, page_px(widest), rep);
    for (int s = widest - 1; s >= PRINT_MIN_SCALE; s--) {
        size_t n = paginate(ws, page_px(s), rep);
        if (n < fewest)
            fewest = n, best = s;
    }
    return best;
}

/* Page breaks of a sheet printed at @p scale (%), when it takes more than one page: at row boundaries, as
 * many pages as it takes and its rows shared out evenly among them, so that no last page holds one stray row
 * (Cash flow's last row took a page of its own at 77%).  A sheet whose writer set breaks keeps them, each
 * part between them shared out over its own pages (the Inputs list and the tier table below it). */
static void balance_pages(writer *w, lxw_worksheet *ws, double scale)
{
    if (ws->dim_rowmax > 100000)
        return;
    lxw_row_t starts[SECTIONS_MAX];
    size_t n_sec = sections(ws, starts, SECTIONS_MAX);
    double rep = repeated_px(ws), cap = page_px(scale);
    if (paginate(ws, cap, rep) <= n_sec)
        return; /* one page a part: the writer's breaks, if any, stand */
    size_t room = 2 * (last_printed_row(ws) + 2), used = 0;
    lxw_row_t *breaks = malloc(room * sizeof *breaks);
    if (breaks == NULL) {
        if (w->err == TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return;
    }
    for (size_t k = 0; k < n_sec; k++) {
        lxw_row_t first = starts[k], last = k + 1 < n_sec ? starts[k + 1] - 1 : last_printed_row(ws);
        if (k > 0)
            breaks[used++] = first;
        size_t pages = paginate_rows(ws, first, last, cap, rep, NULL, 0);
        double limit = cap;
        if (pages > 1) {
            double total = (first > 0 ? rep : 0);
            for (lxw_row_t r = first; r <= last; r++) {
                lxw_row *row = lxw_worksheet_find_row(ws, r);
                total += (row ? row->height : LXW_DEF_ROW_HEIGHT) * 4 / 3;
            }
            total += rep * (double)(pages - 1);
            limit = total / (double)pages;
            while (limit < cap && paginate_rows(ws, first, last, limit, rep, NULL, 0) > pages)
                limit += 5;
            if (limit > cap)
                limit = cap;
        }
        used += paginate_rows(ws, first, last, limit, rep, breaks + used, room - used) - 1;
    }
    breaks[used] = 0;
    if (used > 0) {
        /* libxlsxwriter copies the breaks without freeing a copy made before (the writer's): freed here, as
         * lxw_worksheet_free() frees the last. */
        free(ws->hbreaks);
        ws->hbreaks = NULL;
        ws->hbreaks_count = 0;
        wb_check(w, worksheet_set_h_pagebreaks(ws, breaks), "page break");
    }
    free(breaks);
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
    double px = wb_cols_px(ws, 0, last);
    int scale = wb_fit_scale(ws->vbreaks_count > 0 ? px * PRINT_LO_WIDER : px);
    /* A Quotes sheet repeats who quoted what (Vendor, Quote id, Item); the others their label columns. */
    size_t n = strlen(ws->name);
    bool quotes = strcmp(ws->name, "Quotes") == 0 || (n == 8 && ws->name[1] == ' ' && strcmp(ws->name + 2, "Quotes") == 0);
    bool summary = strcmp(ws->name, "Summary") == 0 || (n == 9 && ws->name[1] == ' ' && strcmp(ws->name + 2, "Summary") == 0);
    if (quotes && ws->vbreaks_count == 0 && wb_fit_scale(px * PRINT_LO_WIDER) >= PRINT_QUOTES_SCALE) {
        /* Quotes: its columns narrowed and wrapped to fit one page wide (write_quotes()), as short as a quote
         * file is long, rather than three pages wide at PRINT_WIDE_SCALE. */
        worksheet_fit_to_pages(ws, 1, 0);
        return;
    }
    if (scale >= PRINT_MIN_SCALE && ws->vbreaks_count == 0) {
        uint16_t tall = fit_pages_tall(ws, px);
        /* A Summary (an option's too) prints on at most 2 pages while that keeps PRINT_MIN_SCALE: its
         * wrapped texts and n.a. reasons may take it past 2 pages at the width's scale. */
        if (tall == 0 && summary && PRINT_HEIGHT_PX * 0.97 * 2 / rows_px(ws) * 100 >= PRINT_MIN_SCALE)
            tall = 2;
        if (tall > 0)
            worksheet_fit_to_pages(ws, 1, tall);
        else { /* the width's scale in LibreOffice or the smaller one that takes fewer pages, and the rows
                * shared out evenly over the pages */
            int fit = wb_fit_scale(px * PRINT_LO_WIDER);
            worksheet_set_print_scale(ws, (uint16_t)scale_for_pages(ws, fit > PRINT_MIN_SCALE ? fit : PRINT_MIN_SCALE));
            balance_pages(w, ws, ws->print_scale);
        }
    }
    else if (scale >= PRINT_MIN_SCALE) {
        worksheet_set_print_scale(ws, (uint16_t)scale_for_pages(ws, scale));
        balance_pages(w, ws, ws->print_scale);
    } else {
        worksheet_set_print_scale(ws, PRINT_WIDE_SCALE);
        if (!ws->repeat_cols.in_use) /* a per-tier sheet repeats its Tier column (write_tier_sheet) */
            wb_check(w, quotes ? worksheet_repeat_columns(ws, 2, 4) : worksheet_repeat_columns(ws, 0, 1), ws->name);
    }
}

double wb_rows_px(lxw_worksheet *ws, lxw_row_t first, lxw_row_t last)
{
    double px = 0;
    for (lxw_row_t r = first; r <= last; r++) {
        lxw_row *row = lxw_worksheet_find_row(ws, r);
        px += (row ? row->height : LXW_DEF_ROW_HEIGHT) * 4 / 3;
    }
    return px;
}

void wb_print_blocks(writer *w, lxw_worksheet *ws, const int *starts, size_t n)
{
    int last_col = ws->print_area.in_use ? (int)ws->print_area.last_col : (int)ws->dim_colmax;
    int fit = wb_fit_scale(wb_cols_px(ws, 0, last_col) * PRINT_LO_WIDER);
    lxw_row_t last = last_printed_row(ws);
    double cap = page_px(fit);
    if (fit < PRINT_MIN_SCALE || fit >= 100 || wb_rows_px(ws, 0, last) <= cap)
        return; /* one page, or too wide: wb_print_layout() */
    for (size_t k = n; k-- > 0;) {
        lxw_row_t b = (lxw_row_t)starts[k];
        if (b == 0 || b > last || wb_rows_px(ws, 0, b - 1) > cap || wb_rows_px(ws, b, last) > cap)
            continue;
        lxw_row_t breaks[] = {b, 0};
        worksheet_set_print_scale(ws, (uint16_t)fit);
        wb_check(w, worksheet_set_h_pagebreaks(ws, breaks), "page break");
        ws->repeat_rows.in_use = 0; /* each page starts with a block's own header */
        return;
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
    const char *name = wb_sheet_name(w, base);
    lxw_worksheet *ws = workbook_add_worksheet(w->wb, name);
    if (ws == NULL) {
        if (w->err == TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_CANTCREATE, "cannot add worksheet '%s'", name);
        return NULL;
    }
    worksheet_set_tab_color(ws, tab);
    worksheet_set_landscape(ws);
    worksheet_set_paper(ws, 9); /* A4 */
    /* Excel's "Narrow" sides, and a narrow top and bottom: no header, the footer 0.2" from the edge. */
    worksheet_set_margins(ws, PRINT_MARGIN_LR, PRINT_MARGIN_LR, PRINT_MARGIN_TOP, PRINT_MARGIN_BOTTOM);
    if (fit_width)
        worksheet_fit_to_pages(ws, 1, 0);
    wb_check(w, worksheet_repeat_rows(ws, ROW_HEADER, ROW_HEADER), name);
    /* The title row as tall as its 14-point title (Excel's 18.75 points for it): at the default 15 its
     * letters were cut at the top in print. */
    wb_check(w, worksheet_set_row(ws, ROW_TITLE, 18.75, NULL), name);
    worksheet_freeze_panes(ws, ROW_FIRST, 1);
    tco_strbuf footer = {0};
    /* &A sheet name, &P page, &N pages; '&' in the scenario name is doubled. */
    tco_strbuf_append(&footer, "&L&A&C");
    /* Excel caps a footer at 255 characters; the name gets at most FOOTER_NAME_CHARS of them (whole
     * UTF-8 sequences), and a longer one is cut after its last whole word that fits, with an ellipsis
     * (never mid-word: "..., 16 s" read as a figure). */
    const char *fname = w->footer ? w->footer : w->m->scenario_name;
    size_t chars = 0, end = 0, word_end = 0;
    for (size_t i = 0; fname[i]; i++) {
        if (((unsigned char)fname[i] & 0xC0) != 0x80 && chars++ == FOOTER_NAME_CHARS)
            break;
        end = i + 1;
        if (fname[i + 1] == ' ' || fname[i + 1] == '\0')
            word_end = end;
    }
    bool cut = fname[end] != '\0';
    if (cut && word_end > end / 2) /* a word that long is cut where it must be */
        end = word_end;
    while (cut && end > 0 && (fname[end - 1] == ',' || fname[end - 1] == ' ' || fname[end - 1] == ':'))
        end--;
    for (size_t i = 0; i < end; i++)
        tco_strbuf_append(&footer, fname[i] == '&' ? "&&" : (char[2]){fname[i], '\0'});
    if (cut)
        tco_strbuf_append(&footer, "\xE2\x80\xA6"); /* U+2026 ... */
    tco_strbuf_append(&footer, "&RPage &P of &N");
    const char *ft = footer.failed ? NULL : wb_xl_text(w, tco_strbuf_str(&footer));
    if (ft && tco_utf16_units(ft) <= 255)
        wb_check(w, worksheet_set_footer_opt(ws, ft, &(lxw_header_footer_options){.margin = PRINT_MARGIN_FOOTER}), name);
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
void wb_write_item_formula(writer *w, lxw_worksheet *ws, int idx, int row, int col, double value)
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
        w->err = tco_diag_at(w->diag, TCO_ERR_SYNTAX, &it->place,
                             "the workbook formula would be %zu characters long, Excel allows %d", f->len - 1,
                             TCO_FORMULA_MAX_LEN);
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

void wb_write_across(writer *w, lxw_worksheet *ws, int row, int first, int last, const char *text, lxw_format *f)
{
    if (text == NULL || *text == '\0' || w->err != TCO_OK)
        return;
    const char *t = wb_xl_text(w, text);
    if (t == NULL)
        return;
    wb_check(w, worksheet_merge_range(ws, (lxw_row_t)row, (lxw_col_t)first, (lxw_row_t)row, (lxw_col_t)last, t, f),
             "merged text");
    double chars = (wb_cols_px(ws, first, last) - 5) / 7;
    size_t lines = wb_text_lines(text, chars > 10 ? (size_t)chars : 10);
    lxw_row *r = lxw_worksheet_find_row(ws, (lxw_row_t)row);
    double now = r ? r->height : LXW_DEF_ROW_HEIGHT;
    if (15.0 * (double)lines > now)
        wb_set_row_lines(w, ws, row, lines);
}

void wb_set_row_lines(writer *w, lxw_worksheet *ws, int row, size_t lines)
{
    /* Excel's tallest row is 409 points (27 lines); longer text scrolls within the cell. */
    double height = lines > 27 ? 409.0 : 15.0 * (double)lines;
    if (lines > 1)
        wb_check(w, worksheet_set_row(ws, (lxw_row_t)row, height, NULL), "row height");
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

/* Create @p path through a verified temporary in its folder (output.h), fill it, close it, put it in place. */
tco_error wb_write_book(const char *path, const tco_workbook_options *opts, const char *title, const char *subject,
                        const char *comments, book_fill_fn fill, void *ctx, tco_diag *diag)
{
    tco_output out;
    tco_error e = tco_output_begin(&out, path, diag);
    if (e != TCO_OK)
        return e;
    pending_names names = {0};
    small_formats small = {0};
    writer w = {.opts = opts, .diag = diag, .err = TCO_OK, .current_year = -1, .current_tier = -1,
                .current_month = -1, .np = "", .sp = "", .names = &names, .small = &small};
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
    /* Escaped as cell text is: a literal "_xHHHH_" (a file or folder name) shows as written. */
    tco_strbuf esc[3] = {{0}};
    tco_xlsx_escape(title, &esc[0]);
    tco_xlsx_escape(subject, &esc[1]);
    tco_xlsx_escape(comments, &esc[2]);
    char *title_s = tco_strbuf_take(&esc[0]), *subject_s = tco_strbuf_take(&esc[1]),
         *comments_s = tco_strbuf_take(&esc[2]);
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
