/*
 * cli.h - what the commands of the `tco` command line share (cli.c): the help text, the way an error
 * or a usage mistake is told (exit codes of error.h, sysexits), the project root this build finds, and
 * the checks and defaults of --out, and --format.  The command line is main.c (the dispatcher), cmd_scenario.c
 * (tco --scenario, --compare) and
 * commands.c (quotes check, init, advise, diff); nothing here is part of the engine's library.
 */
#ifndef TCO_CLI_H
#define TCO_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "base/error.h"
#include "read/quote_csv.h"
#include "read/root.h"

#ifndef TCO_VERSION
#define TCO_VERSION "0.1.0"
#endif
/* Where this binary was built and where its installed data lies (root.h; set by CMakeLists.txt). */
#ifndef TCO_SOURCE_ROOT
#define TCO_SOURCE_ROOT ""
#endif
#ifndef TCO_BUILD_BINDIR
#define TCO_BUILD_BINDIR ""
#endif
#ifndef TCO_DATA_RELDIR
#define TCO_DATA_RELDIR "../share/tco"
#endif

/* 2026-01-01T00:00:00Z: the workbook's fixed creation time unless SOURCE_DATE_EPOCH is set. */
#define TCO_FIXED_CREATED 1767225600
/* Most --quotes files and --set values in one run. */
#define TCO_MAX_QUOTE_FILES 32
#define TCO_MAX_SETS 64

/* How tco advise is called (its errors and the usage lines say it alike). */
#define ADVISE_USAGE                                                                                        \
    "tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--quotes FILE]... [--quotes-strict] "       \
    "[--as-of DATE] [--currency CODE] [--monte-carlo N [--seed S]] [--save-scenario FILE.ini [--pick RANK]] "                \
    "[--out PATH | --no-workbook] [--force] [--root DIR]"

/* How tco quotes check is called (its errors say it so). */
#define QUOTES_USAGE "tco [--root DIR] quotes check FILE.csv... [--format table|json] [--as-of YYYY-MM-DD]"

/** A summary's format on standard output (--format), parsed once by tco_cli_format(). */
typedef enum tco_output_format {
    /** For people: aligned columns (the default). */
    TCO_OUT_TABLE,
    /** One JSON document (docs/json.md). */
    TCO_OUT_JSON,
    /** CSV: every input and output, one value per row (--scenario and --compare only). */
    TCO_OUT_CSV
} tco_output_format;

/** --format @p text ("table", "json" or "csv", exactly) into *@p out; false (and *@p out unchanged) for any
 *  other text.  Each command says which formats it takes and refuses the others. */
bool tco_cli_format(const char *text, tco_output_format *out);

struct option;

/** Refuses a single-value option given a second time, instead of keeping the last one silently
 *  (docs/robustness.md, "nothing silently ignored": `--currency USD --currency EUR`).  @p first holds,
 *  per option character, the value it was first given (NULL: not yet); the caller zeroes it before its
 *  getopt loop.  @p c is what getopt_long() returned, @p opts the command's long options (for the name
 *  in the message), @p value its optarg.  Options that are lists (--quotes, --set) and flags are not
 *  passed here.  Returns 0, or the exit code of a usage error (64, printed: "--currency given twice
 *  ('USD', then 'EUR'): it takes one value"). */
int tco_cli_once(const char *first[256], int c, const struct option *opts, const char *value);

/** The argument of @p argv holding the option getopt_long() just refused ('?'): an unknown long option
 *  ("--bogus"), or the cluster of short options holding the unknown letter ("-dash" for its 'd'; getopt
 *  stays on a cluster while inside it, so argv[optind - 1] would be the argument before it, "init"). */
const char *tco_cli_bad_option(int argc, char *const *argv);

/** --currency CODE: @p text three letters (any case) into @p out, upper case.  Returns 0, or the exit code
 *  of a usage error (64, printed: "--currency: expected a currency code of three letters ..."). */
int tco_cli_currency(const char *text, char out[4]);

/** Print `tco --help` (the usage lines, the options, the commands and examples) to @p out. */
void tco_cli_print_help(FILE *out);
/** Print subcommand @p command's own help ("advise", "quotes", "diff", "init": its usage, options and exit
 *  codes) to @p out; another name gets the general help.  Returns 0, the exit code of --help. */
int tco_cli_print_command_help(FILE *out, const char *command);

/** Print "tco: MESSAGE" for @p d on standard error; its exit code (error.h tco_exit_code()). */
int tco_cli_fail(const tco_diag *d);

/** tco_cli_fail() for a run printing @p format: with TCO_OUT_JSON, the error's JSON document on standard
 *  output too (report.h tco_report_json_error()), unless it is a usage error (exit 64: nothing on
 *  standard output, as before). */
int tco_cli_fail_as(const tco_diag *d, tco_output_format format);

/** --quotes-strict (@p strict) for a run named @p name priced from quote set @p set, whose other quote
 *  warnings are @p texts (@p n; report.h tco_report_quote_warnings()): when there is any, print each as an
 *  error, then "--quotes-strict: N quote warnings for NAME (above), so nothing is written", and return 65
 *  (the JSON error document too with @p format JSON); else 0.  Call it before anything is written: a
 *  scenario's run, each option of --compare, tco advise. */
int tco_cli_quotes_strict(bool strict, const char *name, const tco_quote_set *set, char *const *texts, size_t n,
                          tco_output_format format);

/** Print "tco: MESSAGE" and "Try 'tco --help'." on standard error; 64. */
int tco_cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Add --quotes @p path to @p files (*@p n of them): at most TCO_MAX_QUOTE_FILES, and each file once
 *  (the same file by another spelling, ./a.csv or a link to it, is the same: compared by device and
 *  inode where both exist, else by the text).  0, or tco_cli_usage()'s code. */
int tco_cli_quotes_add(const char **files, size_t *n, const char *path);

/** True if @p path is a folder (following links). */
bool tco_cli_is_dir(const char *path);

/** Where this binary was built and where its installed data lies (root.h), from the macros above. */
extern const tco_root_layout tco_cli_layout;

/** The project root for this run: tco_root_find() with this build's layout (--root @p given, TCO_ROOT,
 *  the current folder, the build tree, the installed data). */
tco_error tco_cli_find_root(const char *given, tco_root *root, tco_diag *d);

/** The workbook path: *@p out, or out/STEMSUFFIX.xlsx (creating out/, which must not be a link) when it
 *  is NULL, in which case *@p default_out owns it.  Refuses a workbook a spreadsheet application has open
 *  unless @p force.  Errors: TCO_ERR_CANTCREATE, TCO_ERR_NOMEM. */
tco_error tco_cli_prepare_out(const char **out, char **default_out, const char *stem, const char *suffix, bool force,
                              tco_diag *d);

/** Remove the out/ folder tco_cli_prepare_out() made, while it is empty: a failed run leaves nothing. */
void tco_cli_unmake_out(void);

/** --out @p out as given (NULL: none), checked before anything is read: a file name ending in .xlsx, not
 *  a folder, and not with --no-workbook (@p no_workbook).  @p name suggests a file name.  0, or
 *  tco_cli_usage()'s code. */
int tco_cli_check_out(const char *out, bool no_workbook, const char *name);

/** Refuse --out @p out (NULL: none) when it is input file @p input (NULL: none) of the run, @p what
 *  naming that input as the user gave it ("OLD", "--quotes", "--scenario's file"): the same file by device
 *  and inode (a link or another spelling of it) when both exist.  Writing the workbook would replace a
 *  file the run reads.  0, or tco_cli_usage()'s code (64). */
int tco_cli_out_not_input(const char *out, const char *input, const char *what);

/** tco_cli_out_not_input() for the run's own file @p input (named @p what) and then each of its @p n
 *  --quotes files @p quotes.  0, or tco_cli_usage()'s code (64). */
int tco_cli_out_not_inputs(const char *out, const char *input, const char *what, const char *const *quotes,
                           size_t n);

/** The workbooks' `created` time into *@p created: SOURCE_DATE_EPOCH (reproducible-builds.org), digits
 *  only, 0 to 253402300799; unset or empty: TCO_FIXED_CREATED.  0, or tco_cli_usage()'s code. */
int tco_cli_created_time(time_t *created);

#endif
