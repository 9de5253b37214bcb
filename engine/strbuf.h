/*
 * strbuf.h - a growable, always NUL-terminated byte string.
 *
 * Used wherever tco builds text of unknown length (formula text, JSON, messages
 * longer than a diagnostic).  Never overflows: on allocation failure the buffer
 * keeps its previous content and `failed` is set, which callers check once at
 * the end (tco_strbuf_take() returns NULL then).
 */
#ifndef TCO_STRBUF_H
#define TCO_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "error.h"

/** A growable string.  Zero-initialise ({0}) before use. */
typedef struct tco_strbuf {
    /** Heap buffer, NUL-terminated once anything was appended; may be NULL if empty. */
    char *data;
    /** Bytes used, excluding the NUL. */
    size_t len;
    /** Bytes allocated. */
    size_t cap;
    /** Set when an allocation failed; later appends are ignored. */
    bool failed;
} tco_strbuf;

/** Append @p n bytes of @p s. */
void tco_strbuf_append_n(tco_strbuf *b, const char *s, size_t n);
/** tco_strbuf_append_n() inline when the @p n bytes fit the room the buffer has (short pieces of formula
 *  and reference text, written many times over); otherwise that call. */
static inline void tco_strbuf_put(tco_strbuf *b, const char *s, size_t n)
{
    if (!b->failed && b->cap - b->len > n) { /* cap is 0 while data is NULL */
        memcpy(b->data + b->len, s, n);
        b->len += n;
        b->data[b->len] = '\0';
    } else {
        tco_strbuf_append_n(b, s, n);
    }
}
/** Empty @p b, keeping its allocation for the next text; an earlier failure is forgotten (the buffer freed). */
void tco_strbuf_clear(tco_strbuf *b);
/** Append the NUL-terminated string @p s. */
void tco_strbuf_append(tco_strbuf *b, const char *s);
/** Append printf-style formatted text from a va_list (which it consumes, as vprintf). */
void tco_strbuf_vprintf(tco_strbuf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/**
 * vsnprintf into @p out (@p size bytes) that never leaves a UTF-8 character
 * cut at the end; "" if formatting fails.  Returns false when the text was cut.
 */
bool tco_vformat_cut(char *out, size_t size, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
/** Append printf-style formatted text. */
void tco_strbuf_printf(tco_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/** The current text; "" when empty.  Valid until the next append or free. */
const char *tco_strbuf_str(const tco_strbuf *b);
/**
 * Hand the heap string to the caller (who frees it) and reset @p b.
 * Returns NULL if an allocation failed at any point (the buffer is freed).
 */
char *tco_strbuf_take(tco_strbuf *b);
/** Release the buffer and reset @p b to empty. */
void tco_strbuf_free(tco_strbuf *b);

/**
 * Format @p v as the shortest decimal text that reads back as the same double
 * (at most 17 significant digits), e.g. 0.7 -> "0.7", 1e22 -> "1e+22".
 * Writes into @p out (at least 32 bytes).  Used for formula constants and JSON.
 */
void tco_format_double(double v, char out[32]);

/**
 * Check that @p len bytes at @p s are valid UTF-8 (no overlong forms, no
 * surrogates).  Returns true, or false with the offset of the first bad byte
 * in *@p bad.
 */
bool tco_utf8_valid(const char *s, size_t len, size_t *bad);

/** Number of characters (not bytes) in the UTF-8 string @p s. */
size_t tco_utf8_chars(const char *s);

/**
 * Check that @p len bytes at @p s are valid UTF-8 whose every code point is an
 * XML 1.0 Char (https://www.w3.org/TR/xml/#charsets): tab, LF, CR, U+0020 to
 * U+D7FF, U+E000 to U+FFFD and U+10000 up; so no other C0 control, no U+FFFE or
 * U+FFFF.  Returns true, or false with the byte offset of the first bad
 * sequence in *@p bad and its code point in *@p cp (-1 when the bytes are not
 * UTF-8 at all).  Either pointer may be NULL.
 */
bool tco_xml_text_valid(const char *s, size_t len, size_t *bad, long *cp);

/**
 * Length of the UTF-8 string @p s in UTF-16 code units, the unit Excel counts
 * its limits in (sheet names 31, cells 32,767): 1 per code point below
 * U+10000, 2 for each one above (an emoji is 2).
 */
size_t tco_utf16_units(const char *s);

/**
 * The longest prefix of the UTF-8 string @p s that is at most @p max_bytes
 * long and does not end inside a multi-byte character (also when @p s itself
 * was already cut inside one); returns its length in bytes.  Use with "%.*s"
 * wherever text is cut to fit.
 */
size_t tco_utf8_prefix(const char *s, size_t max_bytes);

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
 * "@p root/@p rel", or @p rel alone when @p root is NULL, "" or "." (so that
 * paths shown in messages stay relative to the current folder).  Heap; NULL
 * on allocation failure.
 */
char *tco_path_join(const char *root, const char *rel);

/**
 * Compare two UTF-8 strings ignoring case as the spreadsheet applications do
 * for text and sheet names: each code point folded to lower(upper(c)) in the
 * C.UTF-8 locale, so "ÜBER" = "über", "ΣΊΣΥΦΟΣ" = "σίσυφος" (final sigma too),
 * "Ａ" = "ａ", "ǅx" = "ǆx".  (One code point to one: "ß" is not "SS".)
 * Returns <0, 0 or >0 like strcmp.
 */
int tco_utf8_casecmp(const char *a, const char *b);

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
 * Join the strings that follow @p size, up to a NULL, into @p out (@p size >= 1 bytes): the text and
 * the cut of snprintf(out, size, "%s%s...", ...) (at most size - 1 bytes, then a NUL; a cut may fall
 * inside a UTF-8 character, as snprintf's does), without printf parsing a format, for text built on
 * every load (a key's "KEY_source", a section's "FILE [SECTION]").  Returns the length of the whole
 * text, as snprintf() does.
 */
size_t tco_str_cat(char *out, size_t size, ...) __attribute__((sentinel));

/** strdup that returns NULL on allocation failure (portable). */
char *tco_strdup(const char *s);

#endif /* TCO_STRBUF_H */
