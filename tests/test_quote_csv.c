/* test_quote_csv.c - engine/read/quote_csv.c: vendor quote CSV files as real files are written (byte-order
 * marks, line ends, separators, quoting, wide headers, long fields), and one malformed file per kind of
 * error (tests/fixtures/quotes/, tests/fixtures/bad/quotes/), each naming file, line and column. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "read/fx.h"
#include "read/quote_csv.h"
#include "fixture.h"
#include "suites.h"

#define Q TCO_SOURCE_DIR "/tests/fixtures/quotes/"

/* pricing/fx.ini: CNY reporting, 7.1 CNY per USD, 7.7 per EUR. */
static tco_fx test_fx(void)
{
    tco_fx fx = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(fixture_fx(TCO_SOURCE_DIR, &fx, &d), TCO_OK);
    return fx;
}

static tco_quote_set read_ok(const char *path, fixture_problems *pr)
{
    tco_fx fx = test_fx();
    tco_quote_set set = {0};
    tco_diag d = {0};
    tco_error e = tco_quotes_read(path, &fx, fixture_keep_all, NULL, fixture_collect, pr, &set, &d);
    if (e != TCO_OK || pr->errors)
        fprintf(stderr, "\n%s: %s %s\n", path, d.message, pr->first);
    CU_ASSERT_EQUAL(e, TCO_OK);
    CU_ASSERT_EQUAL(pr->errors, 0);
    tco_fx_free(&fx);
    return set;
}

/* Read @p len bytes as a quote file (every row kept); problems counted in @p pr. */
static tco_error read_bytes(const char *data, size_t len, fixture_problems *pr, tco_quote_set *set, tco_diag *d)
{
    return fixture_read_quote_bytes(TCO_SOURCE_DIR, data, len, pr, set, d);
}

/* UTF-8 byte-order mark, CRLF, quoted commas, doubled quotes, a newline in a field, blank trailing lines. */
static void test_bom_crlf_quoting(void)
{
    fixture_problems pr = {0};
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

/* Excel's sep=; line, decimal commas, '.' thousands, EUR at 7.7. */
static void test_semicolon_sep(void)
{
    fixture_problems pr = {0};
    tco_quote_set set = read_ok(Q "semicolon_sep.csv", &pr);
    CU_ASSERT_EQUAL_FATAL(set.n, 3);
    CU_ASSERT_EQUAL(set.quotes[0].unit_price, 88000.5);
    CU_ASSERT_EQUAL(set.quotes[0].line, 3);
    CU_ASSERT(fabs(set.quotes[0].converted - 88000.5 * 7.7) < 1e-6);
    CU_ASSERT_EQUAL(set.quotes[1].unit_price, 12.5);
    CU_ASSERT_EQUAL(set.quotes[2].unit_price, 1234567.89);
    tco_quotes_free(&set);
}

/* A ';' file whose decimals are all points (one convention per file): 88000.50, a VAT rate 0.13, 12.5, and
 * '.' grouping without decimals (1.234.567). */
static void test_semicolon_point(void)
{
    fixture_problems pr = {0};
    tco_quote_set set = read_ok(Q "semicolon_point.csv", &pr);
    CU_ASSERT_EQUAL_FATAL(set.n, 3);
    CU_ASSERT_EQUAL(set.quotes[0].unit_price, 88000.5);
    CU_ASSERT_EQUAL(set.quotes[0].vat_rate, 0.13);
    CU_ASSERT_EQUAL(set.quotes[1].unit_price, 12.5);
    CU_ASSERT_EQUAL(set.quotes[2].unit_price, 1234567);
    tco_quotes_free(&set);
}

/* A ';' file without sep=, header names in any case, a space as thousands separator. */
static void test_semicolon_sniffed(void)
{
    fixture_problems pr = {0};
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
    fixture_problems pr = {0};
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

/* A currency code without a rate in pricing/fx.ini is no error: the row is kept with status no_rate, rate and
 * converted NaN, and a reason naming the currency, the rates file and the key to add; its price is still
 * read (1,100,000 KRW) and checked ('abc' in KRW is an error, as in any currency). */
static void test_no_rate(void)
{
    static const char data[] = "vendor,item,unit_price,currency\nA,D-M,\"1,100,000\",krw\nB,D-M,88000,CNY\n"
                               "C,D-M,abc,KRW\n";
    fixture_problems pr = {0};
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL(read_bytes(data, sizeof data - 1, &pr, &set, &d), TCO_OK);
    CU_ASSERT_EQUAL(pr.errors, 1); /* line 4: abc */
    CU_ASSERT_EQUAL(pr.warnings, 0);
    CU_ASSERT_EQUAL_FATAL(set.n, 2);
    const tco_quote *q = &set.quotes[0];
    CU_ASSERT_EQUAL(q->status, TCO_QUOTE_NO_RATE);
    CU_ASSERT_EQUAL(q->unit_price, 1100000);
    CU_ASSERT_STRING_EQUAL(q->currency, "KRW");
    CU_ASSERT_EQUAL(q->currency_column, 4);
    CU_ASSERT(isnan(q->rate) && isnan(q->converted));
    CU_ASSERT_PTR_NOT_NULL_FATAL(q->reason);
    CU_ASSERT_PTR_NOT_NULL(strstr(q->reason, "no exchange rate for KRW in "));
    CU_ASSERT_PTR_NOT_NULL(strstr(q->reason, "pricing/fx.ini (it has USD, EUR, GBP, JPY, HKD, SGD): add krw = RATE "
                                             "(CNY per KRW) to its [fx] section to use this quote"));
    CU_ASSERT_EQUAL(set.quotes[1].status, TCO_QUOTE_USED); /* the zero status: not judged yet */
    CU_ASSERT_PTR_NULL(set.quotes[1].reason);
    CU_ASSERT_EQUAL(set.quotes[1].converted, 88000);
    tco_quotes_free(&set);
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
        {"currency_not_code.csv", ":2: column 4 (currency): expected a currency code with a rate in pricing/fx.ini "
                                  "(CNY, USD, EUR, GBP, JPY, HKD, SGD), found 'dollars'"},
        {"date_format.csv", ":2: column 5 (valid_until): expected a date as YYYY-MM-DD, found '31/12/2026'"},
        {"date_invalid.csv", ":2: column 5 (valid_until): no such day: '2026-02-30' (February 2026 has 28 days)"},
        {"date_order.csv", ":2: column 6 (valid_until): valid_until 2026-11-01 is before quote_date 2026-12-01"},
        {"min_qty.csv", ":2: column 5 (min_qty): expected a whole number of units, at least 1, found '2.5'"},
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
        fixture_problems pr = {0};
        tco_quote_set set = {0};
        tco_diag d = {0};
        tco_error e = tco_quotes_read(path, &fx, fixture_keep_all, NULL, fixture_collect, &pr, &set, &d);
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

/* LF, CR and CRLF each end a line, inside quoted fields too; a CRLF split between two 64 KiB reads is one. */
static void test_line_ends(void)
{
    static const char cr[] = "vendor,item,unit_price,currency,notes\rA,D-M,1,CNY,\"x\ry\"\rB,D-M,2,CNY,\r\n"
                             "C,D-M,3,CNY,\"p\r\nq\nr\"\nD,D-M,4,CNY,\r";
    fixture_problems pr = {0};
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
    fixture_problems pr2 = {0};
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
    fixture_problems pr = {0};
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
    fixture_problems pr2 = {0};
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
    fixture_problems pr = {0};
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
    fixture_problems pr = {0};
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
    fixture_problems pr = {0};
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL(read_bytes(b.data, b.len, &pr, &set, &d), TCO_ERR_SYNTAX);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, ":2: column 5 (notes): more than 32,767 characters, more than an Excel "
                                             "cell holds"));
    CU_ASSERT_EQUAL(set.n, 0);
    tco_strbuf_free(&b);
    tco_quotes_free(&set);
}

CU_ErrorCode register_quote_csv_suite(void)
{
    CU_pSuite s = CU_add_suite("quote_csv", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "BOM, CRLF, quoted commas, quotes and newlines", test_bom_crlf_quoting) ||
        !CU_add_test(s, "sep=; with decimal commas", test_semicolon_sep) ||
        !CU_add_test(s, "a ';' file with decimal points", test_semicolon_point) ||
        !CU_add_test(s, "semicolons without sep=", test_semicolon_sniffed) ||
        !CU_add_test(s, "currency symbols and codes", test_symbols) ||
        !CU_add_test(s, "a currency without a rate: a row kept as no_rate", test_no_rate) ||
        !CU_add_test(s, "one malformed file per kind of error", test_bad_files) ||
        !CU_add_test(s, "LF, CR and CRLF line ends", test_line_ends) ||
        !CU_add_test(s, "runs of blank lines", test_blank_line_runs) ||
        !CU_add_test(s, "format characters in identifiers", test_format_characters) ||
        !CU_add_test(s, "a header of 300 columns", test_wide_header) ||
        !CU_add_test(s, "a field past the limit stops the read", test_field_limit_stops))
        return CU_get_error();
    return CUE_SUCCESS;
}
