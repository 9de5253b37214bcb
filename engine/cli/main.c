/*
 * main.c - the `tco` command line: a dispatcher.  The first argument names a subcommand of the table
 * below (each in its own file, commands.h); anything else is the options of a run (cmd_scenario.c):
 *
 *   tco --scenario NAME|PATH.ini|all [--out PATH] [--format table|json|csv] [--root DIR] [--quotes FILE]...
 *       [--as-of DATE] [--set SEC.KEY=V]... [--currency CODE] [--no-workbook] [--sensitivity]
 *       [--monte-carlo N [--seed S]]
 *   tco --compare A,B[,...] [options as above]
 *   tco [--root DIR] quotes check FILE.csv... [--format table|json] [--as-of DATE]
 *   tco init DIR [--scenario NAME] [--root DIR]
 *   tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook] [--force] [--root DIR]
 *   tco diff OLD.json NEW.json [--order effect|file] [--format table|json] [--out PATH.xlsx]
 *   tco --list | --help | --version
 *
 * Exit codes (sysexits): 0 ok, 64 usage, 65 bad data, 66 missing input,
 * 70 internal, 71 out of memory, 73 cannot create the workbook, 74 cannot
 * write the summary to standard output.
 */
#include <string.h>

#include "base/memory.h"
#include "cli/commands.h"

/* The subcommands named by the first argument: each takes its own arguments (argv[0] its name) and
 * @p invoked, how tco was run. */
static const struct command {
    const char *name;
    int (*run)(const char *invoked, int argc, char **argv);
} commands[] = {
    {"diff", tco_cmd_diff},
    {"init", tco_cmd_init},
    {"advise", tco_cmd_advise},
};

/* The main heap tco asks huge pages for (memory.h): a workbook of a template ten times the shipped one
 * takes some 170 MB, the shipped ones under 10 MB (a range not written costs nothing). */
#define HEAP_HUGE_PAGES ((size_t)256 << 20)

int main(int argc, char **argv)
{
    tco_heap_huge_pages(HEAP_HUGE_PAGES);
    for (size_t i = 0; argc > 1 && i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argv[0], argc - 1, argv + 1);
    return tco_cmd_scenario(argc, argv);
}
