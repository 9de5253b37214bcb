/* text.c - text helpers over the buffer: round-trip number formatting, trimmed copies and lists (each
 * entry once), paths, the XLSX escape of "_xHHHH_" and the cell length it gives, a capped list in one
 * cell, the check of a path the workbook shows, joining without printf, and a field's text as a message
 * shows it. */
#include "base/text.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

const double tco_pow10_exact[TCO_POW10_EXACT] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

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
    /* The entries counted first and held in one allocation: grown one realloc an entry, a list of 60,000
     * took 49 s and 1.5 GB under AddressSanitizer, whose realloc always copies (--compare a,a,...). */
    *out = NULL;
    size_t count = 1;
    for (const char *c = strchr(s, ','); c; c = strchr(c + 1, ','))
        count++;
    if (count > INT_MAX || (*out = calloc(count, sizeof **out)) == NULL)
        return -1;
    int n = 0;
    const char *p = s;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char *item = tco_strndup_trim(p, len);
        if (item == NULL || item[0] == '\0') {
            free(item);
            tco_free_list(*out, n);
            *out = NULL;
            return -1;
        }
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

/* One entry of a list for the sort of tco_list_repeats(): equal texts by their place in the list. */
typedef struct list_entry {
    const char *text;
    int index;
} list_entry;

static int list_entry_cmp(const void *a, const void *b)
{
    const list_entry *x = a, *y = b;
    int c = tco_utf8_casecmp(x->text, y->text);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

bool tco_list_repeats(char *const *list, int n, int *first, int *again)
{
    *first = *again = -1;
    if (n < 2)
        return false;
    list_entry *e = malloc((size_t)n * sizeof *e);
    if (e == NULL) { /* out of memory: compare each pair instead (the same answer, quadratic time) */
        for (int j = 1; j < n && *again < 0; j++)
            for (int i = 0; i < j && *again < 0; i++)
                if (tco_utf8_casecmp(list[i], list[j]) == 0)
                    *first = i, *again = j;
        return *again >= 0;
    }
    for (int i = 0; i < n; i++)
        e[i] = (list_entry){list[i], i};
    qsort(e, (size_t)n, sizeof *e, list_entry_cmp);
    /* Each run of equal texts is in list order: its first two are a first listing and its earliest
     * repeat; the earliest repeat of all runs is the one to name. */
    for (int i = 1; i < n; i++)
        if (tco_utf8_casecmp(e[i - 1].text, e[i].text) == 0 && (i < 2 || tco_utf8_casecmp(e[i - 2].text, e[i].text) != 0) &&
            (*again < 0 || e[i].index < *again))
            *first = e[i - 1].index, *again = e[i].index;
    free(e);
    return *again >= 0;
}

tco_error tco_list_check_set(char *const *list, int n, tco_error err, const tco_place *at, tco_diag *d)
{
    int first, again;
    if (!tco_list_repeats(list, n, &first, &again))
        return TCO_OK;
    bool same = strcmp(list[first], list[again]) == 0;
    return tco_diag_at(d, err, at, "'%s' is listed twice (entries %d and %d%s%s%s)", TCO_SHOWN(list[again]), first + 1,
                       again + 1, same ? "" : ", first as '", same ? "" : TCO_SHOWN(list[first]), same ? "" : "'");
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

const char *tco_shown_path_fault(const char *path, size_t *byte)
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
    *byte = bad + 1;
    return ok ? NULL
           : cp < 0 ? "bytes that are not UTF-8"
           : cp == 0xFFFE || cp == 0xFFFF ? "a code point that is not an XML character (U+FFFE, U+FFFF)"
           : tco_is_noncharacter(cp)      ? "a non-character (U+FDD0 to U+FDEF, or the last two code points of a plane)"
                                          : "a control character";
}

tco_error tco_shown_path_check(const char *path, const char *what, tco_diag *diag)
{
    size_t byte;
    const char *fault = tco_shown_path_fault(path, &byte);
    if (fault == NULL)
        return TCO_OK;
    return tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = path},
                       "the %s, which the workbook shows, holds %s at byte %zu; rename it", what, fault, byte);
}

/* The code point of a line or paragraph separator or a bidirectional control at @p s (UTF-8, @p n bytes
 * left), or 0: U+061C ALM, U+200E LRM, U+200F RLM, U+2028, U+2029, U+202A..U+202E (embeddings and
 * overrides) and U+2066..U+2069 (isolates).  They break a line or reorder what follows on a terminal,
 * so a quoted name could forge or hide text (the "Trojan Source" class, CVE-2021-42574). */
static unsigned format_char(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n >= 2 && u[0] == 0xD8 && u[1] == 0x9C)
        return 0x061C;
    if (n < 3 || u[0] != 0xE2)
        return 0;
    unsigned cp = ((u[0] & 0x0Fu) << 12) | ((u[1] & 0x3Fu) << 6) | (u[2] & 0x3Fu);
    if ((u[1] & 0xC0) != 0x80 || (u[2] & 0xC0) != 0x80)
        return 0;
    if (cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
        return cp;
    return 0;
}

void tco_text_put_terminal(FILE *out, const char *s, size_t n)
{
    /* Gathered in a buffer and written in pieces of up to its size: stderr is unbuffered, and a
     * character at a time was a write() each (20,000 warnings of quotes check: 3 million calls). */
    char buf[512];
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        if (len > sizeof buf - 16) { /* room for the longest escape (8 bytes) */
            fwrite(buf, 1, len, out);
            len = 0;
        }
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7F)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "\\x%02X", c);
        else if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9F)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "\\xC2\\x%02X", (unsigned char)s[++i]);
        else if (format_char(s + i, n - i) != 0) {
            unsigned cp = format_char(s + i, n - i);
            len += (size_t)snprintf(buf + len, sizeof buf - len, "\\u%04X", cp);
            i += cp == 0x061C ? 1 : 2;
        } else if (c >= 0x80) {
            /* A byte that starts no UTF-8 character (0x9B alone is a CSI to a terminal that reads
             * bytes as ISO 8859) as \xNN; a whole character as it is. */
            size_t k = tco_utf8_seq(s + i, n - i);
            if (k == 0)
                len += (size_t)snprintf(buf + len, sizeof buf - len, "\\x%02X", c);
            for (size_t j = 0; j < k; j++)
                buf[len++] = s[i + j];
            i += k ? k - 1 : 0;
        } else
            buf[len++] = (char)c;
    }
    if (len)
        fwrite(buf, 1, len, out);
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

const char *tco_text_shown(const char *s, char out[TCO_SHOWN_MAX])
{
    size_t keep = tco_utf8_prefix(s, 100), n = 0;
    for (size_t i = 0; i < keep; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\r' || c == '\n' || c == '\t')
            n += (size_t)snprintf(out + n, TCO_SHOWN_MAX - n, "\\%c", c == '\r' ? 'r' : c == '\n' ? 'n' : 't');
        else if (c < 0x20 || c == 0x7F)
            n += (size_t)snprintf(out + n, TCO_SHOWN_MAX - n, "\\x%02X", c);
        else
            out[n++] = (char)c;
    }
    snprintf(out + n, TCO_SHOWN_MAX - n, "%s", s[keep] ? "..." : "");
    return out;
}
