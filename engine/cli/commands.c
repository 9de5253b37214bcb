/* commands.c - the subcommands of tco: quotes check, init, advise, diff (commands.h). */
#include "cli/commands.h"

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "apps/advise.h"
#include "apps/bridge.h"
#include "cli/cli.h"
#include "base/error.h"
#include "read/ini.h"
#include "apps/init.h"
#include "model/model.h"
#include "read/fx.h"
#include "read/quote_csv.h"
#include "render/report.h"
#include "read/root.h"
#include "read/scenarios.h"
#include "base/strbuf.h"
#include "render/workbook.h"
#include "base/text.h"
#include "load/load.h"
#include "price/pricing.h"

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

/* The item ids quotes may name (catalog items and template quote ids), for `quotes check`: an index
 * for the exact match, and the suggestion found for each of the first TCO_SUGGEST_MAX distinct
 * unknown items (their names owned in guessed[]; the value is the catalog index, or SIZE_MAX). */
typedef struct known_items {
    char **items;
    size_t n;
    size_t unknown;
    tco_name_index index;
    tco_name_index suggested;
    char *guessed[TCO_SUGGEST_MAX];
    size_t n_guessed;
    size_t unsuggested; /* rows whose unknown item was past TCO_SUGGEST_MAX */
    check_ctx *check;   /* where an unknown item is reported */
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

/* Check mode keeps no row; an item that is not in the catalog is an error. */
static bool check_item(void *vctx, const tco_quote *q)
{
    known_items *k = vctx;
    if (tco_name_index_get(&k->index, q->item, NULL))
        return false;
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
    tco_diag d = {0};
    const tco_place at = {.file = q->file, .line = q->line, .column = q->item_column, .column_name = "item"};
    if (strcasecmp(q->item, "tier") == 0)
        tco_diag_at(&d, TCO_ERR_SYNTAX, &at, "unknown item '%s': 'tier' is the template's word for the rows of the "
                    "card catalog; name the card tier itself, such as W-B", q->item);
    else if (best)
        tco_diag_at(&d, TCO_ERR_SYNTAX, &at, "unknown item '%s' (did you mean '%s'?)", q->item, best);
    else
        tco_diag_at(&d, TCO_ERR_SYNTAX, &at, "unknown item '%s'; expected a card tier, a host or one of the "
                    "template's quote ids", q->item);
    tco_report_check_problem(k->check->report, k->check->path, &d, false);
    return false;
}

/* `tco quotes check FILE... [--format table|json]`: read every file fully, report every problem
 * (tco_report_check: text, or one JSON document); exit 65 if any, 66 if a file cannot be read. */
int tco_cmd_quotes_check(const char *root, const char *format, int argc, char **argv)
{
    /* Options may follow the subcommand: --format FMT, --format=FMT, -f FMT; "--" ends them. */
    char **files = calloc((size_t)argc + 1, sizeof *files);
    int n_files = 0;
    if (files == NULL) {
        fprintf(stderr, "tco: out of memory\n");
        return 71;
    }
    for (int i = 0, options = 1; i < argc; i++) {
        if (options && strcmp(argv[i], "--") == 0)
            options = 0;
        else if (options && (strcmp(argv[i], "--format") == 0 || strcmp(argv[i], "-f") == 0)) {
            if (i + 1 == argc) {
                free(files);
                return tco_cli_usage("option '%s' needs a value", argv[i]);
            }
            format = argv[++i];
        } else if (options && strncmp(argv[i], "--format=", 9) == 0)
            format = argv[i] + 9;
        else if (options && argv[i][0] == '-' && argv[i][1] != '\0') {
            free(files);
            return tco_cli_usage("quotes check: unknown option '%s' (it takes --format table|json and files)", argv[i]);
        } else
            files[n_files++] = argv[i];
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
    known_items known = {.items = items, .n = n_items, .check = &check};
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
        known.unknown = 0;
        check.path = argv[i];
        tco_error e = tco_quotes_read(argv[i], &fx, check_item, &known, print_problem, &check, &set, &d);
        set.errors += known.unknown;
        if (e != TCO_OK && e != TCO_ERR_SYNTAX) {
            tco_report_check_unreadable(&report, argv[i], &d);
            set.errors++;
            rc = rc ? rc : tco_exit_code(e);
        } else if (e == TCO_ERR_SYNTAX) {
            /* print_problem never stops a read, so this is a problem that ended it (a field past
             * the limit, broken quoting, not a CSV file): not reported yet. */
            tco_report_check_problem(&report, argv[i], &d, false);
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
        fprintf(stderr, "note: %zu rows name unknown items past the first %d distinct ones; no \"did you mean\" "
                "was looked for them\n", known.unsuggested, TCO_SUGGEST_MAX);
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

/* `tco init DIR [--scenario NAME] [--root DIR]`, @p argv[0] being "init": find the catalog and the
 * scenario (default cluster32); init.c makes the folder. */
int tco_cmd_init(const char *invoked, int argc, char **argv)
{
    static const struct option opts[] = {
        {"scenario", required_argument, NULL, 's'}, {"root", required_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0}};
    const char *scenario = "cluster32", *root_arg = NULL;
    optind = 0; /* GNU getopt starts afresh; DIR may stand before or after the options */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":s:r:h", opts, NULL)) != -1) {
        if (c == 'h')
            return tco_cli_print_help(stdout), 0;
        else if (c == 's')
            scenario = optarg;
        else if (c == 'r')
            root_arg = optarg;
        else if (c == ':')
            return tco_cli_usage("init: option '%s' needs a value", argv[optind - 1]);
        else
            return tco_cli_usage("init: unknown option '%s'; tco init DIR [--scenario NAME] [--root DIR]",
                               argv[optind - 1]);
    }
    if (optind >= argc || argv[optind][0] == '\0')
        return tco_cli_usage("%s", "init: expected the folder to make: tco init DIR [--scenario NAME] [--root DIR]");
    if (optind + 1 < argc)
        return tco_cli_usage("init: unexpected argument '%s' (one folder only)", argv[optind + 1]);
    tco_root root;
    tco_diag d = {0};
    if (tco_cli_find_root(root_arg, &root, &d) != TCO_OK)
        return tco_cli_fail(&d);
    if (tco_scenario_is_comparison(root.path, scenario))
        return tco_cli_usage("init --scenario %s: is a comparison; tco init copies one scenario: give one of the "
                           "scenarios it compares (tco --list)", scenario);
    if (tco_scenario_is_question(root.path, scenario))
        return tco_cli_usage("init --scenario %s: is a question for tco advise; tco init copies one scenario "
                           "(tco --list)", scenario);
    char *spath = tco_scenario_path(root.path, scenario, "--scenario", NULL, &d);
    if (spath == NULL)
        return tco_cli_fail(&d);
    char stem[256];
    if (!tco_scenario_name_ok(tco_scenario_stem(scenario, stem, sizeof stem))) {
        free(spath);
        return tco_cli_usage("init --scenario %s: the file's name '%s' cannot be a scenario name (at most 200 letters, "
                           "digits, '-', '_'); rename the file", scenario, stem);
    }
    char installed[PATH_MAX];
    bool have_installed = tco_root_installed_data(&tco_cli_layout, installed);
    tco_init_request req = {.root = root.path, .root_installed = root.kind == TCO_ROOT_INSTALLED,
                            .installed_data = have_installed ? installed : NULL, .scenario_path = spath,
                            .name = stem, .dir = argv[optind], .command = invoked};
    tco_error e = tco_init_folder(&req, stdout, &d);
    free(spath);
    return e == TCO_OK ? 0 : tco_cli_fail(&d);
}

/* `tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook] [--force]
 * [--root DIR]` (argv[0] "advise"): the advice and its workbook, out/advise-NAME.xlsx by default
 * (advise-NAME-whatif.xlsx with --set), in advise.c. */
int tco_cmd_advise(const char *invoked, int argc, char **argv)
{
    (void)invoked;
    static const struct option opts[] = {
        {"format", required_argument, NULL, 'f'}, {"set", required_argument, NULL, 'S'},
        {"root", required_argument, NULL, 'r'},   {"out", required_argument, NULL, 'o'},
        {"no-workbook", no_argument, NULL, 'N'},  {"force", no_argument, NULL, 'F'},
        {"quotes", required_argument, NULL, 'q'}, {"currency", required_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
    static tco_override sets[TCO_MAX_SETS];
    size_t n_sets = 0;
    const char *format = "table", *root_arg = NULL, *out = NULL;
    bool no_workbook = false, force = false;
    tco_diag d = {0};
    optind = 0;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, ":f:r:o:h", opts, NULL)) != -1;) {
        if (c == 'h')
            return tco_cli_print_help(stdout), 0;
        if (c == 'S' && n_sets == TCO_MAX_SETS)
            return tco_cli_usage("--set: at most %d values", TCO_MAX_SETS);
        if (c == 'S' && tco_override_parse(optarg, &sets[n_sets++], &d) != TCO_OK)
            return tco_cli_usage("%s", d.message);
        if (c == ':' || c == '?')
            return tco_cli_usage("advise: %s '%s'; %s", c == ':' ? "option needs a value" : "unknown option",
                               argv[optind - 1], ADVISE_USAGE);
        /* Refused rather than half done (docs/advise.md, Limits): a quote is chosen for the quantity a
         * scenario buys, and the advisor changes the card count in place on one model; and every
         * figure, unit and check of the advice is in the catalog's CNY. */
        if (c == 'q')
            return tco_cli_usage("advise --quotes %s: tco advise prices every candidate from the catalog (a quote is "
                               "chosen for the quantity bought, and each candidate buys another); write the option "
                               "you choose as a scenario (its card, cards and host) and run tco --scenario FILE.ini "
                               "--quotes %s", optarg, optarg);
        if (c == 'C')
            return tco_cli_usage("advise --currency %s: tco advise reports in CNY, the catalog's currency; write the "
                               "option you choose as a scenario (its card, cards and host) and run tco --scenario "
                               "FILE.ini --currency %s", optarg, optarg);
        format = c == 'f' ? optarg : format;
        root_arg = c == 'r' ? optarg : root_arg;
        out = c == 'o' ? optarg : out;
        no_workbook |= c == 'N';
        force |= c == 'F';
    }
    tco_output_format fmt;
    if (!tco_cli_format(format, &fmt) || fmt == TCO_OUT_CSV)
        return tco_cli_usage("advise --format: expected table or json, found '%s'", format);
    if (optind + 1 != argc)
        return tco_cli_usage("%s", "advise: expected one question: tco advise NAME (tco --list shows the questions)");
    time_t created;
    int rc = tco_cli_check_out(out, no_workbook, argv[optind]);
    if (rc != 0 || (rc = tco_cli_created_time(&created)) != 0)
        return rc;
    tco_root root;
    char *path = NULL, stem[256];
    if (tco_cli_find_root(root_arg, &root, &d) != TCO_OK ||
        (path = tco_scenario_path(root.path, argv[optind], "advise", NULL, &d)) == NULL)
        return tco_cli_fail(&d);
    tco_ini_cache files = {0};
    tco_advise_request req = {root.path, path, tco_scenario_stem(argv[optind], stem, sizeof stem), sets, n_sets,
                              &files};
    tco_advice advice;
    rc = tco_advise(&req, &advice, &d) != TCO_OK ? tco_cli_fail(&d) : 0;
    /* The workbook: out/advise-NAME.xlsx, or advise-NAME-whatif.xlsx when --set changes the question or the
     * model, so that a what-if never replaces the plain answer. */
    char *default_out = NULL;
    tco_workbook_options wo = {.created = created, .currency = "CNY", .force = force};
    if (rc == 0 && !no_workbook) {
        tco_strbuf name = {0};
        tco_strbuf_printf(&name, "advise-%s", stem);
        if (name.failed)
            rc = (tco_diag_set(&d, TCO_ERR_NOMEM, "out of memory"), tco_cli_fail(&d));
        else if (tco_cli_prepare_out(&out, &default_out, tco_strbuf_str(&name), n_sets ? "-whatif" : "", force, &d) != TCO_OK)
            rc = tco_cli_fail(&d);
        else if (tco_advise_workbook(&req, &advice, out, &wo, &d) != TCO_OK) {
            rc = tco_cli_fail(&d);
            tco_cli_unmake_out();
        }
        tco_strbuf_free(&name);
    }
    if (rc == 0)
        (fmt == TCO_OUT_JSON ? tco_advise_print_json : tco_advise_print_table)(
            &advice, no_workbook ? NULL : out, stdout);
    tco_advice_free(&advice);
    tco_ini_cache_free(&files);
    free(path);
    free(default_out);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = (fprintf(stderr, "tco: writing the advice to standard output failed\n"), 74);
    return rc;
}

/* `tco diff OLD.json NEW.json [--order effect|file] [--format table|json] [--out PATH.xlsx] [--force]
 * [--root DIR]` (argv[0] "diff"): the budget bridge, bridge.c. */
int tco_cmd_diff(const char *invoked, int argc, char **argv)
{
    (void)invoked;
    static const struct option opts[] = {
        {"order", required_argument, NULL, 'O'}, {"format", required_argument, NULL, 'f'},
        {"out", required_argument, NULL, 'o'},   {"force", no_argument, NULL, 'F'},
        {"root", required_argument, NULL, 'r'},  {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *format = "table", *order = "effect", *root_arg = NULL, *out = NULL;
    bool force = false;
    optind = 0;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, ":f:o:r:h", opts, NULL)) != -1;) {
        if (c == 'h')
            return tco_cli_print_help(stdout), 0;
        if (c == ':' || c == '?')
            return tco_cli_usage("diff: %s '%s'; tco diff OLD.json NEW.json [--order effect|file] [--format table|json] "
                               "[--out PATH.xlsx]", c == ':' ? "option needs a value" : "unknown option",
                               argv[optind - 1]);
        format = c == 'f' ? optarg : format;
        order = c == 'O' ? optarg : order;
        out = c == 'o' ? optarg : out;
        root_arg = c == 'r' ? optarg : root_arg;
        force |= c == 'F';
    }
    tco_output_format fmt;
    if (!tco_cli_format(format, &fmt) || fmt == TCO_OUT_CSV)
        return tco_cli_usage("diff --format: expected table or json, found '%s'", format);
    if (strcmp(order, "effect") != 0 && strcmp(order, "file") != 0)
        return tco_cli_usage("diff --order: expected effect (largest first) or file, found '%s'", order);
    if (optind + 2 != argc)
        return tco_cli_usage("%s", "diff: expected two JSON summaries: tco diff OLD.json NEW.json (each from tco "
                           "--scenario NAME --format json)");
    size_t olen = out ? strlen(out) : 0;
    if (out && (olen < 5 || strcasecmp(out + olen - 5, ".xlsx") != 0 || tco_cli_is_dir(out)))
        return tco_cli_usage("diff --out %s: expected a file name ending in .xlsx", out);
    tco_root root;
    tco_diag d = {0};
    if (tco_cli_find_root(root_arg, &root, &d) != TCO_OK)
        return tco_cli_fail(&d);
    tco_bridge_request req = {root.path, argv[optind], argv[optind + 1],
                              strcmp(order, "file") == 0 ? TCO_BRIDGE_ORDER_FILE : TCO_BRIDGE_ORDER_EFFECT};
    tco_bridge b;
    char *no_default = NULL;
    int rc = tco_bridge_run(&req, &b, &d) != TCO_OK ? tco_cli_fail(&d) : 0;
    tco_workbook_options wo = {.created = TCO_FIXED_CREATED, .currency = b.currency, .force = force};
    if (rc == 0 && out && (tco_cli_prepare_out(&out, &no_default, "", "", force, &d) != TCO_OK ||
                           tco_bridge_write_book(&b, out, &wo, &d) != TCO_OK))
        rc = tco_cli_fail(&d);
    if (rc == 0)
        (fmt == TCO_OUT_JSON ? tco_bridge_print_json : tco_bridge_print_table)(&b, stdout);
    if (rc == 0 && out && fmt != TCO_OUT_JSON)
        printf("\nWorkbook: %s\n", out);
    tco_bridge_free(&b);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = (fprintf(stderr, "tco: writing the bridge to standard output failed\n"), 74);
    return rc;
}
