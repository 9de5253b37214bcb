/* cmd_advise.c - `tco advise NAME ...`: the arguments of the advisor, its run and its output
 * (commands.h; advise.c answers). */
#include "cli/commands.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "apps/advise.h"
#include "apps/advise_risk.h"
#include "apps/advise_save.h"
#include "apps/risk.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "cli/cli.h"
#include "load/load.h"
#include "price/run.h"
#include "read/dates.h"
#include "read/ini.h"
#include "read/root.h"
#include "read/scenarios.h"
#include "render/output.h"
#include "render/report.h"
#include "render/workbook.h"

/* A whole number from @p lo to @p hi of option @p name into *@p v; 0, or tco_cli_usage()'s code. */
static int whole(const char *name, const char *text, unsigned long long lo, unsigned long long hi,
                 unsigned long long *v)
{
    char *end = NULL;
    errno = 0;
    *v = text[0] >= '0' && text[0] <= '9' ? strtoull(text, &end, 10) : 0;
    if (end == NULL || *end != '\0' || errno != 0 || *v < lo || *v > hi)
        return tco_cli_usage("%s: expected a whole number from %llu to %llu, found '%.40s'", name, lo, hi, text);
    return 0;
}

/* --save-scenario @p path as given, checked before anything is read: a file name ending in .ini, not a folder,
 * and a folder tco can write into (render/output.h).  0, or a usage or output error's code. */
static int check_save(const char *path, tco_output_format fmt)
{
    size_t n = strlen(path);
    if (tco_cli_is_dir(path) || (n > 0 && path[n - 1] == '/'))
        return tco_cli_usage("--save-scenario %s: is a folder; give a file name such as %s%sbest.ini", path, path,
                             n > 0 && path[n - 1] == '/' ? "" : "/");
    /* ".ini" as tco --scenario takes a path (read/scenarios.c): the file saved is one it prices. */
    if (n < 4 || strcmp(path + n - 4, ".ini") != 0)
        return tco_cli_usage("--save-scenario %s: expected a file name ending in .ini (a scenario file)", path);
    /* ".ini" alone (or "dir/.ini") names no scenario: a hidden file whose scenario name would be empty. */
    const char *base = strrchr(path, '/');
    if (strcmp(base ? base + 1 : path, ".ini") == 0)
        return tco_cli_usage("--save-scenario %s: expected a name before .ini, such as %.*sbest.ini", path,
                             base ? (int)(base + 1 - path) : 0, path);
    tco_diag d = {0};
    /* A path tco --scenario refuses to show (a control character, not UTF-8) would give a file it cannot price. */
    if (tco_shown_path_check(path, "scenario's path", &d) != TCO_OK)
        return tco_cli_usage("--save-scenario %s", d.message);
    return tco_output_check(path, &d) != TCO_OK ? tco_cli_fail_as(&d, fmt) : 0;
}

/* `tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--quotes FILE]... [--as-of DATE]
 * [--quotes-strict] [--currency CODE] [--monte-carlo N [--seed S]] [--save-scenario FILE.ini [--pick RANK]]
 * [--out PATH | --no-workbook] [--force] [--root DIR]` (argv[0] "advise"): the advice
 * and its workbook, out/advise-NAME.xlsx by default (-quotes with --quotes, -whatif with --set, -risk with
 * --monte-carlo, -usd
 * with --currency USD when the question's currency is another, as for --scenario), in advise.c; the
 * ranking under uncertainty (advise_risk.h) and the option saved as a scenario (advise_save.h). */
int tco_cmd_advise(const char *invoked, int argc, char **argv)
{
    (void)invoked;
    static const struct option opts[] = {
        {"format", required_argument, NULL, 'f'}, {"set", required_argument, NULL, 'S'},
        {"root", required_argument, NULL, 'r'},   {"out", required_argument, NULL, 'o'},
        {"no-workbook", no_argument, NULL, 'N'},  {"force", no_argument, NULL, 'F'},
        {"quotes", required_argument, NULL, 'q'}, {"currency", required_argument, NULL, 'C'},
        {"as-of", required_argument, NULL, 'a'},  {"help", no_argument, NULL, 'h'},
        {"monte-carlo", required_argument, NULL, 'M'}, {"seed", required_argument, NULL, 'e'},
        {"save-scenario", required_argument, NULL, 's'}, {"pick", required_argument, NULL, 'p'},
        {"quotes-strict", no_argument, NULL, 'Q'}, {NULL, 0, NULL, 0}};
    static tco_override sets[TCO_MAX_SETS];
    size_t n_sets = 0, n_quotes = 0;
    static const char *quotes[TCO_MAX_QUOTE_FILES];
    static char currency[4];
    const char *code = NULL;
    int32_t as_of = (int32_t)(time(NULL) / 86400); /* today, as for --scenario */
    const char *format = "table", *root_arg = NULL, *out = NULL, *save = NULL;
    bool no_workbook = false, force = false, seed_given = false, pick_given = false, as_of_given = false;
    bool strict = false;
    unsigned long long draws = 0, seed = 1, pick = 1;
    tco_diag d = {0};
    int rc;
    optind = 0;
    opterr = 0;
    const char *first[256] = {0}; /* single-value options: given once (tco_cli_once) */
    for (int c; (c = getopt_long(argc, argv, ":f:r:o:h", opts, NULL)) != -1;) {
        if (c == 'h')
            return tco_cli_print_command_help(stdout, "advise");
        if (c != 0 && strchr("froCaMesp", c) != NULL && (rc = tco_cli_once(first, c, opts, optarg)) != 0)
            return rc;
        if (c == 'S' && n_sets == TCO_MAX_SETS)
            return tco_cli_usage("--set: at most %d values", TCO_MAX_SETS);
        if (c == 'S' && tco_override_parse(optarg, &sets[n_sets++], &d) != TCO_OK)
            return tco_cli_usage("%s", d.message);
        if (c == ':' || c == '?')
            return tco_cli_usage("advise: %s '%s'; %s", c == ':' ? "option needs a value" : "unknown option",
                               c == '?' ? tco_cli_bad_option(argc, argv) : argv[optind - 1], ADVISE_USAGE);
        if (c == 'q' && (rc = tco_cli_quotes_add(quotes, &n_quotes, optarg)) != 0)
            return rc;
        if (c == 'C' && (rc = tco_cli_currency(optarg, currency)) != 0)
            return rc;
        code = c == 'C' ? currency : code;
        char why[TCO_DIAG_MAX];
        if (c == 'a' && !tco_date_check(optarg, &as_of, why, sizeof why))
            return tco_cli_usage("--as-of: %s", why);
        if (c == 'M' && (rc = whole("--monte-carlo", optarg, 1, TCO_ADVISE_MAX_DRAWS, &draws)) != 0)
            return rc;
        if (c == 'e' && (rc = whole("--seed", optarg, 0, TCO_RISK_MAX_SEED, &seed)) != 0)
            return rc;
        if (c == 'p' && (rc = whole("--pick", optarg, 1, TCO_ADVISE_MAX_CANDIDATES, &pick)) != 0)
            return rc;
        seed_given |= c == 'e';
        as_of_given |= c == 'a';
        pick_given |= c == 'p';
        save = c == 's' ? optarg : save;
        format = c == 'f' ? optarg : format;
        root_arg = c == 'r' ? optarg : root_arg;
        out = c == 'o' ? optarg : out;
        no_workbook |= c == 'N';
        force |= c == 'F';
        strict |= c == 'Q';
    }
    tco_output_format fmt;
    if (!tco_cli_format(format, &fmt) || fmt == TCO_OUT_CSV)
        return tco_cli_usage("advise --format: expected table or json, found '%s'", format);
    if (optind + 1 != argc)
        return tco_cli_usage("%s", "advise: expected one question: tco advise NAME (tco --list shows the questions)");
    if (as_of_given && n_quotes == 0) /* a date that judges nothing would be ignored in silence */
        return tco_cli_usage("%s", "--as-of judges the dates of vendor quotes: give --quotes FILE.csv");
    if (strict && n_quotes == 0) /* as for --scenario */
        return tco_cli_usage("%s", "--quotes-strict refuses a run whose quotes price nothing they name: give --quotes "
                             "FILE.csv");
    if (seed_given && draws == 0)
        return tco_cli_usage("%s", "--seed seeds the draws of --monte-carlo N; give --monte-carlo too");
    if (force && no_workbook && save == NULL) /* it replaces a workbook or a saved scenario: here neither */
        return tco_cli_usage("%s", "--force replaces the workbook (or --save-scenario's file) that exists or is "
                             "open, and --no-workbook writes none; give one of them");
    if (pick_given && save == NULL)
        return tco_cli_usage("%s", "--pick RANK chooses the option --save-scenario FILE.ini writes; give "
                             "--save-scenario too");
    if (save && (rc = check_save(save, fmt)) != 0)
        return rc;
    time_t created;
    rc = tco_cli_check_out(out, no_workbook, argv[optind]);
    if (rc != 0 || (rc = tco_cli_created_time(&created)) != 0)
        return rc;
    tco_root root;
    char *path = NULL, stem[256];
    if (tco_cli_find_root(root_arg, &root, &d) != TCO_OK ||
        (path = tco_scenario_path(root.path, argv[optind], "advise", NULL, &d)) == NULL)
        return tco_cli_fail_as(&d, fmt);
    rc = tco_cli_out_not_inputs(out, path, "the question", quotes, n_quotes);
    if (rc != 0) {
        free(path);
        return rc;
    }
    tco_ini_cache files = {0};
    tco_advise_request req = {.root = root.path, .path = path, .name = tco_scenario_stem(argv[optind], stem, sizeof stem),
                              .sets = sets, .n_sets = n_sets, .files = &files, .quote_files = quotes,
                              .n_quote_files = n_quotes, .as_of = as_of, .currency = code, .force = force,
                              .quotes_strict = strict};
    tco_advice advice;
    rc = tco_advise(&req, &advice, &d) != TCO_OK ? tco_cli_fail_as(&d, fmt) : 0;
    /* The quote warnings of the runs, one per host (report.h), as a scenario's run gives them: under
     * --quotes-strict an error before anything is written. */
    const tco_quote_set *read = rc == 0 && n_quotes > 0 ? &advice.runs[0]->quotes : NULL;
    if (rc == 0)
        rc = tco_cli_quotes_strict(strict, stem, read, advice.quote_warnings, advice.n_quote_warnings, fmt);
    if (rc == 0 && draws > 0 && tco_advise_risk(&req, &advice, (size_t)draws, seed, &d) != TCO_OK)
        rc = tco_cli_fail_as(&d, fmt);
    /* The workbook: out/advise-NAME.xlsx, or advise-NAME-whatif.xlsx when --set changes the question or the
     * model, so that a what-if never replaces the plain answer; -quotes when priced from quotes, -risk with
     * --monte-carlo (its Rank sheet has the draws' columns), -usd when reported in another currency than the
     * question's, in that order, as for --scenario. */
    char *default_out = NULL;
    tco_workbook_options wo = {.created = created, .currency = rc == 0 ? advice.currency : "CNY", .force = force};
    if (rc == 0 && !no_workbook) {
        tco_strbuf name = {0};
        tco_strbuf_printf(&name, "advise-%s%s%s%s", stem, n_quotes ? "-quotes" : "", n_sets ? "-whatif" : "",
                          draws > 0 ? "-risk" : "");
        if (strcmp(advice.currency, advice.runs[0]->files_currency) != 0)
            tco_strbuf_printf(&name, "-%c%c%c", tolower((unsigned char)advice.currency[0]),
                              tolower((unsigned char)advice.currency[1]), tolower((unsigned char)advice.currency[2]));
        if (name.failed)
            rc = (tco_diag_set(&d, TCO_ERR_NOMEM, "out of memory"), tco_cli_fail_as(&d, fmt));
        else if (tco_cli_prepare_out(&out, &default_out, tco_strbuf_str(&name), "", force, &d) != TCO_OK)
            rc = tco_cli_fail_as(&d, fmt);
        tco_strbuf_free(&name);
    }
    /* The scenario file once the workbook's place is known to take it (a lock file or a folder in the way
     * refuses the run before either file is written), then the workbook. */
    if (rc == 0 && save && tco_advise_save_scenario(&req, &advice, (int)pick, save, &d) != TCO_OK) {
        rc = tco_cli_fail_as(&d, fmt);
        if (!no_workbook)
            tco_cli_unmake_out();
    }
    if (rc == 0 && !no_workbook && tco_advise_workbook(&req, &advice, out, &wo, &d) != TCO_OK) {
        rc = tco_cli_fail_as(&d, fmt);
        tco_cli_unmake_out();
    }
    if (rc == 0)
        tco_report_quote_warnings(stem, read, advice.quote_warnings, advice.n_quote_warnings, false, stderr);
    if (rc == 0 && fmt == TCO_OUT_JSON)
        tco_advise_print_json(&advice, no_workbook ? NULL : out, stdout);
    else if (rc == 0) {
        tco_advise_print_table(&advice, NULL, stdout);
        tco_advise_risk_print_table(&advice, stdout);
        tco_advise_save_print_table(&advice, stdout);
        if (!no_workbook)
            fputs("\nWorkbook: ", stdout), tco_text_put_terminal(stdout, out, strlen(out)), fputc('\n', stdout);
    }
    tco_advice_free(&advice);
    tco_ini_cache_free(&files);
    free(path);
    free(default_out);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = (fprintf(stderr, "tco: writing the advice to standard output failed\n"), 74);
    return rc;
}
