/*
 * text.h - text helpers over the growable buffer (strbuf.h): round-trip number formatting, trimmed
 * copies and comma lists (and the check that a list names each entry once), paths, the XLSX text
 * escape and the cell length it gives, a list capped to one cell, the limits of a number a workbook
 * holds, the check of a path the workbook shows, and joining strings without printf.
 */
#ifndef TCO_TEXT_H
#define TCO_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/error.h"
#include "base/strbuf.h"

/**
 * Format @p v as the shortest decimal text that reads back as the same double
 * (at most 17 significant digits), e.g. 0.7 -> "0.7", 1e22 -> "1e+22".
 * Writes into @p out (at least 32 bytes).  Used for formula constants and JSON.
 */
void tco_format_double(double v, char out[32]);

/** The powers of ten a double holds exactly, 10^0 .. 10^22: ROUND's scales (model/formula.h) and the
 *  divisors of Clinger's fast path when a decimal is read (read/ini.h, tco_decimal_exact()). */
enum { TCO_POW10_EXACT = 23 };
extern const double tco_pow10_exact[TCO_POW10_EXACT];

/**
 * Copy of the first @p n bytes of @p s without leading and trailing blanks
 * (spaces, tabs, line ends); heap, NUL-terminated; NULL on allocation failure.
 */
char *tco_strndup_trim(const char *s, size_t n);

/**
 * Split the comma-separated list @p s into trimmed heap strings in *@p out
 * ("a, b,c" -> "a", "b", "c").  Returns the count, or -1 (nothing allocated)
 * for an empty entry or on allocation failure.  Free with tco_free_list().
 */
int tco_split_list(const char *s, char ***out);

/** Free @p n strings of @p list and the list itself (NULL allowed). */
void tco_free_list(char **list, int n);

/**
 * Whether the list @p list (@p n entries) names one entry twice, the entries compared as catalog
 * entries, INI names and sheet names are: case-insensitively in any script (tco_utf8_casecmp(), so
 * "C70" and "c70", "ΣΊΣΥΦΟΣ" and "Σίσυφος" are one).  When it does, returns true with *@p again the
 * 0-based index of the earliest entry that repeats one before it and *@p first that one's index
 * (*@p first < *@p again); else false.  O(n log n) (a sorted copy of the indexes): a list of any length
 * is answered at once.  Every list that is a set (choices, names, keys) is checked with this, or with
 * tco_list_check_set(), so that each says the same.
 */
bool tco_list_repeats(char *const *list, int n, int *first, int *again);

/**
 * Refuse a list that names one entry twice, in the words every list uses: "'B' is listed twice
 * (entries 2 and 4)", ", first as 'b'" added inside the parentheses when the two spellings differ.
 * @p err and @p at as tco_diag_at() takes them (the list's place: FILE [SECTION] KEY, or the
 * command-line argument).  Returns TCO_OK when every entry differs (tco_list_repeats()).  tco refuses
 * rather than drops a repeat: a list written twice over is as likely a slip for another entry
 * (owned,owned for owned,colocation) as a harmless echo, and dropping it would answer a question the
 * user did not ask without a word (docs/robustness.md).
 */
tco_error tco_list_check_set(char *const *list, int n, tco_error err, const tco_place *at, tco_diag *d);

/**
 * "@p root/@p rel", or @p rel alone when @p root is NULL, "" or "." (so that
 * paths shown in messages stay relative to the current folder).  Heap; NULL
 * on allocation failure.
 */
char *tco_path_join(const char *root, const char *rel);

/**
 * Append @p s to @p out as text for an XLSX part: every literal "_xHHHH_" (1
 * to 4 hex digits, either case), which Excel (4 digits) and LibreOffice (also
 * fewer: "_x12_") would decode as an escaped character, gets Excel's own escape
 * "_x005F" before it ("_x005F_x000D_" reads back as "_x000D_"), so the
 * applications show exactly @p s.  Returns the number of escapes added.
 */
size_t tco_xlsx_escape(const char *s, tco_strbuf *out);

/**
 * Length of @p s in a cell, in UTF-16 units, after tco_xlsx_escape() (6 more
 * per escape); Excel's cell limit is TCO_XLSX_CELL_MAX of these.
 */
size_t tco_xlsx_text_units(const char *s);

/**
 * Append @p piece to @p b while the text stays within @p max_units cell units
 * (tco_xlsx_text_units()) and no earlier piece was held back; otherwise count
 * it in *@p held (so the text is always a prefix of the list, and the caller
 * says how many more there were).  Returns true when appended.  For texts
 * built from a variable number of parts that must fit one cell.
 */
bool tco_strbuf_append_capped(tco_strbuf *b, const char *piece, size_t max_units, size_t *held);

/** The plural ending for a count of @p n: "" for exactly 1, else "s" ("%zu row%s", n, tco_plural(n)). */
static inline const char *tco_plural(double n)
{
    return n == 1 ? "" : "s";
}

/** Most characters (UTF-16 units) in one cell, Excel's limit. */
#define TCO_XLSX_CELL_MAX 32767

/**
 * The largest magnitude a workbook holds: 1.797693134862315e308, the largest
 * 16-digit decimal below DBL_MAX.  libxlsxwriter writes numbers with 16
 * significant digits, so a double above this (1.7976931348623157e308, DBL_MAX)
 * is written as 1.797693134862316E+308, which every application reads back as
 * an overflow.  Literals and results beyond it are refused (tco_number_is_normal(),
 * tco_formula_number_ok()).
 */
#define TCO_NUMBER_MAX 1.797693134862315e308

/**
 * False when the decimal text @p text, read as @p v, is not 0 yet below the
 * smallest normal double (2.2250738585072014e-308): a subnormal, which
 * LibreOffice shows as #VALUE!, or a value that underflowed to 0 (1e-400);
 * or when |v| is above TCO_NUMBER_MAX (the workbook could not hold it).
 * Such literals are refused rather than changed.
 */
bool tco_number_is_normal(const char *text, double v);

/** What a refused literal should have been (for messages after tco_number_is_normal()). */
#define TCO_NORMAL_EXPECTED                                                                                         \
    "0 or a number of magnitude at least 2.2250738585072014e-308 and at most 1.797693134862315e308 (smaller ones "  \
    "are not read by LibreOffice, larger ones not written back by a workbook)"

/**
 * Check a path the workbook shows (the scenario, the project root, a quote file, pricing/fx.ini): UTF-8 XML
 * text (tco_xml_text_valid()) without a control character (C0, DEL).  Returns
 * TCO_OK, or TCO_ERR_INI with "PATH: the WHAT, which the workbook shows, holds
 * ... at byte N; rename it".
 */
tco_error tco_shown_path_check(const char *path, const char *what, tco_diag *diag);

/**
 * What tco_shown_path_check() refuses in @p path, as words ("a control character", "bytes that are not
 * UTF-8", "a code point that is not an XML character (U+FFFE, U+FFFF)", "a non-character (...)") with the 1-based byte where it
 * starts in *@p byte; NULL when the path may be shown.
 */
const char *tco_shown_path_fault(const char *path, size_t *byte);

/**
 * Write the @p n bytes of text at @p s to @p out for a terminal: every control character (C0, the line
 * break too, DEL, and the C1 controls U+0080 to U+009F) as \xNN, every byte that is not part of a UTF-8
 * character (a raw 0x9B, a terminal's CSI in ISO 8859, from an argument or a file name) as \xNN, and the line
 * and paragraph separators
 * and the bidirectional controls (U+061C, U+200E, U+200F, U+2028 to U+202E, U+2066 to U+2069) as \uXXXX,
 * so a file name holding ESC, CR, a line break or a right-to-left override that a message quotes can
 * neither drive the terminal, forge a line nor reorder what is shown.
 */
void tco_text_put_terminal(FILE *out, const char *s, size_t n);

/**
 * Join the strings that follow @p size, up to a NULL, into @p out (@p size >= 1 bytes): the text and
 * the cut of snprintf(out, size, "%s%s...", ...) (at most size - 1 bytes, then a NUL; a cut may fall
 * inside a UTF-8 character, as snprintf's does), without printf parsing a format, for text built on
 * every load (a key's "KEY_source", a section's "FILE [SECTION]").  Returns the length of the whole
 * text, as snprintf() does.
 */
size_t tco_str_cat(char *out, size_t size, ...) __attribute__((sentinel));

/** Size of the buffer tco_text_shown() writes into, in bytes. */
#define TCO_SHOWN_MAX 512

/**
 * A field's text as a message shows it, in @p out (TCO_SHOWN_MAX bytes): at most about 100 bytes of
 * @p s, never ending inside a character, "..." when cut, and control characters written as \r, \n,
 * \t or \xHH so that a message stays one line.  Returns @p out.
 */
const char *tco_text_shown(const char *s, char out[TCO_SHOWN_MAX]);

/** tco_text_shown() into a fresh buffer that lives to the end of the enclosing block: a "%s" argument. */
#define TCO_SHOWN(s) tco_text_shown((s), (char[TCO_SHOWN_MAX]){0})

/** strdup that returns NULL on allocation failure (portable). */
char *tco_strdup(const char *s);

#endif /* TCO_TEXT_H */
