/*
 * commands.h - the subcommands of `tco`, one file each in engine/cli/ (cmd_scenario.c, cmd_quotes.c,
 * cmd_init.c, cmd_advise.c, cmd_diff.c): each takes the command's own arguments (argv[0] the command's
 * name, or for quotes check the files after it; init, advise and diff also how tco was invoked, main.c's
 * command table) and returns the exit code (sysexits).
 */
#ifndef TCO_COMMANDS_H
#define TCO_COMMANDS_H

/** `tco [OPTIONS]` (main()'s @p argc and @p argv): --scenario NAME|PATH.ini|all, --compare A,B[,...], --list,
 *  --help, --version, and `tco [--root DIR] quotes check` after the options (cmd_scenario.c). */
int tco_cmd_scenario(int argc, char **argv);

/** `tco [--root DIR] quotes check FILE.csv... [--format table|json] [--as-of DATE]`: read each quote file
 *  whole against the catalog of @p root and report every problem, judging validity on the date @p as_of
 *  (the text of an --as-of given before `quotes`, or NULL: today, UTC, unless given after it) (@p format
 *  "table" or "json"; cmd_quotes.c). */
int tco_cmd_quotes_check(const char *root, const char *format, const char *as_of, int argc, char **argv);

/** `tco init DIR [--scenario NAME] [--root DIR]` (cmd_init.c; init.c makes the folder); @p invoked is how
 *  tco was run. */
int tco_cmd_init(const char *invoked, int argc, char **argv);

/** `tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook] [--force]
 *  [--root DIR]` (cmd_advise.c; advise.c answers): the advice and its workbook. */
int tco_cmd_advise(const char *invoked, int argc, char **argv);

/** `tco diff OLD.json NEW.json [--order effect|file] [--format table|json] [--out PATH.xlsx] [--force]
 *  [--root DIR]` (cmd_diff.c; bridge.c computes it): the budget bridge. */
int tco_cmd_diff(const char *invoked, int argc, char **argv);

#endif
