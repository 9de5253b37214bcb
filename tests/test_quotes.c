/* test_quotes.c - vendor quote CSV files: what real files contain, the choice of
 * price, and one malformed file per kind of error (tests/fixtures/quotes/). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "price/quote_choice.h"
#include "read/dates.h"
#include "read/fx.h"
#include "read/price_text.h"
#include "read/quote_csv.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "load/load.h"
#include "model/evaluate.h"
#include "price/pricing.h"
#include "base/error.h"
#include "base/names.h"
#include "suites.h"
#include "loaded.h"

#define Q TCO_SOURCE_DIR "/tests/fixtures/quotes/"

/* Rates as in pricing/fx.ini: CNY reporting, 7.1 per USD, 7.7 per EUR. */
static tco_fx test_fx(void)
{
    tco_fx fx = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_fx_load(TCO_SOURCE_DIR "/pricing/fx.ini", "pricing/fx.ini", &fx, &d), TCO_OK);
    return fx;
}

static bool keep_all(void *ctx, const tco_quote *q)
{
    (void)ctx;
    (void)q;
    return true;
}

typedef struct problems {
    char first[TCO_DIAG_MAX];
    size_t errors, warnings;
} problems;

static bool collect(void *ctx, const tco_diag *p, bool warning)
{
    problems *pr = ctx;
    if (warning)
        pr->warnings++;
    else if (pr->errors++ == 0)
        snprintf(pr->first, sizeof pr->first, "%s", p->message);
    return true;
}

static tco_quote_set read_ok(const char *path, problems *pr)
{
    tco_fx fx = test_fx();
    tco_quote_set set = {0};
    tco_diag d = {0};
    tco_error e = tco_quotes_read(path, &fx, keep_all, NULL, collect, pr, &set, &d);
    if (e != TCO_OK || pr->errors)
        fprintf(stderr, "\n%s: %s %s\n", path, d.message, pr->first);
    CU_ASSERT_EQUAL(e, TCO_OK);
    CU_ASSERT_EQUAL(pr->errors, 0);
    tco_fx_free(&fx);
    return set;
}

/* UTF-8 byte-order mark, CRLF, quoted commas, doubled quotes, a newline in a field, blank trailing lines. */
static void test_bom_crlf_quoting(void)
{
    problems pr = {0};
    tco_quote_set set = read_ok(Q "bom_crlf.csv", &pr);
    CU_ASSERT_EQUAL_FATAL(set.n, 2);
    CU_ASSERT_EQUAL(set.rows, 2);
    CU_ASSERT_STRING_EQUAL(set.quotes[0].vendor, "Acme, Inc.");
    CU_ASSERT_EQUAL(set.quotes[0].unit_price, 12500);
    CU_ASSERT_STRING_EQUAL(set.quotes[0].notes, "He said \"final\" price");
    CU_ASSERT_STRING_EQUAL(set.quotes[0].quote_id, "A-1");
    CU_ASSERT_EQUAL(set.quotes[0].line, 2);
    CU_ASSERT_STRING_EQUAL(set.quotes[1].notes, "two\r\nlines");
    CU_ASSERT_EQUAL(set.quotes[1].unit_price, 41000);
    CU_ASSERT_EQUAL(set.quotes[1].line, 3);
    tco_quotes_free(&set);
}

/* Excel's sep=; line, decimal commas, '.' thousands, an unambiguous '.' decimal, EUR at 7.7. */
static void test_semicolon_sep(void)
{
    problems pr = {0};
    tco_quote_set set = read_ok(Q "semicolon_sep.csv", &pr);
    CU_ASSERT_EQUAL_FATAL(set.n, 4);
    CU_ASSERT_EQUAL(set.quotes[0].unit_price, 88000.5);
    CU_ASSERT_EQUAL(set.quotes[0].line, 3);
    CU_ASSERT(fabs(set.quotes[0].converted - 88000.5 * 7.7) < 1e-6);
    CU_ASSERT_EQUAL(set.quotes[1].unit_price, 12.5);
    CU_ASSERT_EQUAL(set.quotes[2].unit_price, 1234567.89);
    CU_ASSERT_EQUAL(set.quotes[3].unit_price, 12.5);
    tco_quotes_free(&set);
}

/* A ';' file without sep=, header names in any case, a space as thousands separator. */
static void test_semicolon_sniffed(void)
{
    problems pr = {0};
    tco_quote_set set = read_ok(Q "semicolon_sniffed.csv", &pr);
    CU_ASSERT_EQUAL_FATAL(set.n, 2);
    CU_ASSERT_EQUAL(set.quotes[0].unit_price, 95000);
    CU_ASSERT_STRING_EQUAL(set.quotes[0].currency, "EUR");
    CU_ASSERT_EQUAL(set.quotes[1].unit_price, 70000);
    CU_ASSERT_EQUAL(set.quotes[1].converted, 70000);
    tco_quotes_free(&set);
}

/* Currency symbols and codes around the number; an unknown column is a warning. */
static void test_symbols(void)
{
    problems pr = {0};
    tco_quote_set set = read_ok(Q "symbols.csv", &pr);
    CU_ASSERT_EQUAL_FATAL(set.n, 4);
    CU_ASSERT_EQUAL(set.quotes[0].unit_price, 12500);
    CU_ASSERT_EQUAL(set.quotes[1].unit_price, 1200.5);
    CU_ASSERT(fabs(set.quotes[1].converted - 1200.5 * 7.1) < 1e-9);
    CU_ASSERT_EQUAL(set.quotes[2].unit_price, 1000);
    CU_ASSERT_EQUAL(set.quotes[3].unit_price, 800);
    CU_ASSERT_EQUAL(pr.warnings, 1);
    CU_ASSERT_EQUAL(set.warnings, 1);
    tco_quotes_free(&set);
}

static tco_quote *by_id(tco_quote_set *set, const char *id)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->quotes[i].quote_id, id) == 0)
            return &set->quotes[i];
    CU_FAIL_FATAL("no such quote");
    abort(); /* not reached (CU_FAIL_FATAL jumps out of the test); tells -O3 no NULL is returned */
}

/* The lowest valid price; expired, not-yet-valid and under-quantity quotes kept with their reason;
 * ties to the earliest valid_until, then file order. */
static void test_choice(void)
{
    problems pr = {0};
    tco_fx fx = test_fx();
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_quotes_read(Q "choose.csv", &fx, keep_all, NULL, collect, &pr, &set, &d), TCO_OK);
    CU_ASSERT_EQUAL_FATAL(tco_quotes_read(Q "choose2.csv", &fx, keep_all, NULL, collect, &pr, &set, &d), TCO_OK);
    CU_ASSERT_EQUAL(pr.errors, 0);
    int32_t nov30 = 0, may1 = 0;
    CU_ASSERT_FATAL(tco_parse_date("2026-11-30", &nov30) && tco_parse_date("2026-05-01", &may1));
    /* 32 cards on 2026-11-30: old expired, future not yet valid, bulk needs 64; late 90,000, usd
     * 12,100 x 7.1 = 85,910; three at 85,000: tie-sooner (valid to 2027-01-31, first file) wins. */
    long best = tco_quotes_choose(&set, "D-M", 32, nov30);
    CU_ASSERT_FATAL(best >= 0);
    CU_ASSERT_STRING_EQUAL(set.quotes[best].quote_id, "tie-sooner");
    CU_ASSERT_EQUAL(set.quotes[best].converted, 85000);
    CU_ASSERT_EQUAL(by_id(&set, "old")->status, TCO_QUOTE_EXPIRED);
    CU_ASSERT_STRING_EQUAL(by_id(&set, "old")->reason, "expired: valid until 2026-06-30, as of 2026-11-30");
    CU_ASSERT_EQUAL(by_id(&set, "future")->status, TCO_QUOTE_NOT_YET_VALID);
    CU_ASSERT_EQUAL(by_id(&set, "bulk")->status, TCO_QUOTE_UNDER_QTY);
    CU_ASSERT_STRING_EQUAL(by_id(&set, "bulk")->reason, "minimum quantity 64, the scenario buys 32");
    CU_ASSERT_EQUAL(by_id(&set, "tie-later")->status, TCO_QUOTE_BEATEN);
    CU_ASSERT_EQUAL(by_id(&set, "tie-sooner-second-file")->status, TCO_QUOTE_BEATEN);
    CU_ASSERT(fabs(by_id(&set, "usd")->converted - 85910) < 1e-6);
    /* 64 cards: the bulk price (75,000) qualifies and is lowest. */
    best = tco_quotes_choose(&set, "D-M", 64, nov30);
    CU_ASSERT_STRING_EQUAL(set.quotes[best].quote_id, "bulk");
    /* On 2026-05-01 only "old" (80,000) is valid. */
    best = tco_quotes_choose(&set, "D-M", 32, may1);
    CU_ASSERT_STRING_EQUAL(set.quotes[best].quote_id, "old");
    /* No quote for an item: -1, the catalog price stands. */
    CU_ASSERT_EQUAL(tco_quotes_choose(&set, "W-B", 1, nov30), -1);
    tco_quotes_free(&set);
    tco_fx_free(&fx);
}

/* One malformed file per kind of error, each naming file, line and column. */
static void test_bad_files(void)
{
    static const struct {
        const char *file;
        const char *fragment;
    } cases[] = {
        {"price_comma_group.csv", "price_comma_group.csv:2: column 3 (unit_price): expected ',' only between groups "
                                  "of three digits (as in 12,500.00), found '12,50'"},
        {"price_ambiguous.csv", "price_ambiguous.csv:2: column 3 (unit_price): '1.500' could be a "
                                "thousand-separated whole number or a decimal"},
        {"price_negative.csv", ":2: column 3 (unit_price): expected a positive price, found '-500'"},
        {"price_text.csv", ":2: column 3 (unit_price): expected a price such as 12500 or 12,500.00, found 'abc'"},
        {"price_symbol_mismatch.csv", ":2: column 3 (unit_price): the price's symbol '$' does not match the currency CNY"},
        {"price_empty.csv", ":2: column 3 (unit_price): expected a price, found an empty field"},
        {"currency_unknown.csv", ":2: column 4 (currency): expected a currency code with a rate in pricing/fx.ini "
                                 "(CNY, USD, EUR, GBP, JPY, HKD, SGD), found 'XYZ'"},
        {"date_format.csv", ":2: column 5 (valid_until): expected a date as YYYY-MM-DD, found '31/12/2026'"},
        {"date_invalid.csv", ":2: column 5 (valid_until): no such day: '2026-02-30' (February 2026 has 28 days)"},
        {"date_order.csv", ":2: column 6 (valid_until): valid_until 2026-11-01 is before quote_date 2026-12-01"},
        {"min_qty.csv", ":2: column 5 (min_qty): expected a whole number of units, found '2.5'"},
        {"field_count.csv", ":2: expected 4 fields as in the header, found 3"},
        {"missing_column.csv", ":1: the header lacks the required column 'unit_price'"},
        {"duplicate_column.csv", ":1: column 5 (Vendor): the column 'vendor' appears twice (first as column 1)"},
        {"vendor_empty.csv", ":2: column 1 (vendor): expected a vendor name, found an empty field"},
        {"item_empty.csv", ":2: column 2 (item): expected a catalog item such as D-M, found an empty field"},
        {"unterminated_quote.csv", "unterminated_quote.csv:2: column 1: a quoted field opened here is never closed"},
        {"stray_quote.csv", "stray_quote.csv:2: column 1: malformed quoting"},
        {"utf16.csv", "utf16.csv: the file is UTF-16; save it as \"CSV UTF-8\""},
        {"empty.csv", "empty.csv: expected a header row"},
    };
    tco_fx fx = test_fx();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, TCO_SOURCE_DIR "/tests/fixtures/bad/quotes/%s", cases[i].file);
        problems pr = {0};
        tco_quote_set set = {0};
        tco_diag d = {0};
        tco_error e = tco_quotes_read(path, &fx, keep_all, NULL, collect, &pr, &set, &d);
        const char *msg = pr.errors ? pr.first : d.message;
        bool ok = (pr.errors > 0 || e != TCO_OK) && strstr(msg, cases[i].fragment) != NULL && set.n == 0;
        if (!ok)
            fprintf(stderr, "\n%s: expected '%s'\n  got (%s) '%s'\n", cases[i].file, cases[i].fragment,
                    tco_strerror(e), msg);
        CU_ASSERT(ok);
        tco_quotes_free(&set);
    }
    tco_fx_free(&fx);
}

static void test_price_parser(void)
{
    double v;
    char why[256];
    CU_ASSERT(tco_quote_parse_price("12,500.00", ',', "CNY", &v, why, sizeof why) && v == 12500);
    CU_ASSERT(tco_quote_parse_price("1,234,567", ',', "CNY", &v, why, sizeof why) && v == 1234567);
    CU_ASSERT(tco_quote_parse_price("12500", ';', "EUR", &v, why, sizeof why) && v == 12500);
    CU_ASSERT(tco_quote_parse_price("12.500,00", ';', "EUR", &v, why, sizeof why) && v == 12500);
    CU_ASSERT(tco_quote_parse_price("\xe2\x82\xac 99,95", ';', "EUR", &v, why, sizeof why) && v == 99.95);
    CU_ASSERT(tco_quote_parse_price("12\xc2\xa0" "500,00", ';', "EUR", &v, why, sizeof why) && v == 12500);
    CU_ASSERT(tco_quote_parse_price("\xc2\xa3" "2,000", ',', "GBP", &v, why, sizeof why) && v == 2000);
    CU_ASSERT(tco_quote_parse_price("980 CNY", ',', "CNY", &v, why, sizeof why) && v == 980);
    CU_ASSERT(!tco_quote_parse_price("1234,567", ',', "CNY", &v, why, sizeof why));
    CU_ASSERT(!tco_quote_parse_price("12,500.00", ';', "EUR", &v, why, sizeof why)); /* ',' is the decimal mark */
    CU_ASSERT(!tco_quote_parse_price("0", ',', "CNY", &v, why, sizeof why));
    CU_ASSERT(!tco_quote_parse_price("\xe2\x82\xac" "5", ',', "USD", &v, why, sizeof why));
    /* Another currency's code: named as a mismatch, before or after the number. */
    CU_ASSERT(!tco_quote_parse_price("100 USD", ',', "CNY", &v, why, sizeof why));
    CU_ASSERT(strstr(why, "currency code 'USD' does not match the currency CNY") != NULL);
    CU_ASSERT(!tco_quote_parse_price("USD 12 500", ',', "CNY", &v, why, sizeof why));
    CU_ASSERT(strstr(why, "currency code 'USD' does not match the currency CNY") != NULL);
    CU_ASSERT(tco_quote_parse_price("100 usd", ',', "USD", &v, why, sizeof why) && v == 100);
    CU_ASSERT(tco_quote_parse_price("RMB 100", ',', "CNY", &v, why, sizeof why) && v == 100);
    /* A space groups thousands in ';' files only; ',' and tab files group with ','. */
    CU_ASSERT(!tco_quote_parse_price("12 500", ',', "CNY", &v, why, sizeof why));
    CU_ASSERT(strstr(why, "groups thousands with ',' only") != NULL);
    CU_ASSERT(!tco_quote_parse_price("12\xc2\xa0" "500", '\t', "CNY", &v, why, sizeof why));
    CU_ASSERT(tco_quote_parse_price("12 500", ';', "EUR", &v, why, sizeof why) && v == 12500);
    int32_t d;
    char out[16];
    CU_ASSERT(tco_parse_date("2024-02-29", &d));
    tco_format_date(d, out);
    CU_ASSERT_STRING_EQUAL(out, "2024-02-29");
    CU_ASSERT(tco_parse_date("1970-01-02", &d) && d == 1);
    CU_ASSERT(!tco_parse_date("2025-02-29", &d));
    CU_ASSERT(!tco_parse_date("2025-1-02", &d));
}

/* Write @p len bytes to a new temporary file; its path goes to @p path (at least 64 bytes). */
static void temp_file(char *path, const char *data, size_t len)
{
    snprintf(path, 64, "/tmp/tco-test-quotes-XXXXXX");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_EQUAL(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Read @p len bytes as a quote file (every row kept); problems counted in @p pr. */
static tco_error read_bytes(const char *data, size_t len, problems *pr, tco_quote_set *set, tco_diag *d)
{
    char path[64];
    temp_file(path, data, len);
    tco_fx fx = test_fx();
    tco_error e = tco_quotes_read(path, &fx, keep_all, NULL, collect, pr, set, d);
    tco_fx_free(&fx);
    remove(path);
    return e;
}

/* The price rule: a mark followed by exactly three digits is ambiguous only after a possible first
 * group (1 to 3 digits, not led by 0); a group separator needs such a first group. */
static void test_price_ambiguity_rule(void)
{
    double v;
    char why[256];
    CU_ASSERT(tco_quote_parse_price("123457.250", ',', "CNY", &v, why, sizeof why) && v == 123457.25);
    CU_ASSERT(tco_quote_parse_price("1234.500", ',', "CNY", &v, why, sizeof why) && v == 1234.5);
    CU_ASSERT(tco_quote_parse_price("0.125", ',', "CNY", &v, why, sizeof why) && v == 0.125);
    CU_ASSERT(tco_quote_parse_price("1,000.500", ',', "CNY", &v, why, sizeof why) && v == 1000.5);
    CU_ASSERT(!tco_quote_parse_price("12.500", ',', "CNY", &v, why, sizeof why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "'12.500' could be a thousand-separated whole number or a decimal"));
    CU_ASSERT(!tco_quote_parse_price("999.125", ',', "CNY", &v, why, sizeof why));
    CU_ASSERT(!tco_quote_parse_price("0,125", ',', "CNY", &v, why, sizeof why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "expected ',' only between groups of three digits"));
    /* ';' files: ',' is the decimal mark, '.' groups. */
    CU_ASSERT(tco_quote_parse_price("0,125", ';', "EUR", &v, why, sizeof why) && v == 0.125);
    CU_ASSERT(tco_quote_parse_price("123457,250", ';', "EUR", &v, why, sizeof why) && v == 123457.25);
    CU_ASSERT(tco_quote_parse_price("1234.500", ';', "EUR", &v, why, sizeof why) && v == 1234.5);
    CU_ASSERT(tco_quote_parse_price("0.125", ';', "EUR", &v, why, sizeof why) && v == 0.125);
    CU_ASSERT(tco_quote_parse_price("1.234.567,5", ';', "EUR", &v, why, sizeof why) && v == 1234567.5);
    CU_ASSERT(!tco_quote_parse_price("1.500", ';', "EUR", &v, why, sizeof why));
    CU_ASSERT(!tco_quote_parse_price("12,500", ';', "EUR", &v, why, sizeof why));
}

static void test_date_no_such_day(void)
{
    int32_t d;
    char why[200];
    CU_ASSERT(!tco_date_check("2026-02-30", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2026-02-30' (February 2026 has 28 days)");
    CU_ASSERT(!tco_date_check("2024-02-30", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2024-02-30' (February 2024 has 29 days)");
    CU_ASSERT(!tco_date_check("2026-04-31", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2026-04-31' (April 2026 has 30 days)");
    CU_ASSERT(!tco_date_check("2026-00-10", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2026-00-10' names month 00 (months are 01 to 12)");
    CU_ASSERT(!tco_date_check("2026-11-00", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such day: '2026-11-00' (November 2026 has 30 days)");
    CU_ASSERT(!tco_date_check("30/11/2026", &d, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "expected a date as YYYY-MM-DD, found '30/11/2026'");
    CU_ASSERT(tco_date_check("2000-02-29", &d, why, sizeof why) && d == 11016);
}

/* LF, CR and CRLF each end a line, inside quoted fields too; a CRLF split between two 64 KiB reads is one. */
static void test_line_ends(void)
{
    static const char cr[] = "vendor,item,unit_price,currency,notes\rA,D-M,1,CNY,\"x\ry\"\rB,D-M,2,CNY,\r\n"
                             "C,D-M,3,CNY,\"p\r\nq\nr\"\nD,D-M,4,CNY,\r";
    problems pr = {0};
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL(read_bytes(cr, sizeof cr - 1, &pr, &set, &d), TCO_OK);
    CU_ASSERT_EQUAL(pr.errors, 0);
    CU_ASSERT_EQUAL_FATAL(set.n, 4);
    CU_ASSERT_EQUAL(set.quotes[0].line, 2);
    CU_ASSERT_EQUAL(set.quotes[1].line, 4);
    CU_ASSERT_EQUAL(set.quotes[2].line, 5);
    CU_ASSERT_EQUAL(set.quotes[3].line, 8);
    CU_ASSERT_STRING_EQUAL(set.quotes[0].notes, "x\ry");
    tco_quotes_free(&set);
    /* Rows of 1,000-character notes, then one padded so that a CRLF falls across the first 64 KiB
     * read's end (byte 65,535 is the CR): still one line end. */
    tco_strbuf b = {0};
    tco_strbuf_append(&b, "vendor,item,unit_price,currency,notes\n");
    long rows = 0;
    while (b.len < 65535 - 2000) {
        tco_strbuf_append(&b, "F,D-M,1,CNY,");
        for (int i = 0; i < 1000; i++)
            tco_strbuf_append(&b, "n");
        tco_strbuf_append(&b, "\n");
        rows++;
    }
    tco_strbuf_append(&b, "A,D-M,1,CNY,");
    while (b.len < 65535)
        tco_strbuf_append(&b, "n");
    tco_strbuf_append(&b, "\r\nB,D-M,2,CNY,\rC,D-M,x,CNY,\n");
    CU_ASSERT_FATAL(!b.failed && b.data[65535] == '\r' && b.data[65536] == '\n');
    problems pr2 = {0};
    CU_ASSERT_EQUAL(read_bytes(b.data, b.len, &pr2, &set, &d), TCO_OK);
    CU_ASSERT_EQUAL(pr2.errors, 1);
    char want[64];
    snprintf(want, sizeof want, ":%ld: column 3 (unit_price): expected a price", rows + 4);
    CU_ASSERT_PTR_NOT_NULL(strstr(pr2.first, want));
    CU_ASSERT_EQUAL_FATAL(set.n, (size_t)rows + 2);
    CU_ASSERT_EQUAL(set.quotes[rows].line, rows + 2);
    CU_ASSERT_EQUAL(set.quotes[rows + 1].line, rows + 3);
    tco_strbuf_free(&b);
    tco_quotes_free(&set);
}

/* Runs of blank lines (read in one call) count every line end, also across a 64 KiB read. */
static void test_blank_line_runs(void)
{
    static const char mixed[] = "vendor,item,unit_price,currency\n\r\n\r \r\n\n\rA,D-M,x,CNY\n";
    problems pr = {0};
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL(read_bytes(mixed, sizeof mixed - 1, &pr, &set, &d), TCO_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(pr.first, ":7: column 3 (unit_price)"));
    tco_quotes_free(&set);
    tco_strbuf b = {0};
    tco_strbuf_append(&b, "vendor,item,unit_price,currency \n"); /* 33 bytes: the CRs fall on odd bytes */
    for (int i = 0; i < 70000; i++)
        tco_strbuf_append(&b, "\r\n");
    tco_strbuf_append(&b, "  \r\r\nA,D-M,x,CNY\r");
    CU_ASSERT_FATAL(b.data[65535] == '\r' && b.data[65536] == '\n'); /* a CRLF split between two reads */
    problems pr2 = {0};
    CU_ASSERT_EQUAL(read_bytes(b.data, b.len, &pr2, &set, &d), TCO_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(pr2.first, ":70004: column 3 (unit_price)"));
    tco_strbuf_free(&b);
    tco_quotes_free(&set);
}

/* Format characters are not part of an identifier; text fields keep them. */
static void test_format_characters(void)
{
    static const char csv[] = "\xE2\x80\x8Bvendor,item,unit_price,currency,quote_id\n"
                              "A\xE2\x80\x8D" "B,\xEF\xBB\xBF" "D-M\xC2\xA0,\"\xE2\x81\xA0" "12,500\",c\xE2\x80\x8Bny,Q\xE2\x80\x8B" "1\n";
    problems pr = {0};
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL(read_bytes(csv, sizeof csv - 1, &pr, &set, &d), TCO_OK);
    CU_ASSERT_EQUAL(pr.errors, 0);
    CU_ASSERT_EQUAL_FATAL(set.n, 1);
    CU_ASSERT_STRING_EQUAL(set.quotes[0].item, "D-M");
    CU_ASSERT_STRING_EQUAL(set.quotes[0].currency, "CNY");
    CU_ASSERT_EQUAL(set.quotes[0].unit_price, 12500);
    CU_ASSERT_STRING_EQUAL(set.quotes[0].vendor, "A\xE2\x80\x8D" "B");       /* a joiner stays in a name */
    CU_ASSERT_STRING_EQUAL(set.quotes[0].quote_id, "Q\xE2\x80\x8B" "1");
    CU_ASSERT(tco_quote_format_char(0xFEFF) && tco_quote_format_char(0x200B) && tco_quote_format_char(0x2064) &&
              tco_quote_format_char(0xAD) && tco_quote_format_char(0xE0041));
    CU_ASSERT(!tco_quote_format_char('A') && !tco_quote_format_char(0x2065) && !tco_quote_format_char(0xA0));
    tco_quotes_free(&set);
}

/* 300 columns before the quote columns: every one is read (no cut at 256). */
static void test_wide_header(void)
{
    tco_strbuf b = {0};
    for (int i = 0; i < 300; i++)
        tco_strbuf_printf(&b, "x%d,", i);
    tco_strbuf_append(&b, "vendor,item,unit_price,currency\n");
    for (int i = 0; i < 300; i++)
        tco_strbuf_append(&b, ",");
    tco_strbuf_append(&b, "Wide,W-B,40000,CNY\n");
    problems pr = {0};
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL(read_bytes(b.data, b.len, &pr, &set, &d), TCO_OK);
    CU_ASSERT_EQUAL(pr.errors, 0);
    CU_ASSERT_EQUAL(pr.warnings, 300);
    CU_ASSERT_EQUAL_FATAL(set.n, 1);
    CU_ASSERT_STRING_EQUAL(set.quotes[0].vendor, "Wide");
    CU_ASSERT_EQUAL(set.quotes[0].unit_price, 40000);
    CU_ASSERT_EQUAL(set.quotes[0].item_column, 302);
    tco_strbuf_free(&b);
    tco_quotes_free(&set);
}

/* A field past the limit stops the read at once, naming its row and column. */
static void test_field_limit_stops(void)
{
    tco_strbuf b = {0};
    tco_strbuf_append(&b, "vendor,item,unit_price,currency,notes\nA,D-M,1,CNY,\"");
    while (b.len < 400000)
        tco_strbuf_append(&b, "abcdefgh");
    problems pr = {0};
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL(read_bytes(b.data, b.len, &pr, &set, &d), TCO_ERR_SYNTAX);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, ":2: column 5 (notes): more than 32,767 characters, more than an Excel "
                                             "cell holds"));
    CU_ASSERT_EQUAL(set.n, 0);
    tco_strbuf_free(&b);
    tco_quotes_free(&set);
}

/* A reason naming a long non-ASCII vendor is whole: never cut inside a character. */
static void test_reason_whole(void)
{
    char vendor[301] = "";
    for (int i = 0; i < 100; i++)
        strcat(vendor, "\xE5\x8D\x8E"); /* 华 x 100: 300 bytes, cut at 255 by the old char[256] */
    tco_strbuf b = {0};
    tco_strbuf_printf(&b, "vendor,item,unit_price,currency\n%s,D-M,80000,CNY\nDear,D-M,90000,CNY\n", vendor);
    problems pr = {0};
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL(read_bytes(b.data, b.len, &pr, &set, &d), TCO_OK);
    int32_t day;
    CU_ASSERT_FATAL(tco_parse_date("2026-11-30", &day));
    CU_ASSERT_EQUAL(tco_quotes_choose(&set, "D-M", 32, day), 0);
    const char *reason = set.quotes[1].reason;
    CU_ASSERT_FATAL(reason != NULL);
    CU_ASSERT(tco_xml_text_valid(reason, strlen(reason), NULL, NULL));
    CU_ASSERT(strncmp(reason, "a cheaper quote from ", 21) == 0 && strstr(reason, vendor) != NULL);
    CU_ASSERT_EQUAL(tco_utf8_chars(reason), strlen("a cheaper quote from ") + 100 + strlen(" (") +
                                                tco_utf8_chars(set.quotes[0].file) + strlen(":2) was chosen"));
    tco_strbuf_free(&b);
    tco_quotes_free(&set);
}

/* The name index: 5,000 names found case-insensitively, values kept through growth, absent names absent. */
static void test_name_index(void)
{
    static char names[5000][8];
    tco_name_index ix = {0};
    for (int i = 0; i < 5000; i++) {
        snprintf(names[i], sizeof names[i], "T%05d", i);
        bool added = false;
        size_t *v = tco_name_index_put(&ix, names[i], &added);
        CU_ASSERT_FATAL(v != NULL);
        CU_ASSERT(added && *v == SIZE_MAX);
        *v = (size_t)i;
    }
    CU_ASSERT_EQUAL(ix.n, 5000);
    size_t v = 0;
    CU_ASSERT(tco_name_index_get(&ix, "t04999", &v) && v == 4999);
    CU_ASSERT(tco_name_index_get(&ix, "T00000", &v) && v == 0);
    CU_ASSERT(!tco_name_index_get(&ix, "T05000", NULL));
    bool added = true;
    size_t *again = tco_name_index_put(&ix, "t00042", &added);
    CU_ASSERT(again != NULL && !added && *again == 42 && ix.n == 5000);
    tco_name_index_free(&ix);
    CU_ASSERT(!tco_name_index_get(&ix, "T00000", NULL));
}

/* --set fx.usd=7.2: the rate changes, the file's is kept for the source; bad codes and rates are refused. */
static void test_fx_set(void)
{
    tco_fx fx = test_fx();
    tco_diag d = {0};
    double rate = 0;
    CU_ASSERT_EQUAL(tco_fx_set(&fx, "fx.USD=7.2", "USD", "7.2", &d), TCO_OK);
    CU_ASSERT(tco_fx_rate(&fx, "usd", &rate) && rate == 7.2);
    size_t usd = 0;
    while (usd < fx.n && strcmp(fx.codes[usd], "USD") != 0)
        usd++;
    CU_ASSERT_FATAL(usd < fx.n && fx.set_args != NULL);
    CU_ASSERT(fx.file_rates[usd] == 7.1 && strcmp(fx.set_args[usd], "fx.USD=7.2") == 0);
    CU_ASSERT(tco_fx_rate(&fx, "EUR", &rate) && rate == 7.7);
    CU_ASSERT_EQUAL(tco_fx_set(&fx, "fx.usb=7", "usb", "7", &d), TCO_ERR_INI);
    CU_ASSERT(strstr(d.message, "--set fx.usb=7: no rate 'usb' in pricing/fx.ini [fx] (it has ") != NULL);
    CU_ASSERT_EQUAL(tco_fx_set(&fx, "fx.cny=2", "cny", "2", &d), TCO_ERR_INI);
    CU_ASSERT(strstr(d.message, "CNY is the reporting currency") != NULL);
    CU_ASSERT_EQUAL(tco_fx_set(&fx, "fx.usd=1e7", "usd", "1e7", &d), TCO_ERR_INI);
    CU_ASSERT(strstr(d.message, "expected CNY per USD as a number from 0.000001 to 1000000, found '1e7'") != NULL);
    CU_ASSERT(tco_fx_rate(&fx, "usd", &rate) && rate == 7.2);
    tco_fx_free(&fx);
}

/* cluster32 (with --set @p set, or NULL) reported in USD at @p rate CNY per USD, as tco --currency USD
 * --set fx.usd=RATE loads it. */
static tco_model *cluster32_usd(const char *set, const char *rate)
{
    tco_fx fx = test_fx();
    tco_diag d = {0};
    tco_override ov;
    tco_model *m = NULL;
    char arg[32];
    snprintf(arg, sizeof arg, "fx.usd=%s", rate);
    CU_ASSERT_EQUAL_FATAL(tco_fx_set(&fx, arg, "usd", rate, &d), TCO_OK);
    CU_ASSERT_FATAL(set == NULL || tco_override_parse(set, &ov, &d) == TCO_OK);
    tco_error e = load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini",
        &(tco_load_options){.overrides = &ov, .n_overrides = set ? 1 : 0}, &m, &d);
    if (e == TCO_OK)
        e = tco_model_set_currency(m, "USD", &fx, NULL, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    tco_fx_free(&fx);
    return m;
}

static double tco_of(const tco_model *m)
{
    double v = NAN;
    CU_ASSERT(tco_model_role_value(m, m->role_tco, &v));
    return v;
}

/* The reporting rate moved on a loaded model, and a money input moved by its CNY value, give the model
 * loaded that way, to the bit: each money input is CNY / fx_report, the one conversion. */
static void test_report_rate(void)
{
    tco_model *m = cluster32_usd(NULL, "7.1"), *at75 = cluster32_usd(NULL, "7.5"),
              *host = cluster32_usd("host.price=210000", "7.5");
    tco_diag d = {0};
    double t71 = tco_of(m);
    CU_ASSERT_EQUAL(tco_model_set_report_rate(m, 7.5, &d), TCO_OK);
    CU_ASSERT(tco_of(m) == tco_of(at75));
    int hp = tco_model_find(m, "host_price"), tp = tco_model_find(m, "tier_price"), dm = 0;
    CU_ASSERT_FATAL(hp >= 0 && tp >= 0);
    while (dm < m->n_tiers && strcmp(m->tier_names[dm], "D-M") != 0)
        dm++;
    CU_ASSERT_FATAL(dm < m->n_tiers);
    const tco_item *h = &m->items[hp], *t = &m->items[tp];
    /* pricing/hosts.ini [dc8] price = 200000, price_range = 140000, 260000; cards.ini [D-M] price = 95000 */
    CU_ASSERT(h->in_report && h->base_value == 200000 && h->value == 200000 / 7.5);
    CU_ASSERT(h->range.low == 140000 / 7.5 && h->range.high == 260000 / 7.5);
    CU_ASSERT(t->base_tiers[dm] == 95000 && t->tiers[dm] == 95000 / 7.5);
    CU_ASSERT(m->items[tco_model_find(m, TCO_FX_REPORT)].value == 7.5);
    /* By its CNY value: 210,000 CNY is 28,000 USD at 7.5, the run of --set host.price=210000. */
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "host_price", NULL, 210000, &d), TCO_OK);
    CU_ASSERT(h->base_value == 210000 && h->value == 28000 && tco_of(m) == tco_of(host));
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "tier_price", "d-m", 88000, &d), TCO_OK);
    CU_ASSERT(t->base_tiers[dm] == 88000 && t->tiers[dm] == 88000 / 7.5);
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "tier_price", "d-m", 95000, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "host_price", NULL, 200000, &d), TCO_OK);
    /* fx_report by the same call is the rate; back at 7.1 the first figure, to the bit. */
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, TCO_FX_REPORT, NULL, 7.1, &d), TCO_OK);
    CU_ASSERT(tco_of(m) == t71 && h->value == 200000 / 7.1);
    /* Refused, and nothing changes: a rate out of bounds, a price below its min of 0, a tier that is none. */
    CU_ASSERT_EQUAL(tco_model_set_report_rate(m, 0, &d), TCO_ERR_INI);
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "host_price", NULL, -1, &d), TCO_ERR_INI);
    CU_ASSERT(strstr(d.message, "input host_price: value") != NULL);
    CU_ASSERT_EQUAL(tco_model_set_given_input(m, "tier_price", "D-X", 1, &d), TCO_ERR_UNKNOWN_NAME);
    CU_ASSERT(tco_of(m) == t71 && h->base_value == 200000);
    /* In CNY there is no reporting rate; a money input's given value is its value. */
    tco_model *cny = NULL;
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &cny, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_model_set_report_rate(cny, 7.5, &d), TCO_ERR_UNKNOWN_NAME);
    CU_ASSERT_EQUAL(tco_model_set_given_input(cny, "host_price", NULL, 210000, &d), TCO_OK);
    CU_ASSERT(cny->items[tco_model_find(cny, "host_price")].value == 210000);
    tco_model_free(cny);
    tco_model_free(m);
    tco_model_free(at75);
    tco_model_free(host);
}

CU_ErrorCode register_quotes_suite(void)
{
    CU_pSuite s = CU_add_suite("quotes", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "BOM, CRLF, quoted commas, quotes and newlines", test_bom_crlf_quoting) ||
        !CU_add_test(s, "sep=; with decimal commas", test_semicolon_sep) ||
        !CU_add_test(s, "semicolons without sep=", test_semicolon_sniffed) ||
        !CU_add_test(s, "currency symbols and codes", test_symbols) ||
        !CU_add_test(s, "choice: validity, minimum quantity, ties", test_choice) ||
        !CU_add_test(s, "one malformed file per kind of error", test_bad_files) ||
        !CU_add_test(s, "price and date parsing", test_price_parser) ||
        !CU_add_test(s, "price ambiguity rule", test_price_ambiguity_rule) ||
        !CU_add_test(s, "dates that name no day", test_date_no_such_day) ||
        !CU_add_test(s, "LF, CR and CRLF line ends", test_line_ends) ||
        !CU_add_test(s, "runs of blank lines", test_blank_line_runs) ||
        !CU_add_test(s, "format characters in identifiers", test_format_characters) ||
        !CU_add_test(s, "a header of 300 columns", test_wide_header) ||
        !CU_add_test(s, "a field past the limit stops the read", test_field_limit_stops) ||
        !CU_add_test(s, "a reason with a long non-ASCII vendor is whole", test_reason_whole) ||
        !CU_add_test(s, "the name index", test_name_index) ||
        !CU_add_test(s, "--set fx.CODE=RATE", test_fx_set) ||
        !CU_add_test(s, "the reporting rate and CNY values moved on a loaded model", test_report_rate))
        return CU_get_error();
    return CUE_SUCCESS;
}
