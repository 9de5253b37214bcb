/* test_quotes.c - vendor quote CSV files: what real files contain, the choice of
 * price, and one malformed file per kind of error (tests/fixtures/quotes/). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quotes.h"
#include "suites.h"

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
    return NULL;
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
    int32_t nov30, may1;
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
    int32_t d;
    char out[16];
    CU_ASSERT(tco_parse_date("2024-02-29", &d));
    tco_format_date(d, out);
    CU_ASSERT_STRING_EQUAL(out, "2024-02-29");
    CU_ASSERT(tco_parse_date("1970-01-02", &d) && d == 1);
    CU_ASSERT(!tco_parse_date("2025-02-29", &d));
    CU_ASSERT(!tco_parse_date("2025-1-02", &d));
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
        !CU_add_test(s, "price and date parsing", test_price_parser))
        return CU_get_error();
    return CUE_SUCCESS;
}
