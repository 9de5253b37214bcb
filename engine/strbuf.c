/* strbuf.c - growable strings and round-trip number formatting. */
#include "strbuf.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

static bool reserve(tco_strbuf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) {
        if (cap > ((size_t)-1) / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (p == NULL) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void tco_strbuf_append_n(tco_strbuf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void tco_strbuf_clear(tco_strbuf *b)
{
    if (b->failed)
        tco_strbuf_free(b);
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void tco_strbuf_append(tco_strbuf *b, const char *s)
{
    tco_strbuf_append_n(b, s, strlen(s));
}

/* Formatted once where the text fits, in the buffer's free room or (an empty buffer) 256 bytes of
 * stack, and a second time only into room made for a longer text (it was measured by one vsnprintf()
 * and written by another every time: two passes of printf's format parsing per call). */
void tco_strbuf_vprintf(tco_strbuf *b, const char *fmt, va_list ap)
{
    if (b->failed)
        return;
    char local[256];
    char *at = b->data ? b->data + b->len : local;
    size_t room = b->data ? b->cap - b->len : sizeof local;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(at, room, fmt, ap);
    if (n < 0) {
        b->failed = true;
        if (b->data)
            b->data[b->len] = '\0';
    } else if ((size_t)n < room) {
        if (at == local)
            tco_strbuf_append_n(b, local, (size_t)n);
        else
            b->len += (size_t)n;
    } else if (reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    } else if (b->data)
        b->data[b->len] = '\0'; /* the cut text written into the room is not kept */
    va_end(again);
}

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

void tco_strbuf_printf(tco_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco_strbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *tco_strbuf_str(const tco_strbuf *b)
{
    return b->data ? b->data : "";
}

char *tco_strbuf_take(tco_strbuf *b)
{
    if (b->failed) {
        tco_strbuf_free(b);
        return NULL;
    }
    char *s = b->data ? b->data : tco_strdup("");
    b->data = NULL;
    b->len = b->cap = 0;
    return s;
}

void tco_strbuf_free(tco_strbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
}

void tco_format_double(double v, char out[32])
{
    /* A whole number below 10^15 (most formula constants: 0, 1, 12, 8760, 1000000) prints as its digits,
     * which is what "%.15g" gives for it; written directly, without printf's floating-point path. */
    if (fabs(v) < 1e15 && v == (double)(long long)v && !(v == 0 && signbit(v))) {
        unsigned long long u = (unsigned long long)(v < 0 ? -(long long)v : (long long)v);
        char digits[20];
        int n = 0;
        do
            digits[n++] = (char)('0' + u % 10);
        while ((u /= 10) != 0);
        char *o = out;
        if (v < 0)
            *o++ = '-';
        while (n > 0)
            *o++ = digits[--n];
        *o = '\0';
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, 32, "%.*g", prec, v);
        if (strtod(out, NULL) == v)
            return;
    }
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0 if invalid. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
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
        bool ok = n > 0 && (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') && c != 0xFFFE && c != 0xFFFF;
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

size_t tco_utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

char *tco_strndup_trim(const char *s, size_t n)
{
    while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
        s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        n--;
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, s, n);
        r[n] = '\0';
    }
    return r;
}

int tco_split_list(const char *s, char ***out)
{
    *out = NULL;
    int n = 0;
    const char *p = s;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char *item = tco_strndup_trim(p, len);
        char **grown = realloc(*out, (size_t)(n + 1) * sizeof *grown);
        if (item == NULL || grown == NULL || item[0] == '\0') {
            free(item);
            if (grown)
                *out = grown;
            for (int i = 0; i < n; i++)
                free((*out)[i]);
            free(*out);
            *out = NULL;
            return -1;
        }
        *out = grown;
        (*out)[n++] = item;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

void tco_free_list(char **list, int n)
{
    for (int i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

char *tco_path_join(const char *root, const char *rel)
{
    tco_strbuf b = {0};
    if (root != NULL && root[0] != '\0' && strcmp(root, ".") != 0) {
        tco_strbuf_append(&b, root);
        if (b.len > 0 && b.data[b.len - 1] != '/')
            tco_strbuf_append(&b, "/");
    }
    tco_strbuf_append(&b, rel);
    return tco_strbuf_take(&b);
}

/* True if "_xH_" to "_xHHHH_" (1 to 4 hex digits) starts at p: Excel decodes the 4-digit form,
 * LibreOffice also shorter ones ("_x12_" is U+0012 there). */
static bool xlsx_escape_at(const char *p)
{
    if (p[0] != '_' || p[1] != 'x')
        return false;
    int i = 2;
    while (i < 6 && ((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f') || (p[i] >= 'A' && p[i] <= 'F')))
        i++;
    return i > 2 && p[i] == '_';
}

size_t tco_xlsx_escape(const char *s, tco_strbuf *out)
{
    size_t n = 0;
    const char *run = s;
    for (const char *p = s; *p; p++)
        if (xlsx_escape_at(p)) {
            tco_strbuf_append_n(out, run, (size_t)(p - run));
            tco_strbuf_append(out, "_x005F");
            run = p; /* the literal '_' follows its escape */
            n++;
        }
    tco_strbuf_append(out, run);
    return n;
}

size_t tco_xlsx_text_units(const char *s)
{
    size_t n = tco_utf16_units(s);
    for (const char *p = s; *p; p++)
        if (xlsx_escape_at(p))
            n += 6;
    return n;
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

bool tco_strbuf_append_capped(tco_strbuf *b, const char *piece, size_t max_units, size_t *held)
{
    if (*held == 0 && tco_xlsx_text_units(tco_strbuf_str(b)) + tco_xlsx_text_units(piece) <= max_units) {
        tco_strbuf_append(b, piece);
        return true;
    }
    (*held)++;
    return false;
}

bool tco_number_is_normal(const char *text, double v)
{
    if (v != 0)
        return isnormal(v) && fabs(v) <= TCO_NUMBER_MAX;
    for (const char *p = text; *p && *p != 'e' && *p != 'E'; p++)
        if (*p >= '1' && *p <= '9')
            return false; /* a non-zero mantissa that underflowed */
    return true;
}

tco_error tco_shown_path_check(const char *path, const char *what, tco_diag *diag)
{
    size_t bad = 0;
    long cp = 0;
    bool ok = tco_xml_text_valid(path, strlen(path), &bad, &cp);
    for (size_t i = 0; ok && path[i]; i++)
        if ((unsigned char)path[i] < 0x20 || path[i] == 0x7F) {
            ok = false;
            bad = i;
            cp = (unsigned char)path[i];
        }
    if (ok)
        return TCO_OK;
    return tco_diag_set(diag, TCO_ERR_INI, "%s: the %s, which the workbook shows, holds %s at byte %zu; rename it",
                        path, what,
                        cp < 0 ? "bytes that are not UTF-8"
                        : cp == 0xFFFE || cp == 0xFFFF ? "a code point that is not an XML character (U+FFFE, U+FFFF)"
                                                       : "a control character",
                        bad + 1);
}

size_t tco_str_cat(char *out, size_t size, ...)
{
    va_list ap;
    va_start(ap, size);
    size_t len = 0;
    for (const char *part; (part = va_arg(ap, const char *)) != NULL;) {
        size_t n = strlen(part);
        if (len < size - 1)
            memcpy(out + len, part, n < size - 1 - len ? n : size - 1 - len);
        len += n;
    }
    va_end(ap);
    out[len < size - 1 ? len : size - 1] = '\0';
    return len;
}

char *tco_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}
