/* test_price_text.c - engine/read/price_text.c: prices as vendors write them: thousands separators by the
 * file's delimiter, decimal marks, currency symbols and codes, and the ambiguity rule. */
#include <stdbool.h>
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

CU_ErrorCode register_price_text_suite(void)
{
    CU_pSuite s = CU_add_suite("price_text", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "price parsing", test_price_parser) ||
        !CU_add_test(s, "price ambiguity rule", test_price_ambiguity_rule))
        return CU_get_error();
    return CUE_SUCCESS;
}
