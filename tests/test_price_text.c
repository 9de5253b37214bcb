/* test_price_text.c - engine/read/price_text.c: prices as vendors write them: thousands separators by the
 * file's delimiter, decimal marks, currency symbols and codes, and the ambiguity rule. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "read/price_text.h"
#include "suites.h"

/* Separators, marks, symbols and codes: each value as written, or refused with its reason. */
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

/* Every other number column of a quote file follows the file's decimal mark and grouping, as unit_price
 * does (issue 24 §7): "0,13" is 0.13 in a ';' file, "1,000" is 1000 in a ',' file. */
static void test_file_numbers(void)
{
    double v;
    char why[256];
    const char *vat = "a VAT rate as a share from 0 to 1";
    CU_ASSERT(tco_quote_parse_number("0,13", ';', vat, &v, why, sizeof why) && v == 0.13);
    CU_ASSERT(tco_quote_parse_number(" 0,06 ", ';', vat, &v, why, sizeof why) && v == 0.06);
    CU_ASSERT(tco_quote_parse_number("0.13", ';', vat, &v, why, sizeof why) && v == 0.13); /* a '.' before two digits */
    CU_ASSERT(tco_quote_parse_number("0.13", ',', vat, &v, why, sizeof why) && v == 0.13);
    CU_ASSERT(tco_quote_parse_number("0", ',', vat, &v, why, sizeof why) && v == 0);
    CU_ASSERT(tco_quote_parse_number("2,5", ';', "weeks", &v, why, sizeof why) && v == 2.5);
    CU_ASSERT(tco_quote_parse_number("1,000", ',', "units", &v, why, sizeof why) && v == 1000);
    CU_ASSERT(tco_quote_parse_number("1.000.000", ';', "units", &v, why, sizeof why) && v == 1000000);
    /* A comma is no decimal mark in a ',' file; "1.000" reads two ways in a ';' file (1 or 1000). */
    CU_ASSERT(!tco_quote_parse_number("0,13", ',', vat, &v, why, sizeof why));
    CU_ASSERT(strstr(why, "expected ',' only between groups of three digits") != NULL);
    CU_ASSERT(!tco_quote_parse_number("1.000", ';', "units", &v, why, sizeof why));
    CU_ASSERT(strstr(why, "could be a thousand-separated whole number or a decimal") != NULL);
    /* No sign, exponent, percent or text: the column's expectation. */
    const char *bad[] = {"13%", "-0.1", "1e-1", "abc", "0.1.2"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        why[0] = '\0';
        CU_ASSERT(!tco_quote_parse_number(bad[k], ',', vat, &v, why, sizeof why));
        CU_ASSERT(strncmp(why, "expected a VAT rate as a share from 0 to 1, found '", 51) == 0 ||
                  strstr(why, "expected digits after the decimal mark") != NULL);
    }
    /* Digits after the mark, then what the column does not take: the column's expectation, not
     * "expected digits after the decimal mark" (there are some). */
    CU_ASSERT(!tco_quote_parse_number("13,5%", ';', vat, &v, why, sizeof why));
    CU_ASSERT(strcmp(why, "expected a VAT rate as a share from 0 to 1, found '13,5%'") == 0);
    CU_ASSERT(!tco_quote_parse_number("0.5x", ',', vat, &v, why, sizeof why));
    CU_ASSERT(strcmp(why, "expected a VAT rate as a share from 0 to 1, found '0.5x'") == 0);
    CU_ASSERT(!tco_quote_parse_number("1,", ';', vat, &v, why, sizeof why));
    CU_ASSERT(strstr(why, "expected digits after the decimal mark ','") != NULL);
}

/* The digits gathered while checking give strtod()'s value of the same number written plainly, on
 * both sides of the fast path (19 digits, 2^53, leading zeros, grouped and decimal). */
static void test_number_values(void)
{
    static const struct {
        const char *text, *plain;
    } cases[] = {
        {"0.05", "0.05"}, {"000120", "000120"}, {"0.1", "0.1"}, {"1,234.56", "1234.56"},
        {"12,500.00", "12500.00"}, {"9007199254740992", "9007199254740992"}, /* 2^53: fast path */
        {"9007199254740993", "9007199254740993"}, /* 2^53 + 1: strtod's rounding */
        {"1234567890123456789", "1234567890123456789"}, {"12345678901234567890", "12345678901234567890"},
        {"0.0000000000000000000000123", "0.0000000000000000000000123"}, /* 23 digits after the point */
        {"100000000000000000000000", "100000000000000000000000"}, {"3.14159265358979", "3.14159265358979"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = -1;
        char why[200];
        CU_ASSERT(tco_quote_parse_number(cases[i].text, ',', "a number", &v, why, sizeof why));
        CU_ASSERT_EQUAL(v, strtod(cases[i].plain, NULL));
    }
}

CU_ErrorCode register_price_text_suite(void)
{
    CU_pSuite s = CU_add_suite("price_text", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "price parsing", test_price_parser) ||
        !CU_add_test(s, "price ambiguity rule", test_price_ambiguity_rule) ||
        !CU_add_test(s, "other number columns", test_file_numbers) ||
        !CU_add_test(s, "number values as strtod gives them", test_number_values))
        return CU_get_error();
    return CUE_SUCCESS;
}
