/* test_utf8.c - UTF-8 text (engine/base/utf8.c): counts in characters and UTF-16 units, cuts that keep
 * whole characters, validity, and case folding as the spreadsheet applications compare text. */
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "suites.h"

static void test_utf8_counts_and_cuts(void)
{
    const char *zh = "\xE8\xAE\xAD\xE7\xBB\x83\xE9\x9B\x86\xE7\xBE\xA4"; /* 训练集群: 4 characters, 12 bytes */
    CU_ASSERT_EQUAL(tco_utf8_chars(zh), 4);
    CU_ASSERT_EQUAL(tco_utf16_units(zh), 4);
    CU_ASSERT_EQUAL(tco_utf16_units("a\xF0\x9F\x98\x80"), 3); /* an emoji is 2 UTF-16 units */
    CU_ASSERT_EQUAL(tco_utf8_prefix(zh, 4), 3);              /* never inside a character */
    CU_ASSERT_EQUAL(tco_utf8_prefix(zh, 12), 12);
    CU_ASSERT_EQUAL(tco_utf8_prefix("abc", 10), 3);
    CU_ASSERT_EQUAL(tco_utf8_prefix("a\xC3", 10), 1); /* text already cut inside a character */
    size_t bad = 99;
    CU_ASSERT_TRUE(tco_utf8_valid(zh, 12, &bad));
    CU_ASSERT_FALSE(tco_utf8_valid(zh, 11, &bad));
    CU_ASSERT_EQUAL(bad, 9); /* the last, cut, character starts at byte 9 */
}

/* The 66 non-characters (Unicode 15, section 23.7): U+FDD0..U+FDEF and U+nFFFE, U+nFFFF of the 17 planes,
 * 32 + 34; their neighbours are characters.  tco_xml_text_valid() refuses each, with its code point. */
static void test_noncharacters(void)
{
    int n = 0;
    for (long cp = 0; cp <= 0x10FFFF; cp++)
        n += tco_is_noncharacter(cp);
    CU_ASSERT_EQUAL(n, 66);
    CU_ASSERT_FALSE(tco_is_noncharacter(0xFDCF));
    CU_ASSERT_TRUE(tco_is_noncharacter(0xFDD0));
    CU_ASSERT_TRUE(tco_is_noncharacter(0xFDEF));
    CU_ASSERT_FALSE(tco_is_noncharacter(0xFDF0));
    CU_ASSERT_FALSE(tco_is_noncharacter(0xFFFD));
    CU_ASSERT_FALSE(tco_is_noncharacter(0x1FFFD));
    CU_ASSERT_TRUE(tco_is_noncharacter(0x1FFFE));
    CU_ASSERT_TRUE(tco_is_noncharacter(0x10FFFF));
    size_t bad = 0;
    long cp = 0;
    CU_ASSERT_FALSE(tco_xml_text_valid("ab\xEF\xB7\x90", 5, &bad, &cp)); /* U+FDD0 */
    CU_ASSERT_EQUAL(bad, 2);
    CU_ASSERT_EQUAL(cp, 0xFDD0);
    CU_ASSERT_FALSE(tco_xml_text_valid("\xF4\x8F\xBF\xBF", 4, &bad, &cp)); /* U+10FFFF */
    CU_ASSERT_EQUAL(cp, 0x10FFFF);
    CU_ASSERT_TRUE(tco_xml_text_valid("\xEF\xB7\x8F \xEF\xBF\xBD", 7, NULL, NULL)); /* U+FDCF, U+FFFD */
}

static void test_casecmp_as_spreadsheets(void)
{
    CU_ASSERT_EQUAL(tco_utf8_casecmp("\xC3\x9C" "BER", "\xC3\xBC" "ber"), 0); /* ÜBER = über */
    CU_ASSERT_EQUAL(tco_utf8_casecmp("D-M", "d-m"), 0);
    CU_ASSERT_NOT_EQUAL(tco_utf8_casecmp("\xC3\x9F", "SS"), 0); /* ß is not SS: one code point to one */
    CU_ASSERT_TRUE(tco_utf8_casecmp("a", "B") < 0);
    CU_ASSERT_TRUE(tco_utf8_casecmp("large", "Lar") > 0);
}

CU_ErrorCode register_utf8_suite(void)
{
    CU_pSuite s = CU_add_suite("utf8", NULL, NULL);
    if (s == NULL ||
        !CU_add_test(s, "UTF-8 counts and cuts", test_utf8_counts_and_cuts) ||
        !CU_add_test(s, "the 66 non-characters", test_noncharacters) ||
        !CU_add_test(s, "case folding as spreadsheets", test_casecmp_as_spreadsheets))
        return CU_get_error();
    return CUE_SUCCESS;
}
