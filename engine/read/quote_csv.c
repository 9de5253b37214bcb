/* quote_csv.c - vendor quote CSV files over libcsv: reading and checking every row (quote_csv.h). */
#include "read/quote_csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <csv.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "read/ini.h"
#include "read/root.h"
#include "read/price_text.h"

enum { COL_VENDOR, COL_ITEM, COL_PRICE, COL_CURRENCY, COL_QUOTE_ID, COL_QUOTE_DATE, COL_VALID_UNTIL, COL_MIN_QTY,
       COL_LEAD_TIME, COL_NOTES, COL_VAT_INCLUDED, COL_VAT_RATE, N_COLS };
static const char *const col_names[N_COLS] = {"vendor", "item", "unit_price", "currency", "quote_id",
                                              "quote_date", "valid_until", "min_qty", "lead_time_weeks", "notes",
                                              "vat_included", "vat_rate"};
/* Longest text of each column in UTF-16 units (Excel's unit).  vendor, item and quote_id are
 * cited in the sources and reasons tco builds (tco_quotes_choose, tco_model_apply_quotes), so
 * they are capped well below a cell: any text built from them fits a cell (quote_csv.h). */
static const size_t col_max[N_COLS] = {TCO_QUOTE_MAX_VENDOR, TCO_QUOTE_MAX_ID, TCO_QUOTE_MAX_CELL,
                                       TCO_QUOTE_MAX_CELL, TCO_QUOTE_MAX_ID, TCO_QUOTE_MAX_CELL,
                                       TCO_QUOTE_MAX_CELL, TCO_QUOTE_MAX_CELL, TCO_QUOTE_MAX_CELL,
                                       TCO_QUOTE_MAX_CELL, TCO_QUOTE_MAX_CELL, TCO_QUOTE_MAX_CELL};
/* Identifier-like columns: format characters are removed and Unicode blanks trimmed (see ident()). */
static const bool col_ident[N_COLS] = {false, true, true, true, false, true, true, true, true, false, true, true};
#define REQUIRED_COLS 4
#define MAX_ROW_LINES 1000
/* A field longer than this many bytes has more than TCO_QUOTE_MAX_CELL characters whatever they are
 * (a UTF-8 character is at most 4 bytes, and at least 1 UTF-16 unit): reading stops there. */
#define MAX_FIELD_BYTES ((size_t)4 * TCO_QUOTE_MAX_CELL)
/* Bytes read from the file at a time, and libcsv's buffer growth step (its default, 128 bytes,
 * makes a long field cost one realloc per 128 bytes). */
#define READ_CHUNK 65536
#define CSV_BLOCK 65536
/* Bytes of the header line looked at to choose the delimiter. */
#define SNIFF_MAX (1u << 20)

typedef struct reader {
    const char *path;
    const tco_fx *fx;
    /* Currency codes whose rate was found lately (upper case, NUL-terminated; "" for none) and their rates:
     * a row's code is most often one of a few, found here without the search of tco_fx_rate(). */
    char rate_code[8][4];
    double rate_of[8];
    /* The last valid date read in each date column (quote_date, valid_until) and its day number: a file's
     * rows mostly repeat a few dates, and the same ten bytes are the same day. */
    char last_date[2][11];
    int32_t last_days[2];
    tco_quote_keep_fn keep;
    void *keep_ctx;
    tco_quote_problem_fn problem;
    void *problem_ctx;
    tco_quote_set *set;
    const char *file; /* owned by set->files */
    char delim;
    /* a ';' file's decimal mark: the first a number used (',' or '.'; '\0' before one), and where (one
     * decimal convention per file: same_mark()) */
    char decimal_mark;
    long mark_line;
    int mark_col;
    char mark_text[TCO_SHOWN_MAX];
    /* header: the column each field is (COL_*, or -1 for an unknown or repeated one) */
    int *kind;
    size_t header_fields;
    bool have_header;
    bool header_bad; /* the header has errors: rows are counted, not read */
    int col_of[N_COLS]; /* field index of each known column, -1 if absent */
    /* the row being assembled: the known columns' text, each NUL-terminated, one after another in
     * row (heap, grown to the longest row and reused, so a row costs no allocation), each at
     * cell_at[] (SIZE_MAX when absent); the number of fields seen, and the first problem found in
     * one of them (reported once the row is whole) */
    char *row;
    size_t row_len, row_cap;
    size_t cell_at[N_COLS];
    size_t n_fields;
    bool row_bad;
    char row_problem[TCO_DIAG_MAX];
    size_t row_problem_field;
    /* physical line of the byte being read (1-based; LF, CR and CRLF each end one), and the line
     * the row being assembled starts on */
    long line, row_line;
    bool row_pending;
    bool stop;
    /* a problem that ends the file's reading (a field past the limit, too many columns) */
    bool fatal;
    tco_diag fatal_diag;
    tco_error err;
    tco_diag *diag;
} reader;

/* The length of the run of separators at @p s: spaces, tabs, NBSPs (U+00A0), underscores and hyphens. */
static size_t header_gap(const char *s)
{
    size_t n = 0;
    for (;;) {
        if (s[n] == ' ' || s[n] == '\t' || s[n] == '_' || s[n] == '-')
            n++;
        else if ((unsigned char)s[n] == 0xC2 && (unsigned char)s[n + 1] == 0xA0)
            n += 2;
        else
            return n;
    }
}

/* Whether header text @p name is column name @p col as people write it: letters in any case, and for an
 * underscore of the name any run of separators or none ("Unit Price", "unit  price", "Unit-Price" and
 * "UnitPrice" are unit_price, "VALID UNTIL" valid_until).  No two column names differ only there. */
static bool header_is(const char *name, const char *col)
{
    while (*name && *col) {
        if (*col == '_') {
            name += header_gap(name);
            col++;
            continue;
        }
        if (tolower((unsigned char)*name) != tolower((unsigned char)*col))
            return false;
        name++, col++;
    }
    return *name == '\0' && *col == '\0';
}

/* The header name of field @p i of a row, or NULL when it is not a known column. */
static const char *col_name(const reader *r, size_t i)
{
    int k = r->kind && i < r->header_fields ? r->kind[i] : -1;
    return k >= 0 ? col_names[k] : NULL;
}

/* Report a problem of the file at @p line and, when it is a field's, its 1-based @p column (0: none)
 * and the column's header name @p name (NULL: none). */
static void report(reader *r, bool warning, long line, size_t column, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void report(reader *r, bool warning, long line, size_t column, const char *name, const char *fmt, ...)
{
    tco_diag d = {0};
    char msg[TCO_DIAG_MAX];
    va_list ap;
    va_start(ap, fmt);
    tco_vformat_cut(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tco_place at = {.file = r->path, .line = line, .column = (long)column, .column_name = name};
    tco_diag_at(&d, TCO_ERR_SYNTAX, &at, "%s", msg);
    if (warning)
        r->set->warnings++;
    else
        r->set->errors++;
    if (r->problem && !r->problem(r->problem_ctx, &d, warning)) {
        r->stop = true;
        if (r->diag)
            *r->diag = d;
    }
}

/* A problem after which the file is not read on (returned by tco_quotes_read as TCO_ERR_SYNTAX); the
 * place as report()'s. */
static void fatal(reader *r, long line, size_t column, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void fatal(reader *r, long line, size_t column, const char *name, const char *fmt, ...)
{
    if (r->fatal)
        return;
    char msg[TCO_DIAG_MAX];
    va_list ap;
    va_start(ap, fmt);
    tco_vformat_cut(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tco_place at = {.file = r->path, .line = line, .column = (long)column, .column_name = name};
    tco_diag_at(&r->fatal_diag, TCO_ERR_SYNTAX, &at, "%s", msg);
    r->fatal = r->stop = true;
}

/* Record the row's first problem, in field @p i; it is reported when the row ends (unless its field
 * count is wrong). */
static void row_problem(reader *r, size_t i, const char *why)
{
    if (r->row_bad)
        return;
    snprintf(r->row_problem, sizeof r->row_problem, "%s", why);
    r->row_problem_field = i;
    r->row_bad = true;
}

/* Code point of the valid UTF-8 sequence at *p; advances *p. */
static long next_cp(const unsigned char **p)
{
    const unsigned char *s = *p;
    long cp;
    size_t n;
    if (s[0] < 0x80)
        cp = s[0], n = 1;
    else if (s[0] < 0xE0)
        cp = s[0] & 0x1F, n = 2;
    else if (s[0] < 0xF0)
        cp = s[0] & 0x0F, n = 3;
    else
        cp = s[0] & 0x07, n = 4;
    for (size_t i = 1; i < n && s[i]; i++)
        cp = (cp << 6) | (s[i] & 0x3F);
    *p = s + n;
    return cp;
}

bool tco_quote_format_char(long cp)
{
    /* Unicode 15.1, General_Category = Cf. */
    static const long ranges[][2] = {
        {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},   {0x070F, 0x070F},
        {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},   {0x200B, 0x200F},   {0x202A, 0x202E},
        {0x2060, 0x2064},   {0x2066, 0x206F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},
        {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
        {0xE0020, 0xE007F},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (cp >= ranges[i][0] && cp <= ranges[i][1])
            return true;
    return false;
}

/* Blanks trimmed around identifiers: ASCII space, tab, CR, LF and Unicode's space separators (Zs). */
static bool blank_cp(long cp)
{
    return cp == ' ' || cp == '\t' || cp == '\r' || cp == '\n' || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

/* An identifier-like field (item, currency, price, dates, counts, header names) as compared:
 * without format characters (U+FEFF, U+200B, ...: invisible, they would make "D-M" another
 * item) and without blanks around it.  @p s (@p len bytes) is valid UTF-8; the result goes to
 * @p out (room for @p len + 1 bytes), NUL-terminated; returns its length. */
static size_t ident_into(const char *s, size_t len, char *out)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    bool ascii = true;
    for (const unsigned char *q = p; q < end && ascii; q++)
        ascii = *q < 0x80;
    if (ascii) { /* no format character is ASCII, and the ASCII blanks are these four */
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            p++;
        while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
            end--;
        size_t n = (size_t)(end - p);
        memcpy(out, p, n);
        out[n] = '\0';
        return n;
    }
    size_t n = 0, keep = 0; /* keep: length up to the last non-blank */
    while (p < end) {
        const unsigned char *start = p;
        long cp = next_cp(&p);
        if (tco_quote_format_char(cp) || (n == 0 && blank_cp(cp)))
            continue;
        memcpy(out + n, start, (size_t)(p - start));
        n += (size_t)(p - start);
        if (!blank_cp(cp))
            keep = n;
    }
    out[keep] = '\0';
    return keep;
}

/* ident_into() on the heap; NULL on allocation failure. */
static char *ident(const char *s)
{
    size_t len = strlen(s);
    char *out = malloc(len + 1);
    if (out != NULL)
        ident_into(s, len, out);
    return out;
}

/* True when the @p len bytes at @p s are printable ASCII (U+0020 to U+007F) without '_': valid UTF-8 and XML
 * text of @p len UTF-16 units (a literal _xHHHH_, stored escaped, needs a '_'), with no format character.
 * Most fields are; the checks below answer them in this one pass. */
static bool plain_text(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)(s[i] - 0x20) >= 0x60 || s[i] == '_')
            return false;
    return true;
}

/* Nonzero when a byte of @p x is >= 0x80, below 0x20 or '_' (bytes that plain_text() refuses), eight at a
 * time ("Bit Twiddling Hacks", S. E. Anderson: hasless(x, n) = (x - ~0/255*n) & ~x & ~0/255*128, exact
 * for n <= 128; a '_' is a zero byte of x ^ '_'). */
static uint64_t unplain8(uint64_t x)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t u = x ^ (ones * '_');
    return (x | ((x - ones * 0x20) & ~x) | ((u - ones) & ~u)) & highs;
}

/* The same for four bytes. */
static uint32_t unplain4(uint32_t x)
{
    const uint32_t ones = 0x01010101u, highs = 0x80808080u;
    uint32_t u = x ^ (ones * '_');
    return (x | ((x - ones * 0x20) & ~x) | ((u - ones) & ~u)) & highs;
}

/* plain_text() of the @p len bytes at @p s, copied to @p out as they are checked: in words, the last
 * one overlapping the one before when @p len is not a multiple of its size (a byte checked and copied
 * twice is the same byte). */
static inline __attribute__((always_inline)) bool copy_plain(const char *s, size_t len, char *out)
{
    if (len >= 8) {
        uint64_t bad = 0, x;
        for (size_t i = 0; i + 8 <= len; i += 8) {
            memcpy(&x, s + i, 8);
            memcpy(out + i, &x, 8);
            bad |= unplain8(x);
        }
        memcpy(&x, s + len - 8, 8);
        memcpy(out + len - 8, &x, 8);
        return (bad | unplain8(x)) == 0;
    }
    if (len >= 4) {
        uint32_t a, z;
        memcpy(&a, s, 4);
        memcpy(&z, s + len - 4, 4);
        memcpy(out, &a, 4);
        memcpy(out + len - 4, &z, 4);
        return (unplain4(a) | unplain4(z)) == 0;
    }
    unsigned bad = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = (char)c;
        bad |= (unsigned)((unsigned char)(c - 0x20) >= 0x60) | (unsigned)(c == '_');
    }
    return bad == 0;
}

/* The @p len bytes at @p s without the blanks (space, tab, CR, LF) around them, moved to @p s and
 * NUL-terminated; returns the length left. */
static inline __attribute__((always_inline)) size_t trim_in_place(char *s, size_t len)
{
    size_t a = 0;
    while (a < len && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r' || s[a] == '\n'))
        a++;
    while (len > a && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' || s[len - 1] == '\n'))
        len--;
    if (a > 0)
        memmove(s, s + a, len - a);
    s[len - a] = '\0';
    return len - a;
}

/* Why @p len bytes at @p s cannot be a field's text (NULL if they can): not UTF-8, a code point that
 * XML 1.0 (and so a workbook) cannot hold, or more than @p max UTF-16 units. */
static const char *text_problem(const char *s, size_t len, size_t max, char *why, size_t size)
{
    if (len <= max && plain_text(s, len))
        return NULL;
    size_t bad;
    long cp;
    if (!tco_utf8_valid(s, len, &bad)) {
        snprintf(why, size, "not valid UTF-8 (byte 0x%02X); save the file as \"CSV UTF-8\"", (unsigned char)s[bad]);
        return why;
    }
    if (!tco_xml_text_valid(s, len, &bad, &cp)) {
        size_t at = 0;
        for (size_t i = 0; i < bad; i++)
            at += ((unsigned char)s[i] & 0xC0) != 0x80;
        snprintf(why, size, "expected text, found the %s U+%04lX at character %zu (%s"
                 "no control character is allowed but tab and line breaks, DEL and U+0080 to U+009F "
                 "included, and no non-character: U+FFFE, U+FFFF, U+FDD0 to U+FDEF)",
                 tco_is_control(cp) ? "control character" : "non-character", (unsigned long)cp, at + 1,
                 tco_is_control(cp) || cp == 0xFFFE || cp == 0xFFFF ? "a workbook cannot hold it; " : "");
        return why;
    }
    /* Excel counts UTF-16 units: a character beyond U+FFFF (an emoji) counts 2, and each literal
     * "_xHHHH_" is stored with its 6-character escape (tco_xlsx_escape()). */
    size_t units = tco_xlsx_text_units(s);
    if (units > max) {
        const char *as_excel = units != tco_utf8_chars(s) ? " as Excel stores them (an emoji is 2, a literal _xHHHH_ 13)" : "";
        if (max == TCO_QUOTE_MAX_CELL)
            snprintf(why, size, "%zu characters%s, more than an Excel cell holds (32,767)", units, as_excel);
        else
            snprintf(why, size, "%zu characters%s, expected at most %zu (it is cited in the sources and reasons "
                     "tco writes, which must fit a cell)", units, as_excel, max);
        return why;
    }
    return NULL;
}

static void on_header_field(reader *r, size_t i, const char *text, size_t len)
{
    if (i >= TCO_QUOTE_MAX_COLUMNS) {
        fatal(r, r->row_line, 0, NULL, "the header has more than %d columns (the most a spreadsheet holds); expected the "
              "quote columns (vendor, item, unit_price, currency, ...)", TCO_QUOTE_MAX_COLUMNS);
        return;
    }
    if (i % 64 == 0) {
        int *grown = realloc(r->kind, (i + 64) * sizeof *grown);
        if (grown == NULL) {
            r->err = TCO_ERR_NOMEM;
            r->stop = true;
            return;
        }
        r->kind = grown;
    }
    r->kind[i] = -1;
    r->header_fields = i + 1;
    char why[300];
    if (text_problem(text, len, TCO_QUOTE_MAX_CELL, why, sizeof why)) {
        report(r, false, r->row_line, i + 1, NULL, "%s", why);
        r->header_bad = true;
        return;
    }
    char *name = ident(text);
    if (name == NULL) {
        r->err = TCO_ERR_NOMEM;
        r->stop = true;
        return;
    }
    int c;
    for (c = 0; c < N_COLS; c++)
        if (header_is(name, col_names[c]))
            break;
    if (c < N_COLS && r->col_of[c] >= 0) {
        report(r, false, r->row_line, i + 1, name, "the column '%s' appears twice (first as column %d)",
               col_names[c], r->col_of[c] + 1);
        r->header_bad = true;
    } else if (c < N_COLS) {
        r->col_of[c] = (int)i;
        r->kind[i] = c;
    } else
        report(r, true, r->row_line, i + 1, NULL, "unknown column '%s' is ignored (known: vendor, item, "
               "unit_price, currency, quote_id, quote_date, valid_until, min_qty, lead_time_weeks, notes, "
               "vat_included, vat_rate)",
               TCO_SHOWN(name));
    free(name);
}

/* When the @p len bytes at @p s (field @p i of the row) cannot be its text (text_problem() with @p max), record
 * why as the row's problem and return true. */
static bool field_problem(reader *r, size_t i, const char *s, size_t len, size_t max)
{
    char why[300];
    if (text_problem(s, len, max, why, sizeof why) == NULL)
        return false;
    row_problem(r, i, why);
    return true;
}

/* The kept text of column @p k at @p copy (@p len bytes, plain): a note verbatim, any other field without
 * the blanks around it (all an identifier loses when it is plain); NUL-terminated, its length returned. */
static inline __attribute__((always_inline)) size_t kept_plain(int k, char *copy, size_t len)
{
    if (k == COL_NOTES) {
        copy[len] = '\0';
        return len;
    }
    return trim_in_place(copy, len);
}

/* on_field() for every field: the header's, a field past the header's count, an ignored column, a row
 * already bad, a problem found, the row's text to grow. */
static void on_any_field(void *data, size_t len, void *vr)
{
    reader *r = vr;
    size_t i = r->n_fields++;
    if (r->stop)
        return;
    const char *text = data; /* NUL-terminated: CSV_APPEND_NULL */
    if (!r->have_header) {
        on_header_field(r, i, text, len);
        return;
    }
    if (r->header_bad || i >= r->header_fields || r->row_bad)
        return; /* only counted */
    int k = r->kind[i];
    if (k < 0) { /* an ignored column: checked, not kept */
        if (!(plain_text(text, len) && len <= TCO_QUOTE_MAX_CELL))
            field_problem(r, i, text, len, TCO_QUOTE_MAX_CELL);
        return;
    }
    /* The kept text is at most the field and its NUL, at the end of the row's text. */
    if (r->row_cap - r->row_len < len + 1) {
        size_t cap = r->row_cap ? r->row_cap : 256;
        while (cap - r->row_len < len + 1)
            cap *= 2;
        char *grown = realloc(r->row, cap);
        if (grown == NULL) {
            r->err = TCO_ERR_NOMEM;
            r->stop = true;
            return;
        }
        r->row = grown;
        r->row_cap = cap;
    }
    char *copy = r->row + r->row_len;
    bool plain = copy_plain(text, len, copy); /* then the checks below pass at once */
    if (!(plain && len <= TCO_QUOTE_MAX_CELL) && field_problem(r, i, text, len, TCO_QUOTE_MAX_CELL))
        return;
    size_t n = col_ident[k] && !plain ? ident_into(text, len, copy) : kept_plain(k, copy, len);
    /* The copy is the checked text less some characters: only a tighter cap can fail. */
    if (col_max[k] < TCO_QUOTE_MAX_CELL && !(plain && n <= col_max[k]))
        field_problem(r, i, copy, n, col_max[k]);
    r->cell_at[k] = r->row_len;
    r->row_len += n + 1;
}

/* libcsv's field callback.  The common field, a kept column's plain text within its cap in a good row
 * whose text has room, takes the path below: the same copy and trim as on_any_field(), whose checks it
 * passes at once; any other field (or a plain one past its column's cap) goes to on_any_field(), which
 * copies it again and decides. */
static void on_field(void *data, size_t len, void *vr)
{
    reader *r = vr;
    size_t i = r->n_fields;
    if (!r->stop && r->have_header && !r->header_bad && !r->row_bad && i < r->header_fields &&
        len <= TCO_QUOTE_MAX_CELL && r->row_cap - r->row_len > len) {
        int k = r->kind[i];
        char *copy = r->row + r->row_len;
        if (k >= 0 && copy_plain(data, len, copy)) {
            size_t n = kept_plain(k, copy, len);
            if (n <= col_max[k]) {
                r->n_fields = i + 1;
                r->cell_at[k] = r->row_len;
                r->row_len += n + 1;
                return;
            }
        }
    }
    on_any_field(data, len, vr);
}

static void clear_row(reader *r)
{
    for (int c = 0; c < N_COLS; c++)
        r->cell_at[c] = SIZE_MAX;
    r->row_len = 0;
    r->n_fields = 0;
    r->row_bad = false;
}

static void on_header(reader *r)
{
    r->have_header = true;
    if (r->header_bad)
        return;
    size_t errors = r->set->errors;
    for (int c = 0; c < REQUIRED_COLS; c++)
        if (r->col_of[c] < 0)
            report(r, false, r->row_line, 0, NULL, "the header lacks the required column '%s' (required: vendor, item, "
                   "unit_price, currency)", col_names[c]);
    r->header_bad = r->set->errors > errors;
}

/* A known column's text in the current row ("" when the file lacks the column). */
static char *field(const reader *r, int col)
{
    static char none[1];
    return r->cell_at[col] != SIZE_MAX ? r->row + r->cell_at[col] : none;
}

static bool blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0';
}

/* In a ';' file, where ',' and '.' can each be a decimal mark, hold the number @p text of column @p col
 * (its decimal mark @p used, '\0' for none) to the file's: the first mark a number uses is the file's, and
 * another is reported ("88000.50" in a file of "0,13").  False when reported. */
static bool same_mark(reader *r, long line, int col, const char *text, char used)
{
    if (r->delim != ';' || used == '\0')
        return true;
    if (r->decimal_mark == '\0') {
        r->decimal_mark = used;
        r->mark_line = line;
        r->mark_col = col;
        snprintf(r->mark_text, sizeof r->mark_text, "%s", TCO_SHOWN(text));
        return true;
    }
    if (used == r->decimal_mark)
        return true;
    char want[TCO_DIAG_MAX] = "";
    const char *other = used == ',' ? "." : ",";
    if (strlen(text) < sizeof want && strpbrk(text, other) == NULL) { /* the same number with the file's mark */
        snprintf(want, sizeof want, "%s", text);
        char *at = strrchr(want, used);
        if (at)
            *at = r->decimal_mark;
    }
    report(r, false, line, (size_t)(r->col_of[col] + 1), col_names[col],
           "expected the decimal mark '%c' of the rest of this file (first in line %ld, column %d (%s): '%s'), "
           "found '%c' in '%s': one decimal convention per file%s%s%s", r->decimal_mark, r->mark_line,
           r->col_of[r->mark_col] + 1, col_names[r->mark_col], r->mark_text, used, TCO_SHOWN(text),
           want[0] ? " (write '" : "", want[0] ? TCO_SHOWN(want) : "", want[0] ? "')" : "");
    return false;
}

/* A number column of row @p line (vat_rate, min_qty, lead_time_weeks) read as the file writes numbers
 * (its decimal mark and grouping: tco_quote_parse_number()), within @p lo .. @p hi and whole when
 * @p whole; else reported, with @p expected saying what the column holds.  NaN when absent or bad. */
static double number_field(reader *r, long line, int col, const char *expected, double lo, double hi, bool whole)
{
    const char *text = field(r, col);
    if (blank(text))
        return NAN;
    char why[TCO_DIAG_MAX], used = '\0';
    double v;
    if (!tco_quote_parse_number_mark(text, r->delim, expected, &v, &used, why, sizeof why)) {
        report(r, false, line, (size_t)(r->col_of[col] + 1), col_names[col], "%s", why);
        return NAN;
    }
    if (!same_mark(r, line, col, text, used))
        return NAN;
    if (v < lo || v > hi || (whole && v != floor(v))) {
        report(r, false, line, (size_t)(r->col_of[col] + 1), col_names[col], "expected %s, found '%s'", expected,
               TCO_SHOWN(text));
        return NAN;
    }
    return v;
}

static void check_date(reader *r, long line, int col, const char *text, int32_t *days)
{
    int c = col == COL_VALID_UNTIL;
    if (r->last_date[c][0] != '\0' && strcmp(text, r->last_date[c]) == 0) {
        *days = r->last_days[c]; /* the text of the last valid date of this column */
        return;
    }
    char why[TCO_DIAG_MAX];
    if (blank(text))
        return;
    if (!tco_date_check(text, days, why, sizeof why))
        report(r, false, line, (size_t)(r->col_of[col] + 1), col_names[col], "%s", why);
    else { /* valid: ten characters */
        memcpy(r->last_date[c], text, 11);
        r->last_days[c] = *days;
    }
}

static void on_data_row(reader *r)
{
    long line = r->row_line;
    r->set->rows++;
    if (r->header_bad)
        return;
    if (r->n_fields != r->header_fields) {
        report(r, false, line, 0, NULL, "expected %zu fields as in the header, found %zu", r->header_fields,
               r->n_fields);
        return;
    }
    if (r->row_bad) {
        report(r, false, line, r->row_problem_field + 1, col_name(r, r->row_problem_field), "%s", r->row_problem);
        return;
    }
    size_t errors = r->set->errors;
    const char *item = field(r, COL_ITEM), *currency = field(r, COL_CURRENCY);
    char upper[4] = "";
    if (strlen(currency) == 3)
        for (int i = 0; i < 4; i++)
            upper[i] = (char)toupper((unsigned char)currency[i]);
    tco_quote q = {.file = r->file, .line = line, .item_column = r->col_of[COL_ITEM] + 1,
                   .currency_column = r->col_of[COL_CURRENCY] + 1,
                   .quote_date = TCO_NO_DATE, .valid_until = TCO_NO_DATE, .lead_time_weeks = NAN,
                   .vat_rate = NAN};
#define COLREF(c) (size_t)(r->col_of[c] + 1), col_names[c]
    if (blank(field(r, COL_VENDOR)))
        report(r, false, line, COLREF(COL_VENDOR), "expected a vendor name, found an empty field");
    if (item[0] == '\0')
        report(r, false, line, COLREF(COL_ITEM), "expected a catalog item such as D-M, found an empty field");
    int rate_at = (upper[0] ^ upper[1] * 3 ^ upper[2] * 7) & 7; /* the code's entry of rate_code */
    bool rated = upper[0] != '\0' && memcmp(r->rate_code[rate_at], upper, 4) == 0;
    if (rated) {
        q.rate = r->rate_of[rate_at];
    } else if (tco_fx_code_valid(upper) && tco_fx_rate(r->fx, upper, &q.rate)) {
        memcpy(r->rate_code[rate_at], upper, 4);
        r->rate_of[rate_at] = q.rate;
        rated = true;
    }
    char why[TCO_DIAG_MAX], used = '\0';
    tco_strbuf no_rate = {0};
    if (!rated && tco_fx_code_valid(upper)) {
        /* A currency without a rate is no error of the file: the row is kept, prices nothing, and says how
         * to give the rate (its price is still read and checked). */
        q.status = TCO_QUOTE_NO_RATE;
        q.rate = q.converted = NAN;
        tco_fx_no_rate(r->fx, upper, &no_rate);
        if (!tco_quote_parse_price_mark(field(r, COL_PRICE), r->delim, upper, &q.unit_price, &used, why, sizeof why))
            report(r, false, line, COLREF(COL_PRICE), "%s", why);
        else
            same_mark(r, line, COL_PRICE, field(r, COL_PRICE), used);
    } else if (!rated) {
        tco_strbuf codes = {0};
        tco_strbuf_append(&codes, r->fx->reporting);
        for (size_t i = 0; i < r->fx->n; i++)
            tco_strbuf_printf(&codes, ", %s", r->fx->codes[i]);
        report(r, false, line, COLREF(COL_CURRENCY), "expected a currency code with a rate in %s (%s), found '%s'",
               r->fx->path ? r->fx->path : "the rates", tco_strbuf_str(&codes), TCO_SHOWN(currency));
        tco_strbuf_free(&codes);
    } else {
        if (!tco_quote_parse_price_mark(field(r, COL_PRICE), r->delim, upper, &q.unit_price, &used, why, sizeof why))
            report(r, false, line, COLREF(COL_PRICE), "%s", why);
        else if (!same_mark(r, line, COL_PRICE, field(r, COL_PRICE), used))
            ;
        else if (!isnormal(q.unit_price * q.rate)) {
            /* Every converted price is a finite, normal number (the Quotes sheet caches it). */
            char p[32], rt[32];
            tco_format_double(q.unit_price, p);
            tco_format_double(q.rate, rt);
            report(r, false, line, COLREF(COL_PRICE), "%s %s x %s %s/%s is %s to hold as a number in %s", p, upper,
                   rt, r->fx->reporting, upper, isfinite(q.unit_price * q.rate) ? "too small" : "too large",
                   r->fx->reporting);
        }
    }
    const char *qd = field(r, COL_QUOTE_DATE), *vu = field(r, COL_VALID_UNTIL);
    check_date(r, line, COL_QUOTE_DATE, qd, &q.quote_date);
    check_date(r, line, COL_VALID_UNTIL, vu, &q.valid_until);
    if (q.quote_date != TCO_NO_DATE && q.valid_until != TCO_NO_DATE && q.valid_until < q.quote_date)
        report(r, false, line, COLREF(COL_VALID_UNTIL), "valid_until %s is before quote_date %s", vu, qd);
    /* Every number column follows the file's decimal mark and grouping, as unit_price does. */
    /* At least 1: the quote applies from this many units on, and no purchase is of 0 units. */
    double mq = number_field(r, line, COL_MIN_QTY, "a whole number of units, at least 1", 1, INFINITY, true);
    if (!isnan(mq))
        q.min_qty = mq;
    q.lead_time_weeks = number_field(r, line, COL_LEAD_TIME, "weeks as a number", 0, INFINITY, false);
    /* VAT basis: the model's prices exclude VAT; a price that includes it is divided by 1 + vat_rate. */
    const char *vi = field(r, COL_VAT_INCLUDED), *vr = field(r, COL_VAT_RATE);
    if (!blank(vi)) {
        if (strcasecmp(vi, "yes") == 0)
            q.vat_included = true;
        else if (strcasecmp(vi, "no") != 0)
            report(r, false, line, COLREF(COL_VAT_INCLUDED), "expected yes or no, found '%s'", TCO_SHOWN(vi));
    }
    if (!blank(vr)) {
        q.vat_rate = number_field(r, line, COL_VAT_RATE,
                                  r->delim == ';' ? "a VAT rate as a share from 0 to 1 (0,13 for 13%)"
                                                  : "a VAT rate as a share from 0 to 1 (0.13 for 13%)",
                                  0, 1, false);
    } else if (q.vat_included) {
        if (r->col_of[COL_VAT_RATE] < 0)
            report(r, false, line, COLREF(COL_VAT_INCLUDED), "the price includes VAT, but the file has no vat_rate "
                   "column to take it out at (add vat_rate, e.g. 0.13)");
        else
            report(r, false, line, COLREF(COL_VAT_RATE), "the price includes VAT (vat_included = yes): expected its "
                   "rate as a share from 0 to 1 (0.13 for 13%%), found an empty field");
    }
#undef COLREF
    q.converted = q.unit_price * q.rate;
    if (q.status == TCO_QUOTE_NO_RATE && (q.reason = no_rate.failed ? NULL : tco_strbuf_take(&no_rate)) == NULL) {
        tco_strbuf_free(&no_rate);
        r->err = TCO_ERR_NOMEM;
        r->stop = true;
        return;
    }
    if (q.vat_included && !isnan(q.vat_rate)) /* as the workbook computes it: unit price x rate / (1 + VAT) */
        q.converted = q.converted / (1 + q.vat_rate);
    q.vendor = field(r, COL_VENDOR);
    q.quote_id = field(r, COL_QUOTE_ID);
    q.item = field(r, COL_ITEM);
    q.currency = upper;
    q.notes = field(r, COL_NOTES);
    bool keep = r->set->errors == errors && r->keep && r->keep(r->keep_ctx, &q);
    if (!keep)
        r->set->not_kept++;
    else if (!tco_quotes_append_copy(r->set, &q)) {
        r->err = TCO_ERR_NOMEM;
        r->stop = true;
    }
    free(q.reason);
}

static void on_row(int term, void *vr)
{
    (void)term;
    reader *r = vr;
    if (!r->stop) {
        if (!r->have_header)
            on_header(r);
        else
            on_data_row(r);
    }
    clear_row(r);
    r->row_pending = true;
}

/* Choose the delimiter from the header line: the more frequent of ',' and ';' outside quotes. */
static char sniff_delim(const char *line, size_t len)
{
    size_t commas = 0, semis = 0;
    bool quoted = false;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (!quoted && line[i] == ',')
            commas++;
        else if (!quoted && line[i] == ';')
            semis++;
    }
    return semis > commas ? ';' : ',';
}

/* Give @p len bytes to libcsv; false (with the problem in r->fatal_diag) when reading must stop. */
static bool feed(reader *r, struct csv_parser *parser, const char *s, size_t len)
{
    if (csv_parse(parser, s, len, on_field, on_row, r) != len && !r->stop) {
        if (csv_error(parser) == CSV_EPARSE)
            fatal(r, r->line, r->n_fields + 1, NULL, "malformed quoting (a '\"' inside an unquoted field, or text "
                  "after a closing '\"'): %s", csv_strerror(csv_error(parser)));
        else {
            r->err = TCO_ERR_NOMEM;
            r->stop = true;
        }
    }
    /* libcsv keeps the field being read in one buffer: stop as soon as it cannot fit a cell. */
    if (!r->stop && parser->entry_pos > MAX_FIELD_BYTES) {
        fatal(r, r->row_line, r->n_fields + 1, col_name(r, r->n_fields), "more than 32,767 characters, more than "
              "an Excel cell holds (reading stopped after %zu bytes of this field)", MAX_FIELD_BYTES);
    }
    return !r->stop;
}

static bool blank_bytes(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return false;
    return true;
}

tco_error tco_quotes_read(const char *path, const tco_fx *fx, tco_quote_keep_fn keep, void *keep_ctx,
                          tco_quote_problem_fn problem, void *problem_ctx, tco_quote_set *set, tco_diag *diag)
{
    const tco_place in_file = {.file = path}; /* a problem of the file as a whole */
    tco_error pe = tco_shown_path_check(path, "quote file's path", diag);
    if (pe != TCO_OK)
        return pe;
    struct stat st;
    if (stat(path, &st) != 0)
        return tco_diag_at(diag, TCO_ERR_NOINPUT, &in_file, "cannot open: %s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return tco_diag_at(diag, TCO_ERR_NOINPUT, &in_file, "%s", tco_not_file_reason(st.st_mode));
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return tco_diag_at(diag, TCO_ERR_NOINPUT, &in_file, "cannot open: %s", strerror(errno));
    char **files = realloc(set->files, (set->n_files + 1) * sizeof *files);
    char *name = tco_strdup(path);
    char *buf = malloc(READ_CHUNK);
    if (files == NULL || name == NULL || buf == NULL) {
        free(name);
        free(buf);
        if (files)
            set->files = files;
        fclose(f);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    set->files = files;
    set->files[set->n_files++] = name;
    size_t rows_before = set->rows; /* a file of a header alone is said (it prices nothing) */

    reader r = {.path = path, .fx = fx, .keep = keep, .keep_ctx = keep_ctx, .problem = problem,
                .problem_ctx = problem_ctx, .set = set, .file = name, .delim = ',', .line = 1,
                .row_pending = true, .diag = diag};
    for (int c = 0; c < N_COLS; c++)
        r.col_of[c] = -1;
    clear_row(&r);
    struct csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        fclose(f);
        free(buf);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    csv_set_blk_size(&parser, CSV_BLOCK);
    tco_strbuf head = {0}; /* the header line, held until the delimiter is chosen from it */
    tco_error e = TCO_OK;
    bool first = true, delim_set = false, prev_cr = false;
    size_t n;
    while (!r.stop && e == TCO_OK && (n = fread(buf, 1, READ_CHUNK, f)) > 0) {
        size_t off = 0;
        bool nul = memchr(buf, '\0', n) != NULL; /* then each line is looked at for it, to name the line */
        if (first) {
            first = false;
            if (n >= 2 && (((unsigned char)buf[0] == 0xFF && (unsigned char)buf[1] == 0xFE) ||
                           ((unsigned char)buf[0] == 0xFE && (unsigned char)buf[1] == 0xFF))) {
                e = tco_diag_at(diag, TCO_ERR_SYNTAX, &in_file, "the file is UTF-16; save it as \"CSV UTF-8\"");
                break;
            }
            if (n >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
                off = 3;
            /* Excel's "sep=;" line names the delimiter. */
            if (n - off >= 5 && strncasecmp(buf + off, "sep=", 4) == 0 &&
                (n - off == 5 || buf[off + 5] == '\n' || buf[off + 5] == '\r')) {
                r.delim = buf[off + 4];
                delim_set = true;
                if (r.delim != ',' && r.delim != ';' && r.delim != '\t') {
                    e = tco_diag_at(diag, TCO_ERR_SYNTAX, &(tco_place){.file = path, .line = 1, .column = 5},
                                    "expected sep=, sep=; or sep= and a tab, found 'sep=%c'",
                                    r.delim >= 0x20 && r.delim < 0x7F ? r.delim : '?');
                    break;
                }
                csv_set_delim(&parser, (unsigned char)r.delim);
                off += 5;
                if (off < n) {
                    prev_cr = buf[off] == '\r';
                    off++;
                    r.line++;
                }
            }
        }
        while (off < n && !r.stop) {
            if (prev_cr && buf[off] == '\n') { /* the LF of a CRLF split between two reads */
                prev_cr = false;
                if (!feed(&r, &parser, buf + off, 1))
                    break;
                off++;
                continue;
            }
            prev_cr = false;
            /* The line runs to the first CR or LF. */
            const char *lf = memchr(buf + off, '\n', n - off);
            size_t end = lf ? (size_t)(lf - buf) : n;
            const char *cr = memchr(buf + off, '\r', end - off);
            if (cr != NULL)
                end = (size_t)(cr - buf);
            bool term = end < n;
            if (term) {
                if (buf[end] == '\r' && end + 1 < n && buf[end + 1] == '\n')
                    end += 2;
                else
                    prev_cr = buf[end++] == '\r' && end == n;
            }
            const char *seg = buf + off;
            size_t len = end - off;
            off = end;
            if (nul && memchr(seg, '\0', len) != NULL) {
                e = tco_diag_at(diag, TCO_ERR_SYNTAX, &(tco_place){.file = path, .line = r.line},
                                "a NUL byte: not a text CSV file (UTF-16 or binary?)");
                break;
            }
            bool blank_seg = blank_bytes(seg, len);
            if (r.row_pending && !blank_seg) {
                r.row_line = r.line;
                r.row_pending = false;
            }
            if (!r.row_pending && r.line - r.row_line > MAX_ROW_LINES) {
                e = tco_diag_at(diag, TCO_ERR_SYNTAX,
                                &(tco_place){.file = path, .line = r.row_line, .column = (long)r.n_fields + 1},
                                "a quoted field opened here runs past %d lines; a closing '\"' is missing",
                                MAX_ROW_LINES);
                break;
            }
            if (delim_set)
                feed(&r, &parser, seg, len);
            else if (head.len == 0 && blank_seg)
                feed(&r, &parser, seg, len); /* blank lines before the header make no row */
            else {
                tco_strbuf_append_n(&head, seg, len);
                if (head.failed) {
                    r.err = TCO_ERR_NOMEM;
                    break;
                }
                if (term || head.len >= SNIFF_MAX) {
                    r.delim = sniff_delim(head.data, head.len);
                    csv_set_delim(&parser, (unsigned char)r.delim);
                    delim_set = true;
                    feed(&r, &parser, head.data, head.len);
                    tco_strbuf_free(&head);
                }
            }
            if (term)
                r.line++;
            /* Between rows, a run of blank lines goes to libcsv in one call (it starts no row there),
             * its line ends counted: a file of millions of empty lines costs no call per line. */
            if (term && r.row_pending && head.len == 0 && !r.stop && e == TCO_OK) {
                size_t q = off;
                long lines = 0;
                bool last_cr = false;
                for (; q < n; q++) {
                    char c = buf[q];
                    if (c == '\r')
                        lines++, last_cr = true;
                    else if (c == '\n')
                        lines += !last_cr, last_cr = false;
                    else if (c == ' ' || (c == '\t' && r.delim != '\t'))
                        last_cr = false;
                    else
                        break;
                }
                if (q > off) {
                    feed(&r, &parser, buf + off, q - off);
                    r.line += lines;
                    prev_cr = q == n && last_cr; /* a LF starting the next read ends no further line */
                    off = q;
                }
            }
        }
    }
    if (e == TCO_OK && !r.stop && ferror(f))
        e = tco_diag_at(diag, TCO_ERR_NOINPUT, &in_file, "read error");
    if (e == TCO_OK && !r.stop && head.len > 0) { /* a header line without a line end */
        r.delim = sniff_delim(head.data, head.len);
        csv_set_delim(&parser, (unsigned char)r.delim);
        feed(&r, &parser, head.data, head.len);
    }
    if (e == TCO_OK && !r.stop && csv_fini(&parser, on_field, on_row, &r) != 0)
        e = tco_diag_at(diag, TCO_ERR_SYNTAX,
                        &(tco_place){.file = path, .line = r.row_line, .column = (long)r.n_fields + 1},
                        "a quoted field opened here is never closed");
    if (e == TCO_OK && r.fatal) {
        e = TCO_ERR_SYNTAX;
        if (diag)
            *diag = r.fatal_diag;
    }
    if (e == TCO_OK && !r.stop && !r.have_header)
        e = tco_diag_at(diag, TCO_ERR_SYNTAX, &in_file, "expected a header row (vendor, item, unit_price, currency, "
                        "...), found an empty file");
    if (e == TCO_OK && !r.stop && r.have_header && set->rows == rows_before)
        report(&r, true, 0, 0, NULL, "no quote rows after the header: the file prices nothing");
    tco_strbuf_free(&head);
    free(r.row);
    free(r.kind);
    csv_free(&parser);
    free(buf);
    fclose(f);
    if (e != TCO_OK)
        return e;
    if (r.err == TCO_ERR_NOMEM)
        return tco_diag_at(diag, TCO_ERR_NOMEM, &in_file, "out of memory");
    if (r.stop)
        return TCO_ERR_SYNTAX; /* the problem callback stopped the read; diag holds the problem */
    return TCO_OK;
}

void tco_quote_free_fields(tco_quote *q)
{
    free(q->vendor);
    free(q->quote_id);
    free(q->item);
    free(q->currency);
    free(q->notes);
    free(q->reason);
    q->vendor = q->quote_id = q->item = q->currency = q->notes = q->reason = NULL;
}

bool tco_quotes_keep_warning(tco_quote_set *set, const tco_diag *problem)
{
    char *text = tco_strdup(problem->message);
    char **grown = text ? realloc(set->file_warnings, (set->n_file_warnings + 1) * sizeof *grown) : NULL;
    if (grown == NULL) {
        free(text);
        return false;
    }
    set->file_warnings = grown;
    set->file_warnings[set->n_file_warnings++] = text;
    return true;
}

bool tco_quotes_append_copy(tco_quote_set *set, const tco_quote *q)
{
    tco_quote c = *q;
    c.reason = q->reason ? tco_strdup(q->reason) : NULL;
    c.vendor = tco_strdup(q->vendor ? q->vendor : "");
    c.quote_id = tco_strdup(q->quote_id ? q->quote_id : "");
    c.item = tco_strdup(q->item ? q->item : "");
    c.currency = tco_strdup(q->currency ? q->currency : "");
    c.notes = tco_strdup(q->notes ? q->notes : "");
    if (set->n == set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 64;
        tco_quote *grown = realloc(set->quotes, cap * sizeof *grown);
        if (grown == NULL) {
            tco_quote_free_fields(&c);
            return false;
        }
        set->quotes = grown;
        set->cap = cap;
    }
    if (!c.vendor || !c.quote_id || !c.item || !c.currency || !c.notes || (q->reason && !c.reason)) {
        tco_quote_free_fields(&c);
        return false;
    }
    set->quotes[set->n++] = c;
    return true;
}

bool tco_quotes_index(tco_quote_set *set)
{
    tco_name_index_free(&set->by_item);
    free(set->next_same);
    set->indexed = 0;
    set->next_same = malloc((set->n ? set->n : 1) * sizeof *set->next_same);
    if (set->next_same == NULL)
        return false;
    for (size_t i = set->n; i-- > 0;) { /* backwards, so each chain runs in file order */
        size_t *head = tco_name_index_put(&set->by_item, set->quotes[i].item, NULL);
        if (head == NULL) {
            tco_name_index_free(&set->by_item);
            free(set->next_same);
            set->next_same = NULL;
            return false;
        }
        set->next_same[i] = *head;
        *head = i;
    }
    set->indexed = set->n;
    return true;
}

void tco_quotes_free(tco_quote_set *set)
{
    tco_name_index_free(&set->by_item);
    free(set->next_same);
    for (size_t i = 0; i < set->n; i++)
        tco_quote_free_fields(&set->quotes[i]);
    free(set->quotes);
    for (size_t i = 0; i < set->n_files; i++)
        free(set->files[i]);
    free(set->files);
    for (size_t i = 0; i < set->n_file_warnings; i++)
        free(set->file_warnings[i]);
    free(set->file_warnings);
    memset(set, 0, sizeof *set);
}
