/* cmd_advise.c - `tco advise NAME ...`: the arguments of the advisor, its run and its output
 * (commands.h; advise.c answers). */
#include "cli/commands.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "apps/advise.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "cli/cli.h"
#include "load/load.h"
#include "read/ini.h"
#include "read/root.h"
#include "read/scenarios.h"
#include "render/report.h"
#include "render/workbook.h"

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
