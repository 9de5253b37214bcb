/* report.c - table and JSON summaries. */
#include "render/report.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "read/dates.h"
#include "read/quote_csv.h"
#include "load/load.h"
#include "model/bind.h"
#include "model/evaluate.h"
#include "model/ranges.h"

/* @p a >= 0 (below 1e15) times 10^@p shift with @p decimals decimals (0 to 15) into @p out (64 bytes), as
 * Excel shows it under "0.00" or "0.0%": from the value's 15 significant decimal digits, rounded half
 * away from zero (0.3125 as 31.3%, 2.675 as 2.68, 1234.5 as 1,235; printf's "%.1f" of 31.25 gives
 * 31.2, rounding half to even, and of 2.675 gives 2.67, its binary value being below). */
static void excel_fixed(double a, int decimals, int shift, char *out)
{
    char digits[64] = "";
    size_t nd = 0;
    char e[32];
    snprintf(e, sizeof e, "%.14e", a); /* "3.12500000000000e-01": 15 significant digits */
    for (const char *p = e; *p && *p != 'e' && nd < 15; p++)
        if (*p >= '0' && *p <= '9')
            digits[nd++] = *p;
    int point = atoi(strchr(e, 'e') + 1) + 1 + shift; /* digits before the decimal point */
    char d[96];
    size_t n = 0;
    for (int k = point; k < 1 && n < 40; k++) /* 0.0105: "0" "0" before "105" */
        d[n++] = '0';
    if (point < 1)
        point = 1;
    for (size_t k = 0; k < nd && n < sizeof d - 1; k++)
        d[n++] = digits[k];
    size_t keep = (size_t)point + (size_t)decimals;
    while (n < keep + 1 && n < sizeof d - 1)
        d[n++] = '0';
    if (d[keep] >= '5') { /* half away from zero: a is the magnitude */
        size_t k = keep;
        while (k > 0 && d[k - 1] == '9')
            d[--k] = '0';
        if (k > 0)
            d[k - 1]++;
        else {
            memmove(d + 1, d, keep);
            d[0] = '1';
            point++;
            keep++;
        }
    }
    size_t o = 0, first = 0;
    while (first + 1 < (size_t)point && d[first] == '0') /* no leading zeros but the units' */
        first++;
    for (size_t k = first; k < (size_t)point; k++)
        out[o++] = d[k];
    if (decimals > 0) {
        out[o++] = '.';
        for (size_t k = (size_t)point; k < keep; k++)
            out[o++] = d[k];
    }
    out[o] = '\0';
}

/* @p v, non-zero, that rounds to 0 at the decimals asked, into @p raw (as excel_fixed(), times
 * 10^@p shift) with two significant digits and no trailing zeros: 0.001 as "0.001", 0.0012345 as
 * "0.0012", 0.3 at 0 decimals as "0.3".  Returns the decimals used, or -1 when they would be more than 15
 * (@p raw then holds "%.1e" of the magnitude). */
static int small_decimals(double v, char raw[64], int shift)
{
    double a = fabs(v) * (shift ? pow(10, shift) : 1);
    int decimals = 1 - (int)floor(log10(a));
    if (decimals > 15 || !(a > 0)) {
        snprintf(raw, 64, "%.1e", a);
        return -1;
    }
    excel_fixed(fabs(v), decimals < 0 ? 0 : decimals, shift, raw);
    size_t n = strlen(raw);
    while (n > 0 && strchr(raw, '.') && raw[n - 1] == '0')
        raw[--n] = '\0';
    if (n > 0 && raw[n - 1] == '.')
        raw[--n] = '\0';
    return decimals;
}

void tco_format_percent(double v, int decimals, char *buf, size_t size)
{
    if (!(fabs(v) < 1e13) || decimals < 0 || decimals > 15) {
        snprintf(buf, size, "%.*f%%", decimals < 0 || decimals > 15 ? 1 : decimals, v * 100);
        return;
    }
    char raw[64];
    excel_fixed(fabs(v), decimals, 2, raw);
    if (v != 0 && strspn(raw, "0.") == strlen(raw)) /* never a non-zero share that reads as 0.0% */
        small_decimals(v, raw, 2);
    bool zero = strspn(raw, "0.") == strlen(raw); /* no "-0.0%" */
    /* raw holds at most 17 digits, a point and 15 decimals: the caller's buffer of TCO_SHOWN or 64 holds it */
    if (snprintf(buf, size, "%s%s%%", v < 0 && !zero ? "-" : "", raw) >= (int)size && size > 0)
        buf[size - 1] = '\0';
}

void tco_format_grouped(double v, int decimals, char *buf, size_t size)
{
    if (!(fabs(v) < 1e15)) { /* beyond 15 digits a grouped figure would be noise */
        snprintf(buf, size, "%.6e", v);
        return;
    }
    char raw[64];
    if (decimals >= 0 && decimals <= 15)
        excel_fixed(fabs(v), decimals, 0, raw); /* rounded as the workbook shows it */
    else
        snprintf(raw, sizeof raw, "%.*f", decimals, fabs(v));
    if (v != 0 && isfinite(v) && strspn(raw, "0.") == strlen(raw)) { /* 0.001 is "0.001", never "0.00" */
        if (small_decimals(v, raw, 0) < 0) {
            snprintf(buf, size, "%.1e", v);
            return;
        }
    }
    if (strcmp(raw, "0") == 0 || strspn(raw, "0.") == strlen(raw))
        v = 0; /* no "-0" */
    const char *dot = strchr(raw, '.');
    size_t int_len = dot ? (size_t)(dot - raw) : strlen(raw);
    char out[96];
    size_t o = 0;
    if (v < 0)
        out[o++] = '-';
    for (size_t i = 0; i < int_len; i++) {
        if (i > 0 && (int_len - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = raw[i];
    }
    if (dot)
        for (const char *p = dot; *p && o < sizeof out - 1; p++)
            out[o++] = *p;
    out[o] = '\0';
    snprintf(buf, size, "%s", out);
}

static int decimals_for(const tco_item *it, double v)
{
    switch (it->format) {
    case TCO_FMT_MONEY: return (v != floor(v) && fabs(v) < 1000) ? 2 : 0;
    case TCO_FMT_KW: case TCO_FMT_NEVER: return 1;
    case TCO_FMT_COUNT: return 0;
    default: return 2;
    }
}

/* The text a scalar line gives instead of a number ("never: ...", "n.a.: ..."), else NULL. */
static const char *na_reason(const tco_item *it)
{
    return it->kind == TCO_ITEM_LINE && !it->text_line ? it->text : NULL;
}

static void format_value(const tco_item *it, double v, char *buf, size_t size)
{
    if (it->text) {
        snprintf(buf, size, "%s", it->text);
        return;
    }
    if (it->format == TCO_FMT_YESNO) {
        snprintf(buf, size, "%s", v != 0 ? "yes" : "no");
        return;
    }
    if (it->format == TCO_FMT_NEVER && v == 0) {
        snprintf(buf, size, "never");
        return;
    }
    if (it->format == TCO_FMT_PERCENT) { /* the workbook's "0.0%", rounded as it shows it */
        tco_format_percent(v, 1, buf, size);
        return;
    }
    if (fabs(v) >= 1e10) {
        snprintf(buf, size, "%.2e", v);
        return;
    }
    tco_format_grouped(v, decimals_for(it, v), buf, size);
}

/* True if line @p it's warning applies: the line is 0 and its warning_if line, if any, is not. */
static bool warning_applies(const tco_model *m, const tco_item *it)
{
    return it->warning != NULL && it->text == NULL && it->value == 0 &&
           (it->warning_if < 0 || (m->items[it->warning_if].value != 0 && m->items[it->warning_if].text == NULL));
}

/* Longest run of letters, spaces and hyphens between a {NAME} and the "(s)" that makes its noun agree. */
#define PLURAL_WORDS_MAX 40

/* @p it's warning with each {NAME} replaced by NAME's value as the table shows it, e.g.
 * "serving needs 1,416.1 GB, the cards hold 96.0 GB".  A noun after a number in the form "word(s)"
 * ("{replicas} replica(s)", "{card_count} consumer card(s)": letters, spaces and hyphens up to "(s)")
 * agrees with it: "1 replica", "2 replicas", "0 replicas". */
static void warning_text(const tco_model *m, const tco_item *it, tco_strbuf *out)
{
    for (const char *p = it->warning; *p;) {
        const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
        if (open == NULL || close == NULL) {
            tco_strbuf_append(out, p);
            break;
        }
        tco_strbuf_printf(out, "%.*s", (int)(open - p), p);
        char name[TCO_NAME_MAX_LEN + 1];
        size_t n = (size_t)(close - open - 1);
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), open + 1);
        int idx = tco_model_find(m, name); /* the loader checked every {NAME} */
        char num[64] = "?";
        if (idx >= 0 && m->items[idx].text) /* a text, whole: never cut inside a character */
            tco_strbuf_append(out, m->items[idx].text);
        else {
            if (idx >= 0)
                format_value(&m->items[idx], m->items[idx].value, num, sizeof num);
            tco_strbuf_append(out, num);
            size_t w = 0;
            while (w < PLURAL_WORDS_MAX && (isalpha((unsigned char)close[1 + w]) || close[1 + w] == ' ' || close[1 + w] == '-'))
                w++;
            if (idx >= 0 && w > 1 && close[1] == ' ' && strncmp(close + 1 + w, "(s)", 3) == 0) {
                tco_strbuf_printf(out, "%.*s%s", (int)w, close + 1, m->items[idx].value == 1 ? "" : "s");
                close += w + 3;
            }
        }
        p = close + 1;
    }
}

bool tco_report_warning_text(const tco_model *m, size_t index, tco_strbuf *out)
{
    if (index >= m->n_items || !warning_applies(m, &m->items[index]))
        return false;
    warning_text(m, &m->items[index], out);
    return true;
}

size_t tco_report_warnings(const tco_model *m, FILE *out)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        if (!warning_applies(m, it))
            continue;
        tco_strbuf b = {0};
        warning_text(m, it, &b);
        /* The scenario's name (a file's) and the warning (it may quote a text input): escaped for the terminal. */
        fputs("tco: warning: ", out);
        tco_text_put_terminal(out, m->scenario_name, strlen(m->scenario_name));
        fputs(": ", out);
        tco_text_put_terminal(out, tco_strbuf_str(&b), strlen(tco_strbuf_str(&b)));
        fputc('\n', out);
        tco_strbuf_free(&b);
        n++;
    }
    return n + tco_report_quote_warnings(m->scenario_name, m->quotes, m->quote_warnings, m->n_quote_warnings, false,
                                         out);
}

/* The @p k-th of the quote warnings (tco_report_quote_warnings()'s order), or NULL past the last. */
static const char *quote_warning_at(const tco_quote_set *set, char *const *texts, size_t n, size_t k)
{
    size_t files = set ? set->n_file_warnings : 0;
    return k < files ? set->file_warnings[k] : k - files < n ? texts[k - files] : NULL;
}

size_t tco_report_quote_warnings(const char *name, const tco_quote_set *set, char *const *texts, size_t n,
                                 bool as_errors, FILE *out)
{
    size_t k = 0;
    for (const char *text; (text = quote_warning_at(set, texts, n, k)) != NULL; k++) {
        if (out == NULL)
            continue;
        /* the name, file and vendor names: no raw control byte */
        fputs(as_errors ? "tco: " : "tco: warning: ", out);
        tco_text_put_terminal(out, name, strlen(name));
        fputs(": quotes: ", out);
        tco_text_put_terminal(out, text, strlen(text));
        fputc('\n', out);
    }
    return k;
}

size_t tco_report_json_quote_warnings(FILE *out, const tco_quote_set *set, char *const *texts, size_t n,
                                      size_t written)
{
    for (size_t k = 0; quote_warning_at(set, texts, n, k) != NULL; k++) {
        fputs(written++ ? ", " : "", out);
        fputs("{\"check\": \"quotes\", \"message\": ", out);
        tco_report_json_string(out, quote_warning_at(set, texts, n, k));
        fputs("}", out);
    }
    return written;
}

/* A quote's price as written, grouped: "88,000" or "12,100.50". */
static void quote_price(double v, char *buf, size_t size)
{
    tco_format_grouped(v, v == floor(v) ? 0 : 2, buf, size);
}

void tco_report_quotes_line(const tco_model *m, FILE *out)
{
    const tco_quote_set *set = m->quotes;
    if (set == NULL)
        return;
    size_t used = 0;
    for (size_t i = 0; i < set->n; i++)
        used += set->quotes[i].status == TCO_QUOTE_USED;
    fprintf(out, "quotes: %zu of %zu row%s used", used, set->rows, set->rows == 1 ? "" : "s");
    /* Why the others are not: a count per reason, in the order of tco_quote_status (the reasons of each row
     * are on the Quotes sheet and in JSON quotes.unused), and the rows read but not listed (past the list's
     * cap: docs/quotes.md) apart. */
    static const char *const why[] = {
        [TCO_QUOTE_USED] = NULL,
        [TCO_QUOTE_NOT_NEEDED] = "for a tier not bought",
        [TCO_QUOTE_BEATEN] = "not the cheapest",
        [TCO_QUOTE_EXPIRED] = "expired",
        [TCO_QUOTE_NOT_YET_VALID] = "not yet valid",
        [TCO_QUOTE_UNDER_QTY] = "below minimum quantity",
        [TCO_QUOTE_NOT_IN_SCENARIO] = "for an item the scenario does not price",
        [TCO_QUOTE_UNKNOWN_ITEM] = "unknown item",
        [TCO_QUOTE_OVERRIDDEN] = "price given by --set",
        [TCO_QUOTE_NO_RATE] = "no exchange rate",
    };
    size_t count[sizeof why / sizeof why[0]] = {0};
    for (size_t i = 0; i < set->n; i++)
        if ((size_t)set->quotes[i].status < sizeof why / sizeof why[0])
            count[set->quotes[i].status]++;
    if (set->rows > used) {
        fprintf(out, "; %zu unused:", set->rows - used);
        const char *sep = " ";
        for (size_t k = 0; k < sizeof why / sizeof why[0]; k++)
            if (why[k] && count[k]) {
                fprintf(out, "%s%zu %s", sep, count[k], why[k]);
                sep = ", ";
            }
        if (set->not_kept)
            fprintf(out, "%s%zu not listed", sep, set->not_kept);
    }
    /* The item, vendor and file come from the quote files and the command line: escaped like every text a
     * file gives the terminal (a U+202E in a vendor's name would reorder the line). */
    for (size_t i = 0; i < set->n; i++) {
        const tco_quote *q = &set->quotes[i];
        if (q->status != TCO_QUOTE_USED)
            continue;
        char price[64];
        quote_price(q->unit_price, price, sizeof price);
        fputs("; ", out);
        tco_text_put_terminal(out, q->item, strlen(q->item));
        fputs(" from ", out);
        tco_text_put_terminal(out, q->vendor, strlen(q->vendor));
        fputc(' ', out);
        tco_text_put_terminal(out, q->file, strlen(q->file));
        fprintf(out, ":%ld at %s ", q->line, price);
        tco_text_put_terminal(out, q->currency, strlen(q->currency));
        fputs(q->vat_included ? " incl. VAT" : "", out);
    }
    /* Rows that price a tier row the scenario does not buy: read and kept, but not used by its figures. */
    size_t not_needed = 0;
    for (size_t i = 0; i < set->n; i++)
        if (set->quotes[i].status == TCO_QUOTE_NOT_NEEDED) {
            fputs(not_needed ? ", " : "; not needed: ", out);
            tco_text_put_terminal(out, set->quotes[i].item, strlen(set->quotes[i].item));
            not_needed++;
        }
    if (not_needed) {
        fputs(" (a tier ", out);
        tco_text_put_terminal(out, m->scenario_name, strlen(m->scenario_name));
        fputs(" does not buy)", out);
    }
    if (m->n_quote_unpriced)
        fprintf(out, "; %zu item%s not priced (warnings above)", m->n_quote_unpriced,
                m->n_quote_unpriced == 1 ? "" : "s");
    fputc('\n', out);
}

void tco_report_table(const tco_model *m, const char *currency, const char *workbook, FILE *out)
{
    /* The name (from the file's name) and the title (from the file): escaped for the terminal (base/text.h) */
    tco_text_put_terminal(out, m->scenario_name, strlen(m->scenario_name));
    fputs(": ", out);
    tco_text_put_terminal(out, m->scenario_title, strlen(m->scenario_title));
    fputc('\n', out);
    fprintf(out, "%s over %d year%s, costs in %s\n\n", m->title, m->n_years, m->n_years == 1 ? "" : "s", currency);
    char num[64];
    int width = 30;
    for (size_t k = 0; k < m->n_summary; k++) {
        int n = (int)strlen(m->items[m->summary[k]].label);
        if (m->items[m->summary[k]].kind != TCO_ITEM_YEARLY && n > width)
            width = n;
    }
    for (size_t k = 0; k < m->n_summary; k++) {
        const tco_item *it = &m->items[m->summary[k]];
        if (it->kind == TCO_ITEM_YEARLY)
            continue;
        if (na_reason(it)) { /* "never" or "n.a.: why", in full: no unit applies; a text wider than the value
                              * column stands three spaces from its label, not one (it would read as the label's) */
            fprintf(out, "  %-*s %s%14s\n", width, it->label, strlen(it->text) >= 14 ? "  " : "", it->text);
            continue;
        }
        format_value(it, it->value, num, sizeof num);
        fprintf(out, "  %-*s %14s  %s\n", width, it->label, num, it->unit);
    }
    bool header = false;
    for (size_t k = 0; k < m->n_summary; k++) {
        const tco_item *it = &m->items[m->summary[k]];
        if (it->kind != TCO_ITEM_YEARLY)
            continue;
        if (!header) {
            fprintf(out, "\n  %-30s", "By year");
            for (int y = 0; y < m->n_periods; y++) {
                char h[32];
                snprintf(h, sizeof h, "Year %d", m->first_year + y);
                fprintf(out, " %14s", h);
            }
            fprintf(out, " %14s\n", "Total");
            header = true;
        }
        char label[128];
        snprintf(label, sizeof label, "%s (%s)", it->label, it->unit);
        fprintf(out, "  %-30s", label);
        for (int y = 0; y < m->n_periods; y++) {
            format_value(it, it->years[y], num, sizeof num);
            fprintf(out, " %14s", num);
        }
        if (it->partner >= 0)
            format_value(&m->items[it->partner], m->items[it->partner].value, num, sizeof num);
        fprintf(out, " %14s\n", it->partner >= 0 ? num : "");
    }
    if (m->quotes) {
        fputc('\n', out);
        tco_report_quotes_line(m, out);
    }
    if (workbook) {
        fputs("\nWorkbook: ", out);
        tco_text_put_terminal(out, workbook, strlen(workbook));
        fputc('\n', out);
    }
}

/* A quote row's status as a JSON word (docs/json.md, "quotes"). */
static const char *quote_status_word(tco_quote_status s)
{
    switch (s) {
    case TCO_QUOTE_USED: return "used";
    case TCO_QUOTE_NOT_NEEDED: return "not_needed";
    case TCO_QUOTE_BEATEN: return "beaten";
    case TCO_QUOTE_EXPIRED: return "expired";
    case TCO_QUOTE_NOT_YET_VALID: return "not_yet_valid";
    case TCO_QUOTE_UNDER_QTY: return "under_min_qty";
    case TCO_QUOTE_NOT_IN_SCENARIO: return "not_in_scenario";
    case TCO_QUOTE_UNKNOWN_ITEM: return "unknown_item";
    case TCO_QUOTE_OVERRIDDEN: return "overridden";
    case TCO_QUOTE_NO_RATE: return "no_rate";
    }
    return "unknown_item";
}

/* The "quotes" member of a run with quote files: the files, the rows read, and each row kept, used or
 * not (with why). */
static void json_quotes(FILE *out, const tco_quote_set *set, int32_t as_of)
{
    fputs(",\n  \"quotes\": {\"files\": [", out);
    for (size_t i = 0; i < set->n_files; i++) {
        fputs(i ? ", " : "", out);
        tco_report_json_string(out, set->files[i]);
    }
    char day[16];
    tco_format_date(as_of, day);
    fprintf(out, "], \"as_of\": \"%s\", \"rows\": %zu, \"not_listed\": %zu,", day, set->rows, set->not_kept);
    for (int pass = 0; pass < 2; pass++) {
        fputs(pass == 0 ? "\n    \"used\": [" : "],\n    \"unused\": [", out);
        bool first = true;
        for (size_t i = 0; i < set->n; i++) {
            const tco_quote *q = &set->quotes[i];
            if ((q->status == TCO_QUOTE_USED) != (pass == 0))
                continue;
            fputs(first ? "\n      {\"item\": " : ",\n      {\"item\": ", out);
            first = false;
            tco_report_json_string(out, q->item);
            fputs(", \"file\": ", out);
            tco_report_json_string(out, q->file);
            fprintf(out, ", \"line\": %ld, \"vendor\": ", q->line);
            tco_report_json_string(out, q->vendor);
            fputs(", \"quote_id\": ", out);
            tco_report_json_string(out, q->quote_id);
            if (pass == 0) {
                fputs(", \"unit_price\": ", out);
                tco_report_json_number(out, q->unit_price);
                fputs(", \"currency\": ", out);
                tco_report_json_string(out, q->currency);
                fputs(", \"rate\": ", out);
                tco_report_json_number(out, q->rate);
                fputs(", \"converted\": ", out);
                tco_report_json_number(out, q->converted);
                fprintf(out, ", \"vat_included\": %s}", q->vat_included ? "true" : "false");
            } else {
                fprintf(out, ", \"status\": \"%s\", \"reason\": ", quote_status_word(q->status));
                tco_report_json_string(out, q->reason);
                fputs("}", out);
            }
        }
        fputs(first ? "" : "\n    ", out);
    }
    fputs("]}", out);
}

/* True if a spreadsheet would read @p s as a formula (leading = + - @, a tab or CR). */
static bool formula_like(const char *s)
{
    return s && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r');
}

/* One CSV text field (libcsv quotes it); formula-looking text gets a leading apostrophe. */
static void csv_text(FILE *out, const char *s, bool last)
{
    s = s ? s : "";
    if (formula_like(s)) {
        tco_strbuf b = {0};
        tco_strbuf_printf(&b, "'%s", s);
        csv_fwrite(out, tco_strbuf_str(&b), b.len);
        tco_strbuf_free(&b);
    } else {
        csv_fwrite(out, s, strlen(s));
    }
    fputs(last ? "\r\n" : ",", out);
}

/* One CSV row (columns as TCO_REPORT_CSV_HEADER): @p text is a text value, @p note why a line has no
 * number; the value field is empty for either, so the column holds numbers only. */
static void csv_row(FILE *out, const tco_model *m, const tco_item *it, const char *period, double v,
                    const char *text, const char *note, const tco_range *range)
{
    bool input = it->kind == TCO_ITEM_INPUT || it->kind == TCO_ITEM_TIER_INPUT;
    csv_text(out, m->scenario_name, false);
    csv_text(out, input ? "input" : "output", false);
    csv_text(out, it->name, false);
    csv_text(out, period, false);
    if (text || note)
        fputs(",", out);
    else
        fprintf(out, "%.16G,", v);
    csv_text(out, it->unit, false);
    csv_text(out, text, false);
    csv_text(out, note, false);
    csv_text(out, it->label, false);
    csv_text(out, it->source, false);
    if (range && range->dist != TCO_DIST_NONE) /* low, high, dist: an input's range, in the value's units */
        fprintf(out, "%.16G,%.16G,%s\r\n", range->low, range->high, tco_dist_name(range->dist));
    else
        fputs(",,\r\n", out);
}

void tco_report_csv(const tco_model *m, bool header, FILE *out)
{
    if (header)
        fputs(TCO_REPORT_CSV_HEADER "\r\n", out);
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        char period[32];
        switch (it->kind) {
        case TCO_ITEM_YEAR_INDEX: case TCO_ITEM_TIER_CODE: case TCO_ITEM_ERROR_COUNT: case TCO_ITEM_MONTH_INDEX:
            break; /* built in */
        case TCO_ITEM_MONTHLY:
            for (int k = 0; k < m->n_months; k++) {
                tco_model_month_label(m, k, period);
                csv_row(out, m, it, period, it->years[k], NULL, NULL, NULL);
            }
            break;
        case TCO_ITEM_YEARLY:
            for (int y = 0; y < tco_item_periods(m, it); y++) {
                snprintf(period, sizeof period, "Year %d", m->first_year + y);
                csv_row(out, m, it, period, it->years[y], NULL, NULL, NULL);
            }
            break;
        case TCO_ITEM_TIER_INPUT: case TCO_ITEM_TIER_LINE:
            for (int r = 0; r < m->n_tiers; r++)
                csv_row(out, m, it, m->tier_names[r], it->tiers ? it->tiers[r] : 0,
                        it->tier_texts ? it->tier_texts[r] : NULL, NULL, it->tier_ranges ? &it->tier_ranges[r] : NULL);
            break;
        default: /* inputs, lines and the NAME_total of each per-year or per-month line */
            csv_row(out, m, it, "", it->value, na_reason(it) ? NULL : it->text, na_reason(it), &it->range);
            break;
        }
    }
}

/* A JSON string value, the text verbatim (RFC 8259 escapes only). */
void tco_report_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        size_t plain = 0; /* a run of printable ASCII that needs no escape, written at once (DEL, C1 and
                           * bytes that start no UTF-8 character take the checks below) */
        while (p[plain] >= 0x20 && p[plain] < 0x7F && p[plain] != '"' && p[plain] != '\\')
            plain++;
        if (plain > 0) {
            fwrite(p, 1, plain, out);
            p += plain - 1;
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20 || *p == 0x7F)
                fprintf(out, "\\u%04x", *p);
            else if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) /* a C1 control, exact and never raw */
                fprintf(out, "\\u%04x", *++p);
            else if (*p < 0x80)
                fputc(*p, out);
            else {
                /* JSON is UTF-8: a byte that starts no UTF-8 character (a path or argument in another
                 * encoding; 0x9B alone is a CSI to some terminals) is U+FFFD, the replacement character. */
                size_t k = tco_utf8_seq((const char *)p, strnlen((const char *)p, 4));
                if (k == 0)
                    fputs("\\ufffd", out);
                else
                    fwrite(p, 1, k, out), p += k - 1;
            }
        }
    }
    fputc('"', out);
}

/* Numbers as the workbook caches them: libxlsxwriter writes a formula's
 * result with 16 significant digits ("%.16G"), so the JSON says exactly what a
 * reader of the workbook's cached values sees. */
void tco_report_json_number(FILE *out, double v)
{
    /* The loader refuses every non-finite value (tco_model_evaluate()); JSON has no INF or NAN. */
    if (!isfinite(v))
        fputs("null", out);
    else
        fprintf(out, "%.16G", v);
}

/* An input value's range as JSON: {"low", "high", "dist", "kind", "basis", "set"}, or null without one; a money
 * input of a run in another currency (in_report) adds "given_low", "given_high", its ends in CNY. */
static void json_range(FILE *out, const tco_model *m, size_t item, int tier, const tco_range *r)
{
    if (r == NULL || r->dist == TCO_DIST_NONE) {
        fputs("null", out);
        return;
    }
    fputs("{\"low\": ", out);
    tco_report_json_number(out, r->low);
    fputs(", \"high\": ", out);
    tco_report_json_number(out, r->high);
    if (m->items[item].in_report) {
        fputs(", \"given_low\": ", out);
        tco_report_json_number(out, r->given_low);
        fputs(", \"given_high\": ", out);
        tco_report_json_number(out, r->given_high);
    }
    fprintf(out, ", \"dist\": \"%s\", \"kind\": \"%s\", \"basis\": ", tco_dist_name(r->dist),
            r->bounds ? "bounds" : "p5p95");
    if (r->basis)
        tco_report_json_string(out, r->basis);
    else
        fputs("null", out);
    fputs(", \"set\": ", out);
    char *set = tco_model_set_key(m, (int)item, tier);
    tco_report_json_string(out, set ? set : "");
    free(set);
    fputs("}", out);
}

static void json_role_scalar(FILE *out, const tco_model *m, int idx)
{
    double v;
    if (tco_model_role_value(m, idx, &v))
        tco_report_json_number(out, v);
    else
        fputs("null", out);
}

static void json_years(FILE *out, const tco_model *m, const tco_item *it)
{
    fputc('[', out);
    int len = tco_item_periods(m, it);
    for (int y = 0; y < len; y++) {
        if (y)
            fputs(", ", out);
        tco_report_json_number(out, it->years[y]);
    }
    fputc(']', out);
}

/* The names of @p n year columns from Year first_year: "Year 0", "Year 1", ... in a JSON array. */
static void json_year_names(FILE *out, const tco_model *m, int n)
{
    fputc('[', out);
    for (int y = 0; y < n; y++)
        fprintf(out, "%s\"Year %d\"", y ? ", " : "", m->first_year + y);
    fputc(']', out);
}

/* ", KEY: [values], ..." for the @p n KEY:LINE pairs of a [model] cash_flow or budget list. */
static void json_key_lines(FILE *out, const tco_model *m, char *const *keys, const int *items, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        fputs(", ", out);
        tco_report_json_string(out, keys[k]);
        fputs(": ", out);
        json_years(out, m, &m->items[items[k]]);
    }
}

/* The schedule sheet ([model] schedule), when the template has one: "schedule": {"sheet", "periods"
 * (Year 0 to Year max(N, L)), "lines" (the per-year lines on it, whose by_year arrays have one entry per
 * schedule period, not per period)}. */
static void json_schedule(FILE *out, const tco_model *m)
{
    for (size_t s = 0; s < m->n_sheets; s++) {
        if (!m->sheets[s].schedule)
            continue;
        fputs(",\n  \"schedule\": {\"sheet\": ", out);
        tco_report_json_string(out, m->sheets[s].name);
        fputs(", \"periods\": ", out);
        json_year_names(out, m, m->n_schedule_periods);
        fputs(", \"lines\": [", out);
        bool any = false;
        for (size_t i = 0; i < m->n_items; i++)
            if (m->items[i].kind == TCO_ITEM_YEARLY && m->items[i].on_schedule) {
                fputs(any ? ", " : "", out);
                tco_report_json_string(out, m->items[i].name);
                any = true;
            }
        fputs("]}", out);
        return;
    }
}

/* The --set key of row @p r of per-tier input @p it ("D-M.price"), or NULL when --set cannot name the
 * row: its code holds '.', '=' or ':' (tco_override_parse() would split it), or is a ref key such as
 * "card" (which --set reads as the entry the scenario names). */
static bool tier_set_key(const tco_model *m, const tco_item *it, int r, tco_strbuf *out)
{
    const char *row = m->tier_names[r];
    if (it->set_key == NULL || strpbrk(row, ".=:") != NULL || tco_model_ref_entry(m, row) != NULL)
        return false;
    out->len = 0;
    tco_strbuf_printf(out, "%s.%s", row, it->set_key);
    return !out->failed;
}

/* ", \"set\": KEY" of input @p it (null when no --set gives it), or for a per-tier input
 * ", \"set_by_tier\": {TIER: KEY or null, ...}" (docs/json.md). */
static void json_set_keys(FILE *out, const tco_model *m, const tco_item *it)
{
    if (it->kind != TCO_ITEM_TIER_INPUT) {
        fputs(", \"set\": ", out);
        if (it->set_key)
            tco_report_json_string(out, it->set_key);
        else
            fputs("null", out);
        return;
    }
    fputs(", \"set_by_tier\": {", out);
    tco_strbuf key = {0};
    for (int r = 0; r < m->n_tiers; r++) {
        fputs(r ? ", " : "", out);
        tco_report_json_string(out, m->tier_names[r]);
        fputs(": ", out);
        if (tier_set_key(m, it, r, &key))
            tco_report_json_string(out, tco_strbuf_str(&key));
        else
            fputs("null", out);
    }
    tco_strbuf_free(&key);
    fputs("}", out);
}

void tco_report_json_members(const tco_model *m, const char *currency, const char *workbook, FILE *out)
{
    fputs("{\n  \"scenario\": ", out);
    tco_report_json_string(out, m->scenario_name);
    fputs(",\n  \"title\": ", out);
    tco_report_json_string(out, m->scenario_title);
    fputs(",\n  \"currency\": ", out);
    tco_report_json_string(out, currency);
    fprintf(out, ",\n  \"years\": %d", m->n_years);
    fputs(",\n  \"periods\": ", out);
    json_year_names(out, m, m->n_periods);
    json_schedule(out, m);
    fputs(",\n  \"capex\": ", out);
    json_role_scalar(out, m, m->role_capex);
    fputs(",\n  \"opex_by_year\": ", out);
    if (m->role_opex >= 0 && m->items[m->role_opex].kind == TCO_ITEM_YEARLY)
        json_years(out, m, &m->items[m->role_opex]);
    else
        fputs("null", out);
    fputs(",\n  \"opex_total\": ", out);
    json_role_scalar(out, m, m->role_opex);
    fputs(",\n  \"tco\": ", out);
    json_role_scalar(out, m, m->role_tco);
    fputs(",\n  \"tco_per_card_year\": ", out);
    json_role_scalar(out, m, m->role_per_card_year);
    fputs(",\n  \"workbook\": ", out);
    if (workbook)
        tco_report_json_string(out, workbook);
    else
        fputs("null", out);
    if (m->template_file) { /* the template's identity: a later tco diff tells whether it changed */
        fputs(",\n  \"template\": {\"file\": ", out);
        tco_report_json_string(out, m->template_file);
        fprintf(out, ", \"fingerprint\": \"%016llx\"}", (unsigned long long)m->template_fingerprint);
    }
    if (m->n_cash_flow > 0) { /* the template's cash_flow lines, every period from its first */
        fputs(",\n  \"cash_flow\": {\"periods\": ", out);
        json_year_names(out, m, m->n_periods);
        json_key_lines(out, m, m->cash_flow_keys, m->cash_flow_items, m->n_cash_flow);
        fputs("}", out);
    }
    if (m->n_budget > 0) { /* the template's per-month budget lines, from the first month */
        fputs(",\n  \"budget\": {\"months\": [", out);
        for (int k = 0; k < m->n_months; k++) {
            char label[16];
            tco_model_month_label(m, k, label);
            fprintf(out, "%s\"%s\"", k ? ", " : "", label);
        }
        fputs("], \"total\": ", out);
        json_role_scalar(out, m, m->budget_total);
        json_key_lines(out, m, m->budget_keys, m->budget_items, m->n_budget);
        fputs("}", out);
    }
    fputs(",\n  \"warnings\": [", out);
    size_t nw = 0;
    for (size_t i = 0; i < m->n_items; i++) {
        if (!warning_applies(m, &m->items[i]))
            continue;
        tco_strbuf b = {0};
        warning_text(m, &m->items[i], &b);
        fputs(nw++ ? ", " : "", out);
        fputs("{\"check\": ", out);
        tco_report_json_string(out, m->items[i].name);
        fputs(", \"message\": ", out);
        tco_report_json_string(out, tco_strbuf_str(&b));
        fputs("}", out);
        tco_strbuf_free(&b);
    }
    tco_report_json_quote_warnings(out, m->quotes, m->quote_warnings, m->n_quote_warnings, nw);
    fputs("]", out);
    if (m->quotes)
        json_quotes(out, m->quotes, m->as_of);
    for (int pass = 0; pass < 2; pass++) {
        fputs(pass == 0 ? ",\n  \"inputs\": {" : ",\n  \"outputs\": {", out);
        bool first = true;
        for (size_t i = 0; i < m->n_items; i++) {
            const tco_item *it = &m->items[i];
            bool is_input = it->kind == TCO_ITEM_INPUT || it->kind == TCO_ITEM_TIER_INPUT;
            if (it->kind == TCO_ITEM_YEAR_INDEX || it->kind == TCO_ITEM_TIER_CODE || it->kind == TCO_ITEM_ERROR_COUNT ||
                it->kind == TCO_ITEM_MONTH_INDEX ||
                is_input != (pass == 0))
                continue;
            fputs(first ? "\n    " : ",\n    ", out);
            first = false;
            tco_report_json_string(out, it->name);
            fputs(": {\"label\": ", out);
            tco_report_json_string(out, it->label);
            fputs(", \"unit\": ", out);
            tco_report_json_string(out, it->unit);
            if (it->kind == TCO_ITEM_YEARLY || it->kind == TCO_ITEM_MONTHLY) {
                /* A line of the schedule sheet runs to Year max(N, L): the entry says its by_year follows
                 * schedule.periods, not periods (issue 23 §4). */
                if (it->kind == TCO_ITEM_YEARLY && it->on_schedule)
                    fputs(", \"periods\": \"schedule\"", out);
                fputs(it->kind == TCO_ITEM_YEARLY ? ", \"by_year\": " : ", \"by_month\": ", out);
                json_years(out, m, it);
                if (it->partner >= 0) {
                    fputs(", \"total\": ", out);
                    tco_report_json_number(out, m->items[it->partner].value);
                }
            } else if (it->kind == TCO_ITEM_TIER_INPUT || it->kind == TCO_ITEM_TIER_LINE) {
                /* by_tier, and for a money input in another currency given_by_tier: each row in CNY */
                for (int rows = 0; rows < (it->in_report ? 2 : 1); rows++) {
                    fputs(rows ? ", \"given_by_tier\": {" : ", \"by_tier\": {", out);
                    for (int r = 0; r < m->n_tiers; r++) {
                        fputs(r ? ", " : "", out);
                        tco_report_json_string(out, m->tier_names[r]);
                        fputs(": ", out);
                        if (it->tier_texts)
                            tco_report_json_string(out, it->tier_texts[r]);
                        else
                            tco_report_json_number(out, rows ? it->base_tiers[r] : it->tiers[r]);
                    }
                    fputs("}", out);
                }
                if (it->kind == TCO_ITEM_TIER_INPUT) { /* the rows that have a range, in tier order */
                    fputs(", \"range_by_tier\": {", out);
                    bool any = false;
                    for (int r = 0; it->tier_ranges && r < m->n_tiers; r++) {
                        if (it->tier_ranges[r].dist == TCO_DIST_NONE)
                            continue;
                        fputs(any ? ", " : "", out);
                        any = true;
                        tco_report_json_string(out, m->tier_names[r]);
                        fputs(": ", out);
                        json_range(out, m, i, r, &it->tier_ranges[r]);
                    }
                    fputs("}", out);
                }
            } else {
                fputs(", \"value\": ", out);
                if (na_reason(it)) { /* no number: null, and why ("never: ...", "n.a.: ...") */
                    fputs("null, \"reason\": ", out);
                    tco_report_json_string(out, it->text);
                } else if (it->text) {
                    tco_report_json_string(out, it->text);
                } else {
                    tco_report_json_number(out, it->value);
                }
                if (it->in_report) { /* the value in CNY, as the files and --set give it */
                    fputs(", \"given\": ", out);
                    tco_report_json_number(out, it->base_value);
                }
                if (it->kind == TCO_ITEM_INPUT) {
                    fputs(", \"range\": ", out);
                    json_range(out, m, i, -1, &it->range);
                }
            }
            fputs(", \"source\": ", out);
            tco_report_json_string(out, it->source);
            if (is_input)
                json_set_keys(out, m, it);
            fputs("}", out);
        }
        fputs(first ? "}" : "\n  }", out);
    }
}

void tco_report_json(const tco_model *m, const char *currency, const char *workbook, FILE *out)
{
    tco_report_json_members(m, currency, workbook, out);
    fputs("\n}\n", out);
}

/* ", "KEY": "TEXT" or null for "" (a place the diagnostic does not name). */
static void json_text_or_null(FILE *out, const char *key, const char *text)
{
    fprintf(out, ", \"%s\": ", key);
    if (text[0])
        tco_report_json_string(out, text);
    else
        fputs("null", out);
}

static void json_place(FILE *out, const char *key, long v);

/* The "error" member of a failed run's JSON (tco_report_json_error()), without the object's braces. */
static void json_error_member(const tco_diag *d, FILE *out)
{
    fputs("  \"error\": {\"file\": ", out);
    if (d->file[0])
        tco_report_json_string(out, d->file);
    else
        fputs("null", out);
    json_place(out, "line", d->line);
    json_place(out, "column", d->column);
    json_text_or_null(out, "column_name", d->column_name);
    json_text_or_null(out, "section", d->section);
    json_text_or_null(out, "key", d->key);
    fputs(", \"message\": ", out);
    tco_report_json_string(out, d->message + d->text);
    fputs(", \"diagnostic\": ", out);
    tco_report_json_string(out, d->message);
    fprintf(out, ", \"exit\": %d}", tco_exit_code(d->code));
}

void tco_report_json_error(const tco_diag *d, FILE *out)
{
    fputs("{\n", out);
    json_error_member(d, out);
    fputs("\n}\n", out);
}

void tco_report_json_error_quotes(const tco_diag *d, const tco_quote_set *set, char *const *texts, size_t n,
                                  FILE *out)
{
    fputs("{\n", out);
    json_error_member(d, out);
    fputs(",\n  \"warnings\": [", out);
    tco_report_json_quote_warnings(out, set, texts, n, 0);
    fputs("]\n}\n", out);
}

void tco_report_check_begin(tco_report_check *r, bool json, FILE *out, FILE *err)
{
    *r = (tco_report_check){.json = json, .out = out, .err = err};
    if (json)
        fputs("{\n  \"problems\": [", out);
}

/* A JSON count, or null for 0 (a place the problem does not have). */
static void json_place(FILE *out, const char *key, long v)
{
    fprintf(out, ", \"%s\": ", key);
    if (v > 0)
        fprintf(out, "%ld", v);
    else
        fputs("null", out);
}

bool tco_report_check_count_only(tco_report_check *r, bool warning)
{
    if (r->json || r->file_printed < TCO_QUOTE_LIST_CAP)
        return false;
    if (warning) /* counted, said after the file's problems */
        r->warnings++, r->file_unprinted_warnings++;
    else
        r->errors++, r->file_unprinted_errors++;
    return true;
}

static void check_problem(tco_report_check *r, const char *path, const tco_diag *problem, bool warning,
                          const char *text_prefix, bool always)
{
    if (!always && tco_report_check_count_only(r, warning))
        return;
    if (warning)
        r->warnings++;
    else
        r->errors++;
    if (!r->json) { /* the file's name and the fields quoted: escaped for the terminal (base/text.h) */
        r->file_printed++;
        fputs(text_prefix, r->err);
        tco_text_put_terminal(r->err, problem->message, strlen(problem->message));
        fputc('\n', r->err);
        return;
    }
    fputs(r->problems++ ? ",\n    {\"file\": " : "\n    {\"file\": ", r->out);
    tco_report_json_string(r->out, path);
    json_place(r->out, "line", problem->line);
    json_place(r->out, "column", problem->column);
    fputs(", \"column_name\": ", r->out);
    if (problem->column_name[0])
        tco_report_json_string(r->out, problem->column_name);
    else
        fputs("null", r->out);
    fprintf(r->out, ", \"severity\": \"%s\", \"message\": ", warning ? "warning" : "error");
    tco_report_json_string(r->out, problem->message + problem->text);
    fputs(", \"diagnostic\": ", r->out);
    tco_report_json_string(r->out, problem->message);
    fputs("}", r->out);
}

void tco_report_check_problem(tco_report_check *r, const char *path, const tco_diag *problem, bool warning)
{
    check_problem(r, path, problem, warning, warning ? "warning: " : "", false);
}

void tco_report_check_final(tco_report_check *r, const char *path, const tco_diag *problem)
{
    check_problem(r, path, problem, false, "", true);
}

void tco_report_check_unreadable(tco_report_check *r, const char *path, const tco_diag *problem)
{
    check_problem(r, path, problem, false, "tco: ", true);
}

void tco_report_check_file(tco_report_check *r, const char *path, size_t rows, size_t errors, size_t warnings)
{
    if (!r->json) {
        size_t more = r->file_unprinted_errors + r->file_unprinted_warnings;
        if (more > 0) {
            tco_text_put_terminal(r->err, path, strlen(path));
            fprintf(r->err, ": %zu further problem%s (%zu error%s, %zu warning%s) were found and counted but not "
                    "printed: the table prints the first %d of a file (--format json lists every one)\n", more,
                    more == 1 ? "" : "s", r->file_unprinted_errors, r->file_unprinted_errors == 1 ? "" : "s",
                    r->file_unprinted_warnings, r->file_unprinted_warnings == 1 ? "" : "s", TCO_QUOTE_LIST_CAP);
        }
        r->file_printed = r->file_unprinted_errors = r->file_unprinted_warnings = 0;
        tco_text_put_terminal(r->out, path, strlen(path));
        fprintf(r->out, ": %zu row%s, %zu error%s, %zu warning%s\n", rows, rows == 1 ? "" : "s", errors,
                errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
        return;
    }
    if (r->n_files == r->files_cap) {
        size_t cap = r->files_cap ? 2 * r->files_cap : 16;
        struct tco_report_check_file *grown = realloc(r->files, cap * sizeof *grown);
        if (grown == NULL) {
            r->lost = true;
            return;
        }
        r->files = grown;
        r->files_cap = cap;
    }
    r->files[r->n_files++] = (struct tco_report_check_file){path, rows, errors, warnings};
}

bool tco_report_check_end(tco_report_check *r)
{
    if (r->json) {
        fputs(r->problems ? "\n  ],\n  \"files\": [" : "],\n  \"files\": [", r->out);
        for (size_t i = 0; i < r->n_files; i++) {
            fputs(i ? ",\n    {\"file\": " : "\n    {\"file\": ", r->out);
            tco_report_json_string(r->out, r->files[i].path);
            fprintf(r->out, ", \"rows\": %zu, \"errors\": %zu, \"warnings\": %zu}", r->files[i].rows,
                    r->files[i].errors, r->files[i].warnings);
        }
        fprintf(r->out, "%s],\n  \"errors\": %zu,\n  \"warnings\": %zu\n}\n", r->n_files ? "\n  " : "",
                r->errors, r->warnings);
        if (r->lost)
            fprintf(r->err, "tco: out of memory: the report's \"files\" list is incomplete\n");
    }
    free(r->files);
    r->files = NULL;
    r->n_files = r->files_cap = 0;
    return !r->lost;
}
