/* inputs_sheet.c - the Inputs sheet (and a comparison's Shared inputs sheet): each input a named,
 * formatted value with its unit, range, status, name and source, the status legend, and the tier
 * catalog table beside them (workbook_kit.h wb_write_inputs(), wb_write_shared_inputs()). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/conventions.h"
#include "read/quote_csv.h"
#include "render/workbook_kit.h"
#include "base/text.h"
#include "base/utf8.h"
#include "render/inputs_sheet.h"
#include "model/ranges.h"
#include "price/pricing.h"

/* Inputs: the label and source columns wrap and share the width the page leaves at PRINT_MIN_SCALE in
 * LibreOffice beside unit, value, low, high, status, name (and Before --set), split so that the rows take
 * the fewest lines (wb_split_label_width()): label to source on one page wide at 75%.  Money shows
 * without its currency code, which the Unit column names ("CNY/host"), as in the tier table and the
 * Budget. */
#define INPUT_LABEL_MIN 24
#define INPUT_UNIT_MIN 6       /* wider as the widest unit needs ("failures/card-yr"), at most: */
#define INPUT_UNIT_MAX 18
#define INPUT_VALUE_WIDTH 11 /* "200,000", "1,247,040", "data-centre" */
#define INPUT_RANGE_WIDTH 9  /* Low and High: "195,000", "-2.0%" */
#define INPUT_STATUS_WIDTH 11 /* "seed figure", indented */
#define INPUT_NAME_MIN 10 /* wider as the longest name needs, up to INPUT_NAME_MAX; a longer name wraps */
#define INPUT_NAME_MAX 22
#define INPUT_BEFORE_WIDTH 11 /* Before --set; without it, a gap of 2 */
#define INPUT_SOURCE_MIN 40

/* The widths in characters of the Inputs list's wrapped columns (label, source) and of its Name column. */
typedef struct input_widths {
    size_t label, source;
    double unit, name;
} input_widths;

/* What the page leaves label and source together beside the other columns (Unit @p unit wide, Name @p name,
 * Before --set when @p any_original). */
static size_t input_text_width(bool any_original, double unit, double name)
{
    /* Without Before --set, the gap before the tier table prints on the table's pages (write_tier_table()). */
    const double others[] = {unit, INPUT_VALUE_WIDTH, INPUT_RANGE_WIDTH, INPUT_RANGE_WIDTH,
                             INPUT_STATUS_WIDTH, name, any_original ? INPUT_BEFORE_WIDTH : -5.0 / 7};
    double px = PRINT_WIDTH_PX * 100 / PRINT_MIN_SCALE / PRINT_LO_WIDER - 5 - 2 * 5; /* 5: label's, source's */
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++)
        px -= others[k] * 7 + 5;
    size_t width = px > 0 ? (size_t)(px / 7) : 0;
    return width > INPUT_LABEL_MIN + INPUT_SOURCE_MIN ? width : INPUT_LABEL_MIN + INPUT_SOURCE_MIN;
}

static void fit_input_row(writer *w, lxw_worksheet *ws, int row, const char *label, const char *source,
                          const char *name, const input_widths *iw)
{
    size_t a = wb_text_lines(label, iw->label), b = wb_text_lines(source, iw->source);
    size_t c = wb_text_lines(name, (size_t)iw->name - 1); /* less its indent */
    a = a > b ? a : b;
    wb_set_row_lines(w, ws, row, a > c ? a : c);
}

/* Add data validation @p dv with error message @p msg (freed here) to the cell.  The
 * loader keeps units and names short enough for Excel's 255-character message. */
static void set_dv_message(writer *w, lxw_worksheet *ws, int row, int col, const tco_item *it,
                           lxw_data_validation *dv, tco_strbuf *msg)
{
    char *text = tco_strbuf_take(msg);
    const char *t = text ? wb_xl_text(w, text) : NULL;
    free(text);
    if (t == NULL) {
        if (w->err == TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return;
    }
    if (tco_utf16_units(t) > 255 && w->err == TCO_OK) {
        w->err = tco_diag_set(w->diag, TCO_ERR_INI, "input %s: its data-validation message is %zu characters, Excel "
                              "allows 255 (shorten its unit)", it->name, tco_utf16_units(t));
        return;
    }
    dv->error_message = (char *)(uintptr_t)t;
    wb_check(w, worksheet_data_validation_cell(ws, (lxw_row_t)row, (lxw_col_t)col, dv), it->name);
}

/* A custom-formula validation of the cell: the formula @p msg holds (taken from it), the error titled
 * @p title and worded by @p fmt (into @p msg), set as set_dv_message() sets it. */
static void set_dv_formula(writer *w, lxw_worksheet *ws, int row, int col, const tco_item *it,
                           lxw_data_validation *dv, tco_strbuf *msg, const char *title, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));
static void set_dv_formula(writer *w, lxw_worksheet *ws, int row, int col, const tco_item *it,
                           lxw_data_validation *dv, tco_strbuf *msg, const char *title, const char *fmt, ...)
{
    char *formula = tco_strbuf_take(msg);
    if (formula == NULL) {
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return;
    }
    char t[32];
    snprintf(t, sizeof t, "%s", title);
    dv->validate = LXW_VALIDATION_TYPE_CUSTOM_FORMULA;
    dv->value_formula = formula;
    dv->ignore_blank = LXW_VALIDATION_OFF;
    dv->error_title = t;
    va_list ap;
    va_start(ap, fmt);
    tco_strbuf_vprintf(msg, fmt, ap);
    va_end(ap);
    set_dv_message(w, ws, row, col, it, dv, msg);
    free(formula);
}

/* Appends to @p b the test that cell (@p row, @p col) holds text @p text, C8="D-M" (a quote in the text
 * doubled, as an Excel string writes it; Excel compares text without regard to case, as the engine matches
 * a value). */
static void append_cell_is_text(tco_strbuf *b, int row, int col, const char *text)
{
    char c[4];
    wb_col_letters(col, c);
    tco_strbuf_printf(b, "%s%d=\"", c, row + 1);
    for (const char *p = text; *p; p++)
        tco_strbuf_append_n(b, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
    tco_strbuf_append(b, "\"");
}

/* Data validation from the input's range: Excel and LibreOffice refuse a value outside it. */
static void validate_input(writer *w, lxw_worksheet *ws, int row, int col, const tco_item *it)
{
    char lo[32] = "", hi[32] = "";
    tco_strbuf msg = {0};
    lxw_data_validation dv;
    memset(&dv, 0, sizeof dv);
    dv.validate = it->integer ? LXW_VALIDATION_TYPE_INTEGER : LXW_VALIDATION_TYPE_DECIMAL;
    /* One of the tier codes: a drop-down of them while they fit a typed list (at most 255 bytes, no
     * '"' or ','); else a check that the typed code is in the tier table's first column.  (A list
     * formula would give the drop-down for any catalog, but Debian 12's libxlsxwriter 1.1.5 leaks its
     * copy of one, fixed upstream in 5c5b3046; a custom formula is copied once.) */
    size_t list_bytes = 0;
    bool listable = it->choices_are_tiers;
    for (size_t c = 0; listable && c < it->n_choices; c++) {
        list_bytes += strlen(it->choices[c]) + (c ? 1 : 0);
        listable = strpbrk(it->choices[c], "\",") == NULL && list_bytes <= 255;
    }
    if (it->structural && it->text != NULL && it->choices != NULL) {
        /* A text input fixed at one of its values (a budget's acquisition at own: tco_model_fix_text_input()):
         * no drop-down offering the others; the cell takes its value alone. */
        tco_strbuf_append(&msg, "=");
        append_cell_is_text(&msg, row, col, it->text);
        if (it->fixed_why)
            set_dv_formula(w, ws, row, col, it, &dv, &msg, "Fixed", "%s", it->fixed_why);
        else
            set_dv_formula(w, ws, row, col, it, &dv, &msg, "Fixed", "%s is fixed by the scenario file. Change it there "
                           "and run tco again.", it->name);
        return;
    }
    if (it->choices_are_tiers && !listable && w->m->n_tiers > 0) {
        char first[4], self[4];
        wb_col_letters(COL_TIER_TABLE, first);
        wb_col_letters(col, self);
        tco_strbuf_printf(&msg, "=ISNUMBER(MATCH(%s%d,$%s$%d:$%s$%d,0))", self, row + 1, first, w->tier_row + 1, first,
                          w->tier_row + w->m->n_tiers);
        set_dv_formula(w, ws, row, col, it, &dv, &msg, "Not a tier",
                       "Type a tier code of the tier table (column %s) for %s.", first, it->name);
        return;
    }
    if (it->choices != NULL) {
        /* A text input with listed values: a drop-down of exactly those. */
        char **list = calloc(it->n_choices + 1, sizeof *list);
        if (list == NULL) {
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
            return;
        }
        for (size_t c = 0; c < it->n_choices; c++)
            list[c] = it->choices[c];
        dv.validate = LXW_VALIDATION_TYPE_LIST;
        dv.value_list = list;
        dv.ignore_blank = LXW_VALIDATION_OFF;
        char title[] = "Not in the list";
        dv.error_title = title;
        tco_strbuf_printf(&msg, "Choose one of the listed values for %s.", it->name);
        set_dv_message(w, ws, row, col, it, &dv, &msg);
        free(list);
        return;
    }
    if (it->text != NULL || it->tier_texts != NULL)
        return;
    if (it->structural) {
        dv.criteria = LXW_VALIDATION_CRITERIA_EQUAL_TO;
        dv.value_number = it->value;
        tco_strbuf_printf(&msg, "%s is fixed by the scenario file (it sets the workbook's columns). "
                          "Change it there and run tco again.", it->name);
    } else if (!isnan(it->least)) {
        /* 0 or from least up (to max): a custom formula on the cell itself, as the tier check above. */
        char self[4], least[32];
        wb_col_letters(col, self);
        tco_format_double(it->least, least);
        if (!isnan(it->max))
            tco_format_double(it->max, hi);
        if (isnan(it->max))
            tco_strbuf_printf(&msg, "=OR(%s%d=0,%s%d>=%s)", self, row + 1, self, row + 1, least);
        else
            tco_strbuf_printf(&msg, "=OR(%s%d=0,AND(%s%d>=%s,%s%d<=%s))", self, row + 1, self, row + 1, least, self,
                              row + 1, hi);
        set_dv_formula(w, ws, row, col, it, &dv, &msg, "Out of range", "Expected 0, or a number from %s%s%s (%s).",
                       least, isnan(it->max) ? " up" : " to ", isnan(it->max) ? "" : hi, it->unit);
        return;
    } else if (!isnan(it->min) && !isnan(it->max)) {
        dv.criteria = LXW_VALIDATION_CRITERIA_BETWEEN;
        dv.minimum_number = it->min;
        dv.maximum_number = it->max;
        tco_format_double(it->min, lo);
        tco_format_double(it->max, hi);
        tco_strbuf_printf(&msg, "Expected %s from %s to %s (%s).", it->integer ? "a whole number" : "a number", lo,
                          hi, it->unit);
    } else if (!isnan(it->min)) {
        dv.criteria = LXW_VALIDATION_CRITERIA_GREATER_THAN_OR_EQUAL_TO;
        dv.value_number = it->min;
        tco_format_double(it->min, lo);
        tco_strbuf_printf(&msg, "Expected %s of at least %s (%s).", it->integer ? "a whole number" : "a number", lo,
                          it->unit);
    } else if (!isnan(it->max)) {
        dv.criteria = LXW_VALIDATION_CRITERIA_LESS_THAN_OR_EQUAL_TO;
        dv.value_number = it->max;
        tco_format_double(it->max, hi);
        tco_strbuf_printf(&msg, "Expected %s of at most %s (%s).", it->integer ? "a whole number" : "a number", hi,
                          it->unit);
    } else {
        tco_strbuf_free(&msg);
        return;
    }
    dv.ignore_blank = LXW_VALIDATION_OFF; /* a cleared input is an error, not a zero */
    char title[] = "Out of range";
    dv.error_title = title;
    set_dv_message(w, ws, row, col, it, &dv, &msg);
}

/* An input value: a number with its format, or text (always as text). */
/* A money input of a model reported in another currency (in_report): the live formula =BASE/fx_report,
 * BASE its CNY value as the files give it; cached @p v, the engine's BASE / fx_report. */
/* The formula of a money value in another reporting currency, "BASE/fx_report" (without '='), appended to
 * @p out: write_report_value() writes it, write_live_status() compares the cell with it. */
static void report_formula(const writer *w, double base, tco_strbuf *out)
{
    char num[32];
    tco_format_double(base, num);
    tco_strbuf_printf(out, "%s/%s%s", num, w->np, TCO_FX_REPORT);
}

static void write_report_value(writer *w, lxw_worksheet *ws, int row, int col, const tco_item *it, double base,
                               double v, lxw_format *f)
{
    tco_strbuf_free(&w->ref);
    tco_strbuf_append(&w->ref, "=");
    report_formula(w, base, &w->ref);
    if (w->ref.failed)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    else
        wb_write_formula(w, ws, row, col, tco_strbuf_str(&w->ref), f ? f : wb_value_format(w, it, v, true), v);
    tco_strbuf_free(&w->ref);
}

static void write_input_value(writer *w, lxw_worksheet *ws, int row, int col, const tco_item *it, double v,
                              const char *text)
{
    if (text)
        wb_write_text(w, ws, row, col, text, it->structural ? w->fmt_fixed[it->format] : w->fmt_input_text);
    else if (it->in_report)
        write_report_value(w, ws, row, col, it,
                           it->kind == TCO_ITEM_TIER_INPUT ? it->base_tiers[row - w->tier_row] : it->base_value, v, NULL);
    else
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)col, v, wb_value_format(w, it, v, true)),
                 it->name);
    validate_input(w, ws, row, col, it);
}

/* The ends of a value's range @p r (its input @p it) in columns @p low_col and @p low_col + 1: numbers
 * formatted like the value (not as inputs: a range is read, not typed over), or for a money input reported
 * in another currency the live =GIVEN/fx_report, as its value.  Nothing without a range. */
static void write_range(writer *w, lxw_worksheet *ws, int row, int low_col, const tco_item *it, const tco_range *r)
{
    if (r == NULL || r->dist == TCO_DIST_NONE)
        return;
    const double given[2] = {r->given_low, r->given_high}, v[2] = {r->low, r->high};
    lxw_format *f = wb_values_format(w, it, v, 2, false);
    for (int k = 0; k < 2; k++)
        if (it->in_report)
            write_report_value(w, ws, row, low_col + k, it, given[k], v[k], f);
        else
            wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)(low_col + k), v[k], f), it->name);
}

/* A range's distribution and basis after @p lead (the Low and High columns give the ends): the Inputs
 * sheet's source reads "...: illustrative. Range, triangular: seed §4.3", a tier note "D-M, triangular: ...";
 * a bounds range (KEY_range_kind) "Range, triangular within the bounds: ...". */
static void range_note(tco_strbuf *out, const char *lead, const tco_range *r)
{
    if (r == NULL || r->dist == TCO_DIST_NONE)
        return;
    tco_strbuf_printf(out, "%s, %s%s", lead, tco_dist_name(r->dist), r->bounds ? " within the bounds" : "");
    if (r->by_set)
        tco_strbuf_printf(out, " (%s)", r->given);
    if (r->basis)
        tco_strbuf_printf(out, ": %s", r->basis);
}


/* The fx_ input converting quote @p q (fx_usd), or "" for the reporting currency or a rate with no input. */
void wb_quote_rate_name(const tco_model *m, const tco_quote *q, char name[16])
{
    name[0] = '\0';
    if (strcasecmp(q->currency, "CNY") == 0)
        return;
    if (strcasecmp(q->currency, tco_model_currency(m)) == 0) { /* the reporting currency's own rate */
        snprintf(name, 16, "%s", TCO_FX_REPORT);
        return;
    }
    snprintf(name, 16, "fx_%c%c%c", tolower((unsigned char)q->currency[0]), tolower((unsigned char)q->currency[1]),
             tolower((unsigned char)q->currency[2]));
    if (tco_model_find(m, name) < 0)
        name[0] = '\0';
}

/* An input price quote @p qi set (tco_model_apply_quotes() chose it): a live formula, the quote's unit
 * price on the Quotes sheet times its fx_ rate ('Quotes'!$F$9*fx_usd), or the unit price alone in the
 * reporting currency; cached @p v, the engine's unit_price x rate, computed in the same order. */
/* The formula of a price quote @p qi gives input @p it (without '='), appended to @p out: the quote's unit
 * price on the Quotes sheet x its live rate, over 1 + its VAT rate when the price includes VAT, over
 * fx_report in another reporting currency.  write_quoted_value() writes it, write_live_status() compares
 * the cell with it. */
static void quoted_formula(writer *w, const tco_item *it, size_t qi, tco_strbuf *out)
{
    const tco_quote *q = &w->m->quotes->quotes[qi];
    char rate_name[16], c[4];
    wb_quote_rate_name(w->m, q, rate_name);
    wb_append_sheet_ref(w, out, "Quotes");
    wb_col_letters(QCOL_UNIT_PRICE, c);
    tco_strbuf_printf(out, "$%s$%zu", c, (size_t)ROW_FIRST + qi + 1);
    if (rate_name[0])
        tco_strbuf_printf(out, "*%s%s", w->np, rate_name);
    else if (q->rate != 1) /* not reached: every foreign currency quoted has its fx_ input */
        tco_strbuf_printf(out, "*%.17g", q->rate);
    if (q->vat_included) { /* to the model's basis, ex VAT: over 1 + the quote's VAT rate (live on Quotes) */
        wb_col_letters(QCOL_VAT_RATE, c);
        tco_strbuf_append(out, "/(1+");
        wb_append_sheet_ref(w, out, "Quotes");
        tco_strbuf_printf(out, "$%s$%zu)", c, (size_t)ROW_FIRST + qi + 1);
    }
    if (it->in_report) /* in the reporting currency: the CNY price over its rate */
        tco_strbuf_printf(out, "/%s%s", w->np, TCO_FX_REPORT);
}

static void write_quoted_value(writer *w, lxw_worksheet *ws, int row, int col, const tco_item *it, size_t qi,
                               double v)
{
    tco_strbuf_free(&w->ref);
    tco_strbuf_append(&w->ref, "=");
    quoted_formula(w, it, qi, &w->ref);
    if (w->ref.failed)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    else
        wb_write_formula(w, ws, row, col, tco_strbuf_str(&w->ref), wb_value_format(w, it, v, true), v);
    tco_strbuf_free(&w->ref);
    validate_input(w, ws, row, col, it);
}

static void write_live_status(writer *w, lxw_worksheet *ws, int row, int value_col, int status_col, const char *status,
                              lxw_format *f, const char *text, double v, const char *expr);

/* Most UTF-16 units of the per-row range notes below the tier table (a cell holds 32,767). */
#define TIER_RANGE_NOTES_MAX 8000

/* The tier table's columns: narrow, so that the table prints one page wide at PRINT_MIN_SCALE (the headers wrap, in up
 * to five lines, and each column is as wide as its header's longest word: tier_column()): a number as wide
 * as its digits need and one more ("1,500.00": 9, a price without its currency code "160,000": 8), at least
 * 7 characters, a text as wide as its longest value.  (7 and five lines since the import duty's Status
 * column: 8 and four left "High: Price" on a page of its own.) */
#define TIER_COL_WIDTH 7
#define TIER_HEADER_LINES 5
static double tier_col_width(const tco_model *m, const tco_item *it)
{
    if (it->tier_texts == NULL) { /* digits, a comma per three, cents, a character to spare */
        double most = 0;
        for (int r = 0; r < m->n_tiers; r++)
            most = fabs(it->tiers[r]) > most ? fabs(it->tiers[r]) : most;
        bool cents = false;
        for (int r = 0; r < m->n_tiers; r++)
            cents |= it->tiers[r] != floor(it->tiers[r]);
        int digits = most >= 1 ? (int)floor(log10(most)) + 1 : 1;
        double width = digits + (digits - 1) / 3 + (cents ? 3 : 0) + 1;
        return width > TIER_COL_WIDTH ? width : TIER_COL_WIDTH;
    }
    double width = 4; /* a text column: as wide as its longest value ("workstation", "dedicated") */
    for (int r = 0; r < m->n_tiers; r++)
        width = wb_text_width(it->tier_texts[r], width);
    return width;
}

/* A tier table column @p col headed @p header (wrapped in the table's header row, the row above
 * w->tier_row) at least @p min wide: as wide as the header's longest word, so that print breaks it between
 * words ("Bandwidth (GB/s)", not "Bandwidt h"), and wider while the header takes more than
 * TIER_HEADER_LINES lines; returns the lines it takes, for the row's height. */
static size_t tier_column(writer *w, lxw_worksheet *ws, int col, const char *header, double min)
{
    double width = wb_header_width(header, min);
    while (wb_header_lines(header, width) > TIER_HEADER_LINES && width < min + 6) /* a row of 5 lines */
        width++;
    worksheet_set_column(ws, (lxw_col_t)col, (lxw_col_t)col, width, NULL);
    wb_write_text(w, ws, w->tier_row - 1, col, header, w->header_wrap);
    return wb_header_lines(header, width);
}

/* The tier table's notes @p text (one paragraph a line): below the table from @p row, each paragraph in a
 * row of its own merged across the table's columns (from its Tier column to @p last), the row as tall as its
 * text: on the table's page, in rows nothing else shares (beside the inputs list, each row took the taller of
 * an input and a note; below the list, they took a page of it). */
static void tier_notes(writer *w, lxw_worksheet *ws, int row, int last, const char *text)
{
    if (text == NULL || *text == '\0' || w->err != TCO_OK)
        return;
    for (const char *p = text; *p && w->err == TCO_OK;) {
        size_t n = strcspn(p, "\n");
        tco_strbuf one = {0};
        if (p == text) /* the first note says what they are */
            tco_strbuf_printf(&one, "Tier catalog (%s), where each column comes from. ", w->m->tier_path);
        tco_strbuf_printf(&one, "%.*s", (int)n, p);
        if (one.failed)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        else
            wb_write_across(w, ws, row++, COL_TIER_TABLE, last, tco_strbuf_str(&one), w->source);
        tco_strbuf_free(&one);
        p += n + (p[n] == '\n');
    }
}

/* The tier table's notes, one paragraph a line, appended to @p notes: each column's source, then each ranged
 * column's Low and High (the distribution and basis of each run of rows alike). */
static void tier_notes_text(const tco_model *m, tco_strbuf *notes)
{
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind == TCO_ITEM_TIER_INPUT)
            tco_strbuf_printf(notes, "%s%s (%s): %s", notes->len ? "\n" : "", it->label, it->name, it->source);
    }
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind != TCO_ITEM_TIER_INPUT || it->tier_ranges == NULL)
            continue;
        tco_strbuf rows = {0};
        size_t untold = 0;
        const tco_range *tr = it->tier_ranges;
        /* One note per run of rows alike (distribution and basis, none by --set): "C30, C60, triangular: ...". */
        for (int r = 0, end; r < m->n_tiers; r = end) {
            for (end = r + 1; end < m->n_tiers && tr[r].dist != TCO_DIST_NONE && !tr[r].by_set && tr[end].dist == tr[r].dist &&
                              !tr[end].by_set && (tr[end].basis && tr[r].basis ? strcmp(tr[end].basis, tr[r].basis) == 0
                                                                                : tr[end].basis == tr[r].basis);
                 end++)
                ;
            if (tr[r].dist == TCO_DIST_NONE)
                continue;
            tco_strbuf one = {0}, lead = {0};
            for (int k = r; k < end; k++)
                tco_strbuf_printf(&lead, "%s%s", k > r ? ", " : "", m->tier_names[k]);
            tco_strbuf_append(&one, rows.len ? "; " : "");
            range_note(&one, tco_strbuf_str(&lead), &tr[r]);
            tco_strbuf_append_capped(&rows, tco_strbuf_str(&one), TIER_RANGE_NOTES_MAX, &untold);
            tco_strbuf_free(&one);
            tco_strbuf_free(&lead);
        }
        tco_strbuf_printf(notes, "%sLow and High of %s (%s), the 90%% interval of each ranged row: %s",
                          notes->len ? "\n" : "", it->label, it->name, tco_strbuf_str(&rows));
        if (untold)
            tco_strbuf_printf(notes, "; %zu more (see the columns)", untold);
        if (rows.failed)
            notes->failed = true;
        tco_strbuf_free(&rows);
    }
}

/* Whether per-tier input @p i has a Status column in the tier table: the column vendor quotes may price, or a
 * column a capex price looks up ([model] capex_prices: card_price = INDEX(tier_price, card_row), and
 * card_import_duty = INDEX(tier_import_duty, card_row), which prices card capex as the price does). */
static bool tier_status_column(const tco_model *m, size_t i)
{
    const tco_item *it = &m->items[i];
    if (it->kind != TCO_ITEM_TIER_INPUT)
        return false;
    if (it->quote_item != NULL)
        return true;
    for (size_t k = 0; k < m->n_capex_basis; k++)
        for (size_t j = 0; j < m->capex_basis[k].n_prices; j++) {
            int tier_input, row_item;
            if (tco_price_tier_lookup(m, m->capex_basis[k].prices[j], &tier_input, &row_item) && tier_input == (int)i)
                return true;
        }
    return false;
}

/* The tier catalog below the inputs list and its legend, in the columns to the right of the list, from
 * w->tier_row: one row per tier, one column per per-tier input, and its notes below it (tier_notes_text());
 * @p before_set: the inputs list has a Before --set column (column I). */
static void write_tier_table(writer *w, lxw_worksheet *ws, bool before_set)
{
    const tco_model *m = w->m;
    if (m->n_tiers == 0)
        return;
    tco_strbuf t = {0};
    tco_strbuf_printf(&t, "Tier catalog (%s)", m->tier_path);
    wb_write_text(w, ws, w->tier_row - 2, COL_TIER_TABLE, tco_strbuf_str(&t), w->total_label);
    tco_strbuf_free(&t);
    wb_write_text(w, ws, w->tier_row - 1, COL_TIER_TABLE, "Tier", w->header);
    /* Money without the currency code in the cells: each header names it ("Price (CNY/card)"), so that the
     * table's nineteen columns print on one page at 75%. */
    bool bare = w->money_bare;
    w->money_bare = true;
    int col = COL_TIER_TABLE + 1;
    size_t head_lines = 1; /* the most lines a header of the table wraps into */
    /* The table's last column (a column per per-tier input, a status column per one that prices capex, Low
     * and High per ranged one): the notes below it wrap within it instead of running onto pages of their own. */
    int last = COL_TIER_TABLE;
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].kind == TCO_ITEM_TIER_INPUT)
            last += 1 + tier_status_column(m, i) + 2 * (m->items[i].tier_ranges != NULL);
    double tier_width = 5; /* "Tier", and the codes below it */
    for (int r = 0; r < m->n_tiers; r++)
        tier_width = wb_text_width(m->tier_names[r], tier_width);
    worksheet_set_column(ws, COL_TIER_TABLE, COL_TIER_TABLE, tier_width, NULL);
    if (last > COL_TIER_TABLE)
        worksheet_set_column(ws, COL_TIER_TABLE + 1, (lxw_col_t)last, TIER_COL_WIDTH, NULL);
    for (int r = 0; r < m->n_tiers; r++)
        wb_write_text(w, ws, w->tier_row + r, COL_TIER_TABLE, m->tier_names[r], w->text);
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind == TCO_ITEM_TIER_CODE) /* the built-in name tier: this first column */
            w->place[i] = (placement){-1, w->tier_row, COL_TIER_TABLE, 0, 0, 0};
        if (it->kind != TCO_ITEM_TIER_INPUT)
            continue;
        tco_strbuf h = {0};
        tco_strbuf_printf(&h, "%s (%s)", it->label, it->unit);
        size_t lines = tier_column(w, ws, col, tco_strbuf_str(&h), tier_col_width(m, it));
        head_lines = lines > head_lines ? lines : head_lines;
        tco_strbuf_free(&h);
        for (int r = 0; r < m->n_tiers; r++)
            if (m->quotes && it->tier_quotes && it->tier_quotes[r] >= 0)
                write_quoted_value(w, ws, w->tier_row + r, col, it, (size_t)it->tier_quotes[r], it->tiers[r]);
            else
                write_input_value(w, ws, w->tier_row + r, col, it, it->tiers[r],
                                  it->tier_texts ? it->tier_texts[r] : NULL);
        w->place[i] = (placement){-1, w->tier_row, col, 0, 0, 0};
        col++;
    }
    /* The status of each row of a column that prices capex (the price, which quotes may price; the import
     * duty): quote or the row's basis. */
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (!tier_status_column(m, i))
            continue;
        tco_strbuf h = {0};
        tco_strbuf_printf(&h, "Status: %s", it->label);
        double status_width = 4; /* as wide as the longest status of its rows, indented */
        for (int r = 0; r < m->n_tiers; r++)
            status_width = wb_text_width(tco_status_name(tco_status_of_tier_row(m, it, r)), status_width);
        size_t lines = tier_column(w, ws, col, tco_strbuf_str(&h), status_width);
        head_lines = lines > head_lines ? lines : head_lines;
        tco_strbuf_free(&h);
        /* Each row reads "edited" once a price or duty is typed over what the run wrote: a plain value, or a
         * quoted row's formula over the Quotes sheet, or a money row's =BASE/fx_report in another currency (compared
         * with the same formula, so an edited rate or quote keeps the row's status). */
        for (int r = 0; r < m->n_tiers; r++) {
            tco_status st = tco_status_of_tier_row(m, it, r);
            tco_strbuf expr = {0};
            if (m->quotes && it->tier_quotes && it->tier_quotes[r] >= 0)
                quoted_formula(w, it, (size_t)it->tier_quotes[r], &expr);
            else if (it->in_report)
                report_formula(w, it->base_tiers[r], &expr);
            write_live_status(w, ws, w->tier_row + r, w->place[i].col, col, tco_status_name(st), w->fmt_status[st],
                              NULL, it->tiers[r], expr.len || expr.failed ? tco_strbuf_str(&expr) : NULL);
            tco_strbuf_free(&expr);
        }
        w->place[i].status_col = col;
        lxw_conditional_format cf = {.type = LXW_CONDITIONAL_TYPE_CELL, .criteria = LXW_CONDITIONAL_CRITERIA_EQUAL_TO,
                                     .value_string = "\"" TCO_INPUT_EDITED "\"", .format = w->fmt_status[TCO_STATUS_WHATIF]};
        wb_check(w, worksheet_conditional_format_range(ws, (lxw_row_t)w->tier_row, (lxw_col_t)col, (lxw_row_t)(w->tier_row + m->n_tiers - 1),
                                                       (lxw_col_t)col, &cf),
                 "edited status");
        col++;
    }
    /* The ranges of the rows that have one: Low and High columns per ranged input, each row's
     * distribution and basis in a note below the table. */
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind != TCO_ITEM_TIER_INPUT || it->tier_ranges == NULL)
            continue;
        for (int k = 0; k < 2; k++) {
            tco_strbuf h = {0};
            tco_strbuf_printf(&h, "%s: %s (%s)", k ? "High" : "Low", it->label, it->unit);
            size_t lines = tier_column(w, ws, col + k, tco_strbuf_str(&h), tier_col_width(m, it));
            head_lines = lines > head_lines ? lines : head_lines;
            tco_strbuf_free(&h);
        }
        w->place[i].range_col = col; /* for Run snapshot (risk_sheets.c) */
        for (int r = 0; r < m->n_tiers; r++)
            write_range(w, ws, w->tier_row + r, col, it, &it->tier_ranges[r]);
        col += 2;
    }
    tco_strbuf notes = {0};
    tier_notes_text(m, &notes);
    if (notes.failed)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    else
        tier_notes(w, ws, w->tier_row + m->n_tiers + 1, last, tco_strbuf_str(&notes));
    tco_strbuf_free(&notes);
    w->money_bare = bare;
    wb_set_row_lines(w, ws, w->tier_row - 1, head_lines); /* as tall as the longest header */
    /* A page break before the tier table's columns, or before the narrow gap in front of them when there is
     * no Before --set column: the inputs' pages end with their sources (scale: wb_print_layout()); and one
     * before its title row, so that the table prints on a page of its own, its rows as tall as their values
     * (the pages of the inputs list hold nothing in its columns, and no page prints the list's columns
     * beside it: an empty page is not printed). */
    lxw_col_t breaks[] = {before_set ? COL_TIER_TABLE : COL_INPUT_BEFORE, 0};
    wb_check(w, worksheet_set_v_pagebreaks(ws, breaks), "page break");
    lxw_row_t rows[] = {(lxw_row_t)(w->tier_row - 2), 0};
    wb_check(w, worksheet_set_h_pagebreaks(ws, rows), "page break");
}

/* Whether Inputs-style sheet being written lists input @p i: every scalar input on an option's or a
 * scenario's Inputs sheet, the shared ones only on a comparison's Shared inputs sheet. */
static bool lists_input(const writer *w, size_t i)
{
    return w->m->items[i].kind == TCO_ITEM_INPUT && (!w->shared_sheet || w->shared[i]);
}

/* An option's cell of a shared input: a reference to the Shared inputs sheet's cell, cached alike. */
static void write_shared_ref(writer *w, lxw_worksheet *ws, int row, int col, const tco_item *it)
{
    tco_strbuf_free(&w->ref);
    tco_strbuf_printf(&w->ref, "=%s", it->name);
    if (w->ref.failed)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    else
        wb_write_formula_or_text(w, ws, row, col, tco_strbuf_str(&w->ref),
                                 it->text ? w->text : w->fmt_fixed[it->format], it->value, it->text);
    tco_strbuf_free(&w->ref);
}

/* The Status cell (column @p status_col of @p row) of a value the run wrote in column @p value_col of the
 * same row (@p text, or the number @p v, or when @p expr is not NULL the formula @p expr, without '='): the
 * live
 *   IF(ABS(C8-0.7)<=ABS(0.7)*1E-12,"seed figure","edited")   (a text input: IF(C8="D-M",...))
 *   IF(ABS(C12-('Quotes'!$F$6))<=ABS('Quotes'!$F$6)*1E-12,"quote","edited")   (a quoted price)
 * so that a value typed over the run's reads "edited" instead of still naming the run's source; the
 * written value is kept in the formula (to 1E-12 of itself: a formula's constant reads back to 15
 * digits), or the written formula, which follows what it reads (a quote's rate edited: still "quote").
 * Cached: the status's name.  An input's Status on the list, and each row's of the tier table's price.
 * An empty @p expr (out of memory) writes the fixed status. */
static void write_live_status(writer *w, lxw_worksheet *ws, int row, int value_col, int status_col, const char *status,
                              lxw_format *f, const char *text, double v, const char *expr)
{
    char vc[4];
    wb_col_letters(value_col, vc);
    tco_strbuf_free(&w->ref);
    tco_strbuf_printf(&w->ref, "=IF(");
    if (expr) {
        tco_strbuf_printf(&w->ref, "ABS(%s%d-(%s))<=ABS(%s)*1E-12", vc, row + 1, expr, expr);
    } else if (text) {
        append_cell_is_text(&w->ref, row, value_col, text);
    } else {
        char lit[32];
        tco_format_double(v, lit);
        const char *l = v < 0 ? "(" : "", *r = v < 0 ? ")" : "";
        tco_strbuf_printf(&w->ref, "ABS(%s%d-%s%s%s)<=ABS(%s%s%s)*1E-12", vc, row + 1, l, lit, r, l, lit, r);
    }
    tco_strbuf_printf(&w->ref, ",\"%s\",\"%s\")", status, TCO_INPUT_EDITED);
    if (w->ref.failed || tco_strbuf_str(&w->ref)[0] == '\0' || w->ref.len > TCO_FORMULA_MAX_LEN ||
        (expr && expr[0] == '\0')) /* text too long, or no formula to compare with */
        wb_write_text(w, ws, row, status_col, status, f);
    else
        wb_write_formula_or_text(w, ws, row, status_col, tco_strbuf_str(&w->ref), f, 0, status);
    tco_strbuf_free(&w->ref);
}

/* Most prices of the Inputs list that are lines, not inputs (write_price_lines()). */
#define PRICE_LINES_MAX 16

/* The prices capex rests on ([model] capex_prices) that are no input of their own but a line in money (the
 * card's price, looked up from the tier table): a row each on the Inputs list from @p row, its value the live
 * =card_price (grey: typed elsewhere), its status the price's, and its source saying where to edit it
 * (written once the tier table is placed: price_line_sources()).  A rate such as the chosen card's import
 * duty (card_import_duty) has no row: its Status is the tier table's, which the Summary reads at card_row
 * (the list filled its eight printed pages; a row more took a ninth).  Their items go to @p items; returns
 * how many rows. */
static size_t price_line_items(const writer *w, int *items)
{
    const tco_model *m = w->m;
    size_t n = 0;
    for (size_t k = 0; k < m->n_capex_basis; k++)
        for (size_t j = 0; j < m->capex_basis[k].n_prices && n < PRICE_LINES_MAX; j++) {
            int p = m->capex_basis[k].prices[j];
            bool seen = false;
            for (size_t q = 0; q < n; q++)
                seen |= items[q] == p;
            if (!seen && m->items[p].kind == TCO_ITEM_LINE && tco_unit_is_money(m->items[p].unit) &&
                w->place[p].sheet >= 0)
                items[n++] = p;
        }
    return n;
}

static size_t write_price_lines(writer *w, lxw_worksheet *ws, int row, int *items)
{
    const tco_model *m = w->m;
    size_t n = price_line_items(w, items);
    for (size_t k = 0; k < n; k++) {
        int p = items[k];
        const tco_item *it = &m->items[p];
        int r = row + (int)k;
        wb_write_text(w, ws, r, 0, it->label, w->text_wrap);
        wb_write_text(w, ws, r, 1, it->unit, w->text);
        tco_strbuf_free(&w->ref);
        tco_strbuf_printf(&w->ref, "=%s%s", w->np, it->name);
        if (w->ref.failed)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        else
            wb_write_formula_or_text(w, ws, r, 2, tco_strbuf_str(&w->ref), w->fmt_fixed[it->format], it->value,
                                     wb_item_text(it));
        tco_strbuf_free(&w->ref);
        w->place[p].list_row = r + 1; /* its Status: price_line_sources(), once the tier table is placed */
        tco_strbuf full = {0};
        tco_strbuf_printf(&full, "%s%s", w->np, it->name);
        wb_write_text(w, ws, r, COL_INPUT_NAME, tco_strbuf_str(&full), w->source);
        tco_strbuf_free(&full);
    }
    return n;
}

/* The source of each price line of write_price_lines() (rows from @p row): the line's, then where its
 * value is typed: "... Edit it in the tier table: tier_price (column O), at the row of card_tier (C6)". */
static void price_line_sources(writer *w, lxw_worksheet *ws, int row, const int *items, size_t n,
                               const input_widths *iw)
{
    const tco_model *m = w->m;
    unsigned char *needed = malloc(m->n_items ? m->n_items : 1);
    if (needed == NULL) {
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return;
    }
    for (size_t k = 0; k < n && w->err == TCO_OK; k++) {
        const tco_item *it = &m->items[items[k]];
        /* Its Status, live: a lookup in the tier table (card_price = INDEX(tier_price, card_row)) reads that
         * table's Status column at the same row, so it says "edited" when the chosen tier's price is typed
         * over and follows card_tier to another tier's status; any other line compares its live value with
         * the value the run wrote, as an input's Status does. */
        tco_status st = tco_status_of_price(m, items[k]);
        int tier_input, row_item;
        if (tco_price_tier_lookup(m, items[k], &tier_input, &row_item) && w->place[tier_input].status_col > 0) {
            char sc[4];
            wb_col_letters(w->place[tier_input].status_col, sc);
            tco_strbuf_free(&w->ref);
            tco_strbuf_printf(&w->ref, "=INDEX($%s$%d:$%s$%d,%s%s)", sc, w->tier_row + 1, sc, w->tier_row + m->n_tiers, w->np,
                              m->items[row_item].name);
            if (w->ref.failed)
                w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
            else
                wb_write_formula_or_text(w, ws, row + (int)k, COL_INPUT_STATUS, tco_strbuf_str(&w->ref),
                                         w->fmt_status[st], 0, tco_status_name(st));
            tco_strbuf_free(&w->ref);
        } else
            write_live_status(w, ws, row + (int)k, 2, COL_INPUT_STATUS, tco_status_name(st), w->fmt_status[st],
                              it->text_line ? it->text : NULL, it->value, NULL);
        tco_model_needed(m, &items[k], 1, needed);
        tco_strbuf src = {0};
        tco_strbuf_printf(&src, "%s; edit it", it->source);
        /* The tier table's columns first ("the tier table's tier_price (column W)"), then the inputs that pick
         * the row ("at the row of card_tier (C10)"), or the inputs alone. */
        const char *sep = " ";
        bool tier = false;
        for (int pass = 0; pass < 2; pass++)
            for (size_t j = 0; j < m->n_items; j++) {
                const tco_item *in = &m->items[j];
                if (!needed[j] || w->place[j].sheet != -1)
                    continue;
                char col[4];
                wb_col_letters(w->place[j].col, col);
                if (pass == 0 && in->kind == TCO_ITEM_TIER_INPUT && in->tier_texts == NULL) {
                    tco_strbuf_printf(&src, "%sin the tier table: %s (column %s)", sep, in->name, col);
                    tier = true;
                } else if (pass == 1 && in->kind == TCO_ITEM_INPUT) {
                    tco_strbuf_printf(&src, "%s%s (%s%d)", tier ? " at the row of " : sep, in->name, col,
                                      w->place[j].row + 1);
                    tier = false;
                } else
                    continue;
                sep = ", ";
            }
        const char *source = tco_strbuf_str(&src);
        wb_write_text(w, ws, row + (int)k, COL_INPUT_SOURCE, source, w->source);
        tco_strbuf name = {0};
        tco_strbuf_printf(&name, "%s%s", w->np, it->name);
        fit_input_row(w, ws, row + (int)k, it->label, source, tco_strbuf_str(&name), iw);
        tco_strbuf_free(&name);
        tco_strbuf_free(&src);
    }
    free(needed);
}

/* The Source / basis text of listed input @p i, appended to @p src: its source, then its range's
 * distribution and basis; a shared input's reference to the Shared inputs sheet. */
static void input_source(const writer *w, size_t i, tco_strbuf *src)
{
    const tco_item *it = &w->m->items[i];
    if (w->shared && w->shared[i] && !w->shared_sheet)
        tco_strbuf_printf(src, "the Shared inputs sheet's %s, which every option uses", it->name);
    else {
        tco_strbuf_append(src, w->shared_sources && w->shared_sources[i] ? w->shared_sources[i] : it->source);
        range_note(src, ". Range", &it->range);
    }
}

/* The widths of the Inputs list's columns (input_widths): the Name column as wide as its longest name (with
 * the comparison's prefix) and the Unit column as its widest unit, so that each prints whole; label and
 * source splitting what is left for the fewest lines. */
static input_widths inputs_widths(writer *w, bool any_original)
{
    const tco_model *m = w->m;
    input_widths iw = {0, 0, INPUT_UNIT_MIN, INPUT_NAME_MIN};
    tco_strbuf name = {0};
    int items[PRICE_LINES_MAX];
    size_t n_price = w->shared_sheet ? 0 : price_line_items(w, items);
    for (size_t i = 0; i < m->n_items; i++) {
        bool price = false;
        for (size_t k = 0; k < n_price; k++)
            price |= items[k] == (int)i;
        if (!lists_input(w, i) && !price)
            continue;
        tco_strbuf_clear(&name);
        tco_strbuf_printf(&name, "%s%s", w->np, m->items[i].name);
        iw.name = wb_text_width(tco_strbuf_str(&name), iw.name - 1) + 1; /* and the indent */
        iw.unit = wb_text_width(m->items[i].unit, iw.unit);
    }
    if (iw.unit > INPUT_UNIT_MAX)
        iw.unit = INPUT_UNIT_MAX;
    if (iw.name > INPUT_NAME_MAX)
        iw.name = INPUT_NAME_MAX;
    tco_strbuf_free(&name);
    size_t total = input_text_width(any_original, iw.unit, iw.name), n = 0;
    iw.label = 36 < total ? 36 : INPUT_LABEL_MIN;
    const char **labels = malloc((m->n_items ? m->n_items : 1) * sizeof *labels);
    char **sources = calloc(m->n_items ? m->n_items : 1, sizeof *sources);
    bool failed = labels == NULL || sources == NULL;
    for (size_t i = 0; !failed && i < m->n_items; i++) {
        if (!lists_input(w, i))
            continue;
        tco_strbuf src = {0};
        input_source(w, i, &src);
        labels[n] = m->items[i].label;
        failed = (sources[n++] = tco_strbuf_take(&src)) == NULL;
    }
    if (!failed)
        iw.label = wb_split_label_width(labels, (const char *const *)sources, n, total, INPUT_LABEL_MIN);
    else if (w->err == TCO_OK)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    for (size_t k = 0; sources && k < n; k++)
        free(sources[k]);
    free(labels);
    free(sources);
    iw.source = total - iw.label;
    return iw;
}

/* The Inputs sheet's note: what its cells are, and with quotes, how a quoted price is made. */
#define INPUTS_NOTE_HEAD                                                                                   \
    "Blue cells on yellow are inputs: change them and every dependent cell recalculates. Each is a workbook " \
    "name used by the formulas. Grey cells are fixed by the scenario file. "
#define INPUTS_NOTE_QUOTES                                                                                 \
    "A price from a vendor quote is its unit price on the Quotes sheet x its fx_ rate (tco chose the "      \
    "quote): change the rate and it follows, or type a price over it. "
#define INPUTS_NOTE_TAIL "Status: the legend below the inputs. \"seed \xC2\xA7N\": see docs/sources.md."

void wb_write_inputs(writer *w, lxw_worksheet *ws)
{
    const tco_model *m = w->m;
    const char *sheet = w->shared_sheet ? TCO_SHARED_SHEET : "Inputs";
    wb_write_text(w, ws, ROW_TITLE, 0, w->shared_sheet ? "Shared inputs" : "Inputs", w->title);
    const char *note = w->shared_sheet
                           ? "The site and finance inputs that every option of the comparison uses, one cell each: "
                             "change one here and every option follows (each option's Inputs sheet refers to it). "
                             "Blue cells on yellow are inputs. Status: the legend below the inputs."
                       : m->quotes ? INPUTS_NOTE_HEAD INPUTS_NOTE_QUOTES INPUTS_NOTE_TAIL
                                   : INPUTS_NOTE_HEAD INPUTS_NOTE_TAIL;
    wb_write_text(w, ws, ROW_HEADER, 0, "Input", w->header);
    wb_write_text(w, ws, ROW_HEADER, 1, "Unit", w->header);
    wb_write_text(w, ws, ROW_HEADER, 2, "Value", w->header_right);
    wb_write_text(w, ws, ROW_HEADER, COL_INPUT_LOW, "Low", w->header_right);
    wb_write_text(w, ws, ROW_HEADER, COL_INPUT_HIGH, "High", w->header_right);
    wb_write_text(w, ws, ROW_HEADER, COL_INPUT_STATUS, "Status", w->header_indent);
    wb_write_text(w, ws, ROW_HEADER, COL_INPUT_NAME, "Name", w->header_indent);
    wb_write_text(w, ws, ROW_HEADER, COL_INPUT_SOURCE, "Source / basis", w->header_indent);
    bool any_original = false;
    for (size_t i = 0; i < m->n_items; i++)
        any_original |= m->items[i].original != NULL && lists_input(w, i) && !(w->shared && w->shared[i] &&
                                                                                 !w->shared_sheet);
    if (any_original)
        wb_write_text(w, ws, ROW_HEADER, COL_INPUT_BEFORE, "Before --set", w->header_right);
    bool bare = w->money_bare;
    w->money_bare = true; /* the Unit column names the currency */
    input_widths iw = inputs_widths(w, any_original);
    /* The tier table's place, known before any formula refers to it (the tier drop-down, the price lines'
     * Status): below the list, its price lines and the Status legend (a heading and 7 rows), after a blank
     * row, its title and its header row. */
    int price_items[PRICE_LINES_MAX];
    size_t n_listed = 0;
    for (size_t i = 0; i < m->n_items; i++)
        n_listed += lists_input(w, i);
    w->tier_row = ROW_FIRST + (int)(n_listed + (w->shared_sheet ? 0 : price_line_items(w, price_items)) + 8) + 3;
    int row = ROW_FIRST;
    for (size_t i = 0; i < m->n_items && w->err == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (!lists_input(w, i))
            continue;
        /* A shared input (a comparison's option): its cell refers to the Shared inputs sheet's, one cell
         * per fact; its value and what it replaced are on that sheet. */
        bool ref = w->shared && w->shared[i] && !w->shared_sheet;
        double before;
        if (!ref) {
            if (it->original && !it->text && it->in_report && tco_parse_number(it->original, &before))
                write_report_value(w, ws, row, COL_INPUT_BEFORE, it, before,
                                   before / m->items[tco_model_find(m, TCO_FX_REPORT)].value,
                                   wb_value_format(w, it, before, false));
            else if (it->original && !it->text && tco_parse_number(it->original, &before))
                wb_check(w,
                         worksheet_write_number(ws, (lxw_row_t)row, COL_INPUT_BEFORE, before,
                                                wb_value_format(w, it, before, false)),
                         it->name);
            else if (it->original)
                wb_write_text(w, ws, row, COL_INPUT_BEFORE, it->original, w->text);
        }
        wb_write_text(w, ws, row, 0, it->label, w->text_wrap);
        wb_write_text(w, ws, row, 1, it->unit, w->text);
        if (ref)
            write_shared_ref(w, ws, row, 2, it);
        else if (m->quotes && it->quoted)
            write_quoted_value(w, ws, row, 2, it, it->quote_index, it->value);
        else
            write_input_value(w, ws, row, 2, it, it->value, it->text);
        if (!ref)
            write_range(w, ws, row, COL_INPUT_LOW, it, &it->range);
        tco_strbuf full = {0}, src = {0};
        tco_strbuf_printf(&full, "%s%s", w->np, it->name);
        wb_write_text(w, ws, row, COL_INPUT_NAME, tco_strbuf_str(&full), w->source); /* a long one wraps */
        tco_status st = tco_status_of_input(it);
        /* "edited" once the value the run wrote is typed over: a plain value, a quoted price's formula over
         * the Quotes sheet or a money value's =BASE/fx_report (each compared with its formula); a comparison
         * option's reference to Shared inputs keeps a fixed Status (its value is edited there). */
        tco_strbuf expr = {0};
        if (!ref && m->quotes && it->quoted)
            quoted_formula(w, it, it->quote_index, &expr);
        else if (!ref && it->in_report && !it->text)
            report_formula(w, it->base_value, &expr);
        if (!ref)
            write_live_status(w, ws, row, 2, COL_INPUT_STATUS, tco_status_name(st), w->fmt_status[st], it->text,
                              it->value, expr.len || expr.failed ? tco_strbuf_str(&expr) : NULL);
        else
            wb_write_text(w, ws, row, COL_INPUT_STATUS, tco_status_name(st), w->fmt_status[st]);
        tco_strbuf_free(&expr);
        input_source(w, i, &src);
        const char *source = tco_strbuf_str(&src);
        wb_write_text(w, ws, row, COL_INPUT_SOURCE, source, w->source);
        fit_input_row(w, ws, row, it->label, source, tco_strbuf_str(&full), &iw);
        tco_strbuf_free(&src);
        tco_strbuf_free(&full);
        wb_define_name(w, it->name, sheet, row, 2);
        w->place[i] = (placement){-1, row, 2, 0, 0, w->shared_sheet ? 0 : row + 1};
        row++;
    }
    int price_row = row;
    size_t n_price = w->shared_sheet ? 0 : write_price_lines(w, ws, row, price_items);
    row += (int)n_price;
    /* An edited input's Status (write_live_status()) in the what-if fill, amber. */
    if (row > ROW_FIRST) {
        lxw_conditional_format cf = {.type = LXW_CONDITIONAL_TYPE_CELL, .criteria = LXW_CONDITIONAL_CRITERIA_EQUAL_TO,
                                     .value_string = "\"" TCO_INPUT_EDITED "\"", .format = w->fmt_status[TCO_STATUS_WHATIF]};
        wb_check(w, worksheet_conditional_format_range(ws, ROW_FIRST, COL_INPUT_STATUS, (lxw_row_t)(row - 1),
                                                       COL_INPUT_STATUS, &cf),
                 "edited status");
    }
    /* The legend of the Status column, right below the list: each status in column A, its meaning across the
     * columns after it (one line each: the legend and the tier table's notes below it fit the list's last
     * page). */
    wb_write_text(w, ws, row, 0, "Status legend", w->header);
    wb_write_text(w, ws, row, 1, "Meaning", w->header);
    for (int c = 2; c <= COL_INPUT_SOURCE; c++)
        wb_write_text(w, ws, row, c, "", w->header);
    row++;
    /* Strongest first, "illustrative" the weakest status tco finds, then "edited" (TCO_STATUS_COUNT_OF here):
     * the Summary takes the weakest of a capex line's prices as the last of them in this list (legend_row),
     * so that one price or duty typed over moves its line to the edited row even beside an illustrative
     * price (the line is no longer what tco computed from its sources; the row names each price's status). */
    static const tco_status legend[] = {TCO_STATUS_QUOTE, TCO_STATUS_MEASURED, TCO_STATUS_SEED, TCO_STATUS_STATED,
                                        TCO_STATUS_WHATIF, TCO_STATUS_ILLUSTRATIVE, TCO_STATUS_COUNT_OF};
    int legend_rows[sizeof legend / sizeof legend[0]];
    const char *legend_text[sizeof legend / sizeof legend[0]];
    if (!w->shared_sheet) {
        w->legend_row = row;
        w->legend_n = (int)(sizeof legend / sizeof legend[0]);
    }
    for (size_t k = 0; k < sizeof legend / sizeof legend[0]; k++, row++) {
        bool edited = legend[k] == TCO_STATUS_COUNT_OF;
        const char *meaning = edited ? TCO_INPUT_EDITED_MEANING : tco_status_meaning(legend[k]);
        wb_write_text(w, ws, row, 0, edited ? TCO_INPUT_EDITED : tco_status_name(legend[k]),
                      w->fmt_status[edited ? TCO_STATUS_WHATIF : legend[k]]);
        legend_rows[k] = row;
        legend_text[k] = meaning;
    }
    worksheet_set_column(ws, 0, 0, (double)iw.label, NULL);
    worksheet_set_column(ws, 1, 1, iw.unit, NULL);
    worksheet_set_column(ws, 2, 2, INPUT_VALUE_WIDTH, NULL);
    worksheet_set_column(ws, COL_INPUT_LOW, COL_INPUT_HIGH, INPUT_RANGE_WIDTH, NULL);
    worksheet_set_column(ws, COL_INPUT_STATUS, COL_INPUT_STATUS, INPUT_STATUS_WIDTH, NULL);
    worksheet_set_column(ws, COL_INPUT_NAME, COL_INPUT_NAME, iw.name, NULL);
    worksheet_set_column(ws, COL_INPUT_SOURCE, COL_INPUT_SOURCE, (double)iw.source, NULL);
    /* Before --set, or without it a narrow gap before the tier table */
    worksheet_set_column(ws, COL_INPUT_BEFORE, COL_INPUT_BEFORE, any_original ? INPUT_BEFORE_WIDTH : 2, NULL);
    tco_strbuf full_note = {0};
    tco_strbuf_append(&full_note, note);
    if (!w->shared_sheet && m->n_tiers > 0) { /* the tier table is out of sight, below the list on the right */
        char tc[4];
        wb_col_letters(COL_TIER_TABLE, tc);
        tco_strbuf_printf(&full_note, " The tier catalog (every card tier's figures and prices) is below the list, "
                          "from %s%d.", tc, w->tier_row - 1);
    }
    if (full_note.failed && w->err == TCO_OK)
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    else
        wb_write_across(w, ws, ROW_NOTE, 0, COL_INPUT_SOURCE, tco_strbuf_str(&full_note), w->note_wrap);
    tco_strbuf_free(&full_note);
    for (size_t k = 0; k < sizeof legend / sizeof legend[0]; k++) /* now that the columns have their widths */
        wb_write_across(w, ws, legend_rows[k], 1, COL_INPUT_SOURCE, legend_text[k], w->source);
    if (!w->shared_sheet)
        write_tier_table(w, ws, any_original); /* below the legend */
    w->money_bare = bare;
    if (n_price > 0 && w->err == TCO_OK)
        price_line_sources(w, ws, price_row, price_items, n_price, &iw);
}

void wb_write_shared_inputs(writer *w, lxw_worksheet *ws)
{
    w->place = calloc(w->m->n_items ? w->m->n_items : 1, sizeof *w->place);
    if (w->place == NULL) {
        w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
        return;
    }
    w->shared_sheet = true;
    wb_write_inputs(w, ws);
    w->shared_sheet = false;
    free(w->place);
    w->place = NULL;
}
