/* test_error.c - the error table and exit codes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "suites.h"

static void test_every_code_has_a_message(void)
{
    for (int e = 0; e < TCO_ERR_COUNT; e++) {
        const char *msg = tco_strerror((tco_error)e);
        CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
        CU_ASSERT_STRING_NOT_EQUAL(msg, "unknown error");
    }
    CU_ASSERT_STRING_EQUAL(tco_strerror(TCO_ERR_COUNT), "unknown error");
}

static void test_exit_codes_are_sysexits(void)
{
    CU_ASSERT_EQUAL(tco_exit_code(TCO_OK), 0);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_USAGE), 64);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_INI), 65);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_CYCLE), 65);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_NOINPUT), 66);
    CU_ASSERT_EQUAL(tco_exit_code(TCO_ERR_CANTCREATE), 73);
}

static void test_diag_truncates_safely(void)
{
    tco_diag d = {0};
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CU_ASSERT_EQUAL(tco_diag_set(&d, TCO_ERR_INI, "file [s] k: %s", big), TCO_ERR_INI);
    CU_ASSERT_EQUAL(d.code, TCO_ERR_INI);
    CU_ASSERT_EQUAL(strlen(d.message), TCO_DIAG_MAX - 1);
    CU_ASSERT_EQUAL(strncmp(d.message, "file [s] k: xxx", 15), 0);
    /* 12 bytes of prefix then 2-byte characters: byte 1,023 would be the first half of one. */
    char wide[3001] = "";
    for (int i = 0; i < 1500; i++)
        strcat(wide + 2 * i, "\xC3\xA9");
    tco_diag_set(&d, TCO_ERR_INI, "file [s] k: %s", wide);
    CU_ASSERT_EQUAL(strlen(d.message), 1022);
    CU_ASSERT_TRUE(tco_utf8_valid(d.message, strlen(d.message), NULL));
}

static void test_xml_text_and_utf16(void)
{
    size_t bad = 0;
    long cp = 0;
    CU_ASSERT_TRUE(tco_xml_text_valid("Cluster \xE6\x9C\xBA\t\r\n", 14, &bad, &cp));
    CU_ASSERT_FALSE(tco_xml_text_valid("V\xEF\xBF\xBE", 4, &bad, &cp)); /* U+FFFE */
    CU_ASSERT_EQUAL(bad, 1);
    CU_ASSERT_EQUAL(cp, 0xFFFE);
    CU_ASSERT_FALSE(tco_xml_text_valid("ab\xEF\xBF\xBF", 5, &bad, &cp)); /* U+FFFF */
    CU_ASSERT_EQUAL(cp, 0xFFFF);
    CU_ASSERT_FALSE(tco_xml_text_valid("a\x01", 2, &bad, &cp));
    CU_ASSERT_EQUAL(cp, 1);
    CU_ASSERT_FALSE(tco_xml_text_valid("a\xC3", 2, &bad, &cp)); /* cut sequence */
    CU_ASSERT_EQUAL(cp, -1);
    CU_ASSERT_TRUE(tco_xml_text_valid("\xF0\x9F\x98\x80", 4, NULL, NULL)); /* U+1F600 is a Char */
    /* Excel counts UTF-16 units: an emoji is 2, a CJK character 1. */
    CU_ASSERT_EQUAL(tco_utf16_units("\xF0\x9F\x98\x80\xE6\x9C\xBA" "ab"), 5);
    /* Cutting "a" + U+1F600 at 3 bytes keeps "a" only. */
    CU_ASSERT_EQUAL(tco_utf8_prefix("a\xF0\x9F\x98\x80", 3), 1);
    CU_ASSERT_EQUAL(tco_utf8_prefix("a\xF0\x9F\x98\x80", 5), 5);
    CU_ASSERT_EQUAL(tco_utf8_prefix("a\xF0\x9F", 9), 1); /* already cut inside the emoji */
}

static void test_utf8_casecmp(void)
{
    CU_ASSERT_EQUAL(tco_utf8_casecmp("\xC3\x9C" "BER", "\xC3\xBC" "ber"), 0);          /* ÜBER, über */
    CU_ASSERT_EQUAL(tco_utf8_casecmp("\xCE\xA3\xCE\x91", "\xCF\x82\xCE\xB1"), 0);    /* ΣΑ, ςα: final sigma */
    CU_ASSERT_EQUAL(tco_utf8_casecmp("\xC7\x85x", "\xC7\x86x"), 0);                  /* ǅx, ǆx: titlecase */
    CU_ASSERT_EQUAL(tco_utf8_casecmp("\xEF\xBC\xA1", "\xEF\xBD\x81"), 0);          /* full-width A, a */
    CU_ASSERT_NOT_EQUAL(tco_utf8_casecmp("\xC3\x9C" "BER", "uber"), 0);
    CU_ASSERT_TRUE(tco_utf8_casecmp("abc", "abd") < 0);
    CU_ASSERT_TRUE(tco_utf8_casecmp("abc", "ab") > 0);
    CU_ASSERT_EQUAL(tco_utf8_casecmp("N+1", "n+1"), 0);
}

static void test_xlsx_escape(void)
{
    const struct {
        const char *in, *out;
        size_t n;
    } cases[] = {
        {"_x000D_=1+2", "_x005F_x000D_=1+2", 1},
        {"_x0041_ Systems", "_x005F_x0041_ Systems", 1},
        {"_x0041_x0042_", "_x005F_x0041_x005F_x0042_", 2}, /* overlapping: both escaped */
        {"a_x12_b", "a_x005F_x12_b", 1},                    /* LibreOffice decodes short forms */
        {"_x_ _xZZZZ_ _x00041_ x0041_", "_x_ _xZZZZ_ _x00041_ x0041_", 0},
        {"plain", "plain", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tco_strbuf b = {0};
        CU_ASSERT_EQUAL(tco_xlsx_escape(cases[i].in, &b), cases[i].n);
        CU_ASSERT_STRING_EQUAL(tco_strbuf_str(&b), cases[i].out);
        CU_ASSERT_EQUAL(tco_xlsx_text_units(cases[i].in), strlen(cases[i].out));
        tco_strbuf_free(&b);
    }
}

/* Shortest round-trip text: written values as printf would give them, the whole-number shortcut included. */
static void test_format_double(void)
{
    const struct {
        double v;
        const char *text;
    } cases[] = {
        {0, "0"}, {-0.0, "-0"}, {1, "1"}, {-1, "-1"}, {8760, "8760"}, {0.7, "0.7"}, {-2.5, "-2.5"},
        {1e22, "1e+22"}, {0.1 + 0.2, "0.30000000000000004"}, {999999999999999, "999999999999999"},
        {-999999999999999, "-999999999999999"}, {1e15, "1e+15"}, {123456789012345678.0, "1.2345678901234568e+17"},
        {1e-7, "1e-07"},
    };
    char out[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tco_format_double(cases[i].v, out);
        CU_ASSERT_STRING_EQUAL(out, cases[i].text);
    }
    /* Every whole number the shortcut takes prints as "%.15g" does and reads back exactly. */
    const double wholes[] = {2, 10, 99, 100, 65535, 1234567, 4294967296.0, 9007199254740992.0 / 16, 1e14, 99999999999999};
    for (size_t i = 0; i < sizeof wholes / sizeof wholes[0]; i++)
        for (int sign = -1; sign <= 1; sign += 2) {
            char want[32];
            snprintf(want, sizeof want, "%.15g", sign * wholes[i]);
            tco_format_double(sign * wholes[i], out);
            CU_ASSERT_STRING_EQUAL(out, want);
            CU_ASSERT_EQUAL(strtod(out, NULL), sign * wholes[i]);
        }
}

/* tco_str_cat() writes what snprintf() with "%s%s..." writes, cut where it cuts, and returns its length. */
static void test_str_cat_is_snprintf(void)
{
    const char *a = "templates/tco.ini", *b = " [", *c = "input.\xE7\x94\xB5price", *d = "]";
    for (size_t size = 1; size <= 40; size++) {
        char got[40], want[40];
        memset(got, '#', sizeof got);
        memset(want, '#', sizeof want);
        size_t n = tco_str_cat(got, size, a, b, c, d, NULL);
        int w = snprintf(want, size, "%s%s%s%s", a, b, c, d);
        CU_ASSERT_EQUAL(n, (size_t)w);
        CU_ASSERT_EQUAL(memcmp(got, want, sizeof got), 0); /* the bytes after the NUL untouched too */
    }
    char out[8];
    CU_ASSERT_EQUAL(tco_str_cat(out, sizeof out, NULL), 0);
    CU_ASSERT_STRING_EQUAL(out, "");
    CU_ASSERT_EQUAL(tco_str_cat(out, sizeof out, "price", "_range", NULL), 11);
    CU_ASSERT_STRING_EQUAL(out, "price_r");
}

/* One tco_diag_at() form: the message is what the old code formatted by hand (@p old), the place is data. */
static void check_form(const tco_place *at, const char *old)
{
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_diag_at(&d, TCO_ERR_INI, at, "expected %s, found '%s'", "a number", "x"), TCO_ERR_INI);
    CU_ASSERT_EQUAL(d.code, TCO_ERR_INI);
    CU_ASSERT_STRING_EQUAL(d.message, old);
    /* The text after the place: the part, if any, then the text. */
    size_t text = strlen("expected a number, found 'x'") + (at->part ? strlen(at->part) + 2 : 0);
    CU_ASSERT_EQUAL(d.text, strlen(old) - text);
    CU_ASSERT_STRING_EQUAL(d.message + d.text, old + strlen(old) - text);
    CU_ASSERT_STRING_EQUAL(d.file, at->file ? at->file : "");
    CU_ASSERT_EQUAL(d.line, at->line);
    CU_ASSERT_EQUAL(d.column, at->column);
    CU_ASSERT_STRING_EQUAL(d.section, at->section ? at->section : "");
    CU_ASSERT_STRING_EQUAL(d.key, at->key ? at->key : "");
    CU_ASSERT_STRING_EQUAL(d.column_name, at->column_name ? at->column_name : "");
}

static void test_diag_at_forms(void)
{
    char old[TCO_DIAG_MAX];
    const char *f = "pricing/site.ini", *t = "expected a number, found 'x'";
    /* Each form against the printf() the old code wrote for it. */
    snprintf(old, sizeof old, "%s:%d: column %d (%s): %s", "q.csv", 2, 3, "unit_price", t);
    check_form(&(tco_place){.file = "q.csv", .line = 2, .column = 3, .column_name = "unit_price"}, old);
    snprintf(old, sizeof old, "%s:%d: column %d: %s", "q.csv", 1, 5, t);
    check_form(&(tco_place){.file = "q.csv", .line = 1, .column = 5}, old);
    snprintf(old, sizeof old, "%s:%d, column %zu: %s", f, 7, (size_t)12, t);
    check_form(&(tco_place){.file = f, .line = 7, .column = 12, .char_column = 1}, old);
    snprintf(old, sizeof old, "%s, column %zu: %s", "templates/tco.ini [line.capex] formula", (size_t)4, t);
    check_form(&(tco_place){.file = "templates/tco.ini", .section = "line.capex", .key = "formula", .column = 4,
                            .char_column = 1},
               old);
    snprintf(old, sizeof old, "%s [%s], column %zu: %s", "t.ini", "line.x", (size_t)4, t);
    check_form(&(tco_place){.file = "t.ini", .section = "line.x", .column = 4, .char_column = 1}, old);
    snprintf(old, sizeof old, "%s, column %zu: %s", "case", (size_t)9, t);
    check_form(&(tco_place){.file = "case", .column = 9, .char_column = 1}, old);
    snprintf(old, sizeof old, "%s:%d: [%s] %s: %s", f, 3, "site", "rate", t);
    check_form(&(tco_place){.file = f, .line = 3, .section = "site", .key = "rate"}, old);
    snprintf(old, sizeof old, "%s:%d: [%s] %s", f, 3, "site", t);
    check_form(&(tco_place){.file = f, .line = 3, .section = "site"}, old);
    snprintf(old, sizeof old, "%s:%d: %s", f, 3, t);
    check_form(&(tco_place){.file = f, .line = 3}, old);
    snprintf(old, sizeof old, "%s [%s] %s: %s", f, "site", "rate", t);
    check_form(&(tco_place){.file = f, .section = "site", .key = "rate"}, old);
    snprintf(old, sizeof old, "%s [%s]: %s", f, "input.pue", t);
    check_form(&(tco_place){.file = f, .section = "input.pue"}, old);
    snprintf(old, sizeof old, "%s: %s", f, t);
    check_form(&(tco_place){.file = f}, old);
    check_form(&(tco_place){0}, t);
    /* A --set named where a file would be, its section and key as data; a part after the place. */
    snprintf(old, sizeof old, "%s: %s", "--set facility.pue=abc", t);
    check_form(&(tco_place){.arg = "--set facility.pue=abc", .section = "facility", .key = "pue"}, old);
    snprintf(old, sizeof old, "%s: LOW: %s", "--set facility.pue_range=x,2", t);
    check_form(&(tco_place){.arg = "--set facility.pue_range=x,2", .part = "LOW"}, old);
    snprintf(old, sizeof old, "%s [%s] %s: HIGH: %s", f, "facility", "pue_range", t);
    check_form(&(tco_place){.file = f, .section = "facility", .key = "pue_range", .part = "HIGH"}, old);
    snprintf(old, sizeof old, "%s: inputs.%s: %s", "new.json", "electricity_price", t);
    check_form(&(tco_place){.file = "new.json", .part = "inputs.electricity_price"}, old);
    /* The column of a text with no column given is no column: the plain forms. */
    snprintf(old, sizeof old, "%s [%s] %s: %s", f, "site", "rate", t);
    check_form(&(tco_place){.file = f, .section = "site", .key = "rate", .char_column = 1}, old);
    /* A NULL place is no place; a NULL diag only returns the code. */
    tco_diag d = {0};
    CU_ASSERT_EQUAL(tco_diag_at(&d, TCO_ERR_USAGE, NULL, "plain"), TCO_ERR_USAGE);
    CU_ASSERT_STRING_EQUAL(d.message, "plain");
    CU_ASSERT_EQUAL(d.line, 0);
    CU_ASSERT_EQUAL(tco_diag_at(NULL, TCO_ERR_EVAL, &(tco_place){.file = f}, "x"), TCO_ERR_EVAL);
    /* tco_diag_set() clears the place a diagnostic had. */
    tco_diag_at(&d, TCO_ERR_INI, &(tco_place){.file = f, .line = 3, .section = "site", .key = "rate"}, "x");
    tco_diag_set(&d, TCO_ERR_INI, "%s [site] rate: x", f);
    CU_ASSERT_STRING_EQUAL(d.file, "");
    CU_ASSERT_STRING_EQUAL(d.section, "");
    CU_ASSERT_STRING_EQUAL(d.key, "");
    CU_ASSERT_EQUAL(d.line, 0);
    CU_ASSERT_EQUAL(d.text, 0);
}

CU_ErrorCode register_error_suite(void)
{
    CU_pSuite s = CU_add_suite("error", NULL, NULL);
    if (s == NULL || !CU_add_test(s, "every code has a message", test_every_code_has_a_message) ||
        !CU_add_test(s, "exit codes are sysexits", test_exit_codes_are_sysexits) ||
        !CU_add_test(s, "diagnostic truncates safely", test_diag_truncates_safely) ||
        !CU_add_test(s, "tco_diag_at(): each form as the messages write it", test_diag_at_forms) ||
        !CU_add_test(s, "XML characters, UTF-16 units, UTF-8 cuts", test_xml_text_and_utf16) ||
        !CU_add_test(s, "Excel's _x005F_ escape", test_xlsx_escape) ||
        !CU_add_test(s, "shortest round-trip numbers", test_format_double) ||
        !CU_add_test(s, "case-insensitive in any script", test_utf8_casecmp) ||
        !CU_add_test(s, "tco_str_cat() is snprintf() of %s%s...", test_str_cat_is_snprintf))
        return CU_get_error();
    return CUE_SUCCESS;
}
