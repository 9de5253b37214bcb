/* quotes.c - vendor quote CSV files: libcsv reading, checks, FX, best-quote choice. */
#include "quotes.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <csv.h>

#include "ini.h"
#include "strbuf.h"

/* ---- dates (proleptic Gregorian; H. Hinnant's days_from_civil) ---------------- */

static int32_t days_from_civil(int y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (int32_t)(era * 146097 + (int)doe - 719468);
}

bool tco_parse_date(const char *text, int32_t *days)
{
    int y, m, d, n = 0;
    if (strlen(text) != 10 || sscanf(text, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || n != 10)
        return false;
    for (int i = 0; i < 10; i++)
        if (i == 4 || i == 7 ? text[i] != '-' : !isdigit((unsigned char)text[i]))
            return false;
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1900 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap))
        return false;
    *days = days_from_civil(y, (unsigned)m, (unsigned)d);
    return true;
}

void tco_format_date(int32_t days, char out[16])
{
    /* civil_from_days */
    int32_t z = days + 719468;
    const int32_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = (unsigned)(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int y = (int)yoe + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    snprintf(out, 16, "%04d-%02d-%02d", (y + (m <= 2)) % 10000, (int)(m % 100), (int)(d % 100));
}

/* ---- prices -------------------------------------------------------------------- */

/* Currency symbols and the codes they may stand for. */
static const struct {
    const char *symbol;
    const char *codes;
} symbols[] = {
    {"CN\xC2\xA5", "CNY"}, {"RMB", "CNY"},     {"\xEF\xBF\xA5", "CNY JPY"}, {"\xC2\xA5", "CNY JPY"},
    {"US$", "USD"},        {"HK$", "HKD"},     {"$", "USD HKD SGD AUD CAD NZD TWD"},
    {"\xE2\x82\xAC", "EUR"}, {"\xC2\xA3", "GBP"},
};

/* Strip @p prefix from *s (and blanks after it); true if it was there. */
static bool strip_prefix(const char **s, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncasecmp(*s, prefix, n) != 0)
        return false;
    *s += n;
    while (**s == ' ')
        (*s)++;
    return true;
}

/* Strip @p suffix from the end of [s, *end) (and blanks before it). */
static bool strip_suffix(const char *s, const char **end, const char *suffix)
{
    size_t n = strlen(suffix);
    if ((size_t)(*end - s) < n || strncasecmp(*end - n, suffix, n) != 0)
        return false;
    *end -= n;
    while (*end > s && (*end)[-1] == ' ')
        (*end)--;
    return true;
}

/* Number of digits starting at p (before end). */
static size_t digits_run(const char *p, const char *end)
{
    const char *q = p;
    while (q < end && isdigit((unsigned char)*q))
        q++;
    return (size_t)(q - p);
}

bool tco_quote_parse_price(const char *text, char delim, const char *currency, double *price, char *why,
                           size_t why_size)
{
    const char *s = text, *end = text + strlen(text);
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (s == end) {
        snprintf(why, why_size, "expected a price, found an empty field");
        return false;
    }
    /* A currency symbol or code before or after the number must agree with the currency column. */
    const char *sym = NULL;
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0] && sym == NULL; i++)
        if (strip_prefix(&s, symbols[i].symbol) || strip_suffix(s, &end, symbols[i].symbol)) {
            sym = symbols[i].symbol;
            if (strstr(symbols[i].codes, currency) == NULL) {
                snprintf(why, why_size, "the price's symbol '%s' does not match the currency %s", sym, currency);
                return false;
            }
        }
    if (sym == NULL && currency[0] && (strip_prefix(&s, currency) || strip_suffix(s, &end, currency)))
        sym = currency;
    if (s < end && (*s == '-' || *s == '(')) {
        snprintf(why, why_size, "expected a positive price, found '%s'", text);
        return false;
    }
    /* Digits with group separators and one decimal mark, by the file's convention. */
    char decimal = delim == ';' ? ',' : '.';
    char buf[64];
    size_t n = 0;
    bool seen_decimal = false, ambiguous = false;
    int groups = 0;
    const char *p = s;
    size_t lead = digits_run(p, end);
    if (lead == 0) {
        snprintf(why, why_size, "expected a price such as 12500 or 12,500.00, found '%s'", text);
        return false;
    }
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        size_t space = 0; /* a space-like group separator: ' ', NBSP, narrow NBSP */
        if (c == ' ')
            space = 1;
        else if (c == 0xC2 && end - p >= 2 && (unsigned char)p[1] == 0xA0)
            space = 2;
        else if (c == 0xE2 && end - p >= 3 && (unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0xAF)
            space = 3;
        if (isdigit(c)) {
            if (n + 1 >= sizeof buf)
                break;
            buf[n++] = (char)c;
            p++;
        } else if (!seen_decimal && c == (unsigned char)decimal) {
            seen_decimal = true;
            buf[n++] = '.';
            p++;
            /* "12,500" in a ';' file, or "12.500" in a ',' file: a decimal mark, or thousands? */
            if (groups == 0 && digits_run(p, end) == 3 && p + 3 == end)
                ambiguous = true;
            if (digits_run(p, end) == 0 || p + digits_run(p, end) != end) {
                snprintf(why, why_size, "expected digits after the decimal mark '%c', found '%s'", decimal, text);
                return false;
            }
        } else if (!seen_decimal && (c == (delim == ';' ? '.' : ',') || space)) {
            /* A group separator must separate groups of exactly three digits. */
            size_t adv = space ? space : 1;
            size_t run = digits_run(p + adv, end);
            if (run != 3 || (groups == 0 && lead > 3)) {
                if (delim == ';' && c == '.' && !space && groups == 0 && run != 3) {
                    /* In a ';' file "12.5" can only be a decimal point: no comma decimal follows. */
                    if (memchr(p, ',', (size_t)(end - p)) == NULL && p + 1 + run == end) {
                        seen_decimal = true;
                        buf[n++] = '.';
                        p++;
                        continue;
                    }
                }
                snprintf(why, why_size,
                         "expected '%s' only between groups of three digits (as in %s), found '%s'",
                         space ? "space" : (c == ',' ? "," : "."), delim == ';' ? "12.500,00" : "12,500.00", text);
                return false;
            }
            if (delim == ';' && c == '.' && !space && memchr(p, ',', (size_t)(end - p)) == NULL &&
                groups == 0 && p + 4 == end)
                ambiguous = true; /* "1.500": 1500 with '.' grouping, or 1.5? */
            groups++;
            p += adv;
        } else {
            snprintf(why, why_size, "expected a price such as %s, found '%s'",
                     delim == ';' ? "12500 or 12.500,00" : "12500 or 12,500.00", text);
            return false;
        }
    }
    if (p < end) {
        snprintf(why, why_size, "price '%s' has too many digits", text);
        return false;
    }
    if (ambiguous) {
        snprintf(why, why_size, "'%s' could be a thousand-separated whole number or a decimal; write the whole "
                 "number without a separator, or the decimal with two decimals", text);
        return false;
    }
    buf[n] = '\0';
    double v = strtod(buf, NULL);
    if (!isfinite(v) || v <= 0) {
        snprintf(why, why_size, "expected a positive price, found '%s'", text);
        return false;
    }
    *price = v;
    return true;
}

/* ---- FX ---------------------------------------------------------------------------- */

bool tco_fx_rate(const tco_fx *fx, const char *code, double *rate)
{
    if (strcasecmp(code, fx->reporting) == 0) {
        *rate = 1;
        return true;
    }
    for (size_t i = 0; i < fx->n; i++)
        if (strcasecmp(fx->codes[i], code) == 0) {
            *rate = fx->rates[i];
            return true;
        }
    return false;
}

void tco_fx_free(tco_fx *fx)
{
    free(fx->codes);
    free(fx->rates);
    free(fx->path);
    memset(fx, 0, sizeof *fx);
}

static bool is_code(const char *s)
{
    return strlen(s) == 3 && isalpha((unsigned char)s[0]) && isalpha((unsigned char)s[1]) &&
           isalpha((unsigned char)s[2]);
}

tco_error tco_fx_load(const char *path, const char *display, tco_fx *fx, tco_diag *diag)
{
    memset(fx, 0, sizeof *fx);
    tco_ini ini = {0};
    tco_error e = tco_ini_load(path, display, &ini, diag);
    if (e != TCO_OK)
        return e;
    const char *rep = tco_ini_get(&ini, "fx", "reporting");
    const char *as_of = tco_ini_get(&ini, "fx", "as_of");
    if (rep == NULL || !is_code(rep))
        e = tco_diag_set(diag, TCO_ERR_INI, "%s [fx] reporting: expected a currency code such as CNY, found %s%s%s",
                         ini.path, rep ? "'" : "", rep ? rep : "no such key", rep ? "'" : "");
    else if (as_of == NULL || !tco_parse_date(as_of, &fx->as_of))
        e = tco_diag_set(diag, TCO_ERR_INI, "%s [fx] as_of: expected the rates' date as YYYY-MM-DD, found %s%s%s",
                         ini.path, as_of ? "'" : "", as_of ? as_of : "no such key", as_of ? "'" : "");
    if (e == TCO_OK) {
        for (int i = 0; i < 3; i++)
            fx->reporting[i] = (char)toupper((unsigned char)rep[i]);
        int n;
        const char **keys = tco_ini_keys(&ini, "fx", &n);
        fx->codes = calloc((size_t)(n > 0 ? n : 1), sizeof *fx->codes);
        fx->rates = calloc((size_t)(n > 0 ? n : 1), sizeof *fx->rates);
        fx->path = tco_strdup(ini.path);
        if (fx->codes == NULL || fx->rates == NULL || fx->path == NULL)
            e = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        for (int k = 0; k < n && e == TCO_OK; k++) {
            const char *key = strchr(keys[k], ':') + 1;
            if (strcmp(key, "reporting") == 0 || strcmp(key, "as_of") == 0 || strstr(key, "_source"))
                continue;
            double rate;
            if (!is_code(key))
                e = tco_diag_set(diag, TCO_ERR_INI, "%s [fx] %s: expected a currency code (USD = 7.1), found a "
                                 "key of %zu characters", ini.path, key, strlen(key));
            else if (!tco_parse_number(tco_ini_get(&ini, "fx", key), &rate) || rate <= 0)
                e = tco_diag_set(diag, TCO_ERR_INI, "%s [fx] %s: expected %s per unit as a positive number, found '%s'",
                                 ini.path, key, fx->reporting, tco_ini_get(&ini, "fx", key));
            else {
                for (int i = 0; i < 3; i++)
                    fx->codes[fx->n][i] = (char)toupper((unsigned char)key[i]);
                fx->rates[fx->n++] = rate;
            }
        }
        free(keys);
    }
    tco_ini_free(&ini);
    if (e != TCO_OK)
        tco_fx_free(fx);
    return e;
}

/* ---- CSV reading ---------------------------------------------------------------------- */

enum { COL_VENDOR, COL_ITEM, COL_PRICE, COL_CURRENCY, COL_QUOTE_ID, COL_QUOTE_DATE, COL_VALID_UNTIL, COL_MIN_QTY,
       COL_LEAD_TIME, COL_NOTES, N_COLS };
static const char *const col_names[N_COLS] = {"vendor", "item", "unit_price", "currency", "quote_id",
                                              "quote_date", "valid_until", "min_qty", "lead_time_weeks", "notes"};
#define REQUIRED_COLS 4
#define MAX_FIELDS 256
#define MAX_ROW_LINES 1000

typedef struct reader {
    const char *path;
    const tco_fx *fx;
    tco_quote_keep_fn keep;
    void *keep_ctx;
    tco_quote_problem_fn problem;
    void *problem_ctx;
    tco_quote_set *set;
    const char *file; /* owned by set->files */
    char delim;
    /* the row being assembled */
    char *fields[MAX_FIELDS];
    size_t n_fields;
    bool too_many;
    long line, row_line;
    bool row_pending;
    /* header */
    bool have_header;
    bool header_bad; /* the header has errors: rows are counted, not read */
    int col_of[N_COLS]; /* field index of each known column, -1 if absent */
    size_t header_fields;
    bool stop;
    tco_error err;
    tco_diag *diag;
} reader;

static void report(reader *r, bool warning, long line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void report(reader *r, bool warning, long line, const char *fmt, ...)
{
    tco_diag d = {TCO_ERR_SYNTAX, ""};
    char msg[TCO_DIAG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tco_diag_set(&d, TCO_ERR_SYNTAX, "%s:%ld: %s", r->path, line, msg);
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

static void on_field(void *data, size_t len, void *vr)
{
    reader *r = vr;
    if (r->n_fields >= MAX_FIELDS) {
        r->too_many = true;
        return;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        r->err = TCO_ERR_NOMEM;
        r->stop = true;
        return;
    }
    if (len)
        memcpy(copy, data, len);
    copy[len] = '\0';
    r->fields[r->n_fields++] = copy;
}

static void clear_row(reader *r)
{
    for (size_t i = 0; i < r->n_fields; i++)
        free(r->fields[i]);
    r->n_fields = 0;
    r->too_many = false;
}

static bool fields_ok(reader *r, long line);

/* A field without its surrounding blanks, heap. */
static char *trimmed(const char *s)
{
    return tco_strndup_trim(s, strlen(s));
}

static void on_header(reader *r)
{
    size_t errors = r->set->errors;
    if (!fields_ok(r, r->row_line)) {
        r->have_header = true;
        r->header_bad = true;
        return;
    }
    for (int c = 0; c < N_COLS; c++)
        r->col_of[c] = -1;
    r->header_fields = r->n_fields;
    for (size_t i = 0; i < r->n_fields; i++) {
        char *name = trimmed(r->fields[i]);
        if (name == NULL) {
            r->err = TCO_ERR_NOMEM;
            r->stop = true;
            return;
        }
        int c;
        for (c = 0; c < N_COLS; c++)
            if (strcasecmp(name, col_names[c]) == 0)
                break;
        if (c < N_COLS && r->col_of[c] >= 0)
            report(r, false, r->row_line, "column %zu (%s): the column '%s' appears twice (first as column %d)", i + 1,
                   name, col_names[c], r->col_of[c] + 1);
        else if (c < N_COLS)
            r->col_of[c] = (int)i;
        else
            report(r, true, r->row_line, "column %zu: unknown column '%s' is ignored (known: vendor, item, "
                   "unit_price, currency, quote_id, quote_date, valid_until, min_qty, lead_time_weeks, notes)",
                   i + 1, name);
        free(name);
    }
    for (int c = 0; c < REQUIRED_COLS; c++)
        if (r->col_of[c] < 0)
            report(r, false, r->row_line, "the header lacks the required column '%s' (required: vendor, item, "
                   "unit_price, currency)", col_names[c]);
    r->have_header = true;
    r->header_bad = r->set->errors > errors;
}

static const char *field(const reader *r, int col)
{
    return r->col_of[col] >= 0 && (size_t)r->col_of[col] < r->n_fields ? r->fields[r->col_of[col]] : "";
}

static bool blank(const char *s)
{
    return s[strspn(s, " \t")] == '\0';
}

static bool parse_count(const char *text, double *out)
{
    double v;
    if (!tco_parse_number(text, &v) || v < 0 || v != floor(v))
        return false;
    *out = v;
    return true;
}

/* Every field is UTF-8 text that fits an Excel cell; report the first that is not. */
static bool fields_ok(reader *r, long line)
{
    for (size_t i = 0; i < r->n_fields; i++) {
        const char *name = "";
        for (int c = 0; c < N_COLS; c++)
            if (r->col_of[c] == (int)i)
                name = col_names[c];
        size_t len = strlen(r->fields[i]), bad;
        if (!tco_utf8_valid(r->fields[i], len, &bad)) {
            report(r, false, line, "column %zu%s%s%s: not valid UTF-8 (byte 0x%02X); save the file as \"CSV UTF-8\"",
                   i + 1, name[0] ? " (" : "", name, name[0] ? ")" : "", (unsigned char)r->fields[i][bad]);
            return false;
        }
        if (tco_utf8_chars(r->fields[i]) > 32767) {
            report(r, false, line, "column %zu%s%s%s: %zu characters, more than an Excel cell holds (32,767)", i + 1,
                   name[0] ? " (" : "", name, name[0] ? ")" : "", tco_utf8_chars(r->fields[i]));
            return false;
        }
    }
    return true;
}

static void on_data_row(reader *r)
{
    long line = r->row_line;
    r->set->rows++;
    if (r->header_bad)
        return;
    if (r->n_fields == r->header_fields && !fields_ok(r, line))
        return;
    if (r->too_many || r->n_fields != r->header_fields) {
        report(r, false, line, "expected %zu fields as in the header, found %s%zu", r->header_fields,
               r->too_many ? "more than " : "", r->n_fields);
        return;
    }
    size_t errors = r->set->errors;
    char *item = tco_strndup_trim(field(r, COL_ITEM), strlen(field(r, COL_ITEM)));
    char *currency = tco_strndup_trim(field(r, COL_CURRENCY), strlen(field(r, COL_CURRENCY)));
    if (item == NULL || currency == NULL) {
        free(item);
        free(currency);
        r->err = TCO_ERR_NOMEM;
        r->stop = true;
        return;
    }
    for (char *p = currency; *p; p++)
        *p = (char)toupper((unsigned char)*p);
    tco_quote q = {.file = r->file, .line = line, .item_column = r->col_of[COL_ITEM] + 1,
                   .quote_date = TCO_NO_DATE, .valid_until = TCO_NO_DATE, .lead_time_weeks = NAN};
#define COLREF(c) (size_t)(r->col_of[c] + 1), col_names[c]
    if (blank(field(r, COL_VENDOR)))
        report(r, false, line, "column %zu (%s): expected a vendor name, found an empty field", COLREF(COL_VENDOR));
    if (item[0] == '\0')
        report(r, false, line, "column %zu (%s): expected a catalog item such as D-M, found an empty field",
               COLREF(COL_ITEM));
    if (!is_code(currency) || !tco_fx_rate(r->fx, currency, &q.rate)) {
        tco_strbuf codes = {0};
        tco_strbuf_append(&codes, r->fx->reporting);
        for (size_t i = 0; i < r->fx->n; i++)
            tco_strbuf_printf(&codes, ", %s", r->fx->codes[i]);
        report(r, false, line, "column %zu (%s): expected a currency code with a rate in %s (%s), found '%s'",
               COLREF(COL_CURRENCY), r->fx->path ? r->fx->path : "the rates", tco_strbuf_str(&codes),
               field(r, COL_CURRENCY));
        tco_strbuf_free(&codes);
    } else {
        char why[256];
        if (!tco_quote_parse_price(field(r, COL_PRICE), r->delim, currency, &q.unit_price, why, sizeof why))
            report(r, false, line, "column %zu (%s): %s", COLREF(COL_PRICE), why);
    }
    const char *qd = field(r, COL_QUOTE_DATE), *vu = field(r, COL_VALID_UNTIL);
    if (!blank(qd) && !tco_parse_date(qd, &q.quote_date))
        report(r, false, line, "column %zu (%s): expected a date as YYYY-MM-DD, found '%s'", COLREF(COL_QUOTE_DATE),
               qd);
    if (!blank(vu) && !tco_parse_date(vu, &q.valid_until))
        report(r, false, line, "column %zu (%s): expected a date as YYYY-MM-DD, found '%s'", COLREF(COL_VALID_UNTIL),
               vu);
    if (q.quote_date != TCO_NO_DATE && q.valid_until != TCO_NO_DATE && q.valid_until < q.quote_date)
        report(r, false, line, "column %zu (%s): valid_until %s is before quote_date %s", COLREF(COL_VALID_UNTIL),
               vu, qd);
    const char *mq = field(r, COL_MIN_QTY), *lt = field(r, COL_LEAD_TIME);
    if (!blank(mq) && !parse_count(mq, &q.min_qty))
        report(r, false, line, "column %zu (%s): expected a whole number of units, found '%s'", COLREF(COL_MIN_QTY),
               mq);
    if (!blank(lt) && (!tco_parse_number(lt, &q.lead_time_weeks) || q.lead_time_weeks < 0))
        report(r, false, line, "column %zu (%s): expected weeks as a number, found '%s'", COLREF(COL_LEAD_TIME), lt);
#undef COLREF
    q.item = item;
    q.currency = currency;
    q.converted = q.unit_price * q.rate;
    q.vendor = tco_strndup_trim(field(r, COL_VENDOR), strlen(field(r, COL_VENDOR)));
    q.quote_id = tco_strndup_trim(field(r, COL_QUOTE_ID), strlen(field(r, COL_QUOTE_ID)));
    q.notes = tco_strdup(field(r, COL_NOTES));
    bool keep = r->set->errors == errors && q.vendor && q.quote_id && q.notes && r->keep &&
                r->keep(r->keep_ctx, &q);
    if (!keep) {
        r->set->not_kept++;
        free(item);
        free(currency);
        free(q.vendor);
        free(q.quote_id);
        free(q.notes);
        return;
    }
    if (r->set->n == r->set->cap) {
        size_t cap = r->set->cap ? r->set->cap * 2 : 64;
        tco_quote *grown = realloc(r->set->quotes, cap * sizeof *grown);
        if (grown == NULL) {
            r->err = TCO_ERR_NOMEM;
            r->stop = true;
        } else {
            r->set->quotes = grown;
            r->set->cap = cap;
        }
    }
    if (r->err != TCO_OK || q.vendor == NULL || q.quote_id == NULL || q.notes == NULL) {
        free(q.item);
        free(q.currency);
        free(q.vendor);
        free(q.quote_id);
        free(q.notes);
        r->err = TCO_ERR_NOMEM;
        r->stop = true;
        return;
    }
    r->set->quotes[r->set->n++] = q;
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
static char sniff_delim(const char *line)
{
    size_t commas = 0, semis = 0;
    bool quoted = false;
    for (const char *p = line; *p; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (!quoted && *p == ',')
            commas++;
        else if (!quoted && *p == ';')
            semis++;
    }
    return semis > commas ? ';' : ',';
}

tco_error tco_quotes_read(const char *path, const tco_fx *fx, tco_quote_keep_fn keep, void *keep_ctx,
                          tco_quote_problem_fn problem, void *problem_ctx, tco_quote_set *set, tco_diag *diag)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return tco_diag_set(diag, TCO_ERR_NOINPUT, "%s: cannot open: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return tco_diag_set(diag, TCO_ERR_NOINPUT, "%s: not a regular file", path);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return tco_diag_set(diag, TCO_ERR_NOINPUT, "%s: cannot open: %s", path, strerror(errno));
    char **files = realloc(set->files, (set->n_files + 1) * sizeof *files);
    char *name = tco_strdup(path);
    if (files == NULL || name == NULL) {
        free(name);
        if (files)
            set->files = files;
        fclose(f);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    set->files = files;
    set->files[set->n_files++] = name;

    reader r = {.path = path, .fx = fx, .keep = keep, .keep_ctx = keep_ctx, .problem = problem,
                .problem_ctx = problem_ctx, .set = set, .file = name, .row_pending = true, .diag = diag};
    struct csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        fclose(f);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    tco_error e = TCO_OK;
    bool first = true, delim_set = false;
    while (!r.stop && (len = getline(&line, &cap, f)) >= 0) {
        r.line++;
        char *p = line;
        if (first) {
            first = false;
            if (len >= 2 && ((unsigned char)p[0] == 0xFF && (unsigned char)p[1] == 0xFE)) {
                e = tco_diag_set(diag, TCO_ERR_SYNTAX, "%s: the file is UTF-16; save it as \"CSV UTF-8\"", path);
                break;
            }
            if (len >= 2 && ((unsigned char)p[0] == 0xFE && (unsigned char)p[1] == 0xFF)) {
                e = tco_diag_set(diag, TCO_ERR_SYNTAX, "%s: the file is UTF-16; save it as \"CSV UTF-8\"", path);
                break;
            }
            if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
                p += 3;
                len -= 3;
            }
            /* Excel's "sep=;" line names the delimiter. */
            if (strncasecmp(p, "sep=", 4) == 0 && len >= 5 && (p[5] == '\n' || p[5] == '\r' || p[5] == '\0')) {
                r.delim = p[4];
                delim_set = true;
                if (r.delim != ',' && r.delim != ';' && r.delim != '\t') {
                    e = tco_diag_set(diag, TCO_ERR_SYNTAX, "%s:1: expected sep=, or sep=; found 'sep=%c'", path,
                                     r.delim);
                    break;
                }
                csv_set_delim(&parser, (unsigned char)r.delim);
                continue;
            }
        }
        if (memchr(p, '\0', (size_t)len) != NULL) {
            e = tco_diag_set(diag, TCO_ERR_SYNTAX, "%s:%ld: a NUL byte: not a text CSV file (UTF-16 or binary?)",
                             path, r.line);
            break;
        }
        bool blank_line = strspn(p, " \t\r\n") == (size_t)len;
        if (!delim_set && !blank_line) {
            r.delim = sniff_delim(p);
            csv_set_delim(&parser, (unsigned char)r.delim);
            delim_set = true;
        }
        if (r.row_pending && !blank_line) {
            r.row_line = r.line;
            r.row_pending = false;
        }
        if (!r.row_pending && r.line - r.row_line > MAX_ROW_LINES) {
            e = tco_diag_set(diag, TCO_ERR_SYNTAX, "%s:%ld: a quoted field opened here runs past %d lines; "
                             "a closing '\"' is missing", path, r.row_line, MAX_ROW_LINES);
            break;
        }
        if (csv_parse(&parser, p, (size_t)len, on_field, on_row, &r) != (size_t)len) {
            e = tco_diag_set(diag, TCO_ERR_SYNTAX,
                             "%s:%ld: malformed quoting (a '\"' inside an unquoted field, or text after a "
                             "closing '\"'): %s",
                             path, r.line, csv_strerror(csv_error(&parser)));
            break;
        }
    }
    if (e == TCO_OK && !r.stop && ferror(f))
        e = tco_diag_set(diag, TCO_ERR_NOINPUT, "%s: read error", path);
    if (e == TCO_OK && !r.stop && csv_fini(&parser, on_field, on_row, &r) != 0)
        e = tco_diag_set(diag, TCO_ERR_SYNTAX, "%s:%ld: a quoted field opened here is never closed", path,
                         r.row_line);
    if (e == TCO_OK && !r.stop && !r.have_header)
        e = tco_diag_set(diag, TCO_ERR_SYNTAX, "%s: expected a header row (vendor, item, unit_price, currency, ...), "
                         "found an empty file", path);
    clear_row(&r);
    csv_free(&parser);
    free(line);
    fclose(f);
    if (e != TCO_OK)
        return e;
    if (r.err == TCO_ERR_NOMEM)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "%s: out of memory", path);
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

bool tco_quotes_append_copy(tco_quote_set *set, const tco_quote *q)
{
    tco_quote c = *q;
    c.reason = NULL;
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
    if (!c.vendor || !c.quote_id || !c.item || !c.currency || !c.notes) {
        tco_quote_free_fields(&c);
        return false;
    }
    set->quotes[set->n++] = c;
    return true;
}

void tco_quotes_free(tco_quote_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        tco_quote_free_fields(&set->quotes[i]);
    free(set->quotes);
    for (size_t i = 0; i < set->n_files; i++)
        free(set->files[i]);
    free(set->files);
    memset(set, 0, sizeof *set);
}

/* ---- choice ------------------------------------------------------------------------------- */

const char *tco_quote_status_name(tco_quote_status status)
{
    switch (status) {
    case TCO_QUOTE_USED: return "used";
    case TCO_QUOTE_BEATEN: return "not the best";
    case TCO_QUOTE_EXPIRED: return "expired";
    case TCO_QUOTE_NOT_YET_VALID: return "not yet valid";
    case TCO_QUOTE_UNDER_QTY: return "below minimum quantity";
    case TCO_QUOTE_NOT_IN_SCENARIO: return "not used by this scenario";
    case TCO_QUOTE_UNKNOWN_ITEM: return "unknown item";
    }
    return "?";
}

static void set_reason(tco_quote *q, tco_quote_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_reason(tco_quote *q, tco_quote_status status, const char *fmt, ...)
{
    q->status = status;
    free(q->reason);
    tco_strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    char buf[256];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tco_strbuf_append(&b, buf);
    q->reason = tco_strbuf_take(&b);
}

long tco_quotes_choose(tco_quote_set *set, const char *item, double quantity, int32_t as_of)
{
    long best = -1;
    char d1[16], d2[16];
    for (size_t i = 0; i < set->n; i++) {
        tco_quote *q = &set->quotes[i];
        if (strcasecmp(q->item, item) != 0)
            continue;
        if (q->valid_until != TCO_NO_DATE && q->valid_until < as_of) {
            tco_format_date(q->valid_until, d1);
            tco_format_date(as_of, d2);
            set_reason(q, TCO_QUOTE_EXPIRED, "expired: valid until %s, as of %s", d1, d2);
        } else if (q->quote_date != TCO_NO_DATE && q->quote_date > as_of) {
            tco_format_date(q->quote_date, d1);
            tco_format_date(as_of, d2);
            set_reason(q, TCO_QUOTE_NOT_YET_VALID, "not yet valid: quoted %s, as of %s", d1, d2);
        } else if (q->min_qty > quantity) {
            set_reason(q, TCO_QUOTE_UNDER_QTY, "minimum quantity %.15g, the scenario buys %.15g", q->min_qty,
                       quantity);
        } else {
            set_reason(q, TCO_QUOTE_BEATEN, "a cheaper valid quote was chosen");
            if (best < 0)
                best = (long)i;
            else {
                const tco_quote *b = &set->quotes[best];
                /* Lower price; then the earliest valid_until (no date counts as latest); then file order. */
                int64_t qv = q->valid_until == TCO_NO_DATE ? INT64_MAX : q->valid_until;
                int64_t bv = b->valid_until == TCO_NO_DATE ? INT64_MAX : b->valid_until;
                if (q->converted < b->converted || (q->converted == b->converted && qv < bv))
                    best = (long)i;
            }
        }
    }
    if (best >= 0) {
        tco_quote *b = &set->quotes[best];
        for (size_t i = 0; i < set->n; i++) {
            tco_quote *q = &set->quotes[i];
            if ((long)i != best && q->status == TCO_QUOTE_BEATEN && strcasecmp(q->item, item) == 0)
                set_reason(q, TCO_QUOTE_BEATEN, "%s from %s (%s:%ld) was chosen",
                           b->converted < q->converted ? "a cheaper quote" : "an equal quote expiring sooner or listed first",
                           b->vendor, b->file, b->line);
        }
        set_reason(b, TCO_QUOTE_USED, "lowest valid price for %s", b->item);
    }
    return best;
}
