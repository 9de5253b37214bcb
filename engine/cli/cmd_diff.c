/* cmd_diff.c - `tco diff OLD.json NEW.json ...`: the budget bridge between two JSON summaries
 * (commands.h; bridge.c computes it). */
#include "cli/commands.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "apps/bridge.h"
#include "base/error.h"
#include "base/text.h"
#include "cli/cli.h"
#include "read/root.h"
#include "render/report.h"
#include "render/workbook.h"

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
    const char *first[256] = {0}; /* each option once (tco_cli_once) */
    for (int c; (c = getopt_long(argc, argv, ":f:o:r:h", opts, NULL)) != -1;) {
        int once = c != 0 && strchr("fOor", c) != NULL ? tco_cli_once(first, c, opts, optarg) : 0;
        if (once != 0)
            return once;
        if (c == 'h')
            return tco_cli_print_command_help(stdout, "diff");
        if (c == ':' || c == '?')
            return tco_cli_usage("diff: %s '%s'; tco diff OLD.json NEW.json [--order effect|file] [--format table|json] "
                               "[--out PATH.xlsx]", c == ':' ? "option needs a value" : "unknown option",
                               c == '?' ? tco_cli_bad_option(argc, argv) : argv[optind - 1]);
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
    for (int k = 0; k < 2; k++)
        if (argv[optind + k][0] == '\0') /* it said "cannot open: No such file or directory", naming no file */
            return tco_cli_usage("diff: expected %s.json, a JSON summary, found an empty name", k ? "NEW" : "OLD");
    /* A file name ending in .xlsx, and not a folder (said as such, as --scenario says it). */
    int bad_out = tco_cli_check_out(out, false, "bridge");
    for (int k = 0; k < 2 && bad_out == 0; k++)
        bad_out = tco_cli_out_not_input(out, argv[optind + k], k ? "NEW" : "OLD");
    if (bad_out != 0)
        return bad_out;
    tco_root root;
    tco_diag d = {0};
    if (tco_cli_find_root(root_arg, &root, &d) != TCO_OK)
        return tco_cli_fail_as(&d, fmt);
    tco_bridge_request req = {root.path, argv[optind], argv[optind + 1],
                              strcmp(order, "file") == 0 ? TCO_BRIDGE_ORDER_FILE : TCO_BRIDGE_ORDER_EFFECT};
    tco_bridge b;
    char *no_default = NULL;
    int rc = tco_bridge_run(&req, &b, &d) != TCO_OK ? tco_cli_fail_as(&d, fmt) : 0;
    tco_workbook_options wo = {.created = TCO_FIXED_CREATED, .currency = b.currency, .force = force};
    if (rc == 0 && out && (tco_cli_prepare_out(&out, &no_default, "", "", force, &d) != TCO_OK ||
                           tco_bridge_write_book(&b, out, &wo, &d) != TCO_OK))
        rc = tco_cli_fail_as(&d, fmt);
    if (rc == 0) /* a side that is not feasible, on standard error whatever the format (as --scenario's checks) */
        tco_bridge_print_warnings(&b, stderr);
    if (rc == 0)
        (fmt == TCO_OUT_JSON ? tco_bridge_print_json : tco_bridge_print_table)(&b, stdout);
    if (rc == 0 && out && fmt != TCO_OUT_JSON)
        fputs("\nWorkbook: ", stdout), tco_text_put_terminal(stdout, out, strlen(out)), fputc('\n', stdout);
    tco_bridge_free(&b);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = (fprintf(stderr, "tco: writing the bridge to standard output failed\n"), 74);
    return rc;
}
