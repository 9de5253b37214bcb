/* test_text.c - text helpers (engine/base/text.c): shortest round-trip numbers, trimmed copies and
 * comma lists, paths and bounded joins, the XLSX escape and capped cell text, numbers a workbook holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "suites.h"

static void test_format_double_shortest(void)
{
    char out[32];
    tco_format_double(0.7, out);
    CU_ASSERT_STRING_EQUAL(out, "0.7");
    tco_format_double(61320, out);
    CU_ASSERT_STRING_EQUAL(out, "61320");
    tco_format_double(7615211.688, out); /* cluster32's TCO, CNY */
    CU_ASSERT_STRING_EQUAL(out, "7615211.688");
    tco_format_double(0.1 + 0.2, out); /* 17 digits when 15 would not read back */
    CU_ASSERT_STRING_EQUAL(out, "0.30000000000000004");
    CU_ASSERT_EQUAL(strtod(out, NULL), 0.1 + 0.2);
    tco_format_double(1e22, out);
    CU_ASSERT_STRING_EQUAL(out, "1e+22");
}

static void test_trim_and_lists(void)
{
    char *t = tco_strndup_trim("  D-M \t\n", 8);
    CU_ASSERT_STRING_EQUAL(t, "D-M");
    free(t);
    t = tco_strndup_trim(" team, x", 5); /* only the first n bytes */
    CU_ASSERT_STRING_EQUAL(t, "team");
    free(t);
    char **list = NULL;
    int n = tco_split_list("cluster32, team-ds4,solo ", &list);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_STRING_EQUAL(list[0], "cluster32");
    CU_ASSERT_STRING_EQUAL(list[1], "team-ds4");
    CU_ASSERT_STRING_EQUAL(list[2], "solo");
    tco_free_list(list, n);
    list = NULL;
    CU_ASSERT_EQUAL(tco_split_list("a,,b", &list), -1); /* an empty entry */
    CU_ASSERT_PTR_NULL(list);
}

/* A list is a set: the earliest repeat in list order, compared case-insensitively in any script; one
 * refusal text for every list. */
static void test_list_repeats(void)
{
    char *l1[] = {"owned", "colocation"};
    int first, again;
    CU_ASSERT_FALSE(tco_list_repeats(l1, 2, &first, &again));
    CU_ASSERT_FALSE(tco_list_repeats(l1, 0, &first, &again));
    /* b repeats at 4 (0-based 3), a at 5: the earlier repeat is named, with its first listing */
    char *l2[] = {"a", "b", "c", "B", "A"};
    CU_ASSERT_TRUE(tco_list_repeats(l2, 5, &first, &again));
    CU_ASSERT_EQUAL(first, 1);
    CU_ASSERT_EQUAL(again, 3);
    /* three listings: the second names the first */
    char *l3[] = {"x", "y", "x", "x"};
    CU_ASSERT_TRUE(tco_list_repeats(l3, 4, &first, &again));
    CU_ASSERT_EQUAL(first, 0);
    CU_ASSERT_EQUAL(again, 2);
    char *l4[] = {"Σίσυφος", "ΣΊΣΥΦΟΣ"};
    CU_ASSERT_TRUE(tco_list_repeats(l4, 2, &first, &again));
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_list_check_set(l2, 5, TCO_ERR_DUPLICATE,
                                       &(tco_place){.file = "t.ini", .section = "model", .key = "summary"}, &d),
                    TCO_ERR_DUPLICATE);
    CU_ASSERT_STRING_EQUAL(d.message, "t.ini [model] summary: 'B' is listed twice (entries 2 and 4, first as 'b')");
    CU_ASSERT_EQUAL(tco_list_check_set(l3, 4, TCO_ERR_USAGE, &(tco_place){.arg = "--compare x,y,x,x"}, &d),
                    TCO_ERR_USAGE);
    CU_ASSERT_STRING_EQUAL(d.message, "--compare x,y,x,x: 'x' is listed twice (entries 1 and 3)");
    CU_ASSERT_EQUAL(tco_list_check_set(l1, 2, TCO_ERR_DUPLICATE, NULL, &d), TCO_OK);
    /* 200,000 distinct entries and one repeat at the end: sorted, not compared pair by pair (which took
     * 2e10 comparisons) */
    enum { N = 200000 };
    char **big = malloc(N * sizeof *big);
    char (*text)[12] = malloc(N * sizeof *text);
    CU_ASSERT_FATAL(big != NULL && text != NULL);
    for (int i = 0; i < N; i++) {
        snprintf(text[i], sizeof text[i], "t%d", i < N - 1 ? i : 7);
        big[i] = text[i];
    }
    CU_ASSERT_TRUE(tco_list_repeats(big, N, &first, &again));
    CU_ASSERT_EQUAL(first, 7);
    CU_ASSERT_EQUAL(again, N - 1);
    free(big);
    free(text);
}

static void test_paths(void)
{
    char *p = tco_path_join(NULL, "scenarios/team.ini");
    CU_ASSERT_STRING_EQUAL(p, "scenarios/team.ini");
    free(p);
    p = tco_path_join(".", "scenarios/team.ini");
    CU_ASSERT_STRING_EQUAL(p, "scenarios/team.ini");
    free(p);
    p = tco_path_join("/srv/tco", "pricing/site.ini");
    CU_ASSERT_STRING_EQUAL(p, "/srv/tco/pricing/site.ini");
    free(p);
    char out[8];
    CU_ASSERT_EQUAL(tco_str_cat(out, sizeof out, "abc", "defgh", (char *)NULL), 8); /* snprintf's length */
    CU_ASSERT_STRING_EQUAL(out, "abcdefg");
}

static void test_xlsx_escapes_and_caps(void)
{
    tco_strbuf b = {0};
    CU_ASSERT_EQUAL(tco_xlsx_escape("a_x0041_b", &b), 1);
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), "a_x005F_x0041_b");
    tco_strbuf_clear(&b);
    CU_ASSERT_EQUAL(tco_xlsx_escape("_x12_", &b), 1); /* LibreOffice decodes fewer digits too */
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), "_x005F_x12_");
    tco_strbuf_clear(&b);
    CU_ASSERT_EQUAL(tco_xlsx_escape("plain_x_text", &b), 0);
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), "plain_x_text");
    CU_ASSERT_EQUAL(tco_xlsx_text_units("a_x0041_b"), 9 + 6);
    tco_strbuf_clear(&b);
    size_t held = 0;
    CU_ASSERT_TRUE(tco_strbuf_append_capped(&b, "abc", 5, &held));
    CU_ASSERT_TRUE(tco_strbuf_append_capped(&b, "de", 5, &held)); /* exactly 5 units */
    CU_ASSERT_FALSE(tco_strbuf_append_capped(&b, "f", 5, &held));
    CU_ASSERT_FALSE(tco_strbuf_append_capped(&b, "", 5, &held)); /* once one is held, all later are */
    CU_ASSERT_EQUAL(held, 2);
    CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), "abcde");
    tco_strbuf_free(&b);
}

static void test_normal_numbers(void)
{
    CU_ASSERT_TRUE(tco_number_is_normal("0", 0));
    CU_ASSERT_TRUE(tco_number_is_normal("0.7", 0.7));
    CU_ASSERT_TRUE(tco_number_is_normal("2.2250738585072014e-308", 2.2250738585072014e-308));
    CU_ASSERT_FALSE(tco_number_is_normal("1e-310", 1e-310)); /* subnormal: #VALUE! in LibreOffice */
    CU_ASSERT_FALSE(tco_number_is_normal("1e-400", 0));      /* underflowed to 0 */
    CU_ASSERT_TRUE(tco_number_is_normal("1.797693134862315e308", TCO_NUMBER_MAX));
    CU_ASSERT_FALSE(tco_number_is_normal("1.7976931348623157e308", 1.7976931348623157e308));
}

/* What a terminal is shown of a quoted name: controls as \xNN, separators and bidi controls as \uXXXX,
 * every other character (Greek, CJK, the euro sign) as it is. */
static void shown_on_terminal(const char *in, const char *want)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    tco_text_put_terminal(f, in, strlen(in));
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, want);
    free(buf);
}

static void test_terminal_escapes(void)
{
    shown_on_terminal("a\x1b" "[31mb", "a\\x1B[31mb");                    /* ESC */
    shown_on_terminal("x\r\ny", "x\\x0D\\x0Ay");                      /* CR LF */
    shown_on_terminal("\xc2\x9b", "\\xC2\\x9B");                        /* C1 CSI */
    shown_on_terminal("a\xe2\x80\xa8" "b", "a\\u2028b");                  /* line separator */
    shown_on_terminal("\xe2\x80\xae" "evil", "\\u202Eevil");               /* right-to-left override */
    shown_on_terminal("\xe2\x81\xa6" "x\xe2\x81\xa9", "\\u2066x\\u2069"); /* isolates */
    shown_on_terminal("\xd8\x9c", "\\u061C");                            /* Arabic letter mark */
    shown_on_terminal("\xe2\x80\x8f", "\\u200F");                       /* right-to-left mark */
    shown_on_terminal("\xce\xa3 \xe2\x82\xac \xe4\xb8\xad", "\xce\xa3 \xe2\x82\xac \xe4\xb8\xad"); /* Σ € 中 */
    shown_on_terminal("\xe2\x80\x94", "\xe2\x80\x94");                 /* em dash: kept */
}

CU_ErrorCode register_text_suite(void)
{
    CU_pSuite s = CU_add_suite("text", NULL, NULL);
    if (s == NULL ||
        !CU_add_test(s, "shortest round-trip numbers", test_format_double_shortest) ||
        !CU_add_test(s, "trim and comma lists", test_trim_and_lists) ||
        !CU_add_test(s, "a list names each entry once", test_list_repeats) ||
        !CU_add_test(s, "path join and bounded concatenation", test_paths) ||
        !CU_add_test(s, "XLSX escapes and capped text", test_xlsx_escapes_and_caps) ||
        !CU_add_test(s, "numbers a workbook holds", test_normal_numbers) ||
        !CU_add_test(s, "what a terminal is shown of a name", test_terminal_escapes))
        return CU_get_error();
    return CUE_SUCCESS;
}
