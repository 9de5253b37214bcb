/*
 * report.h - the summary of an evaluated model on a stream: a table for people,
 * JSON and CSV for programs; and the report of `tco quotes check`.  The numbers are the engine's values; JSON prints them
 * with 16 significant digits, exactly the text the workbook caches for each
 * formula cell (libxlsxwriter's precision), so the two agree character for
 * character.
 */
#ifndef TCO_REPORT_H
#define TCO_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/model.h"
#include "read/quote_csv.h"
#include "base/strbuf.h"

/**
 * Print on @p out one line "tco: warning: SCENARIO: MESSAGE" for each line of
 * @p model whose template warning applies: the line is 0 (a failed check such
 * as "a replica fits one host") and its warning_if line, if any, is not.
 * {NAME} in the message is NAME's value as the table shows it.  Then one line
 * "tco: warning: SCENARIO: quotes: MESSAGE" for each warning of the quote files (an unknown column) and each
 * item the run's quotes tried to price and did not (tco_report_quote_warnings()).  Returns the number printed.
 * JSON carries the same messages ("warnings"; check "quotes" for the latter).
 */
size_t tco_report_warnings(const tco_model *model, FILE *out);

/**
 * Print on @p out one line "tco: warning: NAME: quotes: MESSAGE" (with @p as_errors, --quotes-strict: "tco: NAME:
 * quotes: MESSAGE") for each quote warning of a run (or runs) priced from quote set @p set (NULL: none): first
 * the warnings of the files themselves (an unknown column: read/quote_csv.h file_warnings), then @p texts
 * (@p n of them: each item the quotes tried to price and did not, price/pricing.h
 * tco_quotes_note_unpriced(); a scenario's model.h quote_warnings, or tco advise's for its candidates).
 * @p out NULL prints nothing.  Returns the number of warnings (printed or not).  The one place a command
 * says them: tco_report_warnings() for a scenario, tco advise for its runs, and the --quotes-strict refusal.
 */
size_t tco_report_quote_warnings(const char *name, const tco_quote_set *set, char *const *texts, size_t n,
                                 bool as_errors, FILE *out);

/**
 * Write the same warnings as tco_report_quote_warnings(), in its order, as members of a JSON "warnings"
 * array: {"check": "quotes", "message": MESSAGE}, each after ", " when @p written members precede it.
 * Returns @p written plus the number written.
 */
size_t tco_report_json_quote_warnings(FILE *out, const tco_quote_set *set, char *const *texts, size_t n,
                                      size_t written);

/**
 * Print on @p out the one-line summary of the quotes that priced @p model (nothing without quotes):
 * "quotes: U of R rows used; ITEM from VENDOR FILE:LINE at PRICE CUR; ..." (R: data rows read in all
 * files, U: rows that set a price the scenario uses: status TCO_QUOTE_USED, as the JSON's `used`), then
 * "; not needed: W-B (a tier NAME does not buy)" for rows that price only a tier row the scenario does not
 * buy (TCO_QUOTE_NOT_NEEDED), ending "; N items not priced (warnings above)" when some item's rows all
 * failed (model.h n_quote_unpriced).  tco_report_table() ends with it.
 */
void tco_report_quotes_line(const tco_model *model, FILE *out);

/**
 * If the warning of item @p index of @p model applies (as tco_report_warnings() decides), append its
 * text, {NAME} replaced, to @p out and return true; else return false and leave @p out as it is.
 * tco advise gives these texts as the reasons an option is rejected.
 */
bool tco_report_warning_text(const tco_model *model, size_t index, tco_strbuf *out);

/**
 * Print the Summary rows of @p model as an aligned table with thousands
 * separators, then the per-year rows with one column per year and a total.
 * @p currency labels money; @p workbook (may be NULL) is named at the end.
 */
void tco_report_table(const tco_model *model, const char *currency, const char *workbook, FILE *out);

/**
 * Print @p model as one JSON object (docs/json.md; JSON Schema docs/tco.schema.json):
 *   {"scenario", "title", "currency", "years", "capex", "opex_by_year": [..],
 *    "opex_total", "tco", "tco_per_card_year", "workbook" (null when none was written),
 *    "periods": ["Year 0", ...] (the year columns of every by_year array),
 *    "cash_flow": {"periods", KEY: [one number per period], ...} (template [model] cash_flow; absent
 *        when the template names none),
 *    "budget": {"months", "total", KEY: [one number per month], ...} (template [model] budget; absent
 *        when the template names none),
 *    "warnings": [{"check": line name or "quotes", "message"}] (see tco_report_warnings()),
 *    "quotes": {"files", "rows", "not_listed", "used": [{"item", "file", "line", "vendor", "quote_id",
 *               "unit_price", "currency", "rate", "converted", "vat_included"}],
 *               "unused": [{"item", "file", "line", "vendor", "quote_id", "status", "reason"}]}
 *        (only with quote files: model.h quotes),
 *    "inputs":  {name: {"label", "unit", "value" or "by_tier": {..}, "source"}},
 *    "outputs": {name: {"label", "unit", "value" | "by_year": [..], "total" | "by_month": [..], "total" |
 *                "by_tier": {..}, "source"}}}
 * A line that gives text instead of a number ("never: renting costs less",
 * "n.a.: not feasible ...") has "value": null and "reason": that text, so no
 * program reads it as 0.
 * Role keys (capex, opex_by_year, tco, tco_per_card_year) come from the
 * template's [model] section and are null when it names none or the line has no
 * number (its entry in "outputs" then gives the reason).  Strings are the text
 * verbatim: the apostrophe CSV puts before formula-looking text is CSV's alone.
 */
void tco_report_json(const tco_model *model, const char *currency, const char *workbook, FILE *out);

/**
 * Write the JSON document of a run that failed with @p d (docs/json.md "A failed run"): {"error": {...}}
 * with the place from the diagnostic's fields (file, line, column, column_name, section, key; null when
 * the diagnostic names none), the message after the place, the whole diagnostic and the exit code.
 */
void tco_report_json_error(const tco_diag *d, FILE *out);

/**
 * The same object as tco_report_json_error() for a run refused by --quotes-strict, with beside "error" the
 * quote warnings that refused it ("warnings": [{"check": "quotes", "message": ...}], as a run's JSON lists
 * them: tco_report_json_quote_warnings() of @p set and @p texts, @p n of them), so that a script reading
 * standard output sees what standard error says.
 */
void tco_report_json_error_quotes(const tco_diag *d, const tco_quote_set *set, char *const *texts, size_t n,
                                  FILE *out);

/** tco_report_json() without the object's closing "\n}\n": for a run that adds members of its own
 *  (the risk figures, risk.h), each as ",\n  \"KEY\": ...", then closes the object. */
void tco_report_json_members(const tco_model *model, const char *currency, const char *workbook, FILE *out);

/** Write @p v on @p out as a JSON number with 16 significant digits ("%.16G", the text the workbook
 *  caches for a formula's result), or null when it is not finite. */
void tco_report_json_number(FILE *out, double v);

/** Write @p s (NULL: "") on @p out as a JSON string: quotes, backslash and control characters (C0, DEL, C1)
 *  escaped (RFC 8259), each byte that starts no UTF-8 character (an argument or a path in another encoding)
 *  as U+FFFD, every UTF-8 character as it is. */
void tco_report_json_string(FILE *out, const char *s);

/** The header row of tco_report_csv(), without its line end. */
#define TCO_REPORT_CSV_HEADER "scenario,kind,name,period,value,unit,text,note,label,source,low,high,dist"

/**
 * Print every input and output of @p model as CSV (RFC 4180, via libcsv's
 * csv_fwrite(): every text field quoted, CRLF line ends), one value per row,
 * in the columns of TCO_REPORT_CSV_HEADER (docs/cli.md, "CSV"):
 *   scenario  the scenario's name;
 *   kind      "input" or "output" (a line, or the NAME_total of a per-year or per-month line);
 *   name      the input's or line's name (the workbook's defined name);
 *   period    empty for a single value, "Year N" for per-year lines, "YYYY-MM" for per-month
 *             lines, the tier for per-tier inputs and lines;
 *   value     a number (16 significant digits, as JSON and the workbook's caches), or empty
 *             when the row has text or no number, so the column reads as numbers alone;
 *   unit      the unit ("CNY", "CNY/yr", "yes/no", "text", ...);
 *   text      the text of a text input or a type = text line (value then empty);
 *   note      why a line has no number ("never: ...", "n.a.: ..."; value and text then empty);
 *   label     the label as the workbook shows it;
 *   source    where the value or formula comes from: the input's file [section] key and basis,
 *             the line's template source, "total of per-year line NAME" (per-month: "total of per-month line NAME") for a total;
 *   low, high an input value's range (KEY_range, in the value's units; docs/inputs.md, "Ranges"),
 *             empty for a value without one and for every output;
 *   dist      the range's distribution ("triangular", "uniform", "pert", "normal", "lognormal"),
 *             empty without a range.
 * The header row first when @p header (so `--scenario all` prints one table).
 * A text field a spreadsheet would read as a formula (starting with = + - @, a
 * tab or a carriage return) is written with a leading apostrophe.
 */
void tco_report_csv(const tco_model *model, bool header, FILE *out);

/**
 * The report of `tco quotes check` (docs/quotes.md, "Checking a file"), written
 * as the files are read, so memory stays flat whatever the number of problems.
 * Text form: each problem on @c err as it comes ("warning: " before a warning,
 * "tco: " before a file that cannot be read at all), and one line per file on
 * @c out, "FILE: R rows, E errors, W warnings".  JSON form: one object on
 * @c out (docs/json.md; JSON Schema docs/tco.schema.json, $defs/quotes_check):
 *   {"problems": [{"file", "line", "column", "column_name", "severity", "message",
 *                  "diagnostic"}, ...],
 *    "files": [{"file", "rows", "errors", "warnings"}, ...], "errors", "warnings"}
 * line, column and column_name are null where the problem has none; severity is
 * "error" or "warning"; message is the text after the place and diagnostic the
 * whole line the text form prints.  Fill with tco_report_check_begin(), end with
 * tco_report_check_end() (which frees it).
 */
typedef struct tco_report_check {
    /** True for the JSON form. */
    bool json;
    /** Where the summary (text) or the document (JSON) goes, and where text-form problems go. */
    FILE *out, *err;
    /** Problems written so far (JSON: to separate them), and the errors and warnings of all files. */
    size_t problems, errors, warnings;
    /** JSON: each file's totals, written at the end (path borrowed: it must outlive the report). */
    struct tco_report_check_file {
        const char *path;
        size_t rows, errors, warnings;
    } *files;
    size_t n_files;
    /** The room of @c files, grown by doubling (one realloc a file was quadratic under ASan). */
    size_t files_cap;
    /** JSON: true once a file's totals could not be kept (out of memory); the end says so. */
    bool lost;
    /** Text: the current file's problems printed (at most TCO_QUOTE_LIST_CAP, as a run lists at most that
     *  many rows of items it does not price), and the errors and warnings past them, counted: one line after
     *  the file's problems says how many (a file of 100,000 bad rows printed 100,000 lines). */
    size_t file_printed, file_unprinted_errors, file_unprinted_warnings;
} tco_report_check;

/** Start a report in the text or (@p json) JSON form; see tco_report_check. */
void tco_report_check_begin(tco_report_check *r, bool json, FILE *out, FILE *err);

/**
 * Report one problem of the file @p path: @p problem is its diagnostic as
 * tco_quotes_read() gives it (or one built the same way, with tco_diag_at()):
 * the text form prints its message, the JSON form its place from the fields
 * (line, column, column_name; null when 0 or ""), the message after the place
 * and the whole message.  @p warning true for a warning.
 */
void tco_report_check_problem(tco_report_check *r, const char *path, const tco_diag *problem, bool warning);

/**
 * Count a problem of the current file without its text when the text form would print none: past the
 * first TCO_QUOTE_LIST_CAP problems of a file, which it only counts (tco_report_check_file() says how
 * many).  Returns true when it counted it (the caller need not format the message); false, counting
 * nothing, when the problem would be printed (the JSON form prints every one): then report it with
 * tco_report_check_problem().  @p warning true for a warning.
 */
bool tco_report_check_count_only(tco_report_check *r, bool warning);

/** Report that the file @p path could not be read at all (@p problem: "PATH: cannot open: ..."): an
 *  error with no line; the text form prints it as "tco: MESSAGE". */
void tco_report_check_unreadable(tco_report_check *r, const char *path, const tco_diag *problem);

/** tco_report_check_problem() for the error that ended the reading of @p path (a field past the limit, broken
 *  quoting, a header too wide): printed in the text form even past the TCO_QUOTE_LIST_CAP problems it prints
 *  of a file, since it says why the rest of the file was not read. */
void tco_report_check_final(tco_report_check *r, const char *path, const tco_diag *problem);

/** Report the totals of one file read (its summary line, or its "files" entry; @p path borrowed). */
void tco_report_check_file(tco_report_check *r, const char *path, size_t rows, size_t errors, size_t warnings);

/** Finish the report (JSON: close the document) and free what it holds.  Returns false when a
 *  file's totals could not be kept (out of memory: the JSON "files" list is then incomplete, and
 *  @c err says so). */
bool tco_report_check_end(tco_report_check *r);

/**
 * Format @p v with @p decimals decimals and ',' thousands separators into
 * @p buf (e.g. 4356800 -> "4,356,800"; 0.7 with 2 -> "0.70"), rounded as the workbook's number
 * format "#,##0.00" shows it in Excel: from the value's 15 significant decimal digits, half away
 * from zero (2.675 -> "2.68", 1234.5 with 0 -> "1,235").
 */
void tco_format_grouped(double v, int decimals, char *buf, size_t size);

/**
 * Format the share @p v as a percentage with @p decimals decimals into @p buf, rounded as the
 * workbook's "0.0%" shows it (tco_format_grouped()): 0.3125 with 1 -> "31.3%", -0.0004 -> "0.0%".
 */
void tco_format_percent(double v, int decimals, char *buf, size_t size);

#endif /* TCO_REPORT_H */
