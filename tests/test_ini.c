/* test_ini.c - the INI reader's hash index, its limits and tco_ini_set(), on
 * files generated into a temporary folder. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "read/ini.h"
#include "base/names.h"
#include "base/strbuf.h"
#include "suites.h"

static char tmp_dir[] = "/tmp/tco_test_ini.XXXXXX";
static int n_files;

static int suite_init(void)
{
    return mkdtemp(tmp_dir) == NULL ? -1 : 0;
}

static int suite_clean(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Write @p text to a new file in the temporary folder; returns its path (heap). */
static char *write_file(const tco_strbuf *text)
{
    tco_strbuf p = {0};
    tco_strbuf_printf(&p, "%s/f%d.ini", tmp_dir, n_files++);
    char *path = tco_strbuf_take(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(tco_strbuf_str(text), 1, text->len, f), text->len);
    CU_ASSERT_EQUAL(fclose(f), 0);
    return path;
}

/* Load @p text; returns the error and fills @p ini and @p d. */
static tco_error load_text(const tco_strbuf *text, tco_ini *ini, tco_diag *d)
{
    char *path = write_file(text);
    tco_error e = tco_ini_load(path, "t.ini", ini, d);
    free(path);
    return e;
}

static tco_error load_str(const char *text, tco_ini *ini, tco_diag *d)
{
    tco_strbuf b = {0};
    tco_strbuf_append(&b, text);
    tco_error e = load_text(&b, ini, d);
    tco_strbuf_free(&b);
    return e;
}

/* Sections s0..s(ns-1) with keys k0..k(per-1) each, value "SECTION/KEY". */
static void grid(tco_strbuf *b, int ns, int per)
{
    for (int s = 0; s < ns; s++) {
        tco_strbuf_printf(b, "[S%d]\n", s);
        for (int k = 0; k < per; k++)
            tco_strbuf_printf(b, "K%d = %d/%d\n", k, s, k);
    }
}

/* 20,000 keys in 400 sections: every lookup finds its own value, in any case. */
static void test_index_finds_every_key(void)
{
    tco_strbuf b = {0};
    grid(&b, 400, 50);
    tco_ini ini = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_text(&b, &ini, &d), TCO_OK);
    tco_strbuf_free(&b);
    CU_ASSERT_EQUAL(tco_ini_section_count(&ini), 400);
    int wrong = 0;
    for (int s = 0; s < 400; s++) {
        char sec[32], key[32], want[32];
        snprintf(sec, sizeof sec, s % 2 ? "s%d" : "S%d", s);
        for (int k = 0; k < 50; k++) {
            snprintf(key, sizeof key, k % 3 ? "k%d" : "K%d", k);
            snprintf(want, sizeof want, "%d/%d", s, k);
            const char *v = tco_ini_get(&ini, sec, key);
            wrong += v == NULL || strcmp(v, want) != 0;
        }
        char name[32];
        snprintf(name, sizeof name, "s%d", s);
        wrong += strcmp(tco_ini_section_name(&ini, s), name) != 0; /* file order, lower-case */
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_PTR_NULL(tco_ini_get(&ini, "s1", "k50"));
    CU_ASSERT_PTR_NULL(tco_ini_get(&ini, "s400", "k0"));
    CU_ASSERT_PTR_NULL(tco_ini_get(&ini, "s1", "k"));
    CU_ASSERT_PTR_NULL(tco_ini_get(&ini, "s1:k0", ""));
    CU_ASSERT(tco_ini_has_section(&ini, "S399"));
    CU_ASSERT(!tco_ini_has_section(&ini, "s400"));
    CU_ASSERT_STRING_EQUAL(tco_ini_section_as_written(&ini, "s17"), "S17");
    CU_ASSERT_STRING_EQUAL(tco_ini_section_as_written(&ini, "nosuch"), "nosuch");
    CU_ASSERT_PTR_NULL(tco_ini_section_name(&ini, 400));
    int n = 0;
    const char **keys = tco_ini_keys(&ini, "S7", &n);
    CU_ASSERT_EQUAL_FATAL(n, 50);
    CU_ASSERT_STRING_EQUAL(keys[0], "s7:k0");
    CU_ASSERT_STRING_EQUAL(keys[49], "s7:k49");
    free(keys);
    CU_ASSERT_PTR_NULL(tco_ini_keys(&ini, "s400", &n));
    CU_ASSERT_EQUAL(n, 0);
    tco_ini_free(&ini);
}

/* A file of more than 4,096 entries is read by iniparser on two threads, each with its own in-memory
 * file; with one, two or three file descriptors free (the helper's in-memory file or either thread's
 * opening of it then fails), the runs not read are read again on one thread, and every value is read
 * once, right.  Sections of 1 to 97 keys, so that the runs of sections are of every length. */
static void test_two_threads_few_descriptors(void)
{
    tco_strbuf b = {0};
    int ns = 0, entries = 0;
    for (; entries <= 20000; ns++) {
        int per = 1 + (ns * 37) % 97;
        tco_strbuf_printf(&b, "[S%d]\n", ns);
        for (int k = 0; k < per; k++)
            tco_strbuf_printf(&b, "K%d = %d/%d\n", k, ns, k);
        entries += 1 + per;
    }
    char *path = write_file(&b);
    tco_strbuf_free(&b);
    struct rlimit was;
    CU_ASSERT_EQUAL_FATAL(getrlimit(RLIMIT_NOFILE, &was), 0);
    int lowest = dup(0); /* the lowest free descriptor */
    CU_ASSERT_FATAL(lowest >= 0);
    close(lowest);
    for (int free_fds = 1; free_fds <= 4; free_fds++) {
        struct rlimit few = was;
        few.rlim_cur = (rlim_t)lowest + (rlim_t)free_fds;
        CU_ASSERT_EQUAL_FATAL(setrlimit(RLIMIT_NOFILE, &few), 0);
        tco_ini ini = {0};
        tco_diag d = {0};
        tco_error e = tco_ini_load(path, "t.ini", &ini, &d);
        CU_ASSERT_EQUAL_FATAL(setrlimit(RLIMIT_NOFILE, &was), 0);
        if (free_fds == 1) { /* the file, then the in-memory file, not opened again: refused, saying why */
            CU_ASSERT_EQUAL(e, TCO_ERR_NOMEM);
            CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "t.ini: cannot buffer the file: Too many open files"));
            continue;
        }
        CU_ASSERT_EQUAL(e, TCO_OK);
        if (e != TCO_OK)
            fprintf(stderr, "\n%d free: %s\n", free_fds, d.message);
        int secs = 0;
        for (int s = 0; s < ns; s++)
            secs += tco_ini_key_count(&ini, tco_ini_section_index(&ini, tco_ini_section_name(&ini, s))) ==
                    1 + (s * 37) % 97;
        CU_ASSERT_EQUAL(secs, ns);
        int wrong = 0;
        for (int s = 0; s < ns; s++)
            for (int k = 0, per = 1 + (s * 37) % 97; k < per; k++) {
                char sec[32], key[32], want[32];
                snprintf(sec, sizeof sec, "s%d", s);
                snprintf(key, sizeof key, "k%d", k);
                snprintf(want, sizeof want, "%d/%d", s, k);
                const char *v = tco_ini_get(&ini, sec, key);
                wrong += v == NULL || strcmp(v, want) != 0;
            }
        CU_ASSERT_EQUAL(wrong, 0);
        tco_ini_free(&ini);
    }
    free(path);
}

/* Values as iniparser reads them, quoting and comments included. */
static void test_values_as_iniparser_reads_them(void)
{
    tco_ini ini = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_str("; a comment\n\n[A b]\n"
                                   "  Spaced Key   =   plain value   \n"
                                   "quoted = \" keeps blanks; and # \" ; a comment\n"
                                   "single = 'it \"is\"' # a comment\n"
                                   "empty =\n"
                                   "empty_quoted = \"\" ; nothing\n"
                                   "inner = say \"hi\" to C:\\dir\n"
                                   "slash = \"C:\\dir\\\"\n"
                                   "[other]\nquoted = 2\n",
                                   &ini, &d),
                          TCO_OK);
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "a b", "spaced key"), "plain value");
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "A B", "quoted"), " keeps blanks; and # ");
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "a b", "single"), "it \"is\"");
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "a b", "empty"), "");
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "a b", "empty_quoted"), "");
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "a b", "inner"), "say \"hi\" to C:\\dir");
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "a b", "slash"), "C:\\dir\\");
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "other", "quoted"), "2");
    CU_ASSERT_STRING_EQUAL(tco_ini_section_as_written(&ini, "a b"), "A b");
    tco_ini_free(&ini);
}

/* Long names are compared whole: two 700-byte keys that differ in the last byte are two keys. */
static void test_long_names_are_distinct(void)
{
    tco_strbuf b = {0};
    char sec[401], key[701];
    memset(sec, 's', 400);
    sec[400] = '\0';
    memset(key, 'k', 700);
    key[700] = '\0';
    tco_strbuf_printf(&b, "[%s]\n%s = 1\n", sec, key);
    key[699] = 'x';
    tco_strbuf_printf(&b, "%s = 2\n", key);
    tco_ini ini = {0};
    tco_diag d = {0};
    tco_error e = load_text(&b, &ini, &d);
    tco_strbuf_free(&b);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, sec, key), "2");
    key[699] = 'k';
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, sec, key), "1");
    tco_ini_free(&ini);
}

static void expect_refusal(const tco_strbuf *b, tco_error code, const char *fragment)
{
    tco_ini ini = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL(load_text(b, &ini, &d), code);
    if (strstr(d.message, fragment) == NULL) {
        fprintf(stderr, "\nexpected '%s' in '%s'\n", fragment, d.message);
        CU_FAIL("message");
    }
    CU_ASSERT_EQUAL(tco_ini_section_count(&ini), 0); /* nothing half-loaded */
    tco_ini_free(&ini);
}

/* Duplicates are found whatever the case, naming the first line; the same key in two sections is fine. */
static void test_duplicates(void)
{
    tco_strbuf b = {0};
    tco_strbuf_append(&b, "[a]\nx = 1\n[B]\nx = 2\n[b]\n");
    expect_refusal(&b, TCO_ERR_DUPLICATE, "t.ini:5: duplicate section [b] (first at line 3)");
    tco_strbuf_free(&b);
    grid(&b, 300, 10);
    tco_strbuf_append(&b, "[S300]\nk1 = 1\nK1 = 2\n");
    expect_refusal(&b, TCO_ERR_DUPLICATE, "t.ini:3303: [S300] K1: duplicate key (first at line 3302)");
    tco_strbuf_free(&b);
}

/* Each limit: a file at it loads, one more is refused naming the line. */
static void test_limits(void)
{
    tco_ini ini = {0};
    tco_diag d = {0};
    tco_strbuf b = {0};
    grid(&b, 1, TCO_INI_MAX_SECTION_KEYS);
    CU_ASSERT_EQUAL(load_text(&b, &ini, &d), TCO_OK);
    tco_ini_free(&ini);
    tco_strbuf_append(&b, "one_more = 1\n");
    expect_refusal(&b, TCO_ERR_INI, "t.ini:1002: [S0] has more than 1000 keys; that is the limit for one section");
    tco_strbuf_free(&b);

    for (int s = 0; s < TCO_INI_MAX_SECTIONS; s++)
        tco_strbuf_printf(&b, "[%d]\n", s);
    CU_ASSERT_EQUAL(load_text(&b, &ini, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_ini_section_count(&ini), TCO_INI_MAX_SECTIONS);
    tco_ini_free(&ini);
    tco_strbuf_append(&b, "[last]\n");
    expect_refusal(&b, TCO_ERR_INI, "t.ini:50001: more than 50000 sections; that is the limit for one file");
    tco_strbuf_free(&b);

    grid(&b, TCO_INI_MAX_KEYS / 1000, 1000);
    CU_ASSERT_EQUAL_FATAL(load_text(&b, &ini, &d), TCO_OK);
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "s249", "k999"), "249/999");
    tco_ini_free(&ini);
    tco_strbuf_append(&b, "[more]\nk = 1\n");
    expect_refusal(&b, TCO_ERR_INI, "t.ini:250252: more than 250000 keys; that is the limit for one file");
    tco_strbuf_free(&b);
}

/* tco_ini_set: an existing key changes in place, a new key goes last in its section, a new
 * section last in the file; thousands of new keys grow the index and stay findable. */
static void test_set_keeps_the_index(void)
{
    tco_ini ini = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_str("[Facility]\npue = 1.3\nprice = 0.7\n", &ini, &d), TCO_OK);
    CU_ASSERT(tco_ini_set(&ini, "FACILITY", "PUE", "1.45"));
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "facility", "pue"), "1.45");
    CU_ASSERT(tco_ini_set(&ini, "facility", "racks", "4"));
    int n = 0;
    const char **keys = tco_ini_keys(&ini, "facility", &n);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_STRING_EQUAL(keys[0], "facility:pue");
    CU_ASSERT_STRING_EQUAL(keys[2], "facility:racks");
    free(keys);
    CU_ASSERT(tco_ini_set(&ini, "D-M", "price", "80000"));
    CU_ASSERT_EQUAL(tco_ini_section_count(&ini), 2);
    CU_ASSERT_STRING_EQUAL(tco_ini_section_name(&ini, 1), "d-m");
    CU_ASSERT_STRING_EQUAL(tco_ini_section_as_written(&ini, "d-m"), "D-M");
    CU_ASSERT_EQUAL(ini.n_sections, 2);
    CU_ASSERT_STRING_EQUAL(ini.sections[1], "D-M");
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "d-m", "PRICE"), "80000");
    int wrong = 0;
    for (int i = 0; i < 3000; i++) {
        char sec[32], key[32], val[32];
        snprintf(sec, sizeof sec, "new%d", i % 700);
        snprintf(key, sizeof key, "key%d", i);
        snprintf(val, sizeof val, "%d", i);
        wrong += !tco_ini_set(&ini, sec, key, val);
    }
    for (int i = 0; i < 3000; i++) {
        char sec[32], key[32], val[32];
        snprintf(sec, sizeof sec, "NEW%d", i % 700);
        snprintf(key, sizeof key, "KEY%d", i);
        snprintf(val, sizeof val, "%d", i);
        const char *v = tco_ini_get(&ini, sec, key);
        wrong += v == NULL || strcmp(v, val) != 0;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(tco_ini_section_count(&ini), 702);
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "facility", "price"), "0.7");
    CU_ASSERT(!tco_ini_set(&ini, "facility", "pue", NULL));
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "facility", "pue"), "1.45");
    tco_ini_free(&ini);
}

/* The longest line: 1,022 bytes with LF, 1,021 with CRLF (iniparser's buffer holds the CR too). */
static void test_longest_line(void)
{
    char value[1100];
    memset(value, 'v', sizeof value);
    size_t prefix = strlen("key = ");
    const char *ends[] = {"\n", "\r\n"};
    for (int crlf = 0; crlf < 2; crlf++)
        for (int extra = 0; extra < 2; extra++) {
            tco_strbuf b = {0};
            int len = TCO_INI_MAX_LINE - crlf + extra;
            tco_strbuf_printf(&b, "[s]%skey = %.*s%sother = 1%s", ends[crlf], len - (int)prefix, value, ends[crlf],
                              ends[crlf]);
            tco_ini ini = {0};
            tco_diag d = {0};
            tco_error e = load_text(&b, &ini, &d);
            CU_ASSERT_EQUAL(e, extra ? TCO_ERR_INI : TCO_OK);
            if (extra) {
                CU_ASSERT_PTR_NOT_NULL(strstr(d.message, crlf ? "t.ini:2: line is 1022 bytes long; at most 1021 are "
                                                                "allowed with CRLF line ends"
                                                              : "t.ini:2: line is 1023 bytes long; at most 1022 are "
                                                                "allowed"));
            } else {
                const char *v = tco_ini_get(&ini, "s", "key");
                CU_ASSERT(v != NULL && strlen(v) == (size_t)len - prefix);
                CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "s", "other"), "1");
            }
            tco_ini_free(&ini);
            tco_strbuf_free(&b);
        }
}

/* A zeroed or freed file answers "absent", and can be set into. */
static void test_empty_file(void)
{
    tco_ini ini = {0};
    int n = 5;
    CU_ASSERT_PTR_NULL(tco_ini_get(&ini, "a", "b"));
    CU_ASSERT(!tco_ini_has_section(&ini, "a"));
    CU_ASSERT_EQUAL(tco_ini_section_count(&ini), 0);
    CU_ASSERT_PTR_NULL(tco_ini_keys(&ini, "a", &n));
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT(tco_ini_set(&ini, "a", "b", "c"));
    CU_ASSERT_STRING_EQUAL(tco_ini_get(&ini, "A", "B"), "c");
    tco_ini_free(&ini);
    tco_ini_free(&ini);
    tco_diag d = {0};
    CU_ASSERT_EQUAL(load_str("; only a comment\n", &ini, &d), TCO_OK);
    CU_ASSERT_EQUAL(tco_ini_section_count(&ini), 0);
    tco_ini_free(&ini);
}

/* The cache reads a file once: the same path and name give the same copy, a file shown under another
 * name is read again, and a file that fails is not held (the next call reads it again). */
static void test_cache_reads_once(void)
{
    tco_strbuf b = {0};
    tco_strbuf_append(&b, "[a]\nk = 1\n");
    char *path = write_file(&b);
    tco_ini_cache cache = {0};
    tco_diag d = {0};
    const tco_ini *first = NULL, *again = NULL, *other = NULL;
    CU_ASSERT_EQUAL_FATAL(tco_ini_cache_load(&cache, path, "t.ini", &first, &d), TCO_OK);
    CU_ASSERT_STRING_EQUAL(tco_ini_get(first, "a", "k"), "1");
    CU_ASSERT_STRING_EQUAL(first->path, "t.ini");
    /* Changed on disk: the cache answers from its copy. */
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("[a]\nk = 2\n", f);
    CU_ASSERT_EQUAL(fclose(f), 0);
    CU_ASSERT_EQUAL(tco_ini_cache_load(&cache, path, "t.ini", &again, &d), TCO_OK);
    CU_ASSERT_PTR_EQUAL(again, first);
    CU_ASSERT_EQUAL(cache.n, 1);
    CU_ASSERT_EQUAL(tco_ini_cache_load(&cache, path, NULL, &other, &d), TCO_OK);
    CU_ASSERT(other != first);
    CU_ASSERT_STRING_EQUAL(tco_ini_get(other, "a", "k"), "2");
    CU_ASSERT_STRING_EQUAL(other->path, path);
    CU_ASSERT_EQUAL(cache.n, 2);
    f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("[a]\nk = 1\nk = 2\n", f);
    CU_ASSERT_EQUAL(fclose(f), 0);
    const tco_ini *bad = first;
    CU_ASSERT_EQUAL(tco_ini_cache_load(&cache, path, "u.ini", &bad, &d), TCO_ERR_DUPLICATE);
    CU_ASSERT_PTR_NULL(bad);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.message, "u.ini:3: [a] k: duplicate key (first at line 2)"));
    CU_ASSERT_EQUAL(cache.n, 2);
    tco_ini_cache_free(&cache);
    CU_ASSERT_EQUAL(cache.n, 0);
    tco_ini_cache_free(&cache);
    tco_strbuf_free(&b);
    free(path);
}

/* Sections of 1 to 40 keys (small ones are searched key by key, large ones through the table of keys):
 * every key found, a duplicate refused wherever it falls, and keys set past a section's size found too. */
static void test_sections_of_every_size(void)
{
    for (int per = 1; per <= 40; per++) {
        tco_strbuf b = {0};
        grid(&b, 30, per);
        tco_ini ini = {0};
        tco_diag d = {0};
        CU_ASSERT_EQUAL_FATAL(load_text(&b, &ini, &d), TCO_OK);
        int wrong = 0;
        for (int sec = 0; sec < 30; sec++) {
            char sn[32], key[32], want[32];
            snprintf(sn, sizeof sn, "s%d", sec);
            for (int k = 0; k < per; k++) {
                snprintf(key, sizeof key, "K%d", k);
                snprintf(want, sizeof want, "%d/%d", sec, k);
                const char *v = tco_ini_get(&ini, sn, key);
                wrong += v == NULL || strcmp(v, want) != 0;
            }
            snprintf(key, sizeof key, "k%d", per);
            wrong += tco_ini_get(&ini, sn, key) != NULL;
            /* Set new keys until the section has 40: each is found, and the old ones still are. */
            for (int k = per; k < 40; k++) {
                snprintf(key, sizeof key, "k%d", k);
                snprintf(want, sizeof want, "set %d", k);
                wrong += !tco_ini_set(&ini, sn, key, want);
            }
            for (int k = 0; k < 40; k++) {
                snprintf(key, sizeof key, "k%d", k);
                if (k < per)
                    snprintf(want, sizeof want, "%d/%d", sec, k);
                else
                    snprintf(want, sizeof want, "set %d", k);
                const char *v = tco_ini_get(&ini, sn, key);
                wrong += v == NULL || strcmp(v, want) != 0;
            }
        }
        CU_ASSERT_EQUAL(wrong, 0);
        tco_ini_free(&ini);
        /* The first key given again as the section's last. */
        tco_strbuf_printf(&b, "[S30]\n");
        for (int k = 0; k < per; k++)
            tco_strbuf_printf(&b, "K%d = x\n", k);
        tco_strbuf_printf(&b, "k0 = again\n");
        char msg[80];
        snprintf(msg, sizeof msg, "t.ini:%d: [S30] k0: duplicate key (first at line %d)", 30 * (per + 1) + per + 2,
                 30 * (per + 1) + 2);
        expect_refusal(&b, TCO_ERR_DUPLICATE, msg);
        tco_strbuf_free(&b);
    }
}

/* tco_decimal_value() is strtod() exactly, whether it takes its short way or strtod's. */
static void test_decimal_value_is_strtod(void)
{
    static const char *const cases[] = {
        "0", "-0", "+0.0", "1", "12500", "12500.00", "0.1", "0.7", "4.35", "-1.5", "123.", ".5", "0.000125",
        "9007199254740992", "9007199254740993", /* 2^53 and 2^53 + 1: the second rounds, by strtod */
        "1234567890123456789", "12345678901234567890", "0.1234567890123456789", "1e22", "2.5E-3",
        "0.0000000000000000000001", "0.00000000000000000000001", "3.14159265358979323846264338327950288"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double want = strtod(cases[i], NULL), got = tco_decimal_value(cases[i]);
        CU_ASSERT_EQUAL(memcmp(&want, &got, sizeof want), 0);
        if (memcmp(&want, &got, sizeof want) != 0)
            fprintf(stderr, "tco_decimal_value(%s) = %.17g, strtod %.17g\n", cases[i], got, want);
    }
    CU_ASSERT_DOUBLE_EQUAL(tco_decimal_value("12500.50"), 12500.5, 0);
    CU_ASSERT(signbit(tco_decimal_value("-0")));
    /* Random decimals of 1 to 19 digits, with and without a point. */
    srand(12);
    int differ = 0;
    for (int t = 0; t < 200000; t++) {
        char num[40];
        int digits = 1 + rand() % 19, point = rand() % (digits + 1), k = 0;
        if (rand() % 4 == 0)
            num[k++] = '-';
        for (int j = 0; j < digits; j++) {
            if (j == point && j > 0)
                num[k++] = '.';
            num[k++] = (char)('0' + rand() % 10);
        }
        num[k] = '\0';
        double want = strtod(num, NULL), got = tco_decimal_value(num);
        differ += memcmp(&want, &got, sizeof want) != 0;
    }
    CU_ASSERT_EQUAL(differ, 0);
}

/* A section looked up once (tco_ini_section_index()) gives what the name gives, for a section of a few
 * keys (compared in place) and of more than 16 (through the table); its keys in order; -1 for none. */
static void test_section_index(void)
{
    tco_strbuf b = {0};
    grid(&b, 3, 4); /* S0..S2, 4 keys each */
    tco_strbuf_printf(&b, "[Big]\n");
    for (int k = 0; k < 30; k++)
        tco_strbuf_printf(&b, "Key%d = big/%d\n", k, k);
    tco_ini ini = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_text(&b, &ini, &d), TCO_OK);
    tco_strbuf_free(&b);
    CU_ASSERT_EQUAL(tco_ini_section_index(&ini, "s0"), 0);
    CU_ASSERT_EQUAL(tco_ini_section_index(&ini, "S2"), 2);
    CU_ASSERT_EQUAL(tco_ini_section_index(&ini, "BIG"), 3);
    CU_ASSERT_EQUAL(tco_ini_section_index(&ini, "s3"), -1);
    CU_ASSERT_STRING_EQUAL(tco_ini_get_in(&ini, 1, "K3"), "1/3");
    CU_ASSERT_STRING_EQUAL(tco_ini_get_in(&ini, 1, "k0"), "1/0");
    CU_ASSERT_PTR_NULL(tco_ini_get_in(&ini, 1, "k4"));
    CU_ASSERT_PTR_NULL(tco_ini_get_in(&ini, 1, "k"));     /* a prefix of k0..k3 */
    CU_ASSERT_PTR_NULL(tco_ini_get_in(&ini, 1, "k00"));
    CU_ASSERT_PTR_NULL(tco_ini_get_in(&ini, 1, "s1:k0")); /* the whole name is not a key */
    CU_ASSERT_STRING_EQUAL(tco_ini_get_in(&ini, 3, "KEY29"), "big/29");
    CU_ASSERT_PTR_NULL(tco_ini_get_in(&ini, 3, "key30"));
    CU_ASSERT_PTR_NULL(tco_ini_get_in(&ini, -1, "k0"));
    CU_ASSERT_PTR_NULL(tco_ini_get_in(&ini, 4, "k0"));
    CU_ASSERT_EQUAL(tco_ini_key_count(&ini, 3), 30);
    CU_ASSERT_EQUAL(tco_ini_key_count(&ini, -1), 0);
    CU_ASSERT_STRING_EQUAL(tco_ini_key_at(&ini, 0, 0), "k0");
    CU_ASSERT_STRING_EQUAL(tco_ini_key_at(&ini, 3, 29), "key29");
    CU_ASSERT_PTR_NULL(tco_ini_key_at(&ini, 3, 30));
    CU_ASSERT_PTR_NULL(tco_ini_key_at(&ini, -1, 0));
    /* Keys set later are found the same way, after the file's. */
    CU_ASSERT(tco_ini_set(&ini, "s1", "Extra", "e"));
    CU_ASSERT_STRING_EQUAL(tco_ini_get_in(&ini, 1, "extra"), "e");
    CU_ASSERT_STRING_EQUAL(tco_ini_key_at(&ini, 1, 4), "extra");
    int wrong = 0;
    for (int s = 0; s < tco_ini_section_count(&ini); s++)
        for (int k = 0; k < tco_ini_key_count(&ini, s); k++) {
            const char *key = tco_ini_key_at(&ini, s, k);
            const char *v = tco_ini_get(&ini, tco_ini_section_name(&ini, s), key);
            wrong += v == NULL || v != tco_ini_get_in(&ini, s, key);
        }
    CU_ASSERT_EQUAL(wrong, 0);
    tco_ini_free(&ini);
}

/* tco_ini_has_range_keys(): a key ending in _range, _dist or _range_source, in any case; a key set later too. */
static void test_range_keys_recorded(void)
{
    static const char *const text = "[plain]\nprice = 1\nprice_source = quote\nranged = 2\nx_ranges = 3\n"
                                    "[r]\nprice = 1\nPRICE_RANGE = 1, 2\n"
                                    "[d]\npue_dist = pert\n"
                                    "[b]\npue_range_source = measured\n"
                                    "[empty]\n";
    tco_ini ini = {0};
    tco_diag d = {0};
    CU_ASSERT_EQUAL_FATAL(load_str(text, &ini, &d), TCO_OK);
    CU_ASSERT(!tco_ini_has_range_keys(&ini, tco_ini_section_index(&ini, "plain")));
    CU_ASSERT(tco_ini_has_range_keys(&ini, tco_ini_section_index(&ini, "R")));
    CU_ASSERT(tco_ini_has_range_keys(&ini, tco_ini_section_index(&ini, "d")));
    CU_ASSERT(tco_ini_has_range_keys(&ini, tco_ini_section_index(&ini, "b")));
    CU_ASSERT(!tco_ini_has_range_keys(&ini, tco_ini_section_index(&ini, "empty")));
    CU_ASSERT(!tco_ini_has_range_keys(&ini, -1));
    CU_ASSERT(tco_ini_set(&ini, "plain", "price", "3"));
    CU_ASSERT(!tco_ini_has_range_keys(&ini, tco_ini_section_index(&ini, "plain")));
    CU_ASSERT(tco_ini_set(&ini, "plain", "Price_Dist", "uniform"));
    CU_ASSERT(tco_ini_has_range_keys(&ini, tco_ini_section_index(&ini, "plain")));
    CU_ASSERT(tco_ini_set(&ini, "new", "k_range", "1, 2"));
    CU_ASSERT(tco_ini_has_range_keys(&ini, tco_ini_section_index(&ini, "new")));
    tco_ini_free(&ini);
}

/* The character checks find a control character, DEL or a byte that is not UTF-8 at every column of a
 * line (the plain lines are checked eight bytes at a time), and let a tab through anywhere. */
static void test_bad_byte_at_every_column(void)
{
    static const char bad[] = {'\x01', '\x1F', '\x7F', '\x80'};
    static const char *const said[] = {"control character 0x01", "control character 0x1F", "control character 0x7F",
                                       "not valid UTF-8 (byte 0x80)"};
    for (size_t col = 7; col <= 40; col++) {
        char line[64];
        memset(line, 'v', sizeof line);
        memcpy(line, "key = ", 6);
        line[41] = '\0';
        for (size_t k = 0; k < sizeof bad; k++) {
            line[col - 1] = bad[k];
            tco_strbuf b = {0};
            tco_strbuf_printf(&b, "[s]\n%s\n", line);
            char want[96];
            snprintf(want, sizeof want, "t.ini:2, column %zu: %s", col, said[k]);
            expect_refusal(&b, TCO_ERR_INI, want);
            tco_strbuf_free(&b);
        }
        line[col - 1] = '\t';
        tco_ini ini = {0};
        tco_diag d = {0};
        char text[80];
        snprintf(text, sizeof text, "[s]\n%s\n", line);
        CU_ASSERT_EQUAL(load_str(text, &ini, &d), TCO_OK);
        /* 35 bytes of 'v' and the tab, less a leading tab, which iniparser strips as a blank */
        CU_ASSERT_EQUAL(strlen(tco_ini_get(&ini, "s", "key")), col == 7 ? 34u : 35u);
        tco_ini_free(&ini);
    }
}

/* "did you mean": the edit distance counts two neighbouring characters swapped as one edit, so a mistyped
 * scenario cluster23 suggests cluster32 (1), not cluster16 (2 substitutions); by hand each. */
static void test_edit_distance(void)
{
    CU_ASSERT_EQUAL(tco_edit_distance("cluster32", "cluster32"), 0);
    CU_ASSERT_EQUAL(tco_edit_distance("cluster23", "cluster32"), 1); /* 2 and 3 swapped */
    CU_ASSERT_EQUAL(tco_edit_distance("cluster23", "cluster16"), 2); /* 2 -> 1, 3 -> 6 */
    CU_ASSERT_EQUAL(tco_edit_distance("peu", "pue"), 1);
    CU_ASSERT_EQUAL(tco_edit_distance("PUE", "pue"), 0); /* case-insensitive */
    CU_ASSERT_EQUAL(tco_edit_distance("ab", "ba"), 1);
    CU_ASSERT_EQUAL(tco_edit_distance("cards", "card"), 1);
    CU_ASSERT_EQUAL(tco_edit_distance("abcd", "badc"), 2); /* two swaps */
    CU_ASSERT_EQUAL(tco_edit_distance("kitten", "sitting"), 3); /* 3 edits: reported as 3, "far" */
    CU_ASSERT_EQUAL(tco_edit_distance("utilisaton", "utilisation"), 1);
}

CU_ErrorCode register_ini_suite(void)
{
    CU_pSuite s = CU_add_suite("ini", suite_init, suite_clean);
    if (s == NULL || !CU_add_test(s, "the index finds each of 20,000 keys", test_index_finds_every_key) ||
        !CU_add_test(s, "two threads, and with few file descriptors", test_two_threads_few_descriptors) ||
        !CU_add_test(s, "values as iniparser reads them", test_values_as_iniparser_reads_them) ||
        !CU_add_test(s, "long names compared whole", test_long_names_are_distinct) ||
        !CU_add_test(s, "duplicate sections and keys", test_duplicates) ||
        !CU_add_test(s, "limits: at the limit loads, one more refused", test_limits) ||
        !CU_add_test(s, "tco_ini_set keeps the index in step", test_set_keeps_the_index) ||
        !CU_add_test(s, "the longest line, LF and CRLF", test_longest_line) ||
        !CU_add_test(s, "an empty file", test_empty_file) ||
        !CU_add_test(s, "sections of 1 to 40 keys", test_sections_of_every_size) ||
        !CU_add_test(s, "the cache reads a file once", test_cache_reads_once) ||
        !CU_add_test(s, "tco_decimal_value() is strtod()", test_decimal_value_is_strtod) ||
        !CU_add_test(s, "a section looked up once reads its keys", test_section_index) ||
        !CU_add_test(s, "sections with range keys are recorded", test_range_keys_recorded) ||
        !CU_add_test(s, "a bad byte is found at every column", test_bad_byte_at_every_column) ||
        !CU_add_test(s, "edit distance: a swap of neighbours is one edit", test_edit_distance))
        return CU_get_error();
    return CUE_SUCCESS;
}
