/*
 * report.h - the summary of an evaluated model on a stream: a table for people,
 * JSON for programs.  The numbers are the engine's values; JSON prints them
 * with 16 significant digits, exactly the text the workbook caches for each
 * formula cell (libxlsxwriter's precision), so the two agree character for
 * character.
 */
#ifndef TCO_REPORT_H
#define TCO_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"

/**
 * Print on @p out one line "tco: warning: SCENARIO: MESSAGE" for each line of
 * @p model whose template warning applies: the line is 0 (a failed check such
 * as "a replica fits one host") and its warning_if line, if any, is not.
 * {NAME} in the message is NAME's value as the table shows it.  Returns the
 * number printed.  JSON carries the same messages ("warnings").
 */
size_t tco_report_warnings(const tco_model *model, FILE *out);

/**
 * Print the Summary rows of @p model as an aligned table with thousands
 * separators, then the per-year rows with one column per year and a total.
 * @p currency labels money; @p workbook (may be NULL) is named at the end.
 */
void tco_report_table(const tco_model *model, const char *currency, const char *workbook, FILE *out);

/**
 * Print @p model as one JSON object:
 *   {"scenario", "title", "currency", "years", "capex", "opex_by_year": [..],
 *    "opex_total", "tco", "tco_per_card_year", "workbook",
 *    "periods": ["Year 0", ...] (the year columns of every by_year array),
 *    "cash_flow": {"periods", KEY: [one number per period], ...} (template [model] cash_flow; absent
 *        when the template names none),
 *    "warnings": [{"check": line name, "message"}] (see tco_report_warnings()),
 *    "inputs":  {name: {"label", "unit", "value", "source"}},
 *    "outputs": {name: {"label", "unit", "value"} or {"label", "unit", "by_year": [..], "total"}}}
 * A line that gives text instead of a number ("never: renting costs less",
 * "n.a.: not feasible ...") has "value": null and "reason": that text, so no
 * program reads it as 0.
 * Role keys (capex, opex_by_year, tco, tco_per_card_year) come from the
 * template's [model] section and are null when it names none.  A string value
 * that a spreadsheet would read as a formula (leading = + - @, tab, CR) gets a
 * leading apostrophe, as in CSV.
 */
void tco_report_json(const tco_model *model, const char *currency, const char *workbook, FILE *out);

/**
 * Print every input and output of @p model as CSV (RFC 4180, via libcsv; text
 * fields quoted), one value per row: scenario, name, label, unit, period, value,
 * reason (empty unless a line gives text instead of a number: then value is
 * empty and reason holds the text);
 * the header row first when @p header (so `--scenario all` prints one table).
 * period is empty for a single value, "Year N" / "Total" for per-year lines and
 * the tier for per-tier ones.  Numbers as in JSON (16 significant digits).
 * Text a spreadsheet would read as a formula (starting with = + - @, a tab or
 * a carriage return) is written with a leading apostrophe.
 */
void tco_report_csv(const tco_model *model, bool header, FILE *out);

/**
 * Format @p v with @p decimals decimals and ',' thousands separators into
 * @p buf (e.g. 4356800 -> "4,356,800"; 0.7 with 2 -> "0.70").
 */
void tco_format_grouped(double v, int decimals, char *buf, size_t size);

#endif /* TCO_REPORT_H */
