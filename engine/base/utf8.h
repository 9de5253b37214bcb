/*
 * utf8.h - UTF-8 text: validity (and XML 1.0 characters), lengths in characters and in UTF-16 units
 * (Excel's limits), the longest prefix that does not cut a character, a printf into a fixed buffer
 * cut the same way, and the spreadsheet applications' case-insensitive comparison.  Depends on
 * nothing of tco's: the lowest file of the base floor.
 */
#ifndef TCO_UTF8_H
#define TCO_UTF8_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/**
 * vsnprintf into @p out (@p size bytes) that never leaves a UTF-8 character
 * cut at the end; "" if formatting fails.  Returns false when the text was cut.
 */
bool tco_vformat_cut(char *out, size_t size, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

/**
 * Check that @p len bytes at @p s are valid UTF-8 (no overlong forms, no
 * surrogates).  Returns true, or false with the offset of the first bad byte
 * in *@p bad.
 */
bool tco_utf8_valid(const char *s, size_t len, size_t *bad);

/** Length in bytes of the valid UTF-8 character at @p s (of the @p n bytes there: 1 to 4), or 0 when
 *  those bytes start no valid UTF-8 character (a stray continuation byte such as 0x9B, an overlong form,
 *  a surrogate, a sequence cut short). */
size_t tco_utf8_seq(const char *s, size_t n);

/** Number of characters (not bytes) in the UTF-8 string @p s. */
size_t tco_utf8_chars(const char *s);

/** Number of characters (not bytes) in the first @p n bytes of UTF-8 text @p s (a column for a message:
 *  the character before which byte @p n stands is number this + 1). */
size_t tco_utf8_chars_n(const char *s, size_t n);

/** True if code point @p cp is a control character: C0 (below U+0020), DEL (U+007F) or C1 (U+0080 to
 *  U+009F). */
static inline bool tco_is_control(long cp)
{
    return cp >= 0 && (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F));
}

/** Whether code point @p cp is one of Unicode's 66 non-characters (The Unicode Standard, section 23.7:
 *  U+FDD0 to U+FDEF, and the last two code points of every plane, U+FFFE, U+FFFF, U+1FFFE, ...,
 *  U+10FFFF): kept for a program's own use, never text to exchange.  XML 1.0 refuses U+FFFE and U+FFFF
 *  only; tco refuses all 66 in every text it reads. */
static inline bool tco_is_noncharacter(long cp)
{
    return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp >= 0xFFFE && cp <= 0x10FFFF && (cp & 0xFFFE) == 0xFFFE);
}

/**
 * Check that @p len bytes at @p s are valid UTF-8 whose every code point is an
 * XML 1.0 Char (https://www.w3.org/TR/xml/#charsets): tab, LF, CR, U+0020 to
 * U+D7FF, U+E000 to U+FFFD and U+10000 up; so no other C0 control, no U+FFFE or
 * U+FFFF; and no DEL or C1 control (U+007F to U+009F: XML allows them, but they
 * are no text anyone means, and a C1 such as U+009B is a terminal's CSI), and no
 * other non-character (tco_is_noncharacter(): U+FDD0 to U+FDEF, U+1FFFE, ...), so
 * every text tco reads (INI values, --set, quote fields, paths, tco diff's JSON)
 * is held to one rule.  Returns true, or false with the byte offset of the first bad
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
 * @p s, or when it is longer than @p max_bytes (at least 16) its start and its end with "..." between, at
 * most @p max_bytes long, written into @p buf (@p size bytes, more than @p max_bytes), cut at whole
 * characters: a path of 4 KB named in a message of 1,023 bytes leaves room for the reason.
 */
const char *tco_utf8_elide(const char *s, size_t max_bytes, char *buf, size_t size);

/**
 * Compare two UTF-8 strings ignoring case as the spreadsheet applications do
 * for text and sheet names: each code point folded to lower(upper(c)) in the
 * C.UTF-8 locale, so "ÜBER" = "über", "ΣΊΣΥΦΟΣ" = "σίσυφος" (final sigma too),
 * "Ａ" = "ａ", "ǅx" = "ǆx".  (One code point to one: "ß" is not "SS".)
 * Returns <0, 0 or >0 like strcmp.
 */
int tco_utf8_casecmp(const char *a, const char *b);

#endif /* TCO_UTF8_H */
