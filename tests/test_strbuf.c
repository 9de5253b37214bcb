/* test_strbuf.c - the growable buffer (engine/base/strbuf.c): growth, clear, take, printf. */
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "suites.h"

static void test_growth_and_take(void)
{
    tco_strbuf b = {0};
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), ""); /* empty before anything is appended */
    for (int i = 0; i < 10000; i++)
        tco_strbuf_append(&b, "ab");
    CU_ASSERT_EQUAL(b.len, 20000);
    CU_ASSERT_FALSE(b.failed);
    CU_ASSERT_EQUAL(strncmp(tco_strbuf_str(&b), "abab", 4), 0);
    CU_ASSERT_EQUAL(tco_strbuf_str(&b)[19999], 'b');
    CU_ASSERT_EQUAL(tco_strbuf_str(&b)[20000], '\0');
    size_t cap = b.cap;
    tco_strbuf_clear(&b); /* empty, the allocation kept */
    CU_ASSERT_EQUAL(b.len, 0);
    CU_ASSERT_EQUAL(b.cap, cap);
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), "");
    tco_strbuf_append_n(&b, "D-M tier", 3);
    tco_strbuf_put(&b, "!", 1);
    char *s = tco_strbuf_take(&b);
    CU_ASSERT_STRING_EQUAL(s, "D-M!");
    CU_ASSERT_PTR_NULL(b.data); /* reset: the caller owns the text */
    CU_ASSERT_EQUAL(b.len, 0);
    free(s);
}

static void test_printf_appends(void)
{
    /* The seed's kind of line: 10 kW x 8,760 h x 0.7 CNY/kWh = 61,320 CNY/yr. */
    tco_strbuf b = {0};
    tco_strbuf_append(&b, "electricity: ");
    tco_strbuf_printf(&b, "%d kW x %d h x %.1f CNY/kWh = %.0f CNY/yr", 10, 8760, 0.7, 10 * 8760 * 0.7);
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), "electricity: 10 kW x 8760 h x 0.7 CNY/kWh = 61320 CNY/yr");
    tco_strbuf_free(&b);
    CU_ASSERT_PTR_NULL(b.data);
    CU_ASSERT_EQUAL(b.len, 0);
}

CU_ErrorCode register_strbuf_suite(void)
{
    CU_pSuite s = CU_add_suite("strbuf", NULL, NULL);
    if (s == NULL ||
        !CU_add_test(s, "growth, clear and take", test_growth_and_take) ||
        !CU_add_test(s, "printf appends", test_printf_appends))
        return CU_get_error();
    return CUE_SUCCESS;
}
