/* cmd_quotes.c - `tco [--root DIR] quotes check FILE.csv... [--format table|json] [--as-of DATE]`: every
 * problem of vendor quote files, checked against the catalog and judged on a date (commands.h). */
#include "cli/commands.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "base/error.h"
#include "base/names.h"
#include "base/text.h"
#include "cli/cli.h"
#include "price/pricing.h"
#include "price/quote_choice.h"
#include "read/dates.h"
#include "read/fx.h"
#include "read/quote_csv.h"
#include "render/report.h"

/* The file `tco quotes check` is reading, and its report. */
typedef struct check_ctx {
    tco_report_check *report;
    const char *path;
} check_ctx;

/* Problems of `tco quotes check`: every one is reported, reading goes on. */
static bool print_problem(void *ctx, const tco_diag *problem, bool warning)
{
    check_ctx *c = ctx;
    tco_report_check_problem(c->report, c->path, problem, warning);
    return true;
}

/* Distinct unknown items for which `quotes check` looks for a "did you mean" (each search costs a pass
 * over the catalog); an unknown item met again reuses its answer.  Past these, no suggestion. */
#define TCO_SUGGEST_MAX 500

/* Entries of known_items.seen, and the longest item id they hold. */
#define TCO_SEEN_ITEMS 64
#define TCO_SEEN_ITEM_LEN 31

/* The entry of known_items.seen for @p item of @p len bytes (FNV-1a over the bytes), or -1 for an empty
 * id (an empty entry holds "") or one too long to hold. */
static int seen_slot(const char *item, size_t len)
{
    if (len == 0 || len > TCO_SEEN_ITEM_LEN)
        return -1;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)item[i]) * 16777619u;
    return (int)(h % TCO_SEEN_ITEMS);
}

/* The item ids quotes may name (catalog items and template quote ids), for `quotes check`: an index
 * for the exact match, and the suggestion found for each of the first TCO_SUGGEST_MAX distinct
 * unknown items (their names owned in guessed[]; the value is the catalog index, or SIZE_MAX). */
typedef struct known_items {
    char **items;
    size_t n;
    size_t unknown;
    size_t warnings;    /* rows of this file reported by check_dates() */
    tco_name_index index;
    tco_name_index suggested;
    char *guessed[TCO_SUGGEST_MAX];
    size_t n_guessed;
    size_t unsuggested; /* rows whose unknown item was past TCO_SUGGEST_MAX */
    check_ctx *check;   /* where an unknown item is reported */
    int32_t as_of;      /* the date validity is judged on (--as-of; default today, UTC) */
    /* Items found in the index lately, by their exact bytes (a row's item is most often one seen a few rows
     * before): a match here is a match in the index without its SipHash and strcasecmp().  Direct-mapped by a
     * cheap hash of the bytes; a collision only replaces an entry, so a file cannot make it slow. */
    char seen[TCO_SEEN_ITEMS][TCO_SEEN_ITEM_LEN + 1];
} known_items;

/* The catalog item nearest @p item within 2 edits (the first of the nearest), or SIZE_MAX. */
static size_t nearest_item(const known_items *k, const char *item)
{
    size_t best = SIZE_MAX, best_d = 3;
    for (size_t i = 0; i < k->n && best_d > 1; i++) {
        size_t dist = tco_edit_distance(item, k->items[i]);
        if (dist < best_d)
            best_d = dist, best = i;
    }
    return best;
}

/* A row of a known item not valid on the as-of date (expired, not yet valid): a warning, as a run
 * warns when no row prices the item (docs/quotes.md), with the run's reason. */
static void check_dates(known_items *k, const tco_quote *q)
{
    tco_quote_status status;
    char why[64];
    if (tco_quote_dates_valid(q, k->as_of, &status, NULL, 0))
        return;
    k->warnings++;
    if (tco_report_check_count_only(k->check->report, true))
        return; /* past the rows the table prints: counted, its reason not needed */
    tco_quote_dates_valid(q, k->as_of, &status, why, sizeof why);
    tco_diag d = {0};
    const tco_place at = {.file = q->file, .line = q->line};
    tco_diag_at(&d, TCO_ERR_SYNTAX, &at, "%s from %s: %s; a run on that date takes no price from it", q->item,
                q->vendor, why);
    tco_report_check_problem(k->check->report, k->check->path, &d, true);
}

/* A row in a currency without an exchange rate: a warning, as in a run (which prices nothing from it, says so
 * and goes on, or stops under --quotes-strict), with the run's reason (read/fx.h tco_fx_no_rate()). */
static void check_rate(known_items *k, const tco_quote *q)
{
    if (q->status != TCO_QUOTE_NO_RATE)
        return;
    k->warnings++;
    if (tco_report_check_count_only(k->check->report, true))
        return;
    tco_diag d = {0};
    const tco_place at = {.file = q->file, .line = q->line, .column = q->currency_column, .column_name = "currency"};
    tco_diag_at(&d, TCO_ERR_SYNTAX, &at, "%s; a run takes no price from it", q->reason ? q->reason : "no exchange rate");
    tco_report_check_problem(k->check->report, k->check->path, &d, true);
}

/* Check mode keeps no row.  An item that is not in the catalog is a warning, as in a run (which prices
 * nothing from it and goes on, or stops under --quotes-strict); so is a row not valid on the as-of date, and
 * one in a currency without a rate (check_rate()). */
static bool check_item(void *vctx, const tco_quote *q)
{
    known_items *k = vctx;
    check_rate(k, q);
    size_t len = strlen(q->item);
    int seen = seen_slot(q->item, len);
    if (seen >= 0 && memcmp(k->seen[seen], q->item, len + 1) == 0) {
        check_dates(k, q);
        return false; /* the same bytes as an item found in the index */
    }
    if (tco_name_index_get(&k->index, q->item, NULL)) {
        if (seen >= 0)
            memcpy(k->seen[seen], q->item, len + 1);
        check_dates(k, q);
        return false;
    }
    size_t near = SIZE_MAX;
    if (!tco_name_index_get(&k->suggested, q->item, &near)) {
        char *copy = k->n_guessed < TCO_SUGGEST_MAX ? tco_strdup(q->item) : NULL;
        size_t *slot = copy ? tco_name_index_put(&k->suggested, copy, NULL) : NULL;
        if (slot) {
            k->guessed[k->n_guessed++] = copy;
            near = *slot = nearest_item(k, q->item);
        } else {
            free(copy);
            k->unsuggested++;
        }
    }
    const char *best = near == SIZE_MAX ? NULL : k->items[near];
    k->unknown++;
    if (tco_report_check_count_only(k->check->report, true))
        return false;
    tco_diag d = {0};
    const tco_place at = {.file = q->file, .line = q->line, .column = q->item_column, .column_name = "item"};
    if (strcasecmp(q->item, "tier") == 0)
        tco_diag_at(&d, TCO_ERR_SYNTAX, &at, "unknown item '%s': 'tier' is the template's word for the rows of the "
                    "card catalog; name the card tier itself, such as W-B; a run takes no price from it", q->item);
    else if (best)
        tco_diag_at(&d, TCO_ERR_SYNTAX, &at, "unknown item '%s' (did you mean '%s'?); a run takes no price from it",
                    q->item, best);
    else
        tco_diag_at(&d, TCO_ERR_SYNTAX, &at, "unknown item '%s'; expected a card tier, a host or one of the "
                    "template's quote ids; a run takes no price from it", q->item);
    tco_report_check_problem(k->check->report, k->check->path, &d, true);
    return false;
}

/* A file named by dev and inode, and its place on the command line. */
typedef struct {
    dev_t dev;
    ino_t ino;
    int at;
} file_id;

static int by_file_id(const void *a, const void *b)
{
    const file_id *x = a, *y = b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    if (x->ino != y->ino)
        return x->ino < y->ino ? -1 : 1;
    return x->at - y->at;
}

/* 0, or 64 (said) when one file is named twice (by any spelling or link: device and inode), as --quotes
 * refuses it: each of its problems would be reported, and each row counted, twice.  Sorted, so a long list is
 * answered in n log n; the repeat named is the first on the command line.  A file that cannot be read is
 * left to the reading, which says why. */
static int same_file_twice(char **files, int n)
{
    file_id *ids = malloc((size_t)(n ? n : 1) * sizeof *ids);
    if (ids == NULL) {
        fprintf(stderr, "tco: out of memory\n");
        return 71;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(files[i], &st) == 0)
            ids[k++] = (file_id){st.st_dev, st.st_ino, i};
    }
    qsort(ids, (size_t)k, sizeof *ids, by_file_id);
    int first = -1, again = -1;
    for (int i = 1; i < k; i++)
        if (ids[i].dev == ids[i - 1].dev && ids[i].ino == ids[i - 1].ino && (again < 0 || ids[i].at < again)) {
            int j = i - 1;
            while (j > 0 && ids[j - 1].dev == ids[i].dev && ids[j - 1].ino == ids[i].ino)
                j--;
            first = ids[j].at, again = ids[i].at;
        }
    free(ids);
    if (again < 0)
        return 0;
    return tco_cli_usage("quotes check %s: the same file as %s (file %d); give each quote file once", files[again],
                         files[first], first + 1);
}

/* `tco quotes check FILE... [--format table|json] [--as-of DATE]`: read every file fully, report every
 * problem (tco_report_check: text, or one JSON document); exit 65 if any error, 66 if a file cannot be
 * read. */
int tco_cmd_quotes_check(const char *root, const char *format, const char *as_of, int argc, char **argv)
{
    /* Options may follow the subcommand: --format FMT, --format=FMT, -f FMT, --as-of DATE, --as-of=DATE,
     * -a DATE; "--" ends them. */
    char **files = calloc((size_t)argc + 1, sizeof *files);
    int n_files = 0;
    if (files == NULL) {
        fprintf(stderr, "tco: out of memory\n");
        return 71;
    }
    static const struct option check_opts[] = {
        {"format", required_argument, NULL, 'f'}, {"as-of", required_argument, NULL, 'a'}, {NULL, 0, NULL, 0}};
    const char *first[256] = {0}; /* --format and --as-of here: once (tco_cli_once), --as-of before too */
    first['a'] = as_of;
    for (int i = 0, options = 1; i < argc; i++) {
        const char *f = NULL, *a = NULL;
        if (options && strcmp(argv[i], "--") == 0)
            options = 0;
        else if (options && (strcmp(argv[i], "--format") == 0 || strcmp(argv[i], "-f") == 0 ||
                             strcmp(argv[i], "--as-of") == 0 || strcmp(argv[i], "-a") == 0)) {
            if (i + 1 == argc) {
                free(files);
                return tco_cli_usage("option '%s' needs a value", argv[i]);
            }
            *(argv[i][1] == 'f' || argv[i][2] == 'f' ? &f : &a) = argv[i + 1];
            i++;
        } else if (options && strncmp(argv[i], "--format=", 9) == 0)
            f = argv[i] + 9;
        else if (options && strncmp(argv[i], "--as-of=", 8) == 0)
            a = argv[i] + 8;
        else if (options && argv[i][0] == '-' && argv[i][1] != '\0') {
            free(files);
            return tco_cli_usage("quotes check: unknown option '%s' (it takes --format table|json, --as-of DATE "
                                 "and files)", argv[i]);
        } else if (argv[i][0] == '\0') { /* as --quotes '' is: a usage error, not a file that cannot be opened */
            free(files);
            return tco_cli_usage("%s", "quotes check: expected a quote file (CSV), found an empty name");
        } else
            files[n_files++] = argv[i];
        int once = f != NULL ? tco_cli_once(first, 'f', check_opts, f) : a != NULL ? tco_cli_once(first, 'a', check_opts, a) : 0;
        if (once != 0) {
            free(files);
            return once;
        }
        format = f != NULL ? f : format;
        as_of = a != NULL ? a : as_of;
    }
    int32_t as_of_day = (int32_t)(time(NULL) / 86400); /* today, UTC, as for --scenario */
    char why[TCO_DIAG_MAX];
    if (as_of != NULL && !tco_date_check(as_of, &as_of_day, why, sizeof why)) {
        free(files);
        return tco_cli_usage("--as-of: %s", why);
    }
    argc = n_files;
    argv = files;
    tco_output_format fmt;
    if (!tco_cli_format(format, &fmt) || fmt == TCO_OUT_CSV) {
        free(files);
        return tco_cli_usage("quotes check --format: expected table or json, found '%s'", format);
    }
    if (argc == 0) {
        free(files);
        return tco_cli_usage("quotes check: expected one or more CSV files");
    }
    int twice = same_file_twice(files, n_files);
    if (twice != 0) {
        free(files);
        return twice;
    }
    bool json = fmt == TCO_OUT_JSON;
    tco_diag d = {0};
    tco_fx fx = {0};
    char *fx_path = tco_path_join(root, "pricing/fx.ini");
    if (fx_path == NULL || tco_fx_load(fx_path, NULL, &fx, &d) != TCO_OK) {
        free(fx_path);
        free(files);
        return tco_cli_fail(&d);
    }
    free(fx_path);
    char **items = NULL;
    size_t n_items = 0;
    if (tco_catalog_quote_items(root, NULL, &items, &n_items, &d) != TCO_OK) {
        tco_fx_free(&fx);
        free(files);
        return tco_cli_fail(&d);
    }
    int rc = 0;
    tco_report_check report;
    check_ctx check = {.report = &report};
    known_items known = {.items = items, .n = n_items, .check = &check, .as_of = as_of_day};
    for (size_t i = 0; i < n_items; i++)
        if (tco_name_index_put(&known.index, items[i], NULL) == NULL) {
            tco_diag_set(&d, TCO_ERR_NOMEM, "out of memory");
            rc = tco_cli_fail(&d);
            argc = 0; /* nothing is read */
            break;
        }
    if (rc == 0)
        tco_report_check_begin(&report, json, stdout, stderr);
    for (int i = 0; i < argc; i++) {
        tco_quote_set set = {0};
        known.unknown = known.warnings = 0;
        check.path = argv[i];
        tco_error e = tco_quotes_read(argv[i], &fx, check_item, &known, print_problem, &check, &set, &d);
        set.warnings += known.unknown + known.warnings;
        if (e != TCO_OK && e != TCO_ERR_SYNTAX) {
            tco_report_check_unreadable(&report, argv[i], &d);
            set.errors++;
            rc = rc ? rc : tco_exit_code(e);
        } else if (e == TCO_ERR_SYNTAX) {
            /* print_problem never stops a read, so this is a problem that ended it (a field past
             * the limit, broken quoting, not a CSV file): not reported yet. */
            tco_report_check_final(&report, argv[i], &d);
            set.errors++;
            rc = rc ? rc : 65;
        }
        tco_report_check_file(&report, argv[i], set.rows, set.errors, set.warnings);
        if (set.errors > 0)
            rc = rc ? rc : 65;
        tco_quotes_free(&set);
    }
    if (argc > 0 && !tco_report_check_end(&report))
        rc = rc ? rc : 71;
    if (known.unsuggested > 0)
        fprintf(stderr, "note: %zu row%s name%s unknown items past the first %d distinct ones; no \"did you mean\" "
                "was looked for them\n", known.unsuggested, tco_plural((double)known.unsuggested),
                known.unsuggested == 1 ? "s" : "", TCO_SUGGEST_MAX);
    tco_name_index_free(&known.index);
    tco_name_index_free(&known.suggested);
    for (size_t i = 0; i < known.n_guessed; i++)
        free(known.guessed[i]);
    for (size_t i = 0; i < n_items; i++)
        free(items[i]);
    free(items);
    tco_fx_free(&fx);
    free(files);
    if (rc != 71 && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "tco: writing the report to standard output failed\n");
        rc = 74;
    }
    return rc;
}
