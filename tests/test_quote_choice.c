/* test_quote_choice.c - engine/price/quote_choice.c: the best valid quote for an item and a quantity on a
 * day (validity, minimum quantity, ties), and the reason each other row was not chosen. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "price/quote_choice.h"
#include "read/dates.h"
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

/* Read @p len bytes as a quote file (every row kept); problems counted in @p pr. */
static tco_error read_bytes(const char *data, size_t len, fixture_problems *pr, tco_quote_set *set, tco_diag *d)
{
    return fixture_read_quote_bytes(TCO_SOURCE_DIR, data, len, pr, set, d);
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
    fixture_problems pr = {0};
    tco_fx fx = test_fx();
    tco_quote_set set = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(tco_quotes_read(Q "choose.csv", &fx, fixture_keep_all, NULL, fixture_collect, &pr, &set, &d), TCO_OK);
    CU_ASSERT_EQUAL_FATAL(tco_quotes_read(Q "choose2.csv", &fx, fixture_keep_all, NULL, fixture_collect, &pr, &set, &d), TCO_OK);
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

/* A reason naming a long non-ASCII vendor is whole: never cut inside a character. */
static void test_reason_whole(void)
{
    char vendor[301] = "";
    for (int i = 0; i < 100; i++)
        strcat(vendor, "\xE5\x8D\x8E"); /* 华 x 100: 300 bytes, cut at 255 by the old char[256] */
    tco_strbuf b = {0};
    tco_strbuf_printf(&b, "vendor,item,unit_price,currency\n%s,D-M,80000,CNY\nDear,D-M,90000,CNY\n", vendor);
    fixture_problems pr = {0};
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

CU_ErrorCode register_quote_choice_suite(void)
{
    CU_pSuite s = CU_add_suite("quote_choice", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "choice: validity, minimum quantity, ties", test_choice) ||
        !CU_add_test(s, "a reason with a long non-ASCII vendor is whole", test_reason_whole))
        return CU_get_error();
    return CUE_SUCCESS;
}
