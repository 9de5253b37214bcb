/* test_output.c - the XLSX verifier on a good workbook and on packages damaged the ways a full disk,
 * a cut temporary or bad text damage them (rebuilt with minizip's zip API from a workbook tco wrote). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unzip.h>
#include <zip.h>

#include "model/model.h"
#include "render/output.h"
#include "suites.h"
#include "render/workbook.h"
#include "load/load.h"
#include "loaded.h"

#define MINI TCO_SOURCE_DIR "/tests/fixtures/roots/mini"

static char dir[64];
static char good[128];

/* What copy_zip() does to one part. */
typedef enum edit { KEEP, DROP, CUT, REPLACE, ADD } edit;

/* Copy the package @p src to @p dst, entry by entry, doing @p e to @p part: drop it, cut it to half its
 * length, replace its data by @p data, or (ADD) add @p part with @p data at the end.  @p store: write
 * entries uncompressed.  Returns 0 on success. */
static int copy_zip(const char *src, const char *dst, const char *part, edit e, const char *data, int store)
{
    unzFile in = unzOpen64(src);
    zipFile out = zipOpen64(dst, APPEND_STATUS_CREATE);
    if (in == NULL || out == NULL)
        return -1;
    int rc = 0;
    for (int r = unzGoToFirstFile(in); r == UNZ_OK && rc == 0; r = unzGoToNextFile(in)) {
        char name[512];
        unz_file_info64 info;
        if (unzGetCurrentFileInfo64(in, &info, name, sizeof name, NULL, 0, NULL, 0) != UNZ_OK ||
            unzOpenCurrentFile(in) != UNZ_OK)
            return -1;
        size_t len = (size_t)info.uncompressed_size;
        char *buf = malloc(len + 1);
        if (buf == NULL || unzReadCurrentFile(in, buf, (unsigned)len) != (int)len || unzCloseCurrentFile(in) != UNZ_OK)
            return -1;
        bool match = part && strcmp(name, part) == 0;
        if (!(match && e == DROP)) {
            const char *p = buf;
            if (match && e == CUT)
                len /= 2;
            if (match && e == REPLACE) {
                p = data;
                len = strlen(data);
            }
            zip_fileinfo zi = {0};
            if (zipOpenNewFileInZip64(out, name, &zi, NULL, 0, NULL, 0, NULL, store ? 0 : Z_DEFLATED,
                                      store ? 0 : Z_DEFAULT_COMPRESSION, 0) != ZIP_OK ||
                zipWriteInFileInZip(out, p, (unsigned)len) != ZIP_OK || zipCloseFileInZip(out) != ZIP_OK)
                rc = -1;
        }
        free(buf);
    }
    if (e == ADD && rc == 0) {
        zip_fileinfo zi = {0};
        if (zipOpenNewFileInZip64(out, part, &zi, NULL, 0, NULL, 0, NULL, Z_DEFLATED, Z_DEFAULT_COMPRESSION, 0) !=
                ZIP_OK ||
            zipWriteInFileInZip(out, data, (unsigned)strlen(data)) != ZIP_OK || zipCloseFileInZip(out) != ZIP_OK)
            rc = -1;
    }
    unzClose(in);
    if (zipClose(out, NULL) != ZIP_OK)
        rc = -1;
    return rc;
}

/* Read part @p part of the package @p path (heap, NUL-terminated), or NULL. */
static char *read_part(const char *path, const char *part)
{
    unzFile z = unzOpen64(path);
    unz_file_info64 info;
    if (z == NULL || unzLocateFile(z, part, 1) != UNZ_OK ||
        unzGetCurrentFileInfo64(z, &info, NULL, 0, NULL, 0, NULL, 0) != UNZ_OK || unzOpenCurrentFile(z) != UNZ_OK)
        return NULL;
    char *buf = malloc((size_t)info.uncompressed_size + 1);
    int n = buf ? unzReadCurrentFile(z, buf, (unsigned)info.uncompressed_size) : -1;
    unzCloseCurrentFile(z);
    unzClose(z);
    if (n != (int)info.uncompressed_size) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

/* Verify @p path; when @p fragment is NULL expect success, else TCO_ERR_CANTCREATE with a message
 * holding @p fragment (and @p fragment2 if given). */
static void expect(const char *path, size_t sheets, const char *fragment, const char *fragment2)
{
    tco_diag d = {0};
    tco_error e = tco_output_verify_xlsx(path, "book.xlsx", sheets, &d);
    if (fragment == NULL) {
        CU_ASSERT_EQUAL(e, TCO_OK);
        if (e != TCO_OK)
            fprintf(stderr, "\n  unexpected: %s\n", d.message);
        return;
    }
    CU_ASSERT_EQUAL(e, TCO_ERR_CANTCREATE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "book.xlsx: the workbook written is damaged: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, fragment));
    if (fragment2)
        CU_ASSERT_PTR_NOT_NULL(strstr(d.message, fragment2));
    if (strstr(d.message, fragment) == NULL || (fragment2 && strstr(d.message, fragment2) == NULL))
        fprintf(stderr, "\n  expected '%s' in: %s\n", fragment, d.message);
}

static int setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tco-test-output-XXXXXX");
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(good, sizeof good, "%s/good.xlsx", dir);
    tco_model *m = NULL;
    tco_diag d = {0};
    if (load_evaluated(MINI, MINI "/scenarios/good.ini", NULL, &m, &d) != TCO_OK)
        return 1;
    tco_workbook_options o = {.created = 1, .currency = "CNY"};
    tco_error e = tco_workbook_write(m, good, &o, &d);
    tco_model_free(m);
    return e == TCO_OK ? 0 : 1;
}

static int teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}

static void path_in(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

static void test_good(void)
{
    expect(good, 0, NULL, NULL);
    expect(good, 3, NULL, NULL); /* Summary, Inputs and the mini template's sheets */
    expect(good, 99, "xl/workbook.xml: ", "sheets, expected 99");
    /* Rebuilt part by part, uncompressed: still the same package. */
    char p[160];
    path_in(p, sizeof p, "stored.xlsx");
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, NULL, KEEP, NULL, 1), 0);
    expect(p, 0, NULL, NULL);
}

static void test_truncated(void)
{
    FILE *f = fopen(good, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CU_ASSERT_FATAL(n > 1000 && n < sizeof buf);
    size_t cuts[] = {0, 1, n / 2, n - 22, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        char p[160];
        path_in(p, sizeof p, "cut.xlsx");
        FILE *o = fopen(p, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        fwrite(buf, 1, cuts[i], o);
        fclose(o);
        expect(p, 0, "not a complete zip archive", NULL);
    }
    /* Not a zip at all. */
    char p[160];
    path_in(p, sizeof p, "text.xlsx");
    FILE *o = fopen(p, "wb");
    fputs("<?xml version=\"1.0\"?><a/>\n", o);
    fclose(o);
    expect(p, 0, "not a complete zip archive", NULL);
}

static void test_cut_part(void)
{
    char p[160];
    path_in(p, sizeof p, "cut-part.xlsx");
    const char *parts[] = {"xl/worksheets/sheet1.xml", "xl/sharedStrings.xml", "xl/workbook.xml",
                           "[Content_Types].xml", "xl/_rels/workbook.xml.rels"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, parts[i], CUT, NULL, 0), 0);
        expect(p, 0, parts[i], "XML not well-formed");
    }
    /* An empty XML part. */
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/styles.xml", REPLACE, "", 0), 0);
    expect(p, 0, "xl/styles.xml: XML not well-formed", "no element found");
}

static void test_missing_part(void)
{
    char p[160];
    path_in(p, sizeof p, "missing.xlsx");
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/styles.xml", DROP, NULL, 0), 0);
    expect(p, 0, "xl/styles.xml: the part is missing", NULL);
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/worksheets/sheet2.xml", DROP, NULL, 0), 0);
    expect(p, 0, "xl/worksheets/sheet2.xml: missing, although", NULL);
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "_rels/.rels", DROP, NULL, 0), 0);
    expect(p, 0, "_rels/.rels: the part is missing", NULL);
    /* A sheet whose relationship is gone (the part itself still there). */
    char *rels = read_part(good, "xl/_rels/workbook.xml.rels");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rels);
    char *r2 = strstr(rels, "<Relationship Id=\"rId2\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r2);
    memcpy(r2 + strlen("<Relationship Id=\"rId"), "9", 1); /* rId2 -> rId9 */
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/_rels/workbook.xml.rels", REPLACE, rels, 0), 0);
    expect(p, 0, "xl/workbook.xml: sheet 2 (rId2) has no relationship", NULL);
    free(rels);
    /* A relationship to a part that is not there. */
    rels = read_part(good, "_rels/.rels");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rels);
    char *core = strstr(rels, "docProps/core.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(core);
    memcpy(core, "docProps/cora", 13);
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "_rels/.rels", REPLACE, rels, 0), 0);
    expect(p, 0, "docProps/cora.xml: missing, although _rels/.rels names it", NULL);
    free(rels);
    /* A part without a content type. */
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/extra.bin", ADD, "data", 0), 0);
    expect(p, 0, "xl/extra.bin: no content type", NULL);
}

static void test_bad_text(void)
{
    char p[160];
    path_in(p, sizeof p, "text.xlsx");
    char *ss = read_part(good, "xl/sharedStrings.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ss);
    char *t = strstr(ss, "<t>");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    /* A UTF-8 character cut after its first byte (a 255-byte snprintf cut of a Chinese name). */
    char saved[3];
    memcpy(saved, t + 3, 3);
    memcpy(t + 3, "\xE4" "ab", 3);
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/sharedStrings.xml", REPLACE, ss, 0), 0);
    expect(p, 0, "xl/sharedStrings.xml: XML not well-formed", NULL);
    /* U+FFFF is valid UTF-8 but not an XML character. */
    memcpy(t + 3, "\xEF\xBF\xBF", 3);
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/sharedStrings.xml", REPLACE, ss, 0), 0);
    expect(p, 0, "xl/sharedStrings.xml: XML not well-formed", NULL);
    /* A control character as a reference. */
    memcpy(t + 3, saved, 3);
    char *ref = malloc(strlen(ss) + 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
    size_t at = (size_t)(t + 3 - ss);
    memcpy(ref, ss, at);
    strcpy(ref + at, "&#1;");
    strcat(ref, ss + at);
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/sharedStrings.xml", REPLACE, ref, 0), 0);
    expect(p, 0, "xl/sharedStrings.xml: XML not well-formed", "reference to invalid character");
    free(ref);
    free(ss);
}

static void test_crc(void)
{
    char p[160];
    path_in(p, sizeof p, "crc.xlsx");
    CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, NULL, KEEP, NULL, 1), 0);
    FILE *f = fopen(p, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    /* Change one letter inside the stored styles.xml data: still well-formed, but not what was written. */
    char *at = NULL;
    for (size_t i = 0; i + 13 <= n && at == NULL; i++)
        if (memcmp(buf + i, "val=\"Calibri\"", 13) == 0)
            at = buf + i;
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    fseek(f, (long)(at - buf) + 5, SEEK_SET);
    fputc('K', f);
    fclose(f);
    expect(p, 0, "CRC-32 mismatch", NULL);
}

/* A package with more than VERIFY_SPLIT_BYTES (128 KiB) of worksheets and shared strings: cluster32's
 * (about 400 KB of XML).  Its bulk parts are checked on two threads, the two largest (Inputs,
 * xl/worksheets/sheet2.xml, and xl/sharedStrings.xml) on different ones; a damage on either is caught,
 * and with both damaged the message names the first in the directory, as checking in one thread would. */
static void test_two_threads(void)
{
    char big[160], p[160], q[160];
    path_in(big, sizeof big, "cluster32.xlsx");
    path_in(p, sizeof p, "cut-one.xlsx");
    path_in(q, sizeof q, "cut-two.xlsx");
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &m, &d), TCO_OK);
    tco_workbook_options o = {.created = 1, .currency = "CNY"};
    CU_ASSERT_EQUAL_FATAL(tco_workbook_write(m, big, &o, &d), TCO_OK);
    tco_model_free(m);
    char *inputs = read_part(big, "xl/worksheets/sheet2.xml"), *strings = read_part(big, "xl/sharedStrings.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(inputs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(strings);
    CU_ASSERT(strlen(inputs) + strlen(strings) > 128 * 1024);
    free(inputs);
    free(strings);
    expect(big, 13, NULL, NULL);
    CU_ASSERT_EQUAL_FATAL(copy_zip(big, p, "xl/sharedStrings.xml", CUT, NULL, 0), 0);
    expect(p, 0, "xl/sharedStrings.xml: XML not well-formed", NULL);
    CU_ASSERT_EQUAL_FATAL(copy_zip(big, p, "xl/worksheets/sheet2.xml", CUT, NULL, 0), 0);
    expect(p, 0, "xl/worksheets/sheet2.xml: XML not well-formed", NULL);
    CU_ASSERT_EQUAL_FATAL(copy_zip(p, q, "xl/sharedStrings.xml", CUT, NULL, 0), 0);
    for (int run = 0; run < 20; run++) /* whichever thread finishes first */
        expect(q, 0, "xl/worksheets/sheet2.xml: XML not well-formed", NULL);
    /* A damaged part late in the directory, on the calling thread. */
    CU_ASSERT_EQUAL_FATAL(copy_zip(big, p, "docProps/app.xml", CUT, NULL, 0), 0);
    expect(p, 0, "docProps/app.xml: XML not well-formed", NULL);
}

/* Copy of @p xml with the value of its first number cell (a <c> without t=, so a number) replaced by
 * @p text; its reference into @p ref.  Heap, or NULL when @p xml holds no number cell. */
static char *plant_number(const char *xml, const char *text, char ref[16])
{
    for (const char *c = strstr(xml, "<c r=\""); c != NULL; c = strstr(c + 1, "<c r=\"")) {
        const char *tag_end = strchr(c, '>'), *v = strstr(c, "<v>"), *close = strstr(c, "</c>");
        if (tag_end == NULL || v == NULL || close == NULL || v > close || tag_end[-1] == '/')
            continue;
        bool typed = false;
        for (const char *p = c; p < tag_end && !typed; p++)
            typed = strncmp(p, " t=\"", 4) == 0;
        if (typed)
            continue;
        const char *r = c + 6, *q = strchr(r, '"');
        snprintf(ref, 16, "%.*s", (int)(q - r), r);
        const char *end = strstr(v, "</v>");
        size_t head = (size_t)(v + 3 - xml);
        char *out = malloc(strlen(xml) + strlen(text) + 1);
        if (out == NULL)
            return NULL;
        memcpy(out, xml, head);
        strcpy(out + head, text);
        strcat(out, end);
        return out;
    }
    return NULL;
}

/* A number that is not finite (what tco once cached as the deviation of a Monte Carlo run with values near
 * 1E+301: "INF"), or no number at all, in a number cell or in a chart's number cache, is refused by sheet
 * and cell, whatever wrote it; text cells and string caches are not numbers. */
static void test_not_finite(void)
{
    char p[160], ref[16], want[128];
    path_in(p, sizeof p, "not-finite.xlsx");
    char *summary = read_part(good, "xl/worksheets/sheet1.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(summary);
    static const char *const bad[] = {"INF", "-INF", "NaN", "nan", "1E+309", "-1e400", "0x1p3", "", "1,5", " 1",
                                      "1e", "."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *planted = plant_number(summary, bad[i], ref);
        CU_ASSERT_PTR_NOT_NULL_FATAL(planted);
        CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/worksheets/sheet1.xml", REPLACE, planted, 0), 0);
        snprintf(want, sizeof want, "sheet 'Summary' (xl/worksheets/sheet1.xml) cell %s: '%s' is not a finite number",
                 ref, bad[i]);
        expect(p, 0, want, NULL);
        free(planted);
    }
    /* Numbers as Excel and libxlsxwriter write them, up to the largest double, pass. */
    static const char *const fine[] = {"0", "-0", "1.7976931348623157E+308", "-2.5e-310", "1E-400", "+3.", ".5"};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        char *planted = plant_number(summary, fine[i], ref);
        CU_ASSERT_PTR_NOT_NULL_FATAL(planted);
        CU_ASSERT_EQUAL_FATAL(copy_zip(good, p, "xl/worksheets/sheet1.xml", REPLACE, planted, 0), 0);
        expect(p, 0, NULL, NULL);
        free(planted);
    }
    free(summary);
    /* cluster32: Inputs (sheet2) is checked on the second thread; the first chart's first number cache. */
    char big[160];
    path_in(big, sizeof big, "cluster32-numbers.xlsx");
    tco_model *m = NULL;
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_evaluated(TCO_SOURCE_DIR, TCO_SOURCE_DIR "/scenarios/cluster32.ini", NULL, &m, &d), TCO_OK);
    tco_workbook_options o = {.created = 1, .currency = "CNY"};
    CU_ASSERT_EQUAL_FATAL(tco_workbook_write(m, big, &o, &d), TCO_OK);
    tco_model_free(m);
    char *inputs = read_part(big, "xl/worksheets/sheet2.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(inputs);
    char *planted = plant_number(inputs, "INF", ref);
    CU_ASSERT_PTR_NOT_NULL_FATAL(planted);
    CU_ASSERT_EQUAL_FATAL(copy_zip(big, p, "xl/worksheets/sheet2.xml", REPLACE, planted, 0), 0);
    snprintf(want, sizeof want, "sheet 'Inputs' (xl/worksheets/sheet2.xml) cell %s: 'INF' is not a finite number", ref);
    for (int run = 0; run < 5; run++)
        expect(p, 0, want, NULL);
    free(planted);
    free(inputs);
    char *chart = read_part(big, "xl/charts/chart1.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(chart);
    char *cache = strstr(chart, "<c:numCache>"), *v = cache ? strstr(cache, "<c:v>") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    char *end = strstr(v, "</c:v>");
    char *nan_chart = malloc(strlen(chart) + 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nan_chart);
    snprintf(nan_chart, strlen(chart) + 8, "%.*sNAN%s", (int)(v + 5 - chart), chart, end);
    CU_ASSERT_EQUAL_FATAL(copy_zip(big, p, "xl/charts/chart1.xml", REPLACE, nan_chart, 0), 0);
    expect(p, 0, "xl/charts/chart1.xml: the cached point 0 of the series over ", "'NAN' is not a finite number");
    free(nan_chart);
    /* A string cache holds text: "NAN" there is a name, not a number. */
    char *str = strstr(chart, "<c:strCache>"), *sv = str ? strstr(str, "<c:v>") : NULL;
    if (sv != NULL) {
        char *send = strstr(sv, "</c:v>");
        char *text_chart = malloc(strlen(chart) + 8);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text_chart);
        snprintf(text_chart, strlen(chart) + 8, "%.*sNAN%s", (int)(sv + 5 - chart), chart, send);
        CU_ASSERT_EQUAL_FATAL(copy_zip(big, p, "xl/charts/chart1.xml", REPLACE, text_chart, 0), 0);
        expect(p, 0, NULL, NULL);
        free(text_chart);
    }
    free(chart);
}

CU_ErrorCode register_output_suite(void)
{
    CU_pSuite s = CU_add_suite("output", setup, teardown);
    if (s == NULL)
        return CU_get_error();
    if (CU_add_test(s, "a workbook tco wrote verifies", test_good) == NULL ||
        CU_add_test(s, "a truncated package is caught", test_truncated) == NULL ||
        CU_add_test(s, "a cut XML part is caught", test_cut_part) == NULL ||
        CU_add_test(s, "a missing part or relationship is caught", test_missing_part) == NULL ||
        CU_add_test(s, "bad text in a part is caught", test_bad_text) == NULL ||
        CU_add_test(s, "a CRC mismatch is caught", test_crc) == NULL ||
        CU_add_test(s, "a large package is checked on two threads", test_two_threads) == NULL ||
        CU_add_test(s, "a number that is not finite is caught by sheet and cell", test_not_finite) == NULL)
        return CU_get_error();
    return CUE_SUCCESS;
}
