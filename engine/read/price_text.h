/*
 * price_text.h - a price as vendors write it in a quote file's field: thousands
 * separators, a decimal comma in ';' files, a currency symbol or code that must
 * agree with the row's currency.  The quote CSV reader (quote_csv.h) uses it.
 */
#ifndef TCO_PRICE_TEXT_H
#define TCO_PRICE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/**
 * Parse a price as written in a CSV field.  @p delim is the file's delimiter
 * (',' or ';': with ';' the decimal mark is ','), @p currency the row's
 * currency (a symbol in the price must agree with it).  Accepts "12500",
 * "12,500.00", "¥12,500", "12 500,50" (';' files), "USD 1,200".  Returns true
 * and sets *price (> 0), or false with an explanation in @p why.
 *
 * Grouping: a group separator (',' in ',' files; '.', space, NBSP or narrow
 * NBSP in ';' files) stands only between groups of exactly three digits, after
 * a first group of 1 to 3 digits that does not start with 0.  Ambiguity: a
 * number of the form F<m>DDD, with one mark m that is the decimal mark ('.' in
 * ',' files, ',' in ';' files; also '.' in ';' files) followed by exactly three
 * digits and nothing else, is refused as ambiguous exactly when F could be a
 * first group: 1 to 3 digits not led by 0 ("12.500", "1.500" in ';').  With 4
 * or more digits before the mark, or a leading 0, the mark can only be a
 * decimal: "123457.250" is 123457.25 and "0.125" is 0.125 (in ';' files
 * "0,125" and "1234.500" likewise).  Anything else after a group separator
 * ("12,50", "0,125" in a ',' file) is an error.
 */
bool tco_quote_parse_price(const char *text, char delim, const char *currency, double *price, char *why,
                           size_t why_size);

/**
 * Parse any other number of a quote file's field (vat_rate, min_qty, lead_time_weeks) as the file
 * writes numbers: the same digits, group separators, decimal mark and ambiguity rule as a price
 * (so "0,13" is 0.13 in a ';' file, and "1,000" is 1000 in a ',' file), without a sign, exponent or
 * currency; blanks around it are ignored.  Returns true and sets *value (finite, >= 0), or false with
 * an explanation in @p why: "expected EXPECTED, found 'TEXT'" when the text is no number of the form
 * at all (@p expected: what the column holds, e.g. "a whole number of units"), else the rule broken.
 */
bool tco_quote_parse_number(const char *text, char delim, const char *expected, double *value, char *why,
                            size_t why_size);

/**
 * tco_quote_parse_price() and tco_quote_parse_number() that also say which decimal mark the text used: on
 * success *@p mark (when not NULL) is ',' or '.' when the number has a decimal part written with it, else
 * '\0' ("12500", "12.500.000" in a ';' file).  In a ';' file both marks can be decimals ("0,13", "12.5"):
 * the quote reader holds each file to the first one it meets (one decimal convention per file).
 */
bool tco_quote_parse_price_mark(const char *text, char delim, const char *currency, double *price, char *mark,
                                char *why, size_t why_size);
bool tco_quote_parse_number_mark(const char *text, char delim, const char *expected, double *value, char *mark,
                                 char *why, size_t why_size);

#endif /* TCO_PRICE_TEXT_H */
