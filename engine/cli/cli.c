/* cli.c - the command line's shared front end (cli.h): help, errors, the root, --out. */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read/scenarios.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "render/report.h"
#include "render/workbook.h"

static const char usage_text[] =
    "Usage: tco --scenario NAME [--out PATH] [--format table|json|csv] [--root DIR]\n"
    "           [--quotes FILE.csv]... [--quotes-strict] [--as-of YYYY-MM-DD]\n"
    "           [--set SEC.KEY=V]... [--currency CODE] [--no-workbook]\n"
    "           [--sensitivity] [--monte-carlo N [--seed S]]\n"
    "       tco --compare A,B[,...] [options as above]\n"
    "       tco quotes check FILE.csv... [--format table|json] [--as-of YYYY-MM-DD]\n"
    "       tco init DIR [--scenario NAME] [--root DIR]\n"
    "       tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook]\n"
    "           [--quotes FILE]... [--quotes-strict] [--as-of DATE] [--currency CODE]\n"
    "           [--force] [--root DIR]\n"
    "           [--monte-carlo N [--seed S]] [--save-scenario FILE.ini [--pick RANK]]\n"
    "       tco diff OLD.json NEW.json [--order effect|file] [--format table|json]\n"
    "                [--out PATH.xlsx] [--force] [--root DIR]\n"
    "       tco --list\n"
    "       tco --help | --version\n"
    "\n"
    "Turn a scenario (accelerator cards, machines, facility) into a total-cost-\n"
    "of-ownership workbook over the scenario's years (three in the shipped\n"
    "scenarios) whose derived cells are live formulas.\n"
    "\n"
    "Options:\n"
    "  -s, --scenario NAME   scenarios/NAME.ini under the project root, a path to\n"
    "                        an .ini file, or all (every scenario, each to\n"
    "                        out/NAME.xlsx; JSON then prints an array)\n"
    "  -o, --out PATH        workbook to write, ending in .xlsx (default:\n"
    "                        out/NAME.xlsx; out/NAME-quotes.xlsx with --quotes,\n"
    "                        out/NAME-whatif.xlsx with --set, NAME-quotes-whatif\n"
    "                        with both, then -sensitivity with --sensitivity\n"
    "                        and -risk with --monte-carlo (both:\n"
    "                        -sensitivity-risk), so no run's replaces another's;\n"
    "                        the out/ folder is created if missing)\n"
    "  -f, --format FMT      summary on stdout: table (default), json, or csv\n"
    "                        (every input and output, one value per row)\n"
    "  -r, --root DIR        project root holding pricing/, templates/, scenarios/\n"
    "                        (default: $TCO_ROOT if set, else the current folder\n"
    "                        if it has them, else the checkout when tco runs from\n"
    "                        its build tree, else the installed PREFIX/share/tco)\n"
    "  -q, --quotes FILE     vendor quotes (CSV, see docs/quotes.md): each priced\n"
    "                        item takes the lowest valid quote; repeatable\n"
    "      --quotes-strict   a quote warning is an error (exit 65, nothing written):\n"
    "                        an item whose quote rows are all expired, not yet\n"
    "                        valid, below min_qty or not a catalog item, or an\n"
    "                        unknown column\n"
    "  -a, --as-of DATE      judge quote validity on DATE (default: today, UTC);\n"
    "                        for --scenario, --compare, advise and quotes check\n";
/* The options after --as-of (C11 compilers need only take 4,095 characters in one string). */
static const char usage_options[] =
    "      --set SEC.KEY=V   what-if: as if the scenario said [SEC] KEY = V, e.g.\n"
    "                        facility.pue=1.2, card.price=80000, scenario.cards=64;\n"
    "                        checked like the file; repeatable; with --quotes,\n"
    "                        fx.usd=7.2 sets an exchange rate (pricing/fx.ini);\n"
    "                        in --compare, NAME:SEC.KEY=V sets it for option\n"
    "                        NAME only (needed for card.* when the options buy\n"
    "                        different cards)\n"
    "      --currency CODE   report in CODE (USD, EUR, ...: a rate in pricing/fx.ini;\n"
    "                        default [finance] currency, CNY): every money figure\n"
    "                        is the catalog's CNY over the live input fx_report;\n"
    "                        default workbook out/NAME-usd.xlsx\n"
    "      --force           replace the workbook even if Excel or LibreOffice\n"
    "                        has it open (their lock file exists); advise:\n"
    "                        let --save-scenario replace a file already there\n"
    "      --no-workbook     the summary alone: write no file (not with --out)\n"
    "      --sensitivity     each ranged input (KEY_range) alone at LOW and at\n"
    "                        HIGH: TCO, NPV cost, unit cost, largest swing first\n"
    "      --monte-carlo N   draw every ranged input N times (Latin hypercube):\n"
    "                        P10, P50, P80, P90, mean, stdev (docs/uncertainty.md)\n"
    "      --seed S          seed of the draws (default 1): same seed, same figures\n"
    "      --save-scenario FILE.ini\n"
    "                        advise: write the winner as a scenario file that\n"
    "                        tco --scenario FILE.ini prices to the advice's TCO\n"
    "      --pick RANK       advise: save the option of rank RANK instead\n"
    "  -c, --compare A,B     options side by side in one workbook: each option's\n"
    "                        sheets and a Compare sheet (A,B,... or the name of a\n"
    "                        comparison file in scenarios/, e.g. compare-team70b)\n"
    "  -l, --list            list the scenarios, comparisons and questions and exit\n"
    "  -h, --help            show this help and exit\n"
    "  -V, --version         show the version and exit\n";
/* The rest of the help (two strings: C11 compilers need only take 4,095 characters in one). */
static const char usage_more[] =
    "\n"
    "Commands:\n"
    "  quotes check FILE...  read each quote file whole and report every problem:\n"
    "                        errors (exit 65) and warnings (an unknown column or\n"
    "                        item, a currency without a rate, a row not valid\n"
    "                        on --as-of); --format json:\n"
    "                        one JSON document; writes nothing (docs/quotes.md)\n"
    "  init DIR              make DIR a working folder to edit: a copy of the\n"
    "                        scenario (--scenario, default cluster32), of the\n"
    "                        catalog and of the template, and a README.md that\n"
    "                        says how to run it; DIR must be new or empty\n"
    "  advise NAME           answer the question scenarios/NAME.ini (an [advise]\n"
    "                        section: a job and constraints): every tier, card\n"
    "                        count and host it allows, gated and priced by the\n"
    "                        cost model, ranked by cost per unit of work; the\n"
    "                        top 10, the winner against the runner-up and the\n"
    "                        rejections by reason (json: every option); writes\n"
    "                        out/advise-NAME.xlsx (-quotes, -whatif, -risk, -usd\n"
    "                        as for --scenario): a Rank sheet whose ranks are\n"
    "                        live, the top 3 options' figures live over their\n"
    "                        sheets, the others' values; --quotes,\n"
    "                        --quotes-strict, --as-of and --currency as for\n"
    "                        --scenario: a quote\n"
    "                        prices every candidate that buys its item, its\n"
    "                        min_qty judged against what that candidate buys;\n"
    "                        --monte-carlo N draws the top 10 alike: P10, P50,\n"
    "                        P90 per unit and how often each is the cheapest\n"
    "                        (docs/advise.md)\n"
    "  diff OLD.json NEW.json\n"
    "                        the budget bridge between two JSON summaries of\n"
    "                        runs: OLD's inputs moved to NEW's one at a time\n"
    "                        (--order effect: largest effect first, the\n"
    "                        default; --order file: as the file lists them),\n"
    "                        the change in TCO at each step, and what no step\n"
    "                        moves; --out a workbook with a Bridge sheet and a\n"
    "                        waterfall chart (docs/bridge.md)\n"
    "\n"
    "Examples:\n"
    "  tco --scenario cluster32                 writes out/cluster32.xlsx\n"
    "  tco --scenario cluster32 --format json   the same, summary as JSON\n"
    "  tco --scenario all                       every scenario in scenarios/\n"
    "  tco --compare compare-team70b            3x W-B against 2x D-M for a 70B model\n"
    "  tco --scenario cluster32 --quotes pricing/example-quotes.csv --as-of 2026-11-30\n"
    "  tco --scenario cluster32 --currency USD  the same in USD (out/cluster32-usd.xlsx)\n"
    "  tco quotes check vendor.csv              report every problem in a quote file\n"
    "  tco advise team-70b                      what to buy to serve 70B FP16 to 16 streams\n"
    "  tco diff old.json new.json --out bridge.xlsx   what changed between two budgets\n"
    "  tco init mybudget --scenario team        a folder of your own: cd mybudget &&\n"
    "                                           tco --scenario team\n"
    "  tco --scenario my/site.ini --out /tmp/site.xlsx\n"
    "\n"
    "Exit status: 0 ok, 64 usage, 65 invalid input data, 66 input file missing,\n"
    "70 internal error, 71 out of memory, 73 cannot create the workbook,\n"
    "74 cannot write the summary.  Errors name the file and the place:\n"
    "file [section] key, or file [section] formula, column N.\n"
    "See docs/cli.md, docs/advise.md, docs/bridge.md, docs/model.md and docs/formulas.md.\n";

void tco_cli_print_help(FILE *out)
{
    fputs(usage_text, out);
    fputs(usage_options, out);
    fputs(usage_more, out);
}

/* Each subcommand's own help: its usage, what it does, its options and its exit codes (the general help
 * lists the subcommands; docs/tco.1 COMMANDS says the same at length). */
static const char help_advise[] =
    "Usage: tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook]\n"
    "           [--quotes FILE]... [--quotes-strict] [--as-of DATE] [--currency CODE]\n"
    "           [--force] [--root DIR]\n"
    "           [--monte-carlo N [--seed S]] [--save-scenario FILE.ini [--pick RANK]]\n"
    "\n"
    "Answer the question scenarios/NAME.ini (or a path to an .ini file with an\n"
    "[advise] section: a job and constraints): every tier, card count and host\n"
    "it allows, gated and priced by the cost model, ranked by cost per unit of\n"
    "work (per million tokens at the question's target load, or per training\n"
    "run). The table shows the top 10, the winner against the runner-up and\n"
    "the rejections by reason; writes out/advise-NAME.xlsx (a Rank sheet and\n"
    "the top 3 options' sheets). See docs/advise.md.\n"
    "\n"
    "Options:\n"
    "  -f, --format FMT      table (default) or json (every option)\n"
    "      --set SEC.KEY=V   what-if: advise.KEY changes the question, any other\n"
    "                        section the model's inputs; repeatable\n"
    "  -o, --out PATH        the workbook (default out/advise-NAME.xlsx; -quotes,\n"
    "                        -whatif, -risk, -usd as for --scenario)\n"
    "      --no-workbook     the answer alone: write no file (not with --out)\n"
    "      --quotes FILE     vendor quotes (CSV): a quote prices every candidate\n"
    "                        that buys its item; repeatable. Each quote warning\n"
    "                        (an unknown column, an item some candidate buys\n"
    "                        that no row priced, a currency without a rate) is\n"
    "                        printed and in JSON \"warnings\", as for --scenario\n"
    "      --quotes-strict   make each quote warning an error (exit 65, nothing\n"
    "                        written)\n"
    "      --as-of DATE      judge quote validity on DATE (default: today, UTC)\n"
    "      --currency CODE   report in CODE (a rate in pricing/fx.ini)\n"
    "      --monte-carlo N   draw every ranged input N times for the top 10:\n"
    "                        P10, P50, P90 per unit and p_best, the share of\n"
    "                        draws in which each is the cheapest\n"
    "      --seed S          seed of the draws (default 1)\n"
    "      --save-scenario FILE.ini\n"
    "                        write the winner as a scenario file that\n"
    "                        tco --scenario FILE.ini prices to the advice's TCO\n"
    "      --pick RANK       save the option of rank RANK instead\n"
    "      --force           replace the workbook even if it is open, and a file\n"
    "                        already at --save-scenario's path\n"
    "  -r, --root DIR        project root holding pricing/, templates/, scenarios/\n"
    "  -h, --help            show this help and exit\n"
    "\n"
    "Exit status: 0 ok (also when no option is feasible: the answer says why),\n"
    "64 usage, 65 invalid question, catalog or quotes, 66 input file missing,\n"
    "70 internal error, 71 out of memory, 73 cannot create the workbook or the\n"
    "scenario file, 74 cannot write the answer.\n";

static const char help_quotes[] =
    "Usage: " QUOTES_USAGE "\n"
    "\n"
    "Read each vendor quote file whole and report every problem: errors (a\n"
    "price, date or currency that cannot be read, a missing column) and\n"
    "warnings (an unknown column or item, with \"did you mean\", a currency\n"
    "without a rate in pricing/fx.ini, a row not valid on --as-of: expired or\n"
    "not yet valid), each with its file:line, column and\n"
    "what was expected, and a count per file. Writes nothing. See docs/quotes.md.\n"
    "\n"
    "Options:\n"
    "  -f, --format FMT      table (default) or json (one JSON document)\n"
    "  -a, --as-of DATE      judge validity on DATE, YYYY-MM-DD (default: today, UTC)\n"
    "  -r, --root DIR        project root whose catalog names the items (before\n"
    "                        quotes: tco --root DIR quotes check ...)\n"
    "  -h, --help            show this help and exit\n"
    "\n"
    "Exit status: 0 no file has an error (warnings alone), 64 usage, 65 a file\n"
    "has an error, 66 a file cannot be opened, 71 out of memory, 74 cannot write\n"
    "the report.\n";

static const char help_diff[] =
    "Usage: tco diff OLD.json NEW.json [--order effect|file] [--format table|json]\n"
    "                [--out PATH.xlsx] [--force] [--root DIR]\n"
    "\n"
    "The budget bridge between two JSON summaries of runs (tco --scenario NAME\n"
    "--format json): OLD's inputs moved to NEW's one at a time, the change in\n"
    "TCO at each step (the steps add up exactly to NEW - OLD), and what no step\n"
    "moves. See docs/bridge.md.\n"
    "\n"
    "Options:\n"
    "      --order ORDER     effect: largest effect first (default); file: in the\n"
    "                        order the file lists the inputs\n"
    "  -f, --format FMT      table (default) or json\n"
    "  -o, --out PATH.xlsx   also write a workbook: a Bridge sheet and a waterfall\n"
    "      --force           replace the workbook even if it is open\n"
    "  -r, --root DIR        project root holding OLD's template and catalog\n"
    "  -h, --help            show this help and exit\n"
    "\n"
    "Exit status: 0 ok, 64 usage, 65 a file that is not one scenario's summary,\n"
    "or two in different currencies, 66 a file missing, 70 internal error,\n"
    "71 out of memory, 73 cannot create the workbook, 74 cannot write the bridge.\n";

static const char help_init[] =
    "Usage: tco init DIR [--scenario NAME] [--root DIR]\n"
    "\n"
    "Make DIR a working folder for a budget of one's own: a copy of the scenario\n"
    "NAME as DIR/scenarios/NAME.ini, of the catalog (DIR/pricing/), of the cost\n"
    "model (DIR/templates/) and a DIR/README.md whose first command runs it:\n"
    "cd DIR && tco --scenario NAME. DIR must be new or an empty folder; nothing\n"
    "is replaced, and on an error what was made is removed again.\n"
    "\n"
    "Options:\n"
    "  -s, --scenario NAME   the scenario to copy (default cluster32)\n"
    "  -r, --root DIR        project root to copy from (only read)\n"
    "  -h, --help            show this help and exit\n"
    "\n"
    "Exit status: 0 ok, 64 usage, 65 the scenario does not load, 66 no project\n"
    "data found, 71 out of memory, 73 DIR cannot be made or filled.\n";

int tco_cli_print_command_help(FILE *out, const char *command)
{
    static const struct {
        const char *name, *text;
    } helps[] = {{"advise", help_advise}, {"quotes", help_quotes}, {"diff", help_diff}, {"init", help_init}};
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++)
        if (strcmp(command, helps[i].name) == 0) {
            fputs(helps[i].text, out);
            return 0;
        }
    tco_cli_print_help(out);
    return 0;
}

int tco_cli_quotes_add(const char **files, size_t *n, const char *path)
{
    if (*n == TCO_MAX_QUOTE_FILES)
        return tco_cli_usage("--quotes: at most %d files", TCO_MAX_QUOTE_FILES);
    if (path[0] == '\0') /* it said "cannot open: No such file or directory", naming no file */
        return tco_cli_usage("%s", "--quotes '': expected a quote file (CSV), found an empty name");
    struct stat now;
    bool known = stat(path, &now) == 0;
    for (size_t i = 0; i < *n; i++) {
        struct stat was;
        bool same = known && stat(files[i], &was) == 0 ? was.st_dev == now.st_dev && was.st_ino == now.st_ino
                                                       : strcmp(files[i], path) == 0;
        if (same) /* read twice, each row would be a second quote of its own, cited as unused */
            return tco_cli_usage("--quotes %s: the same file as --quotes %s (file %zu); give each quote file once",
                                 path, files[i], i + 1);
    }
    files[(*n)++] = path;
    return 0;
}

int tco_cli_currency(const char *text, char out[4])
{
    bool ok = strlen(text) == 3;
    for (size_t i = 0; ok && i < 3; i++)
        ok = isalpha((unsigned char)text[i]);
    if (!ok)
        return tco_cli_usage("--currency: expected a currency code of three letters (CNY, USD, EUR, ...), found "
                             "'%.40s'", text);
    for (int i = 0; i < 4; i++)
        out[i] = (char)toupper((unsigned char)text[i]);
    return 0;
}

const char *tco_cli_bad_option(int argc, char *const *argv)
{
    if (optopt != 0 && optind > 0 && optind < argc && argv[optind][0] == '-' && argv[optind][1] != '-' &&
        strchr(argv[optind] + 1, optopt) != NULL)
        return argv[optind]; /* inside the cluster: optind has not moved past it */
    return optind > 0 && optind <= argc ? argv[optind - 1] : "?";
}

int tco_cli_once(const char *first[256], int c, const struct option *opts, const char *value)
{
    if (c < 0 || c > 255 || value == NULL)
        return 0;
    if (first[c] == NULL) {
        first[c] = value;
        return 0;
    }
    const char *name = "?";
    for (const struct option *o = opts; o->name != NULL; o++)
        if (o->val == c)
            name = o->name;
    return tco_cli_usage("--%s given twice ('%.200s', then '%.200s'): it takes one value", name, first[c], value);
}

bool tco_cli_format(const char *text, tco_output_format *out)
{
    static const char *const names[] = {[TCO_OUT_TABLE] = "table", [TCO_OUT_JSON] = "json",
                                        [TCO_OUT_CSV] = "csv"};
    for (int f = TCO_OUT_TABLE; f <= TCO_OUT_CSV; f++)
        if (strcmp(text, names[f]) == 0) {
            *out = (tco_output_format)f;
            return true;
        }
    return false;
}

int tco_cli_fail(const tco_diag *d)
{
    /* A usage error of the engine's may end with the hint tco_cli_usage() prints: the hint is the
     * command line's own line break; any other (a file name's) is shown as \x0A, an ESC as \x1B. */
    static const char hint[] = "\nTry 'tco --help'.";
    size_t n = strlen(d->message), h = sizeof hint - 1;
    bool hinted = n >= h && strcmp(d->message + n - h, hint) == 0;
    fputs("tco: ", stderr);
    tco_text_put_terminal(stderr, d->message, hinted ? n - h : n);
    fputs(hinted ? hint : "", stderr);
    fputc('\n', stderr);
    return tco_exit_code(d->code);
}

int tco_cli_fail_as(const tco_diag *d, tco_output_format format)
{
    if (format == TCO_OUT_JSON && d->code != TCO_ERR_USAGE) {
        tco_report_json_error(d, stdout);
        fflush(stdout);
    }
    return tco_cli_fail(d);
}

int tco_cli_quotes_strict(bool strict, const char *name, const tco_quote_set *set, char *const *texts, size_t n,
                          tco_output_format format)
{
    size_t warnings = strict ? tco_report_quote_warnings(name, set, texts, n, true, NULL) : 0;
    if (warnings == 0)
        return 0;
    tco_report_quote_warnings(name, set, texts, n, true, stderr);
    tco_diag d = {0};
    tco_diag_set(&d, TCO_ERR_INI, "--quotes-strict: %zu quote warning%s for %s (above), so nothing is written",
                 warnings, warnings == 1 ? "" : "s", name);
    if (format == TCO_OUT_JSON) { /* the warnings beside the error, as a run's JSON lists them */
        tco_report_json_error_quotes(&d, set, texts, n, stdout);
        fflush(stdout);
    }
    return tco_cli_fail(&d);
}

int tco_cli_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco_strbuf msg = {0};
    tco_strbuf_vprintf(&msg, fmt, ap);
    va_end(ap);
    fputs("tco: ", stderr);
    tco_text_put_terminal(stderr, tco_strbuf_str(&msg), msg.len);
    tco_strbuf_free(&msg);
    fprintf(stderr, "\nTry 'tco --help'.\n");
    return 64;
}

bool tco_cli_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The project root for this run (tco_root_find() with this build's layout). */
const tco_root_layout tco_cli_layout = {TCO_SOURCE_ROOT, TCO_BUILD_BINDIR, TCO_DATA_RELDIR};

tco_error tco_cli_find_root(const char *given, tco_root *root, tco_diag *d)
{
    return tco_root_find(&tco_cli_layout, given, root, d);
}

/* Whether this run made the default out/ folder (tco_cli_prepare_out()): a run whose workbook then fails removes
 * it again while it is empty (tco_cli_unmake_out()), so a failure leaves nothing behind. */
static bool made_out;

void tco_cli_unmake_out(void)
{
    if (made_out && rmdir("out") == 0)
        made_out = false;
}

tco_error tco_cli_prepare_out(const char **out, char **default_out, const char *stem, const char *suffix, bool force,
                             tco_diag *d)
{
    *default_out = NULL;
    if (*out == NULL) {
        /* The default folder is never a link: in a shared folder a planted out -> elsewhere would send
         * the workbook (or its replacement) into a folder the planter picks. */
        struct stat st;
        if (lstat("out", &st) == 0 && S_ISLNK(st.st_mode))
            return tco_diag_set(d, TCO_ERR_CANTCREATE, "out: is a symbolic link, and tco writes its default "
                                "workbooks only into a real folder out/; remove the link, or give --out PATH");
        if (lstat("out", &st) == 0 && !S_ISDIR(st.st_mode))
            return tco_diag_set(d, TCO_ERR_CANTCREATE, "out: exists and is not a folder; remove it, or give --out "
                                "PATH");
        if (!tco_cli_is_dir("out")) {
            if (mkdir("out", 0777) == 0)
                made_out = true;
            else if (errno != EEXIST)
                return tco_diag_set(d, TCO_ERR_CANTCREATE, "out/: cannot create the output folder: %s",
                                    strerror(errno));
        }
        tco_strbuf b = {0};
        tco_strbuf_printf(&b, "out/%s%s.xlsx", stem, suffix);
        if ((*out = *default_out = tco_strbuf_take(&b)) == NULL)
            return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    }
    char lock[4200];
    if (!force && tco_workbook_locked(*out, lock, sizeof lock))
        return tco_diag_set(d, TCO_ERR_CANTCREATE,
                            "%s is open in a spreadsheet application (lock file %s); close it there, or pass --force "
                            "to replace it anyway",
                            *out, lock);
    return TCO_OK;
}


/* --out PATH as given (NULL: none), checked before anything is read: a file name ending in .xlsx, not a
 * folder, and not with --no-workbook.  @p name suggests a file name.  0, or tco_cli_usage()'s code. */
int tco_cli_check_out(const char *out, bool no_workbook, const char *name)
{
    size_t olen = out ? strlen(out) : 0;
    if (out && !tco_cli_is_dir(out) && olen > 6 && out[olen - 1] == '/' && strncasecmp(out + olen - 6, ".xlsx", 5) == 0)
        return tco_cli_usage("--out %s: ends with '/', so it names a folder; for the workbook drop the '/': %.*s", out,
                           (int)(olen - 1), out);
    if (out && (tco_cli_is_dir(out) || (olen > 0 && out[olen - 1] == '/'))) {
        char stem[256];
        return tco_cli_usage("--out %s: is a folder; give a file name such as %s%s%s.xlsx", out, out,
                           out[olen - 1] == '/' ? "" : "/", tco_scenario_stem(name, stem, sizeof stem));
    }
    if (out && (olen < 5 || strcasecmp(out + olen - 5, ".xlsx") != 0))
        return tco_cli_usage("--out %s: expected a file name ending in .xlsx", out);
    /* ".xlsx" alone (or "dir/.xlsx") names no workbook: a hidden file that a file manager does not show. */
    const char *base = strrchr(out ? out : "", '/');
    if (out && strcasecmp(base ? base + 1 : out, ".xlsx") == 0) {
        char stem[256];
        return tco_cli_usage("--out %s: expected a name before .xlsx, such as %.*s%s.xlsx", out,
                           (int)(olen - 5), out, tco_scenario_stem(name, stem, sizeof stem));
    }
    if (out && no_workbook)
        return tco_cli_usage("--no-workbook writes no file, and --out %s names the workbook to write; give one of them",
                           out);
    return 0;
}

int tco_cli_out_not_input(const char *out, const char *input, const char *what)
{
    struct stat so, si;
    if (out == NULL || input == NULL || stat(out, &so) != 0 || stat(input, &si) != 0 || so.st_dev != si.st_dev ||
        so.st_ino != si.st_ino)
        return 0;
    return tco_cli_usage("--out %s: is %s %s, a file this run reads (the same file%s); the workbook would replace it: "
                         "give another name", out, what, input, strcmp(out, input) == 0 ? "" : ", by another name");
}

int tco_cli_out_not_inputs(const char *out, const char *input, const char *what, const char *const *quotes,
                           size_t n)
{
    int rc = tco_cli_out_not_input(out, input, what);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = tco_cli_out_not_input(out, quotes[i], "--quotes");
    return rc;
}

/* The workbooks' `created` time: SOURCE_DATE_EPOCH (reproducible-builds.org), a plain decimal integer,
 * digits only, of seconds since 1970, from 0 to 253402300799 (9999-12-31T23:59:59Z); empty is unset, and
 * then TCO_FIXED_CREATED.  0, or tco_cli_usage()'s code. */
int tco_cli_created_time(time_t *created)
{
    *created = TCO_FIXED_CREATED;
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (sde && sde[0]) {
        long long v = 0;
        bool ok = true;
        for (const char *p = sde; *p && ok; p++)
            ok = *p >= '0' && *p <= '9' && (v = v * 10 + (*p - '0')) <= 253402300799LL;
        if (!ok)
            return tco_cli_usage("SOURCE_DATE_EPOCH: expected a plain decimal integer (digits only) of seconds since "
                               "1970, from 0 to 253402300799, found '%.60s'",
                               sde);
        /* libxlsxwriter writes the current time for a created time of 0, so 0 (1970-01-01T00:00:00Z)
         * is written as the closest time it can write, one second later. */
        *created = v == 0 ? 1 : (time_t)v;
    }
    return 0;
}
