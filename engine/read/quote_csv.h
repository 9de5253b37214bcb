/*
 * quote_csv.h - vendor price quotes from CSV files (libcsv): reading and
 * checking every row.  Prices as written are read by price_text.h, dates by
 * dates.h, and converted at the rates of fx.h; choosing the quote that prices
 * an item is pricing's (price/quote_choice.h).
 *
 * The format (docs/quotes.md): a header row, columns matched case-insensitively,
 * any run of spaces, underscores or hyphens, or none, standing for an underscore ("Unit Price",
 * "Unit  Price" and "UnitPrice" are unit_price), in any order.  Required: vendor, item, unit_price, currency (ISO 4217).
 * Optional: quote_id, quote_date, valid_until (YYYY-MM-DD), min_qty,
 * lead_time_weeks, notes, vat_included (yes/no, default no), vat_rate (a share
 * 0..1, required when vat_included is yes).  Unknown columns are ignored with a warning.
 *
 * What real files contain is accepted: a UTF-8 byte-order mark; CRLF; quoted
 * fields with commas, doubled quotes and newlines; blank lines; Excel's
 * "sep=;" first line and semicolon-delimited files; prices with thousands
 * separators or a currency symbol ("12,500.00", "¥12,500"); decimal commas
 * where the delimiter is ';', in every number column (unit_price, vat_rate, min_qty,
 * lead_time_weeks: one decimal mark per file, price_text.h).  What cannot be read unambiguously is a problem
 * naming file, line and column with the offending text; UTF-16 is refused.
 *
 * Reading streams: a row whose item the caller does not keep costs no memory
 * beyond counters, so a million-row file is read in constant memory.  The file
 * is read 64 KiB at a time and handed to libcsv (its buffer grows 64 KiB at a
 * step); a field is never held beyond TCO_QUOTE_MAX_CELL characters' worth of
 * bytes (4 x 32,767): reading stops there with the line and column, so memory
 * stays flat (well under 1 MiB) whatever one field or line holds.
 *
 * Lines are counted as libcsv ends rows: LF, CR and CRLF each end one line,
 * inside quoted fields too, so messages name the line an editor shows.
 *
 * A row whose currency is a code of three letters without a rate in the rates given (pricing/fx.ini) is no
 * error: it is read, checked and kept (when the caller keeps its item) with status TCO_QUOTE_NO_RATE and
 * a reason saying how to give the rate; it prices nothing, and callers warn of it (docs/quotes.md).
 *
 * Limits, each refused with file:line, column and column name (exit 65):
 * - every field: UTF-8, XML 1.0 characters only (no C0 control but tab, LF,
 *   CR; no U+FFFE, U+FFFF), at most TCO_QUOTE_MAX_CELL UTF-16 units;
 * - vendor at most TCO_QUOTE_MAX_VENDOR, item and quote_id at most
 *   TCO_QUOTE_MAX_ID UTF-16 units: they are cited in the reasons and sources tco
 *   builds, and these caps keep every such text within a cell (a reason is at
 *   most about 100 + vendor + file name (PATH_MAX 4,096) characters; a quoted
 *   input's source at most vendor + quote id + file name + its INI source);
 * - the header at most TCO_QUOTE_MAX_COLUMNS columns.
 * Identifier-like fields (item, currency, unit_price, quote_date, valid_until,
 * min_qty, lead_time_weeks) and header names are read without Unicode format
 * characters (category Cf: U+FEFF, U+200B to U+200F, U+2060 to U+2064, ...;
 * tco_quote_format_char()) and without blanks around them (ASCII and Unicode
 * space separators): "\uFEFFD-M" is the item D-M.  Text fields (vendor,
 * quote_id, notes) keep them: a zero-width joiner belongs to a name.
 */
#ifndef TCO_QUOTE_CSV_H
#define TCO_QUOTE_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/names.h"
#include "read/dates.h"
#include "read/fx.h"

/** Longest text of a field, in UTF-16 units: an Excel cell. */
#define TCO_QUOTE_MAX_CELL 32767
/** Longest vendor name, in UTF-16 units (cited in reasons and sources). */
#define TCO_QUOTE_MAX_VENDOR 1000
/** Longest item and quote_id, in UTF-16 units (cited in reasons and sources). */
#define TCO_QUOTE_MAX_ID 256
/** Most columns in a quote file's header (a spreadsheet's width, 16,384 = XFD). */
#define TCO_QUOTE_MAX_COLUMNS 16384

/** Rows a scenario run lists on the Quotes sheet: at most TCO_QUOTE_LIST_CAP per price (each quoted
 *  input's item, each tier row) and for all other items together, and TCO_QUOTE_LIST_TOTAL in all;
 *  past these, each price's best valid quote so far is still kept (and listed), the rest counted. */
#define TCO_QUOTE_LIST_CAP 1000
#define TCO_QUOTE_LIST_TOTAL 20000

/** Why a quote is or is not used. */
typedef enum tco_quote_status {
    TCO_QUOTE_USED,            /**< the chosen price for its item */
    TCO_QUOTE_NOT_NEEDED,      /**< the chosen price of a tier row the scenario does not buy (another card
                                    tier is chosen): it prices that row of the tier table, not the scenario */
    TCO_QUOTE_BEATEN,          /**< valid, but another quote is cheaper (or ties and expires sooner) */
    TCO_QUOTE_EXPIRED,         /**< valid_until is before the as-of date */
    TCO_QUOTE_NOT_YET_VALID,   /**< quote_date is after the as-of date */
    TCO_QUOTE_UNDER_QTY,       /**< the scenario buys fewer than min_qty */
    TCO_QUOTE_NOT_IN_SCENARIO, /**< a catalog item this scenario does not price */
    TCO_QUOTE_UNKNOWN_ITEM,    /**< not a catalog item at all */
    TCO_QUOTE_OVERRIDDEN,      /**< the price it would set is given by --set, which quotes never replace */
    TCO_QUOTE_NO_RATE          /**< its currency (three letters) has no exchange rate in pricing/fx.ini: the
                                    row is read and listed, its rate and converted price are NaN, and it
                                    prices nothing (set by tco_quotes_read(), with its reason) */
} tco_quote_status;

/** One quote row. */
typedef struct tco_quote {
    /** File as named on the command line, the line the row starts on (1-based), and the
     *  1-based column of the item field (for messages). */
    const char *file;
    long line;
    int item_column;
    /** The 1-based column of the currency field (for messages). */
    int currency_column;
    /** Text fields as written (never interpreted as formulas); "" when absent. */
    char *vendor, *quote_id, *item, *currency, *notes;
    /** Price per unit in the quote's currency (> 0). */
    double unit_price;
    /** Reporting currency per unit of the quote's currency, and unit_price x rate (over 1 + vat_rate when
     *  the price includes VAT: see vat_included); both NaN for a row of status TCO_QUOTE_NO_RATE. */
    double rate, converted;
    /** Days since 1970-01-01, or TCO_NO_DATE. */
    int32_t quote_date, valid_until;
    /** Minimum quantity (0 when absent) and lead time in weeks (NaN when absent). */
    double min_qty, lead_time_weeks;
    /** Outcome of the choice, and its reason in words ("expired 2026-10-31"); a row read in a currency
     *  without a rate has TCO_QUOTE_NO_RATE and its reason (tco_fx_no_rate()) from the start. */
    tco_quote_status status;
    char *reason;
    /** VAT basis (columns vat_included, vat_rate): true when unit_price includes VAT, and the VAT rate
     *  as a share (0.13), NaN when the file gives none.  converted is then ex VAT, the model's basis:
     *  unit_price x rate / (1 + vat_rate), in that order, as the workbook's formulas compute it. */
    bool vat_included;
    double vat_rate;
} tco_quote;

/**
 * Decides whether a checked row is kept in memory: return true for items the
 * caller prices (or lists).  @p q is valid only during the call (its strings
 * are freed when the row is not kept: copy what you keep).  NULL keeps nothing.
 */
typedef bool (*tco_quote_keep_fn)(void *ctx, const tco_quote *q);

/**
 * Receives each problem found: @p warning is true for what is reported but not
 * an error (an unknown column).  Return false to stop reading.
 */
typedef bool (*tco_quote_problem_fn)(void *ctx, const tco_diag *problem, bool warning);

/** Quotes read from one or more files. */
typedef struct tco_quote_set {
    tco_quote *quotes;
    size_t n, cap;
    /** After tco_quotes_index(): each item's first quote, and each quote's next quote of the same
     *  item (SIZE_MAX ends the chain), in file order; valid while n == indexed. */
    tco_name_index by_item;
    size_t *next_same;
    size_t indexed;
    /** Data rows read, rows not kept, errors and warnings reported. */
    size_t rows, not_kept, errors, warnings;
    /** The warnings of the files themselves (an unknown column) as their diagnostics ("a.csv:1: column 6:
     *  ..."), owned, in the order reported, for a caller that prints them with its other warnings
     *  (tco_quotes_keep_warning()); n_file_warnings of them. */
    char **file_warnings;
    size_t n_file_warnings;
    /** File names (owned), one per file read. */
    char **files;
    size_t n_files;
} tco_quote_set;

/**
 * Read quotes from @p path into @p set (appending).  Rows are checked fully;
 * each problem goes to @p problem (which may stop the read).  Converts prices
 * with @p fx.  Returns TCO_OK when the file was read (problems are counted in
 * set->errors), TCO_ERR_NOINPUT when it cannot be opened, TCO_ERR_SYNTAX when
 * the read was stopped or the file is not a quote CSV at all (no header, UTF-16),
 * TCO_ERR_NOMEM.
 */
tco_error tco_quotes_read(const char *path, const tco_fx *fx, tco_quote_keep_fn keep, void *keep_ctx,
                          tco_quote_problem_fn problem, void *problem_ctx, tco_quote_set *set, tco_diag *diag);

/**
 * Keep the text of warning @p problem in set->file_warnings (a tco_quote_problem_fn's part for a caller
 * that reports a file's warnings with its other warnings rather than as they are read).  Returns false on
 * allocation failure.
 */
bool tco_quotes_keep_warning(tco_quote_set *set, const tco_diag *problem);

/**
 * Append a copy of @p q (its strings duplicated, the reason too when it has one) to @p set, e.g. a row a keep
 * function set aside.  Returns false on allocation failure.
 */
bool tco_quotes_append_copy(tco_quote_set *set, const tco_quote *q);

/** Free one quote's strings (not the quote itself). */
void tco_quote_free_fields(tco_quote *q);

/**
 * Index the quotes by item, so that tco_quotes_choose() (price/quote_choice.h) looks only at the
 * item's own rows (a choice per tier over a long list is then linear, not
 * tiers x rows).  Returns false when out of memory (the choice still works,
 * scanning every row).
 */
bool tco_quotes_index(tco_quote_set *set);

/** Free every quote and file name (safe on a zeroed set). */
void tco_quotes_free(tco_quote_set *set);

/** True if @p cp is a Unicode format character (General_Category Cf, Unicode 15.1). */
bool tco_quote_format_char(long cp);

#endif /* TCO_QUOTE_CSV_H */
