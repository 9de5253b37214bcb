/* price_text.c - a price as vendors write it in a quote file's field (price_text.h). */
#include "read/price_text.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"
#include "read/ini.h"

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
    while (q < end && (unsigned)(*q - '0') < 10)
        q++;
    return (size_t)(q - p);
}

/* The number in [@p s, @p end) of @p text (blanks and any currency already stripped) as a file
 * delimited by @p delim writes it (price_text.h), into *@p value; false with @p why naming @p expected
 * (or the rule broken).  @p price: the text is a unit price (its messages say so). */
static bool parse_file_number(const char *text, const char *s, const char *end, char delim, const char *expected,
                              bool price, double *value, char *mark, char *why, size_t why_size)
{
    char used = '\0'; /* the decimal mark the text uses, if any */
    /* Digits with group separators and one decimal mark, by the file's convention. */
    char decimal = delim == ';' ? ',' : '.';
    char buf[64];
    size_t n = 0;
    bool seen_decimal = false, ambiguous = false;
    int groups = 0;
    /* The digits gathered as they are checked, as tco_decimal_value() gathers them from buf. */
    uint64_t m = 0;
    int digits = 0, frac = 0;
    const char *p = s;
    size_t lead = digits_run(p, end);
    if (lead == 0) {
        snprintf(why, why_size, "expected %s, found '%s'", expected, TCO_SHOWN(text));
        return false;
    }
    if (lead == (size_t)(end - s) && lead <= 15) { /* digits alone (a count, most prices): a whole number */
        for (; p < end; p++)
            m = m * 10 + (uint64_t)(*p - '0');
        *value = (double)m; /* below 10^15 < 2^53: exact */
        if (mark)
            *mark = '\0';
        return true;
    }
    while (p < end) {
        /* A run of digits, the common case: into buf (at most 63 characters) and into m, leading zeros
         * counted in digits (the fast path then only holds less often; m wraps past 19 digits, unused). */
        const char *from = p;
        while (p < end && (unsigned)(*p - '0') < 10)
            m = m * 10 + (uint64_t)(*p++ - '0');
        size_t k = (size_t)(p - from);
        if (k > 0) {
            if (n + k + 1 > sizeof buf) {
                p = from; /* too many digits: said below */
                break;
            }
            memcpy(buf + n, from, k);
            n += k;
            digits += (int)k;
            frac += seen_decimal ? (int)k : 0;
            if (p == end)
                break;
        }
        unsigned char c = (unsigned char)*p; /* not a digit */
        size_t space = 0; /* a space-like group separator: ' ', NBSP, narrow NBSP */
        if (c == ' ')
            space = 1;
        else if (c == 0xC2 && end - p >= 2 && (unsigned char)p[1] == 0xA0)
            space = 2;
        else if (c == 0xE2 && end - p >= 3 && (unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0xAF)
            space = 3;
        if (!seen_decimal && c == (unsigned char)decimal) {
            seen_decimal = true;
            used = decimal;
            buf[n++] = '.';
            p++;
            /* "12,500" in a ';' file, or "12.500" in a ',' file: a decimal mark, or thousands?  Only
             * when the digits before could be a number's first group: 1 to 3 digits, not led by 0
             * ("123457.250" and "0.125" can only be decimals). */
            if (groups == 0 && lead <= 3 && *s != '0' && digits_run(p, end) == 3 && p + 3 == end)
                ambiguous = true;
            size_t after = digits_run(p, end);
            if (after == 0) {
                snprintf(why, why_size, "expected digits after the decimal mark '%c', found '%s'", decimal, TCO_SHOWN(text));
                return false;
            }
            if (p + after != end) { /* "13,5%": digits, then what the column does not take */
                snprintf(why, why_size, "expected %s, found '%s'", expected, TCO_SHOWN(text));
                return false;
            }
        } else if (!seen_decimal && space && delim != ';') {
            snprintf(why, why_size, "a %s file groups thousands with ',' only (as in 12,500.00), found a space "
                     "in '%s'", delim == '\t' ? "tab-delimited" : "','-delimited", TCO_SHOWN(text));
            return false;
        } else if (!seen_decimal && (c == (delim == ';' ? '.' : ',') || space)) {
            /* A group separator separates groups of exactly three digits, after a first group of
             * 1 to 3 digits that does not start with 0 ("0,125" and "1234,567" are not grouped). */
            size_t adv = space ? space : 1;
            size_t run = digits_run(p + adv, end);
            bool can_group = run == 3 && (groups > 0 || (lead <= 3 && *s != '0'));
            /* In a ';' file a single '.' followed by digits to the end and no ',' may be a decimal point. */
            bool point = delim == ';' && c == '.' && !space && groups == 0 && run > 0 && p + 1 + run == end;
            if (point && !can_group) { /* "12.5", "1234.500", "0.125": only a decimal point */
                seen_decimal = true;
                used = '.';
                buf[n++] = '.';
                p++;
                continue;
            }
            if (!can_group) {
                snprintf(why, why_size,
                         "expected '%s' only between groups of three digits (as in %s), found '%s'",
                         space ? "space" : (c == ',' ? "," : "."), delim == ';' ? "12.500,00" : "12,500.00",
                         TCO_SHOWN(text));
                return false;
            }
            if (point)
                ambiguous = true; /* "1.500": 1500 with '.' grouping, or 1.5? */
            groups++;
            p += adv;
        } else {
            snprintf(why, why_size, "expected %s, found '%s'", expected, TCO_SHOWN(text));
            return false;
        }
    }
    if (p < end) {
        snprintf(why, why_size, "%s'%s' has too many digits", price ? "price " : "", TCO_SHOWN(text));
        return false;
    }
    if (ambiguous) {
        snprintf(why, why_size, "'%s' could be a thousand-separated whole number or a decimal; write the whole "
                 "number without a separator, or the decimal with two decimals", TCO_SHOWN(text));
        return false;
    }
    buf[n] = '\0';
    if (!tco_decimal_exact(m, digits, frac, value))
        *value = tco_decimal_value(buf);
    if (mark)
        *mark = used;
    return true;
}

/* [*s, *end) without its leading and trailing spaces and tabs. */
static void trim_blanks(const char **s, const char **end)
{
    while (*s < *end && (**s == ' ' || **s == '\t'))
        (*s)++;
    while (*end > *s && ((*end)[-1] == ' ' || (*end)[-1] == '\t'))
        (*end)--;
}

bool tco_quote_parse_price(const char *text, char delim, const char *currency, double *price, char *why,
                           size_t why_size)
{
    return tco_quote_parse_price_mark(text, delim, currency, price, NULL, why, why_size);
}

bool tco_quote_parse_price_mark(const char *text, char delim, const char *currency, double *price, char *mark,
                                char *why, size_t why_size)
{
    const char *s = text, *end = text + strlen(text);
    trim_blanks(&s, &end);
    if (s == end) {
        snprintf(why, why_size, "expected a price, found an empty field");
        return false;
    }
    /* A currency symbol or code before or after the number must agree with the currency column.  None
     * begins or ends with a digit, so a price that does (the common case) has none to strip. */
    size_t cl = strlen(currency);
    bool bare = isdigit((unsigned char)s[0]) && isdigit((unsigned char)end[-1]) &&
                (cl == 0 || (!isdigit((unsigned char)currency[0]) && !isdigit((unsigned char)currency[cl - 1])));
    const char *sym = NULL;
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0] && sym == NULL && !bare; i++)
        if (strip_prefix(&s, symbols[i].symbol) || strip_suffix(s, &end, symbols[i].symbol)) {
            sym = symbols[i].symbol;
            if (strstr(symbols[i].codes, currency) == NULL) {
                snprintf(why, why_size, "the price's symbol '%s' does not match the currency %s", sym, currency);
                return false;
            }
        }
    if (sym == NULL && !bare && currency[0] && (strip_prefix(&s, currency) || strip_suffix(s, &end, currency)))
        sym = currency;
    if (sym == NULL && !bare) {
        /* Another currency's code before or after the number ("100 USD" in a CNY row). */
        const char *code = NULL;
        if (end - s > 3 && isalpha((unsigned char)s[0]) && isalpha((unsigned char)s[1]) &&
            isalpha((unsigned char)s[2]) && !isalpha((unsigned char)s[3]))
            code = s;
        else if (end - s > 3 && isalpha((unsigned char)end[-1]) && isalpha((unsigned char)end[-2]) &&
                 isalpha((unsigned char)end[-3]) && !isalpha((unsigned char)end[-4]))
            code = end - 3;
        if (code) {
            snprintf(why, why_size, "the price's currency code '%.3s' does not match the currency %s (write the "
                     "price in %s, or set the row's currency to %.3s)", code, currency, currency, code);
            return false;
        }
    }
    if (s < end && (*s == '-' || *s == '(')) {
        snprintf(why, why_size, "expected a positive price, found '%s'", TCO_SHOWN(text));
        return false;
    }
    double v;
    if (!parse_file_number(text, s, end, delim,
                           delim == ';' ? "a price such as 12500 or 12.500,00" : "a price such as 12500 or 12,500.00",
                           true, &v, mark, why, why_size))
        return false;
    if (!isfinite(v) || v <= 0) {
        snprintf(why, why_size, "expected a positive price, found '%s'", TCO_SHOWN(text));
        return false;
    }
    *price = v;
    return true;
}

bool tco_quote_parse_number(const char *text, char delim, const char *expected, double *value, char *why,
                            size_t why_size)
{
    return tco_quote_parse_number_mark(text, delim, expected, value, NULL, why, why_size);
}

bool tco_quote_parse_number_mark(const char *text, char delim, const char *expected, double *value, char *mark,
                                 char *why, size_t why_size)
{
    const char *s = text, *end = text + strlen(text);
    trim_blanks(&s, &end);
    if (!parse_file_number(text, s, end, delim, expected, false, value, mark, why, why_size))
        return false;
    if (!isfinite(*value)) {
        snprintf(why, why_size, "expected %s, found '%s'", expected, TCO_SHOWN(text));
        return false;
    }
    return true;
}
