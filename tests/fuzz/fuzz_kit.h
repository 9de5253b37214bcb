/* fuzz_kit.h - what the command harnesses (fuzz_diff, fuzz_question) share: a private folder for the
 * input file and the workbook, removed at exit; failing with a message (abort(), which libFuzzer
 * reports); and the checks of what a command prints: its table (UTF-8, no control character but the
 * line end, so no escape sequence reaches a terminal) and its JSON (parses with Jansson).
 * Header-only: each harness is its own program (CMakeLists.txt, fuzz_${h}). */
#ifndef TCO_FUZZ_KIT_H
#define TCO_FUZZ_KIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/utf8.h"

static const char *fuzz_harness = "fuzz";
static char fuzz_dir[64];
static char fuzz_input[96]; /* the file the harness writes its input to */
static char fuzz_book[96];  /* the workbook the command writes */

static void fuzz_cleanup(void)
{
    unlink(fuzz_input);
    unlink(fuzz_book);
    rmdir(fuzz_dir);
}

/* Fail the run: @p what, and @p detail (NULL: none) after a colon. */
static void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "%s: %s%s%s\n", fuzz_harness, what, detail ? ": " : "", detail ? detail : "");
    fuzz_cleanup(); /* abort() skips atexit */
    abort();
}

/* Make the private folder /tmp/tco-HARNESS-XXXXXX with the names @p input and @p book in it. */
static void fuzz_setup(const char *harness, const char *input, const char *book)
{
    fuzz_harness = harness;
    snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/tco-%s-XXXXXX", harness);
    if (mkdtemp(fuzz_dir) == NULL) {
        perror(harness);
        abort();
    }
    snprintf(fuzz_input, sizeof fuzz_input, "%s/%s", fuzz_dir, input);
    snprintf(fuzz_book, sizeof fuzz_book, "%s/%s", fuzz_dir, book);
    atexit(fuzz_cleanup);
}

/* Write the fuzzer's bytes to the input file. */
static void fuzz_write_input(const uint8_t *data, size_t size)
{
    FILE *f = fopen(fuzz_input, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
}

/* The table's bytes: UTF-8 without a control character but the line end (no escape sequence). */
static void fuzz_check_table(const char *s, size_t n)
{
    if (!tco_utf8_valid(s, n, NULL))
        fuzz_fail("the table is not UTF-8", NULL);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\n') || c == 0x7F || (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] < 0xA0))
            fuzz_fail("the table carries a control character", s);
    }
}

/* The JSON's bytes parse. */
static void fuzz_check_json(const char *s, size_t n)
{
    json_error_t je;
    json_t *back = json_loadb(s, n, 0, &je);
    if (back == NULL)
        fuzz_fail("the JSON printed does not parse", je.text);
    json_decref(back);
}

/* A stream into memory for a command's printing; fuzz_printed() closes it and checks what it holds. */
static FILE *fuzz_print_open(char **text, size_t *n)
{
    FILE *mem = open_memstream(text, n);
    if (mem == NULL)
        abort();
    return mem;
}

/* Close @p mem and check its bytes as a table (@p json false) or as JSON; frees them. */
static void fuzz_printed(FILE *mem, char **text, size_t *n, int json)
{
    if (fclose(mem) != 0)
        abort();
    (json ? fuzz_check_json : fuzz_check_table)(*text, *n);
    free(*text);
    *text = NULL;
}

#endif /* TCO_FUZZ_KIT_H */
