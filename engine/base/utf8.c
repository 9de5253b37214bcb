/* utf8.c - UTF-8 text: validity, XML characters, lengths in characters and UTF-16 units, a cut that
 * never splits a character, and case folding as the spreadsheet applications compare text. */
#include "base/utf8.h"

#include <ctype.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <wctype.h>

bool tco_vformat_cut(char *out, size_t size, const char *fmt, va_list ap)
{
    int n = vsnprintf(out, size, fmt, ap);
    if (n < 0) {
        out[0] = '\0';
        return true;
    }
    if ((size_t)n < size)
        return true;
    out[tco_utf8_prefix(out, size - 1)] = '\0';
    return false;
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0 if invalid. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
    if (n == 0)
        return 0;
    if (p[0] < 0x80)
        return 1;
    size_t len = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 0;
    if (len == 0 || p[0] > 0xF4 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if (len == 3 && ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0)))
        return 0; /* overlong or surrogate */
    if (len == 4 && ((p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90)))
        return 0;
    return len;
}

size_t tco_utf8_seq(const char *s, size_t n)
{
    return utf8_seq((const unsigned char *)s, n);
}

bool tco_utf8_valid(const char *s, size_t len, size_t *bad)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_seq(p + i, len - i);
        if (n == 0) {
            if (bad)
                *bad = i;
            return false;
        }
        i += n;
    }
    return true;
}

/* Code point of the valid n-byte sequence at p. */
static long utf8_decode(const unsigned char *p, size_t n)
{
    if (n == 1)
        return p[0];
    long cp = p[0] & (0x7F >> n);
    for (size_t i = 1; i < n; i++)
        cp = (cp << 6) | (p[i] & 0x3F);
    return cp;
}

bool tco_xml_text_valid(const char *s, size_t len, size_t *bad, long *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_seq(p + i, len - i);
        long c = n ? utf8_decode(p + i, n) : -1;
        bool ok = n > 0 && (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') && !tco_is_noncharacter(c) &&
                  !(c >= 0x7F && c <= 0x9F);
        if (!ok) {
            if (bad)
                *bad = i;
            if (cp)
                *cp = c;
            return false;
        }
        i += n;
    }
    return true;
}

size_t tco_utf16_units(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += (*p & 0xC0) != 0x80 ? (*p >= 0xF0 ? 2 : 1) : 0;
    return n;
}

size_t tco_utf8_prefix(const char *s, size_t max_bytes)
{
    size_t n = strnlen(s, max_bytes);
    size_t k = n;
    while (k > 0 && n - k < 3 && ((unsigned char)s[k - 1] & 0xC0) == 0x80)
        k--; /* back over the continuation bytes of the last character */
    if (k == 0)
        return n;
    unsigned char lead = (unsigned char)s[k - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return n - (k - 1) < need ? k - 1 : n; /* the last character is cut: drop it whole */
}

const char *tco_utf8_elide(const char *s, size_t max_bytes, char *buf, size_t size)
{
    size_t len = strlen(s);
    if (len <= max_bytes || max_bytes < 16 || size < max_bytes + 1)
        return s;
    size_t head = tco_utf8_prefix(s, max_bytes / 4);
    const char *tail = s + len - (max_bytes - head - 3);
    while (((unsigned char)*tail & 0xC0) == 0x80) /* start at a whole character */
        tail++;
    snprintf(buf, size, "%.*s...%s", (int)head, s, tail);
    return buf;
}

size_t tco_utf8_chars(const char *s)
{
    return tco_utf8_chars_n(s, strlen(s));
}

size_t tco_utf8_chars_n(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* The C.UTF-8 locale for case folding, made once (NULL if the C library lacks it: ASCII only). */
static locale_t utf8_locale(void)
{
    static locale_t loc;
    static bool tried;
    if (!tried) {
        tried = true;
        loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    }
    return loc;
}

/* Next code point of @p *s (advancing it), folded: lower(upper(c)), so that titlecase
 * letters and final sigma fold with their other forms. */
static long fold_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    size_t n = utf8_seq(p, strnlen(*s, 4));
    if (n == 0) { /* not UTF-8: compare the byte itself */
        (*s)++;
        return 0x110000 + p[0];
    }
    long c = utf8_decode(p, n);
    *s += n;
    locale_t loc = utf8_locale();
    if (loc != (locale_t)0)
        return (long)towlower_l(towupper_l((wint_t)c, loc), loc);
    return c < 0x80 ? tolower((int)c) : c;
}

int tco_utf8_casecmp(const char *a, const char *b)
{
    while (*a && *b) {
        long ca = fold_next(&a), cb = fold_next(&b);
        if (ca != cb)
            return ca < cb ? -1 : 1;
    }
    return *a ? 1 : *b ? -1 : 0;
}

