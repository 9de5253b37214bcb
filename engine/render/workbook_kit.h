/*
 * workbook_kit.h - what the workbook writers share (workbook_kit.c): the layout constants, where each
 * item lives, the writer state, and the cell-writing helpers.  Every sheet writer of render/ and of
 * apps/ (rank.c, risk_sheets.c, bridge_book.c) includes it; it includes none of them.
 */
#ifndef TCO_WORKBOOK_KIT_H
#define TCO_WORKBOOK_KIT_H

#include <stdbool.h>
#include <xlsxwriter.h>

#include "model/conventions.h"
#include "model/model.h"
#include "base/strbuf.h"
#include "render/book.h"

/* A comparison's sheet of the inputs every option shares (wb_write_shared_inputs()). */
#define TCO_SHARED_SHEET "Shared inputs"

/* Layout constants: 0-based rows/columns as libxlsxwriter counts them. */
enum {
    ROW_TITLE = 0,
    ROW_NOTE = 1,
    ROW_HEADER = 3, /* column headers; year numbers on per-year sheets */
    ROW_FIRST = 4,  /* first data row */
    COL_ITEM = 0,
    COL_UNIT = 1,
    COL_VALUE = 2,     /* value, or Year 1 */
    COL_TIER_TABLE = 9, /* Inputs: the tier catalog table starts in column J */
    /* Inputs: Input | Unit | Value | Low | High | Status | Name | Source / basis | Before --set */
    COL_INPUT_LOW = 3,
    COL_INPUT_HIGH = 4,
    COL_INPUT_STATUS = 5,
    COL_INPUT_NAME = 6,
    COL_INPUT_SOURCE = 7,
    COL_INPUT_BEFORE = 8
};

/* Printing (issue 11 §9, issue 23 §2): A4 landscape between 0.25" side margins, 0.35" at the top (no
 * header) and 0.5" at the bottom (the footer 0.2" from the edge).  Sizes are
 * in pixels of the sheet at 100% (96 per inch; a column of width W characters is 7 W + 5 pixels with the
 * default 11-point Calibri, as libxlsxwriter and Excel count).  A sheet is fitted to one page wide when
 * that keeps it at PRINT_MIN_SCALE % or more (11 pt x 0.73 = 8.03 pt: nothing prints below 8 pt); a wider one prints at
 * PRINT_WIDE_SCALE % with its first columns and header row repeated on every page. */
#define PRINT_MARGIN_LR 0.25
#define PRINT_WIDTH_PX ((297.0 / 25.4 - 2 * PRINT_MARGIN_LR) * 96)
#define PRINT_MARGIN_TOP 0.35
#define PRINT_MARGIN_BOTTOM 0.5
#define PRINT_MARGIN_FOOTER 0.2
/** The most characters of the scenario (or workbook) name in a page footer (wb_add_sheet()). */
#define FOOTER_NAME_CHARS 60
#define PRINT_HEIGHT_PX ((210.0 / 25.4 - PRINT_MARGIN_TOP - PRINT_MARGIN_BOTTOM) * 96)
#define PRINT_MIN_SCALE 73
#define PRINT_WIDE_SCALE 73
/* The least scale at which the Quotes sheet is fitted one page wide (7.7 pt): its 19 columns narrowed and their
 * text wrapped (write_quotes()) fit at about 73%. */
#define PRINT_QUOTES_SCALE 70
/* LibreOffice (Carlito) lays a column of width W out at 7.4 x (W + 0.71) pixels, 1.057 times Excel's
 * 7 W + 5 for any width from 12 on (measured on cluster32's Inputs at 75%: W = 36 prints 152.8 pt, 22
 * 94.5 pt, 12 52.9 pt: 271.6, 168.0 and 94.1 pixels); 1.06 covers it. */
#define PRINT_LO_WIDER 1.06
/* The scale a sheet of wrapped text (label and source columns) is laid out for: its label and source
 * columns share what the other columns leave of a page's width at this scale in LibreOffice, so the sheet
 * prints one page wide a little above PRINT_MIN_SCALE, its text in as few lines as that width allows. */
#define PRINT_TEXT_SCALE 74
/* Pixels of a page's width at PRINT_TEXT_SCALE, as Excel counts columns (LibreOffice's wider, covered). */
#define PRINT_TEXT_WIDTH_PX (PRINT_WIDTH_PX * 100 / PRINT_TEXT_SCALE / PRINT_LO_WIDER)

/* Where an item lives in the workbook.  Per-tier items: `row` is the row of the
 * first tier and `col` their column; others: the cell (row, col). */
typedef struct placement {
    int sheet; /* index into the calc sheet list, -1 for Inputs */
    int row;
    int col;
    int range_col; /* a ranged per-tier input: its Low column in the tier table (High is the next); 0: none */
    int status_col; /* a per-tier input quotes may price: its Status column in the tier table; 0: none */
    int list_row;   /* 1 + its row on the Inputs list, whose Status is in column F (an input, or a price
                     * line of write_price_lines()); 0: not listed there */
} placement;

/* A defined name held back until every sheet is written (define_names()). */
typedef struct pending_name {
    char *key;     /* the name in lower case, as libxlsxwriter orders names; heap, with the two below */
    char *name;    /* as defined, e.g. "a_tco" */
    char *formula; /* "='Sheet'!$C$5" */
} pending_name;

typedef struct pending_names {
    pending_name *v;
    size_t n, cap;
} pending_names;

/* Number formats showing more decimals than their kind's, made as a value needs one and kept for the whole
 * workbook (small_format()): at most 8 formats x 3 money variants x 4 looks x 15 decimals are asked for. */
typedef struct small_formats {
    struct {
        int key;
        lxw_format *format;
    } v[512];
    size_t n;
} small_formats;

typedef struct writer {
    const tco_model *m;
    const tco_workbook_options *opts;
    lxw_workbook *wb;
    placement *place;
    lxw_format *title, *note, *header, *header_right, *header_year, *header_month, *text, *source, *source_nowrap,
        *total_label;
    lxw_format *fmt[TCO_FMT_COUNT_OF], *fmt_input[TCO_FMT_COUNT_OF], *fmt_total[TCO_FMT_COUNT_OF],
        *fmt_fixed[TCO_FMT_COUNT_OF], *fmt_input_text, *header_wrap, *header_indent, *fmt_sci, *fmt_input_sci, *fmt_bool;
    lxw_format *fmt_money_cents, *fmt_input_money_cents;
    lxw_format *note_wrap; /* the note, wrapped across a table (wb_write_across()) */
    lxw_format *text_wrap, *total_label_wrap; /* labels on per-year sheets, wrapped in a narrower column */
    lxw_format *text_right; /* short text in a column of its own (Quotes: VAT included yes/no), right-aligned */
    lxw_format *header_wrap_left; /* a text column's header wrapped in a narrow column (Quotes, Risk) */
    int current_sheet; /* sheet being written, for relative references */
    int current_year;  /* year column being written (0-based), -1 otherwise */
    int current_tier;  /* tier row being written (0-based), -1 otherwise */
    int current_month; /* month column being written (0-based), -1 otherwise */
    tco_strbuf ref;    /* scratch for reference text, and for a line's formula (write_item_formula()) */
    tco_strbuf text_buf; /* scratch for escaped text (xl_text()) */
    tco_strbuf error_cells; /* the workbook text of error_cells, made at its first use once the lines are placed */
    bool error_cells_used;  /* the formula being printed names error_cells */
    /* The item whose cells' format needs (wb_values_format()) are in needs_cents and needs_sci; NULL: none. */
    const tco_item *fmt_item;
    bool needs_cents, needs_sci;
    int needs_places;
    small_formats *small; /* formats with more decimals than their kind's, made as needed (small_format()) */
    /* Money cells written without the currency code ("#,##0"): the Budget sheet, whose Unit column and
     * headers say the currency, and whose narrower columns print 14 months a page; the Inputs' tier table,
     * whose headers say it ("Price (CNY/card)"), its columns on one page. */
    bool money_bare;
    const char *np;    /* prefix of defined names ("" or "a_" in a comparison) */
    const char *sp;    /* prefix of sheet names ("" or "A " in a comparison) */
    char sheetbuf[160]; /* scratch for one prefixed sheet name (31 characters of up to 4 bytes) */
    int opex_sheet, opex_row; /* where the opex role line landed (for a Compare sheet), -1 if none */
    const char *footer;       /* centre footer text; NULL: the scenario name */
    pending_names *names;     /* defined names of every sheet, given to libxlsxwriter at the end */
    tco_diag *diag;
    tco_error err;
    lxw_format *fmt_status[TCO_STATUS_COUNT_OF]; /* an input's status (conventions.h): a fill per status */
    /* The Inputs sheet's Status legend (column A): its first status row (0-based) and how many, strongest
     * first, "illustrative" then "edited" the weakest (the Summary ranks a capex line's prices by it);
     * legend_n 0: none. */
    int legend_row, legend_n;
    /* The Inputs sheet's tier table (inputs_sheet.c): the row (0-based) of its first tier, below the inputs
     * list, its legend and the table's notes, on rows of its own (as tall as a row of values each, its
     * header row apart from the list's); ROW_FIRST elsewhere. */
    int tier_row;
    /* A comparison: per item of m, 1 for a site or finance input that every option holds alike
     * (tco_item.site_wide), written once on the Shared inputs sheet; the option's Inputs cell is a
     * reference to it.  NULL outside comparisons. */
    const unsigned char *shared;
    bool shared_sheet; /* writing the Shared inputs sheet: those inputs only, named without a prefix */
    /* The Shared inputs sheet: per item of m, the source of a shared input whose options give it from
     * files of their own ("A: scenarios/a.ini [facility] pue ...; B: ..."), NULL where one source
     * stands for all; NULL outside that sheet. */
    char *const *shared_sources;
    /* Label widths already worked out, shared by the options of one book (workbook.h); NULL: none kept. */
    struct wb_label_widths *widths;
} writer;

/* Quotes sheet columns (0-based) the quoted inputs refer to. */
enum { QCOL_UNIT_PRICE = 5, QCOL_RATE = 7, QCOL_VAT_INCLUDED = 8, QCOL_VAT_RATE = 9, QCOL_CONVERTED = 10 };

/** The sheet part of a reference, "'Sheet'!" (the prefixed sheet name, quotes doubled), appended to @p b. */
void wb_append_sheet_ref(const writer *w, tco_strbuf *b, const char *sheet);

/** Name the cell (@p row, @p col) of @p sheet NAME (prefixed in a comparison): held in w->names until
 *  every sheet is written. */
void wb_define_name(writer *w, const char *name, const char *sheet, int row, int col);

/** A sheet's print setup: landscape A4, fitted to one page wide when that keeps it readable, else a
 *  fixed scale with its first columns and header row repeated. */
void wb_print_layout(writer *w, lxw_worksheet *ws);
/** A sheet of blocks, each with a header row of its own (a Summary: Key figures, By year, Checks, Capex by
 *  status), taller than a page: printed on two pages at its width's scale with a break before the block
 *  starting at the last of the @p n rows @p starts (0-based, ascending) that leaves each page whole, and then
 *  no header row repeated (the Key figures header stood above the Checks); else left to wb_print_layout(). */
void wb_print_blocks(writer *w, lxw_worksheet *ws, const int *starts, size_t n);
/** Height in pixels at 100% of rows @p first to @p last of @p ws (as set, or the default row's). */
double wb_rows_px(lxw_worksheet *ws, lxw_row_t first, lxw_row_t last);

/** Lines a text of @p width characters a line wraps into, and a row tall enough for @p lines of them. */
size_t wb_text_lines(const char *text, size_t width);
/* The width in characters a wrapped, right-aligned header @p text needs so that no word of it breaks (a
 * word may break after a hyphen, as Excel and LibreOffice break "(CNY/GPU-hour)"), at least @p min; and
 * the lines it then takes in a column @p width characters wide. */
double wb_header_width(const char *text, double min);
size_t wb_header_lines(const char *text, double width);
/* The width in characters a cell needs to show @p text on one line, at least @p min. */
double wb_text_width(const char *text, double min);
/* The label column's width (the source column takes the rest of @p total characters) for rows of
 * @p n labels and sources: the split, with each column at least @p min characters, that makes the rows'
 * lines (each row the taller of its label and its source, wb_text_lines()) fewest; ties go to the
 * wider label.  @p total < 2 x @p min: @p min. */
size_t wb_split_label_width(const char *const *labels, const char *const *sources, size_t n, size_t total,
                            size_t min);
void wb_set_row_lines(writer *w, lxw_worksheet *ws, int row, size_t lines);
/** Text @p text in one cell merged across columns @p first to @p last of @p row (format @p f, which
 *  wraps), the row made tall enough for it (never lower than it is): a note or caption that would
 *  otherwise run past a table's last column onto pages of its own.  Set the columns' widths first. */
void wb_write_across(writer *w, lxw_worksheet *ws, int row, int first, int last, const char *text, lxw_format *f);

/** @p s as Excel keeps it (the _x005F_ escape of "_xHHHH_"), in w->text_buf; NULL on allocation failure. */
const char *wb_xl_text(writer *w, const char *s);

/** Fills a new workbook: writes sheets through the writer (formats made, no model yet). */
typedef void (*book_fill_fn)(writer *base, void *ctx);

/** Column letters of 0-based column @p col ("A", "AB"), NUL-terminated; returns their number (1 to 3). */
size_t wb_col_letters(int col, char out[4]);

/** Record libxlsxwriter error @p e about @p what in the writer; true while the writer has no error. */
bool wb_check(writer *w, lxw_error e, const char *what);

/** The number format of item @p it of w->m for a cell holding @p v (@p input: an input cell's colours):
 *  one format for every cell of the item (its years, months or tiers, and its Total), chosen from all
 *  its values and @p v. */
lxw_format *wb_value_format(writer *w, const tco_item *it, double v, bool input);

/** As wb_value_format(), for a row whose cells hold the @p n values @p v (a Compare row of every
 *  option's value of @p it). */
lxw_format *wb_values_format(writer *w, const tco_item *it, const double *v, size_t n, bool input);

/** The plain format of kind @p fmt for a cell holding @p v, with more decimals when @p v is not 0 but
 *  would show as 0 in it (0.001 in "0.00" as "0.001"; a money value with cents). */
lxw_format *wb_number_format(writer *w, tco_format fmt, double v);

/** Write text @p s at (row, col), always as text, checked against Excel's cell limit. */
void wb_write_text(writer *w, lxw_worksheet *ws, int row, int col, const char *s, lxw_format *f);

/** Write @p formula at (row, col) with the cached number @p value. */
void wb_write_formula(writer *w, lxw_worksheet *ws, int row, int col, const char *formula, lxw_format *f, double value);

/** Write @p formula with the cached @p text when not NULL (a line that says "n.a."), else @p value. */
void wb_write_formula_or_text(writer *w, lxw_worksheet *ws, int row, int col, const char *formula, lxw_format *f,
                              double value, const char *text);

/**
 * Give the chart series range @p range (a series' values) the results its @p n cells cache, in
 * cell order: @p values[k], or no point where @p numeric is not NULL and @p numeric[k] is false
 * (a cell that caches text such as "n.a.", or none).  libxlsxwriter fills a chart's cache from the
 * cells it holds, but only from number cells: a formula cell's cached result is not read, so
 * every point of a chart over formulas would be cached as 0 and a viewer that does not
 * recalculate (a file preview, a chart pasted elsewhere) would show an empty chart.  The range's
 * list (lxw_series_range.data_cache, public in xlsxwriter/chart.h) is filled here and marked
 * ignore_cache, so the library writes it as given.  Sets w->err on allocation failure.
 */
void wb_chart_cache(writer *w, lxw_series_range *range, const double *values, const bool *numeric, size_t n);

/** The text a scalar line or text input holds instead of a number, else NULL. */
const char *wb_item_text(const tco_item *it);

/** Create @p path through a verified temporary in its folder (output.h), fill it with @p fill, close
 *  it and put it in place.  Errors as tco_workbook_write(). */
tco_error wb_write_book(const char *path, const tco_workbook_options *opts, const char *title, const char *subject,
                        const char *comments, book_fill_fn fill, void *ctx, tco_diag *diag);

/** Add worksheet @p base (prefixed in a comparison) with its tab colour and print setup. */
lxw_worksheet *wb_add_sheet(writer *w, const char *base, lxw_color_t tab, bool fit_width);

/** Year columns of calculation sheet @p s: the schedule sheet's run past Year N (tco_sheet.schedule);
 *  -1 (the Summary's By year table) has the analysis period's. */
int wb_sheet_periods(const tco_model *m, int s);
/** The Total column after @p periods year columns. */
int wb_total_col(int periods);
/** The Source column of a sheet with @p periods year columns (@p yearly) or of a scalar sheet. */
int wb_source_col(int periods, bool yearly);
/** Fiscal years a per-month sheet subtotals, counted from its first month's. */
int wb_fiscal_years(const tco_model *m);
/** A per-month sheet's Total column: after the months from COL_VALUE and one subtotal per fiscal year. */
int wb_month_total_col(const tco_model *m);
/** "=SUM(C7:E7)", the cells of row @p row from column @p c1 to @p c2, in w->ref; NULL (and w->err set)
 *  when out of memory. */
const char *wb_row_sum_text(writer *w, int row, int c1, int c2);
/** Write item @p idx's formula for the current year, month, tier or scalar context at (row, col) with the
 *  cached @p value. */
void wb_write_item_formula(writer *w, lxw_worksheet *ws, int idx, int row, int col, double value);
/** The print scale that fits @p px pixels in one page's width, at most 100. */
int wb_fit_scale(double px);
/** Width in pixels of columns @p first to @p last of @p ws. */
double wb_cols_px(const lxw_worksheet *ws, int first, int last);
/** The worksheet name of sheet @p base in this model: "Opex", or "A Opex" in a comparison. */
const char *wb_sheet_name(writer *w, const char *base);

#endif /* TCO_WORKBOOK_KIT_H */
