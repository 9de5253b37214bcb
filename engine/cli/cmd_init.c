/* cmd_init.c - `tco init DIR [--scenario NAME] [--root DIR]`: a project folder of one scenario
 * (commands.h; init.c makes it). */
#include "cli/commands.h"

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "apps/init.h"
#include "base/error.h"
#include "base/text.h"
#include "cli/cli.h"
#include "read/root.h"
#include "read/scenarios.h"

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
    const char *first[256] = {0}; /* each option once (tco_cli_once) */
    while ((c = getopt_long(argc, argv, ":s:r:h", opts, NULL)) != -1) {
        int once = c == 's' || c == 'r' ? tco_cli_once(first, c, opts, optarg) : 0;
        if (once != 0)
            return once;
        if (c == 'h')
            return tco_cli_print_command_help(stdout, "init");
        else if (c == 's')
            scenario = optarg;
        else if (c == 'r')
            root_arg = optarg;
        else if (c == ':')
            return tco_cli_usage("init: option '%s' needs a value", argv[optind - 1]);
        else
            return tco_cli_usage("init: unknown option '%s'; tco init DIR [--scenario NAME] [--root DIR]",
                               tco_cli_bad_option(argc, argv));
    }
    if (optind >= argc || argv[optind][0] == '\0')
        return tco_cli_usage("%s", "init: expected the folder to make: tco init DIR [--scenario NAME] [--root DIR]");
    if (optind + 1 < argc)
        return tco_cli_usage("init: unexpected argument '%s' (one folder only)", argv[optind + 1]);
    /* Each argument is text the new folder's runs show (its path in every workbook, message and the README):
     * one holding a control character, a non-character or bytes that are not UTF-8 is refused here, before
     * anything is made, rather than by the check of the copy after the folder was filled. */
    const char *args[3][2] = {{"DIR", argv[optind]}, {"--scenario", scenario}, {"--root", root_arg}};
    for (size_t k = 0; k < 3; k++) {
        size_t byte;
        const char *fault = args[k][1] ? tco_shown_path_fault(args[k][1], &byte) : NULL;
        if (fault)
            return tco_cli_usage("init %s '%s': holds %s at byte %zu; tco init takes no path holding one (the "
                                 "new folder's workbooks, messages and README show its paths)", args[k][0], args[k][1],
                                 fault, byte);
    }
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
