/*
 * main.c - the `tco` command line.
 *
 *   tco --scenario NAME|PATH.ini [--out PATH] [--format table|json|csv] [--root DIR] [--currency CODE]
 *       [--no-workbook]
 *   tco quotes check FILE.csv... [--format table|json]
 *   tco init DIR [--scenario NAME] [--root DIR]     (init.c)
 *   tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook] [--force]
 *       [--root DIR]   (advise.c)
 *   tco diff OLD.json NEW.json [--order effect|file] [--format table|json] [--out PATH.xlsx]   (bridge.c)
 *   tco --list | --help | --version
 *
 * Exit codes (sysexits): 0 ok, 64 usage, 65 bad data, 66 missing input,
 * 70 internal, 71 out of memory, 73 cannot create the workbook, 74 cannot
 * write the summary to standard output.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "advise.h"
#include "bridge.h"
#include "error.h"
#include "ini.h"
#include "init.h"
#include "model.h"
#include "output.h"
#include "quotes.h"
#include "report.h"
#include "root.h"
#include "risk.h"
#include "scenarios.h"
#include "strbuf.h"
#include "workbook.h"

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
    "tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook] [--force] [--root DIR]"

static const char usage_text[] =
    "Usage: tco --scenario NAME [--out PATH] [--format table|json|csv] [--root DIR]\n"
    "           [--quotes FILE.csv]... [--as-of YYYY-MM-DD] [--set SEC.KEY=V]...\n"
    "           [--currency CODE] [--no-workbook]\n"
    "           [--sensitivity] [--monte-carlo N [--seed S]]\n"
    "       tco --compare A,B[,...] [options as above]\n"
    "       tco quotes check FILE.csv... [--format table|json]\n"
    "       tco init DIR [--scenario NAME] [--root DIR]\n"
    "       tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook]\n"
    "           [--force] [--root DIR]\n"
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
    "                        with both, so the plain run's is never replaced;\n"
    "                        the out/ folder is created if missing)\n"
    "  -f, --format FMT      summary on stdout: table (default), json, or csv\n"
    "                        (every input and output, one value per row)\n"
    "  -r, --root DIR        project root holding pricing/, templates/, scenarios/\n"
    "                        (default: $TCO_ROOT if set, else the current folder\n"
    "                        if it has them, else the checkout when tco runs from\n"
    "                        its build tree, else the installed PREFIX/share/tco)\n"
    "  -q, --quotes FILE     vendor quotes (CSV, see docs/quotes.md): each priced\n"
    "                        item takes the lowest valid quote; repeatable\n"
    "  -a, --as-of DATE      judge quote validity on DATE (default: today, UTC)\n"
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
    "                        has it open (their lock file exists)\n"
    "      --no-workbook     the summary alone: write no file (not with --out)\n"
    "      --sensitivity     each ranged input (KEY_range) alone at LOW and at\n"
    "                        HIGH: TCO, NPV cost, unit cost, largest swing first\n"
    "      --monte-carlo N   draw every ranged input N times (Latin hypercube):\n"
    "                        P10, P50, P80, P90, mean, deviation (docs/risk.md)\n"
    "      --seed S          seed of the draws (default 1): same seed, same figures\n"
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
    "  quotes check FILE...  read each quote file whole and report every problem\n"
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
    "                        out/advise-NAME.xlsx (-whatif with --set): a Rank\n"
    "                        sheet whose figures and RANK() are live, then the\n"
    "                        options' sheets (docs/advise.md)\n"
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

static int fail(const tco_diag *d)
{
    fprintf(stderr, "tco: %s\n", d->message);
    return tco_exit_code(d->code);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tco: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'tco --help'.\n");
    return 64;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The project root for this run (tco_root_find() with this build's layout). */
static const tco_root_layout build_layout = {TCO_SOURCE_ROOT, TCO_BUILD_BINDIR, TCO_DATA_RELDIR};

static tco_error find_root(const char *given, tco_root *root, tco_diag *d)
{
    return tco_root_find(&build_layout, given, root, d);
}

/* The workbook path: @p out, or out/STEMSUFFIX.xlsx (creating out/) when NULL, in which case
 * *@p default_out owns it.  Refuses a workbook a spreadsheet application has open unless @p force. */
/* Whether this run made the default out/ folder (prepare_out()): a run whose workbook then fails removes
 * it again while it is empty (unmake_out()), so a failure leaves nothing behind. */
static bool made_out;

static void unmake_out(void)
{
    if (made_out && rmdir("out") == 0)
        made_out = false;
}

static tco_error prepare_out(const char **out, char **default_out, const char *stem, const char *suffix, bool force,
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
        if (!is_dir("out")) {
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

/* Load one scenario, write its workbook (default out/NAME.xlsx) and print its summary. */
/* Vendor quotes given on the command line, and the date they are judged on. */
typedef struct quote_opts {
    const char *files[TCO_MAX_QUOTE_FILES];
    size_t n;
    int32_t as_of;
    /* --set overrides */
    tco_override sets[TCO_MAX_SETS];
    size_t n_sets;
    /* --set fx.CODE=RATE: exchange rates, replacing pricing/fx.ini's before quotes are read */
    tco_override fx_sets[TCO_MAX_SETS];
    size_t n_fx_sets;
    /* --currency CODE (upper case), or NULL: the scenario's [finance] currency, else CNY */
    const char *currency;
    /* --no-workbook: the summary alone; no file (nor out/) is written */
    bool no_workbook;
    /* The INI files every scenario of the run shares (catalog, templates, pricing/fx.ini), read once */
    tco_ini_cache *shared;
    /* --sensitivity, --monte-carlo N (0: none) and --seed S (risk.h) */
    bool sensitivity;
    size_t draws;
    uint64_t seed;
} quote_opts;

/* Rows kept while reading quotes for a scenario, so memory does not grow with a file's size
 * (caps TCO_QUOTE_LIST_CAP and TCO_QUOTE_LIST_TOTAL in quotes.h):
 * for each price the model takes from quotes (each quoted input's item, and each tier row of a
 * per-tier input, under the tier's own name) the first TCO_QUOTE_LIST_CAP rows and every row that
 * is the best valid quote so far (so the final choice sees the winner); for other items, the
 * first TCO_QUOTE_LIST_CAP rows in all (listed as not used).  The rest are only counted. */
/* And the text of the rows listed is at most this many bytes in all (a row's notes may hold up to
 * 32,767 characters): past it, only the best so far is set aside.  Flat memory whatever the rows. */
#define TCO_QUOTE_LIST_BYTES ((size_t)32 << 20)

typedef struct item_best {
    const char *item;  /* borrowed from the model */
    double quantity;   /* bought by the scenario */
    size_t kept;
    bool any;
    double converted;  /* best valid so far */
    int64_t valid_until;
    tco_quote stash;   /* beyond the listing cap: the best so far, copied */
    bool stashed;
    size_t next;       /* the next price of the same item (another quantity), SIZE_MAX if none */
} item_best;

typedef struct keep_ctx {
    const tco_model *m;
    int32_t as_of;
    item_best *items;
    size_t n_items;
    tco_name_index by_item; /* each item's first price in items */
    size_t others;
    size_t listed_bytes; /* text of the rows listed so far */
    size_t listed;       /* rows listed so far, all items together (at most TCO_QUOTE_LIST_TOTAL) */
} keep_ctx;

static bool keep_quote(void *vctx, const tco_quote *q)
{
    keep_ctx *k = vctx;
    size_t bytes = strlen(q->vendor) + strlen(q->quote_id) + strlen(q->item) + strlen(q->notes) + 64;
    bool room = k->listed_bytes + bytes <= TCO_QUOTE_LIST_BYTES && k->listed < TCO_QUOTE_LIST_TOTAL;
    bool tracked = false, listed = false;
    size_t first = SIZE_MAX;
    tco_name_index_get(&k->by_item, q->item, &first);
    /* One row may be judged for several prices of its item (the card's input and its tier row). */
    for (size_t i = first; i != SIZE_MAX; i = k->items[i].next) {
        item_best *b = &k->items[i];
        tracked = true;
        if (b->kept < TCO_QUOTE_LIST_CAP && room) {
            b->kept++;
            listed = true;
        }
    }
    if (!tracked) {
        listed = room && k->others < TCO_QUOTE_LIST_CAP;
        k->others += listed;
        k->listed_bytes += listed ? bytes : 0;
        k->listed += listed;
        return listed;
    }
    k->listed_bytes += listed ? bytes : 0;
    k->listed += listed;
    for (size_t i = first; i != SIZE_MAX; i = k->items[i].next) {
        item_best *b = &k->items[i];
        bool valid = (q->valid_until == TCO_NO_DATE || q->valid_until >= k->as_of) &&
                     (q->quote_date == TCO_NO_DATE || q->quote_date <= k->as_of) && q->min_qty <= b->quantity;
        int64_t until = q->valid_until == TCO_NO_DATE ? INT64_MAX : q->valid_until;
        bool best = valid && (!b->any || q->converted < b->converted ||
                              (q->converted == b->converted && until < b->valid_until));
        if (!best)
            continue;
        b->any = true;
        b->converted = q->converted;
        b->valid_until = until;
        if (b->stashed) { /* a better row replaces the one set aside */
            tco_quote_free_fields(&b->stash);
            b->stashed = false;
        }
        if (!listed) {
            /* Past the cap, keep only the best so far, set aside (one per price): memory stays
             * flat even when a file lists its quotes from the dearest to the cheapest. */
            tco_quote_set tmp = {0};
            b->stashed = tco_quotes_append_copy(&tmp, q);
            if (b->stashed)
                b->stash = tmp.quotes[0];
            free(tmp.quotes);
        }
    }
    return listed;
}

/* Errors stop a scenario run (nothing is priced from a file that cannot be read); warnings are printed. */
static bool stop_on_error(void *ctx, const tco_diag *problem, bool warning)
{
    (void)ctx;
    if (warning)
        fprintf(stderr, "tco: warning: %s\n", problem->message);
    return warning;
}

/* Load pricing/fx.ini with the run's --set fx.CODE rates. */
static tco_error load_fx(const char *root, const quote_opts *q, tco_fx *fx, tco_diag *d)
{
    char *fx_path = tco_path_join(root, "pricing/fx.ini");
    if (fx_path == NULL)
        return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    tco_error e = tco_fx_load_shared(fx_path, NULL, q->shared, fx, d);
    free(fx_path);
    if (e != TCO_OK)
        return e;
    if (strcmp(fx->reporting, "CNY") != 0)
        return tco_diag_set(d, TCO_ERR_INI, "%s [fx] reporting: the catalog's prices are in CNY, so its rates must "
                            "be CNY per unit (reporting = CNY), found %s", fx->path, fx->reporting);
    for (size_t i = 0; i < q->n_fx_sets; i++)
        if ((e = tco_fx_set(fx, q->fx_sets[i].arg, q->fx_sets[i].key, q->fx_sets[i].value, d)) != TCO_OK)
            return e;
    return TCO_OK;
}

/* Read the quote files and price the model from them (@p fx loaded by load_fx()). */
static tco_error apply_quotes(const char *root, tco_model *m, const quote_opts *q, tco_quote_set *set, tco_fx *fx,
                              tco_diag *d)
{
    tco_error e = TCO_OK;
    keep_ctx k = {.m = m, .as_of = q->as_of};
    /* Every price quotes may set: a quoted input's item, and each row of a per-tier input. */
    size_t slots = 0;
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].quote_item)
            slots += m->items[i].kind == TCO_ITEM_TIER_INPUT ? (size_t)m->n_tiers : 1;
    k.items = calloc(slots ? slots : 1, sizeof *k.items);
    if (k.items == NULL)
        return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < m->n_items && e == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if (it->quote_item == NULL)
            continue;
        double qty = m->items[tco_model_find(m, it->quote_qty)].value;
        for (int r = 0; r < (it->kind == TCO_ITEM_TIER_INPUT ? m->n_tiers : 1); r++) {
            const char *item = it->kind == TCO_ITEM_TIER_INPUT ? m->tier_names[r] : it->quote_item;
            /* The same item bought in the same quantity is judged once; another quantity is chained. */
            size_t *head = tco_name_index_put(&k.by_item, item, NULL);
            if (head == NULL) {
                e = tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
                break;
            }
            bool dup = false;
            size_t *link = head;
            for (; *link != SIZE_MAX && !dup; link = &k.items[*link].next)
                dup = k.items[*link].quantity == qty;
            if (!dup) {
                k.items[k.n_items] = (item_best){.item = item, .quantity = qty, .next = SIZE_MAX};
                *link = k.n_items++;
            }
        }
    }
    for (size_t i = 0; i < q->n && e == TCO_OK; i++)
        e = tco_quotes_read(q->files[i], fx, keep_quote, &k, stop_on_error, NULL, set, d);
    for (size_t i = 0; i < k.n_items; i++) {
        item_best *b = &k.items[i];
        if (!b->stashed)
            continue;
        /* One row set aside for two prices is listed once. */
        bool dup = false;
        size_t first = SIZE_MAX;
        tco_name_index_get(&k.by_item, b->item, &first);
        for (size_t j = first; j != SIZE_MAX && j < i && !dup; j = k.items[j].next)
            dup = k.items[j].stashed && k.items[j].stash.file == b->stash.file && k.items[j].stash.line == b->stash.line;
        if (e == TCO_OK && !dup && !tco_quotes_append_copy(set, &b->stash))
            e = tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
        else if (e == TCO_OK && !dup && set->not_kept > 0)
            set->not_kept--;
    }
    for (size_t i = 0; i < k.n_items; i++)
        if (k.items[i].stashed)
            tco_quote_free_fields(&k.items[i].stash);
    free(k.items);
    tco_name_index_free(&k.by_item);
    if (e != TCO_OK)
        return e;
    char **items = NULL;
    size_t n_items = 0;
    if ((e = tco_catalog_quote_items(root, q->shared, &items, &n_items, d)) == TCO_OK)
        e = tco_model_apply_quotes(m, set, fx, q->as_of, items, n_items, d);
    for (size_t i = 0; i < n_items; i++)
        free(items[i]);
    free(items);
    return e;
}

/* The default workbook name's suffix for a run whose inputs are not the scenario files alone
 * (-usd when --currency USD is not the files' currency). */
static const char *run_suffix(const quote_opts *quotes, const char *code, const char *files_code, char buf[32])
{
    bool whatif = quotes->n_sets + quotes->n_fx_sets > 0;
    snprintf(buf, 32, "%s", quotes->n > 0 ? (whatif ? "-quotes-whatif" : "-quotes") : whatif ? "-whatif" : "");
    if (strcmp(code, files_code) != 0) {
        size_t n = strlen(buf);
        snprintf(buf + n, 32 - n, "-%c%c%c", tolower((unsigned char)code[0]), tolower((unsigned char)code[1]),
                 tolower((unsigned char)code[2]));
    }
    return buf;
}

/* The currency the scenario files choose: the template's text input `currency` ([finance] currency,
 * pricing/site.ini's default), upper case, else CNY; "" (and the input's source in @p where) when it
 * is not three letters. */
static void files_currency(const tco_model *m, char code[4], const char **where)
{
    int i = tco_model_find(m, "currency");
    const char *t = i >= 0 && m->items[i].kind == TCO_ITEM_INPUT && m->items[i].text ? m->items[i].text : "CNY";
    *where = i >= 0 ? m->items[i].source : "currency";
    code[0] = '\0';
    if (strlen(t) == 3 && isalpha((unsigned char)t[0]) && isalpha((unsigned char)t[1]) && isalpha((unsigned char)t[2]))
        for (int c = 0; c < 4; c++)
            code[c] = (char)toupper((unsigned char)t[c]);
}

/* Price @p m from the run's quotes and report it in the run's currency (--currency, else the files'),
 * loading pricing/fx.ini when either needs it.  Sets @p code and @p files_code (the files' currency). */
static tco_error price_and_report(const char *root, tco_model *m, const quote_opts *q, tco_quote_set *set,
                                  tco_fx *fx, char code[4], char files_code[4], tco_diag *d)
{
    const char *where;
    files_currency(m, files_code, &where);
    const char *basis = strstr(where, ": "); /* "FILE [finance] currency: basis": the place alone */
    int place = basis ? (int)(basis - where) : (int)strlen(where);
    if (files_code[0] == '\0') {
        int i = tco_model_find(m, "currency");
        return tco_diag_set(d, TCO_ERR_INI, "%.*s: expected a currency code of three letters (CNY, USD, ...), found "
                            "'%.40s'", place, where, m->items[i].text);
    }
    snprintf(code, 4, "%s", q->currency ? q->currency : files_code);
    bool fx_needed = q->n > 0 || q->n_fx_sets > 0 || strcmp(code, "CNY") != 0;
    /* Without quotes, a --set rate can only be the reporting currency's. */
    for (size_t i = 0; q->n == 0 && i < q->n_fx_sets; i++)
        if (strcasecmp(q->fx_sets[i].key, code) != 0)
            return tco_diag_set(d, TCO_ERR_USAGE, "--set %s: exchange rates convert vendor quotes (give --quotes "
                                "FILE.csv) and the reporting currency (here %s)\nTry 'tco --help'.",
                                q->fx_sets[i].arg, code);
    tco_error e = fx_needed ? load_fx(root, q, fx, d) : TCO_OK;
    if (e == TCO_OK && fx_needed && strcmp(code, fx->reporting) != 0) {
        double rate;
        if (!tco_fx_rate(fx, code, &rate)) {
            tco_strbuf known = {0};
            for (size_t k = 0; k < fx->n; k++)
                tco_strbuf_printf(&known, ", %s", fx->codes[k]);
            if (q->currency)
                e = tco_diag_set(d, TCO_ERR_USAGE, "--currency %s: no exchange rate for it in %s; expected %s%s"
                                 "\nTry 'tco --help'.", code, fx->path, fx->reporting, tco_strbuf_str(&known));
            else
                e = tco_diag_set(d, TCO_ERR_INI, "%.*s: no exchange rate for currency %s in %s; expected %s%s", place,
                                 where, code, fx->path, fx->reporting, tco_strbuf_str(&known));
            tco_strbuf_free(&known);
            return e;
        }
        snprintf(fx->report, sizeof fx->report, "%s", code);
    }
    if (e == TCO_OK && q->n > 0)
        e = apply_quotes(root, m, q, set, fx, d);
    char given[32];
    snprintf(given, sizeof given, "--currency %s", code);
    if (e == TCO_OK && fx_needed)
        e = tco_model_set_currency(m, code, fx, q->currency ? given : NULL, d);
    return e;
}

/* The --set values for option @p stem: the bare ones and those named for it (NAME:SECTION.KEY=VALUE). */
static size_t sets_for(const quote_opts *q, const char *stem, tco_override *out)
{
    size_t n = 0;
    for (size_t i = 0; i < q->n_sets; i++)
        if (q->sets[i].option[0] == '\0' || strcmp(q->sets[i].option, stem) == 0)
            out[n++] = q->sets[i];
    return n;
}

/* What loads a second model exactly as run_scenario() loaded and priced its own, for the second thread of a
 * Monte Carlo run (risk.h tco_risk_twin_fn); the quote set and rates it keeps are freed by the run. */
typedef struct twin_load {
    const char *root, *spath;
    const tco_override *sets;
    size_t n_sets;
    const quote_opts *quotes;
    tco_quote_set set;
    tco_fx fx;
} twin_load;

static tco_model *load_twin(void *ctx, tco_diag *d)
{
    twin_load *t = ctx;
    tco_model *m = NULL;
    char code[4], files_code[4];
    if (tco_model_load_shared(t->root, t->spath, t->sets, t->n_sets, t->quotes->shared, &m, d) != TCO_OK)
        return NULL;
    if (price_and_report(t->root, m, t->quotes, &t->set, &t->fx, code, files_code, d) != TCO_OK) {
        tco_model_free(m);
        return NULL;
    }
    return m;
}

static int run_scenario(const char *root, const char *scenario, const char *out, const char *format,
                        const tco_workbook_options *wo, const quote_opts *quotes)
{
    tco_diag d = {0};
    char *spath = tco_scenario_path(root, scenario, "--scenario", NULL, &d);
    if (spath == NULL)
        return fail(&d);
    char stem[201];
    tco_scenario_stem(scenario, stem, sizeof stem);
    if (tco_advise_is_question(spath)) {
        fprintf(stderr, "tco: %s is a question ([advise] section), not a scenario: run it with tco advise %s\n", spath,
                stem);
        free(spath);
        return 64;
    }
    for (size_t i = 0; i < quotes->n_sets; i++)
        if (quotes->sets[i].option[0] != '\0' && strcmp(quotes->sets[i].option, stem) != 0) {
            free(spath);
            return usage_error("--set %s: '%s' is not this run's scenario (%s); NAME:SECTION.KEY=VALUE names an option "
                               "of --compare", quotes->sets[i].arg, quotes->sets[i].option, stem);
        }
    tco_override sets[TCO_MAX_SETS];
    size_t n_sets = sets_for(quotes, stem, sets);
    tco_model *m = NULL;
    if (tco_model_load_shared(root, spath, sets, n_sets, quotes->shared, &m, &d) != TCO_OK) {
        free(spath);
        return fail(&d);
    }
    tco_quote_set set = {0};
    tco_fx fx = {0};
    char code[4], files_code[4], suffix[32];
    if (price_and_report(root, m, quotes, &set, &fx, code, files_code, &d) != TCO_OK) {
        free(spath);
        tco_model_free(m);
        tco_quotes_free(&set);
        tco_fx_free(&fx);
        return fail(&d);
    }
    tco_workbook_options o = *wo;
    o.currency = code;

    /* A run whose inputs differ from the scenario files never replaces the plain run's workbook:
     * out/NAME-quotes.xlsx with --quotes, out/NAME-whatif.xlsx with --set, NAME-quotes-whatif with both. */
    char *default_out = NULL;
    int rc = 0;
    if (quotes->no_workbook)
        out = NULL; /* the summary names no workbook */
    else if (prepare_out(&out, &default_out, m->scenario_name, run_suffix(quotes, code, files_code, suffix),
                         wo->force, &d) != TCO_OK ||
             ((quotes->sensitivity || quotes->draws > 0) && tco_output_check(out, &d) != TCO_OK)) {
        rc = fail(&d); /* a long run refuses a target it could not write before its work */
        unmake_out();
    }
    /* Sensitivity and Monte Carlo, before the workbook that shows them. */
    tco_risk risk = {0};
    twin_load twin = {.root = root, .spath = spath, .sets = sets, .n_sets = n_sets, .quotes = quotes};
    if (rc == 0 && (quotes->sensitivity || quotes->draws > 0) &&
        tco_risk_run(m, quotes->sensitivity, quotes->draws, quotes->seed, isatty(STDERR_FILENO) ? stderr : NULL,
                     load_twin, &twin, &risk, &d) != TCO_OK) {
        rc = fail(&d);
        unmake_out();
    }
    free(spath);
    tco_quotes_free(&twin.set);
    tco_fx_free(&twin.fx);
    if (risk.sensitivity || risk.monte_carlo)
        o.risk = &risk;
    if (rc == 0 && out != NULL && tco_workbook_write(m, out, &o, &d) != TCO_OK) {
        rc = fail(&d);
        unmake_out();
    }
    if (rc == 0) {
        tco_report_warnings(m, stderr); /* a valid question with a negative answer: said, and still exit 0 */
        bool risky = risk.sensitivity || risk.monte_carlo;
        if (strcmp(format, "json") == 0 && risky) {
            tco_report_json_members(m, code, out, stdout);
            tco_risk_print_json(&risk, stdout);
            fputs("\n}\n", stdout);
        } else if (strcmp(format, "json") == 0)
            tco_report_json(m, code, out, stdout);
        else if (strcmp(format, "csv") == 0 || strcmp(format, "csv-body") == 0)
            tco_report_csv(m, strcmp(format, "csv") == 0, stdout);
        else {
            tco_report_table(m, code, out, stdout);
            if (risky)
                tco_risk_print_table(&risk, code, out, stdout);
        }
    }
    tco_risk_free(&risk);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "tco: writing the summary to standard output failed\n");
        rc = 74;
    }
    free(default_out);
    tco_model_free(m);
    tco_quotes_free(&set);
    tco_fx_free(&fx);
    return rc;
}

/* Load one scenario with the run's --set values and quotes (freed with the set and rates). */
typedef struct loaded {
    tco_model *m;
    tco_quote_set set;
    tco_fx fx;
} loaded;

static void loaded_free(loaded *l)
{
    tco_model_free(l->m);
    tco_quotes_free(&l->set);
    tco_fx_free(&l->fx);
    memset(l, 0, sizeof *l);
}

/* Read the names of a comparison: "a,b,c" or the [compare] scenarios of scenarios/NAME.ini. */
static int compare_names(const char *root, const char *arg, char ***names, char **title, char **stem, char **file,
                         tco_diag *d)
{
    const char *list = arg;
    tco_ini ini = {0};
    char *path = NULL;
    *title = NULL;
    *stem = NULL;
    *file = NULL;
    if (strchr(arg, ',') == NULL) {
        path = tco_scenario_path(root, arg, "--compare", NULL, d);
        if (path == NULL)
            return -1;
        if (tco_ini_load(path, NULL, &ini, d) != TCO_OK) {
            free(path);
            return -1;
        }
        list = tco_ini_get(&ini, "compare", "scenarios");
        if (list == NULL) {
            tco_diag_set(d, TCO_ERR_INI, "%s [compare] scenarios: expected two or more scenario names, found %s", path,
                         tco_ini_has_section(&ini, "compare") ? "no such key" : "no [compare] section");
            tco_ini_free(&ini);
            free(path);
            return -1;
        }
        const char *t = tco_ini_get(&ini, "compare", "title");
        *title = tco_strdup(t && t[0] ? t : arg);
        char buf[256];
        *stem = tco_strdup(tco_scenario_stem(arg, buf, sizeof buf));
    }
    int n = 0;
    *names = NULL;
    tco_strbuf b = {0};
    tco_strbuf_append(&b, list);
    char *copy = tco_strbuf_take(&b);
    for (char *tok = copy ? strtok(copy, ",") : NULL; tok; tok = strtok(NULL, ",")) {
        while (*tok == ' ')
            tok++;
        size_t len = strlen(tok);
        while (len > 0 && tok[len - 1] == ' ')
            tok[--len] = '\0';
        char **grown = realloc(*names, (size_t)(n + 1) * sizeof *grown);
        if (grown == NULL || (grown[n] = tco_strdup(tok)) == NULL) {
            if (grown)
                *names = grown;
            break;
        }
        *names = grown;
        n++;
    }
    free(copy);
    if (*title == NULL) {
        tco_strbuf t = {0}, s = {0};
        tco_strbuf_append(&t, "Comparison:");
        for (int i = 0; i < n; i++) {
            char buf[256];
            const char *st = tco_scenario_stem((*names)[i], buf, sizeof buf);
            tco_strbuf_printf(&t, "%s %s", i ? " vs" : "", st);
            tco_strbuf_printf(&s, "%s%.40s", i ? "-vs-" : "", st);
        }
        *title = tco_strbuf_take(&t);
        *stem = tco_strbuf_take(&s);
    }
    if (path)
        tco_ini_free(&ini);
    *file = path; /* the names came from it */
    if (n < 2 || n > 26) {
        tco_diag_set(d, TCO_ERR_USAGE, "--compare %s: expected 2 to 26 scenarios, found %d", arg, n);
        for (int i = 0; i < n; i++)
            free((*names)[i]);
        free(*names);
        *names = NULL;
        free(*file);
        *file = NULL;
        return -1;
    }
    return n;
}

/* tco --compare: load every option, write one workbook with a Compare sheet, print each summary. */
static int run_compare(const char *root, const char *arg, const char *out, const char *format,
                       const tco_workbook_options *wo, const quote_opts *quotes)
{
    tco_diag d = {0};
    char **names = NULL, *title = NULL, *stem = NULL, *file = NULL;
    int n = compare_names(root, arg, &names, &title, &stem, &file, &d);
    if (n < 0) {
        free(title);
        free(stem);
        return fail(&d);
    }
    loaded opts[26];
    memset(opts, 0, sizeof opts);
    int rc = 0;
    char code[4] = "CNY", files_code[4] = "CNY", suffix[32];
    /* NAME:SECTION.KEY=VALUE must name one of the options. */
    char stems[26][201];
    for (int i = 0; i < n; i++)
        tco_scenario_stem(names[i], stems[i], sizeof stems[i]);
    for (size_t s = 0; s < quotes->n_sets && rc == 0; s++) {
        if (quotes->sets[s].option[0] == '\0')
            continue;
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= strcmp(quotes->sets[s].option, stems[i]) == 0;
        if (!found) {
            tco_strbuf list = {0};
            for (int i = 0; i < n; i++)
                tco_strbuf_printf(&list, "%s%s", i ? ", " : "", stems[i]);
            rc = usage_error("--set %s: no option '%s' in this comparison (options: %s)", quotes->sets[s].arg,
                             quotes->sets[s].option, tco_strbuf_str(&list));
            tco_strbuf_free(&list);
        }
    }
    for (int i = 0; i < n && rc == 0; i++) {
        char *spath = tco_scenario_path(root, names[i], "--compare", file, &d);
        char c_i[4], f_i[4];
        bool question = spath && tco_advise_is_question(spath);
        if (question)
            tco_diag_set(&d, TCO_ERR_USAGE, "%s is a question ([advise] section), not a scenario: run it with tco "
                         "advise %s", spath, stems[i]);
        tco_override sets[TCO_MAX_SETS];
        size_t n_sets = sets_for(quotes, stems[i], sets);
        if (spath == NULL || question ||
            tco_model_load_shared(root, spath, sets, n_sets, quotes->shared, &opts[i].m, &d) != TCO_OK ||
            price_and_report(root, opts[i].m, quotes, &opts[i].set, &opts[i].fx, c_i, f_i, &d) != TCO_OK)
            rc = fail(&d);
        else if (i > 0 && strcmp(c_i, code) != 0) {
            tco_diag_set(&d, TCO_ERR_USAGE, "--compare: the options must report in one currency (%s: %s, %s: %s); "
                         "give --currency CODE", opts[0].m->scenario_name, code, opts[i].m->scenario_name, c_i);
            rc = fail(&d);
        } else {
            memcpy(code, c_i, 4);
            if (i == 0)
                memcpy(files_code, f_i, 4);
        }
        free(spath);
    }
    tco_workbook_options o = *wo;
    o.currency = code;
    /* A bare --set of a catalog entry (card.price) changes a different entry in options that buy
     * different cards: refused, naming the choices, rather than pricing a W-B and a D-M alike. */
    for (size_t s = 0; s < quotes->n_sets && rc == 0; s++) {
        const tco_override *bare = &quotes->sets[s];
        const char *first = bare->option[0] ? NULL : tco_model_ref_entry(opts[0].m, bare->section);
        bool differ = false;
        for (int i = 1; first && i < n; i++) {
            const char *e_i = tco_model_ref_entry(opts[i].m, bare->section);
            differ |= e_i == NULL || strcasecmp(e_i, first) != 0;
        }
        if (!differ)
            continue;
        tco_strbuf list = {0};
        for (int i = 0; i < n; i++) {
            const char *e_i = tco_model_ref_entry(opts[i].m, bare->section);
            tco_strbuf_printf(&list, "%s%s (%s): --set %s:%s", i ? "; " : "", opts[i].m->scenario_name,
                              e_i ? e_i : "none", stems[i], bare->arg);
        }
        rc = usage_error("--set %s: the options name different %s entries, so it would set each of them alike; name "
                         "the option: %s", bare->arg, bare->section, tco_strbuf_str(&list));
        tco_strbuf_free(&list);
    }
    for (int i = 1; i < n && rc == 0; i++)
        if (opts[i].m->n_years != opts[0].m->n_years || opts[i].m->n_periods != opts[0].m->n_periods) {
            tco_diag_set(&d, TCO_ERR_USAGE, "--compare: the options must cover the same years (%s: %d, %s: %d)",
                         opts[0].m->scenario_name, opts[0].m->n_years, opts[i].m->scenario_name, opts[i].m->n_years);
            rc = fail(&d);
        }
    char *default_out = NULL;
    if (quotes->no_workbook)
        out = NULL; /* the summary names no workbook */
    else if (rc == 0 && prepare_out(&out, &default_out, stem, run_suffix(quotes, code, files_code, suffix), wo->force,
                                    &d) != TCO_OK)
        rc = fail(&d);
    if (rc == 0 && out != NULL) {
        tco_model *models[26];
        for (int i = 0; i < n; i++)
            models[i] = opts[i].m;
        if (tco_workbook_write_compare(models, (size_t)n, title, out, &o, &d) != TCO_OK) {
            rc = fail(&d);
            unmake_out();
        }
    }
    for (int i = 0; rc == 0 && i < n; i++)
        tco_report_warnings(opts[i].m, stderr);
    if (rc == 0) {
        bool json = strcmp(format, "json") == 0;
        if (json)
            fputs("[\n", stdout);
        for (int i = 0; i < n; i++) {
            if (json)
                fputs(i ? ",\n" : "", stdout);
            else if (i && strncmp(format, "csv", 3) != 0)
                fputs("\n", stdout);
            if (json)
                tco_report_json(opts[i].m, code, out, stdout);
            else if (strncmp(format, "csv", 3) == 0)
                tco_report_csv(opts[i].m, i == 0, stdout);
            else
                tco_report_table(opts[i].m, code, i + 1 == n ? out : NULL, stdout);
        }
        if (json)
            fputs("]\n", stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "tco: writing the summary to standard output failed\n");
            rc = 74;
        }
    }
    for (int i = 0; i < n; i++) {
        loaded_free(&opts[i]);
        free(names[i]);
    }
    free(names);
    free(title);
    free(stem);
    free(file);
    free(default_out);
    return rc;
}

/* The file `tco quotes check` is reading, and its report. */
typedef struct check_ctx {
    tco_report_check *report;
    const char *path;
} check_ctx;

/* Problems of `tco quotes check`: every one is reported, reading goes on. */
static bool print_problem(void *ctx, const tco_diag *problem, bool warning)
{
    check_ctx *c = ctx;
    tco_report_check_problem(c->report, c->path, problem->message, warning);
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
    if (strcasecmp(q->item, "tier") == 0)
        tco_diag_set(&d, TCO_ERR_SYNTAX, "%s:%ld: column %d (item): unknown item '%s': 'tier' is the template's word "
                     "for the rows of the card catalog; name the card tier itself, such as W-B", q->file, q->line,
                     q->item_column, q->item);
    else if (best)
        tco_diag_set(&d, TCO_ERR_SYNTAX, "%s:%ld: column %d (item): unknown item '%s' (did you mean '%s'?)", q->file,
                     q->line, q->item_column, q->item, best);
    else
        tco_diag_set(&d, TCO_ERR_SYNTAX, "%s:%ld: column %d (item): unknown item '%s'; expected a card tier, a host or "
                     "one of the template's quote ids", q->file, q->line, q->item_column, q->item);
    tco_report_check_problem(k->check->report, k->check->path, d.message, false);
    return false;
}

/* `tco quotes check FILE... [--format table|json]`: read every file fully, report every problem
 * (tco_report_check: text, or one JSON document); exit 65 if any, 66 if a file cannot be read. */
static int quotes_check(const char *root, const char *format, int argc, char **argv)
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
                return usage_error("option '%s' needs a value", argv[i]);
            }
            format = argv[++i];
        } else if (options && strncmp(argv[i], "--format=", 9) == 0)
            format = argv[i] + 9;
        else if (options && argv[i][0] == '-' && argv[i][1] != '\0') {
            free(files);
            return usage_error("quotes check: unknown option '%s' (it takes --format table|json and files)", argv[i]);
        } else
            files[n_files++] = argv[i];
    }
    argc = n_files;
    argv = files;
    bool json = strcmp(format, "json") == 0;
    if (!json && strcmp(format, "table") != 0) {
        free(files);
        return usage_error("quotes check --format: expected table or json, found '%s'", format);
    }
    if (argc == 0) {
        free(files);
        return usage_error("quotes check: expected one or more CSV files");
    }
    tco_diag d = {0};
    tco_fx fx = {0};
    char *fx_path = tco_path_join(root, "pricing/fx.ini");
    if (fx_path == NULL || tco_fx_load(fx_path, NULL, &fx, &d) != TCO_OK) {
        free(fx_path);
        free(files);
        return fail(&d);
    }
    free(fx_path);
    char **items = NULL;
    size_t n_items = 0;
    if (tco_catalog_quote_items(root, NULL, &items, &n_items, &d) != TCO_OK) {
        tco_fx_free(&fx);
        free(files);
        return fail(&d);
    }
    int rc = 0;
    tco_report_check report;
    check_ctx check = {.report = &report};
    known_items known = {.items = items, .n = n_items, .check = &check};
    for (size_t i = 0; i < n_items; i++)
        if (tco_name_index_put(&known.index, items[i], NULL) == NULL) {
            tco_diag_set(&d, TCO_ERR_NOMEM, "out of memory");
            rc = fail(&d);
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
            tco_report_check_unreadable(&report, argv[i], d.message);
            set.errors++;
            rc = rc ? rc : tco_exit_code(e);
        } else if (e == TCO_ERR_SYNTAX) {
            /* print_problem never stops a read, so this is a problem that ended it (a field past
             * the limit, broken quoting, not a CSV file): not reported yet. */
            tco_report_check_problem(&report, argv[i], d.message, false);
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
static int init_command(const char *invoked, int argc, char **argv)
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
            return fputs(usage_text, stdout), fputs(usage_more, stdout), 0;
        else if (c == 's')
            scenario = optarg;
        else if (c == 'r')
            root_arg = optarg;
        else if (c == ':')
            return usage_error("init: option '%s' needs a value", argv[optind - 1]);
        else
            return usage_error("init: unknown option '%s'; tco init DIR [--scenario NAME] [--root DIR]",
                               argv[optind - 1]);
    }
    if (optind >= argc || argv[optind][0] == '\0')
        return usage_error("%s", "init: expected the folder to make: tco init DIR [--scenario NAME] [--root DIR]");
    if (optind + 1 < argc)
        return usage_error("init: unexpected argument '%s' (one folder only)", argv[optind + 1]);
    tco_root root;
    tco_diag d = {0};
    if (find_root(root_arg, &root, &d) != TCO_OK)
        return fail(&d);
    if (tco_scenario_is_comparison(root.path, scenario))
        return usage_error("init --scenario %s: is a comparison; tco init copies one scenario: give one of the "
                           "scenarios it compares (tco --list)", scenario);
    if (tco_scenario_is_question(root.path, scenario))
        return usage_error("init --scenario %s: is a question for tco advise; tco init copies one scenario "
                           "(tco --list)", scenario);
    char *spath = tco_scenario_path(root.path, scenario, "--scenario", NULL, &d);
    if (spath == NULL)
        return fail(&d);
    char stem[256];
    if (!tco_scenario_name_ok(tco_scenario_stem(scenario, stem, sizeof stem))) {
        free(spath);
        return usage_error("init --scenario %s: the file's name '%s' cannot be a scenario name (at most 200 letters, "
                           "digits, '-', '_'); rename the file", scenario, stem);
    }
    char installed[PATH_MAX];
    bool have_installed = tco_root_installed_data(&build_layout, installed);
    tco_init_request req = {.root = root.path, .root_installed = root.kind == TCO_ROOT_INSTALLED,
                            .installed_data = have_installed ? installed : NULL, .scenario_path = spath,
                            .name = stem, .dir = argv[optind], .command = invoked};
    tco_error e = tco_init_folder(&req, stdout, &d);
    free(spath);
    return e == TCO_OK ? 0 : fail(&d);
}

/* --out PATH as given (NULL: none), checked before anything is read: a file name ending in .xlsx, not a
 * folder, and not with --no-workbook.  @p name suggests a file name.  0, or usage_error()'s code. */
static int check_out(const char *out, bool no_workbook, const char *name)
{
    size_t olen = out ? strlen(out) : 0;
    if (out && !is_dir(out) && olen > 6 && out[olen - 1] == '/' && strncasecmp(out + olen - 6, ".xlsx", 5) == 0)
        return usage_error("--out %s: ends with '/', so it names a folder; for the workbook drop the '/': %.*s", out,
                           (int)(olen - 1), out);
    if (out && (is_dir(out) || (olen > 0 && out[olen - 1] == '/'))) {
        char stem[256];
        return usage_error("--out %s: is a folder; give a file name such as %s%s%s.xlsx", out, out,
                           out[olen - 1] == '/' ? "" : "/", tco_scenario_stem(name, stem, sizeof stem));
    }
    if (out && (olen < 5 || strcasecmp(out + olen - 5, ".xlsx") != 0))
        return usage_error("--out %s: expected a file name ending in .xlsx", out);
    if (out && no_workbook)
        return usage_error("--no-workbook writes no file, and --out %s names the workbook to write; give one of them",
                           out);
    return 0;
}

/* The workbooks' `created` time: SOURCE_DATE_EPOCH (reproducible-builds.org), a plain decimal integer,
 * digits only, of seconds since 1970, from 0 to 253402300799 (9999-12-31T23:59:59Z); empty is unset, and
 * then TCO_FIXED_CREATED.  0, or usage_error()'s code. */
static int created_time(time_t *created)
{
    *created = TCO_FIXED_CREATED;
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (sde && sde[0]) {
        long long v = 0;
        bool ok = true;
        for (const char *p = sde; *p && ok; p++)
            ok = *p >= '0' && *p <= '9' && (v = v * 10 + (*p - '0')) <= 253402300799LL;
        if (!ok)
            return usage_error("SOURCE_DATE_EPOCH: expected a plain decimal integer (digits only) of seconds since "
                               "1970, from 0 to 253402300799, found '%.60s'",
                               sde);
        /* libxlsxwriter writes the current time for a created time of 0, so 0 (1970-01-01T00:00:00Z)
         * is written as the closest time it can write, one second later. */
        *created = v == 0 ? 1 : (time_t)v;
    }
    return 0;
}

/* `tco advise NAME [--format table|json] [--set SEC.KEY=V]... [--out PATH | --no-workbook] [--force]
 * [--root DIR]` (argv[0] "advise"): the advice and its workbook, out/advise-NAME.xlsx by default
 * (advise-NAME-whatif.xlsx with --set), in advise.c. */
static int advise_command(int argc, char **argv)
{
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
            return fputs(usage_text, stdout), fputs(usage_more, stdout), 0;
        if (c == 'S' && n_sets == TCO_MAX_SETS)
            return usage_error("--set: at most %d values", TCO_MAX_SETS);
        if (c == 'S' && tco_override_parse(optarg, &sets[n_sets++], &d) != TCO_OK)
            return usage_error("%s", d.message);
        if (c == ':' || c == '?')
            return usage_error("advise: %s '%s'; %s", c == ':' ? "option needs a value" : "unknown option",
                               argv[optind - 1], ADVISE_USAGE);
        /* Refused rather than half done (docs/advise.md, Limits): a quote is chosen for the quantity a
         * scenario buys, and the advisor changes the card count in place on one model; and every
         * figure, unit and check of the advice is in the catalog's CNY. */
        if (c == 'q')
            return usage_error("advise --quotes %s: tco advise prices every candidate from the catalog (a quote is "
                               "chosen for the quantity bought, and each candidate buys another); write the option "
                               "you choose as a scenario (its card, cards and host) and run tco --scenario FILE.ini "
                               "--quotes %s", optarg, optarg);
        if (c == 'C')
            return usage_error("advise --currency %s: tco advise reports in CNY, the catalog's currency; write the "
                               "option you choose as a scenario (its card, cards and host) and run tco --scenario "
                               "FILE.ini --currency %s", optarg, optarg);
        format = c == 'f' ? optarg : format;
        root_arg = c == 'r' ? optarg : root_arg;
        out = c == 'o' ? optarg : out;
        no_workbook |= c == 'N';
        force |= c == 'F';
    }
    if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0)
        return usage_error("advise --format: expected table or json, found '%s'", format);
    if (optind + 1 != argc)
        return usage_error("%s", "advise: expected one question: tco advise NAME (tco --list shows the questions)");
    time_t created;
    int rc = check_out(out, no_workbook, argv[optind]);
    if (rc != 0 || (rc = created_time(&created)) != 0)
        return rc;
    tco_root root;
    char *path = NULL, stem[256];
    if (find_root(root_arg, &root, &d) != TCO_OK ||
        (path = tco_scenario_path(root.path, argv[optind], "advise", NULL, &d)) == NULL)
        return fail(&d);
    tco_ini_cache files = {0};
    tco_advise_request req = {root.path, path, tco_scenario_stem(argv[optind], stem, sizeof stem), sets, n_sets,
                              &files};
    tco_advice advice;
    rc = tco_advise(&req, &advice, &d) != TCO_OK ? fail(&d) : 0;
    /* The workbook: out/advise-NAME.xlsx, or advise-NAME-whatif.xlsx when --set changes the question or the
     * model, so that a what-if never replaces the plain answer. */
    char *default_out = NULL;
    tco_workbook_options wo = {.created = created, .currency = "CNY", .force = force};
    if (rc == 0 && !no_workbook) {
        tco_strbuf name = {0};
        tco_strbuf_printf(&name, "advise-%s", stem);
        if (name.failed)
            rc = (tco_diag_set(&d, TCO_ERR_NOMEM, "out of memory"), fail(&d));
        else if (prepare_out(&out, &default_out, tco_strbuf_str(&name), n_sets ? "-whatif" : "", force, &d) != TCO_OK)
            rc = fail(&d);
        else if (tco_advise_workbook(&req, &advice, out, &wo, &d) != TCO_OK) {
            rc = fail(&d);
            unmake_out();
        }
        tco_strbuf_free(&name);
    }
    if (rc == 0)
        (strcmp(format, "json") == 0 ? tco_advise_print_json : tco_advise_print_table)(
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
static int diff_command(int argc, char **argv)
{
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
            return fputs(usage_text, stdout), fputs(usage_more, stdout), 0;
        if (c == ':' || c == '?')
            return usage_error("diff: %s '%s'; tco diff OLD.json NEW.json [--order effect|file] [--format table|json] "
                               "[--out PATH.xlsx]", c == ':' ? "option needs a value" : "unknown option",
                               argv[optind - 1]);
        format = c == 'f' ? optarg : format;
        order = c == 'O' ? optarg : order;
        out = c == 'o' ? optarg : out;
        root_arg = c == 'r' ? optarg : root_arg;
        force |= c == 'F';
    }
    if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0)
        return usage_error("diff --format: expected table or json, found '%s'", format);
    if (strcmp(order, "effect") != 0 && strcmp(order, "file") != 0)
        return usage_error("diff --order: expected effect (largest first) or file, found '%s'", order);
    if (optind + 2 != argc)
        return usage_error("%s", "diff: expected two JSON summaries: tco diff OLD.json NEW.json (each from tco "
                           "--scenario NAME --format json)");
    size_t olen = out ? strlen(out) : 0;
    if (out && (olen < 5 || strcasecmp(out + olen - 5, ".xlsx") != 0 || is_dir(out)))
        return usage_error("diff --out %s: expected a file name ending in .xlsx", out);
    tco_root root;
    tco_diag d = {0};
    if (find_root(root_arg, &root, &d) != TCO_OK)
        return fail(&d);
    tco_bridge_request req = {root.path, argv[optind], argv[optind + 1],
                              strcmp(order, "file") == 0 ? TCO_BRIDGE_ORDER_FILE : TCO_BRIDGE_ORDER_EFFECT};
    tco_bridge b;
    char *no_default = NULL;
    int rc = tco_bridge_run(&req, &b, &d) != TCO_OK ? fail(&d) : 0;
    tco_workbook_options wo = {.created = TCO_FIXED_CREATED, .currency = b.currency, .force = force};
    if (rc == 0 && out && (prepare_out(&out, &no_default, "", "", force, &d) != TCO_OK ||
                           tco_bridge_write_book(&b, out, &wo, &d) != TCO_OK))
        rc = fail(&d);
    if (rc == 0)
        (strcmp(format, "json") == 0 ? tco_bridge_print_json : tco_bridge_print_table)(&b, stdout);
    if (rc == 0 && out && strcmp(format, "json") != 0)
        printf("\nWorkbook: %s\n", out);
    tco_bridge_free(&b);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = (fprintf(stderr, "tco: writing the bridge to standard output failed\n"), 74);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "diff") == 0)
        return diff_command(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "init") == 0)
        return init_command(argv[0], argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "advise") == 0)
        return advise_command(argc - 1, argv + 1);
    static const struct option longopts[] = {
        {"scenario", required_argument, NULL, 's'}, {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},   {"root", required_argument, NULL, 'r'},
        {"list", no_argument, NULL, 'l'},           {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},        {"quotes", required_argument, NULL, 'q'},
        {"as-of", required_argument, NULL, 'a'},    {"force", no_argument, NULL, 'F'},
        {"set", required_argument, NULL, 'S'},      {"compare", required_argument, NULL, 'c'},
        {"currency", required_argument, NULL, 'C'}, {"no-workbook", no_argument, NULL, 'N'},
        {"sensitivity", no_argument, NULL, 'y'},    {"monte-carlo", required_argument, NULL, 'M'},
        {"seed", required_argument, NULL, 'e'},     {NULL, 0, NULL, 0},
    };
    static quote_opts quotes; /* large: --set values */
    quotes.as_of = (int32_t)(time(NULL) / 86400);
    const char *scenario = NULL, *out = NULL, *format = "table", *root_arg = NULL;
    bool list = false, force = false, seed_given = false;
    const char *compare = NULL;
    quotes.seed = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+:s:o:f:r:lhVq:a:c:", longopts, NULL)) != -1) {
        switch (c) {
        case 'q':
            if (quotes.n == TCO_MAX_QUOTE_FILES)
                return usage_error("--quotes: at most %d files", TCO_MAX_QUOTE_FILES);
            quotes.files[quotes.n++] = optarg;
            break;
        case 'F': force = true; break;
        case 'N': quotes.no_workbook = true; break;
        case 'y': quotes.sensitivity = true; break;
        case 'M': case 'e': {
            char *end = NULL;
            errno = 0;
            unsigned long long v = optarg[0] >= '0' && optarg[0] <= '9' ? strtoull(optarg, &end, 10) : 0;
            bool ok = end != NULL && *end == '\0' && errno == 0;
            if (c == 'M' && (!ok || v < 1 || v > TCO_RISK_MAX_DRAWS))
                return usage_error("--monte-carlo: expected a whole number of draws from 1 to %d, found '%.40s'",
                                   TCO_RISK_MAX_DRAWS, optarg);
            if (c == 'e' && !ok)
                return usage_error("--seed: expected a whole number from 0 to 18446744073709551615, found '%.40s'",
                                   optarg);
            if (c == 'M')
                quotes.draws = (size_t)v;
            else
                quotes.seed = (uint64_t)v, seed_given = true;
            break;
        }
        case 'C': {
            static char currency[4];
            size_t len = strlen(optarg);
            bool ok = len == 3;
            for (size_t i = 0; ok && i < 3; i++)
                ok = isalpha((unsigned char)optarg[i]);
            if (!ok)
                return usage_error("--currency: expected a currency code of three letters (CNY, USD, EUR, ...), found "
                                   "'%.40s'", optarg);
            for (int i = 0; i < 4; i++)
                currency[i] = (char)toupper((unsigned char)optarg[i]);
            quotes.currency = currency;
            break;
        }
        case 'c': compare = optarg; break;
        case 'S': {
            if (quotes.n_sets + quotes.n_fx_sets == TCO_MAX_SETS)
                return usage_error("--set: at most %d values", TCO_MAX_SETS);
            tco_diag sd = {0};
            tco_override *o = &quotes.sets[quotes.n_sets];
            if (tco_override_parse(optarg, o, &sd) != TCO_OK)
                return usage_error("%s", sd.message);
            if (strcasecmp(o->section, "fx") == 0 && o->option[0] != '\0')
                /* One rate per currency for the whole run: every option converts at it. */
                return usage_error("--set %s: an exchange rate is one for every option of the run; give it "
                                   "without '%s:' (--set fx.%s=%s)", o->arg, o->option, o->key, o->value);
            if (strcasecmp(o->section, "fx") == 0) /* an exchange rate (pricing/fx.ini), read with the quotes */
                quotes.fx_sets[quotes.n_fx_sets++] = *o;
            else
                quotes.n_sets++;
            break;
        }
        case 'a': {
            char why[TCO_DIAG_MAX];
            if (!tco_date_check(optarg, &quotes.as_of, why, sizeof why))
                return usage_error("--as-of: %s", why);
            break;
        }
        case 's': scenario = optarg; break;
        case 'o': out = optarg; break;
        case 'f': format = optarg; break;
        case 'r': root_arg = optarg; break;
        case 'l': list = true; break;
        case 'h': fputs(usage_text, stdout), fputs(usage_more, stdout); return 0;
        case 'V': printf("tco %s\n", TCO_VERSION); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    tco_root found;
    tco_diag rd = {0};
    if (optind + 1 < argc && strcmp(argv[optind], "quotes") == 0 && strcmp(argv[optind + 1], "check") == 0) {
        /* Only --root and --format mean anything to a check; the rest would be silently dropped. */
        if (scenario || compare || out || list || force || quotes.n || quotes.n_sets || quotes.n_fx_sets ||
            quotes.currency || quotes.no_workbook)
            return usage_error("%s", "quotes check reads quote files only: tco [--root DIR] quotes check FILE.csv... "
                               "[--format table|json]");
        if (find_root(root_arg, &found, &rd) != TCO_OK)
            return fail(&rd);
        return quotes_check(found.path, format, argc - optind - 2, argv + optind + 2);
    }
    if (optind < argc && strcmp(argv[optind], "init") == 0)
        return usage_error("%s", "init takes its options after it: tco init DIR [--scenario NAME] [--root DIR]");
    if (optind < argc && strcmp(argv[optind], "advise") == 0)
        return usage_error("%s", "advise takes its options after it: " ADVISE_USAGE);
    if (optind < argc && strcmp(argv[optind], "diff") == 0)
        return usage_error("%s", "diff takes its options after it: tco diff OLD.json NEW.json [--order effect|file] "
                           "[--format table|json] [--out PATH.xlsx] [--root DIR]");
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0 && strcmp(format, "csv") != 0)
        return usage_error("--format: expected table, json or csv, found '%s'", format);
    if (find_root(root_arg, &found, &rd) != TCO_OK)
        return fail(&rd);
    const char *root = found.path;
    if (list)
        return tco_scenario_list(root);
    if (scenario == NULL && compare == NULL)
        return usage_error("%s", "no scenario given: use --scenario NAME or --compare A,B (tco --list shows them)");
    if (scenario != NULL && compare != NULL)
        return usage_error("%s", "--scenario and --compare do not go together");
    if (quotes.n_fx_sets > 0 && quotes.n == 0 && quotes.currency && strcasecmp(quotes.fx_sets[0].key, quotes.currency))
        return usage_error("--set %s: exchange rates convert vendor quotes (give --quotes FILE.csv) and the reporting "
                           "currency (here %s)", quotes.fx_sets[0].arg, quotes.currency);

    int bad_out = check_out(out, quotes.no_workbook, scenario ? scenario : "comparison");
    time_t created;
    if (bad_out != 0 || (bad_out = created_time(&created)) != 0)
        return bad_out;
    if (seed_given && quotes.draws == 0)
        return usage_error("%s", "--seed seeds the draws of --monte-carlo N; give --monte-carlo too");
    if ((quotes.sensitivity || quotes.draws) && compare)
        return usage_error("%s", "--sensitivity and --monte-carlo run on one scenario at a time (--scenario NAME), not "
                           "on a comparison");
    if ((quotes.sensitivity || quotes.draws) && strcmp(format, "csv") == 0)
        return usage_error("%s", "--sensitivity and --monte-carlo report as a table or JSON (--format table|json): the "
                           "CSV summary holds one value per input and output");

    tco_workbook_options wo = {.created = created, .currency = "CNY", .force = force};
    bool json = strcmp(format, "json") == 0;
    /* Issue 12 §4: the files every scenario of the run shares are read once, for the whole run. */
    tco_ini_cache files = {0};
    quotes.shared = &files;
    if (compare != NULL || strcmp(scenario, "all") != 0) {
        int r = compare != NULL ? run_compare(root, compare, out, format, &wo, &quotes)
                                : run_scenario(root, scenario, out, format, &wo, &quotes);
        tco_ini_cache_free(&files);
        return r;
    }
    if (out != NULL)
        return usage_error("--scenario all writes out/NAME.xlsx for each scenario; --out is not allowed with it");
    char **names;
    int n = tco_scenario_names(root, &names);
    /* Comparison files (a [compare] section) are run with --compare, questions with tco advise, not here. */
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (tco_scenario_is_comparison(root, names[i]) || tco_scenario_is_question(root, names[i]))
            free(names[i]);
        else
            names[kept++] = names[i];
    }
    n = n > 0 ? kept : n;
    if (n <= 0) {
        free(names);
        fprintf(stderr, "tco: %s/scenarios: no scenarios found\n", root);
        return 66;
    }
    /* Every scenario is run even when one fails; the first failure's code is returned. */
    int rc = 0;
    bool csv_header = false; /* printed by the first scenario that succeeds */
    if (json)
        fputs("[\n", stdout);
    for (int i = 0; i < n; i++) {
        char *shown = tco_shown_name(names[i]);
        fprintf(stderr, "tco: [%d/%d] %s\n", i + 1, n, shown ? shown : "?");
        bool csv = strcmp(format, "csv") == 0;
        if (json && i > 0)
            fputs(",\n", stdout);
        else if (!json && !csv && i > 0)
            fputs("\n", stdout);
        int r;
        if (!tco_scenario_name_ok(names[i])) {
            /* A file the user cannot name with --scenario is not run under a name it cannot have. */
            char *suggest = tco_scenario_suggested_name(names[i]);
            tco_strbuf rel = {0};
            tco_strbuf_printf(&rel, "scenarios/%s.ini", shown ? shown : "?");
            char *path = tco_path_join(root, tco_strbuf_str(&rel));
            fprintf(stderr,
                    "tco: %s: '%s' cannot be a scenario name (at most 200 letters, digits, '-', '_'); rename the "
                    "file, e.g. to %s.ini\n",
                    path ? path : tco_strbuf_str(&rel), shown ? shown : "?",
                    suggest && suggest[0] ? suggest : "scenario");
            free(path);
            tco_strbuf_free(&rel);
            free(suggest);
            r = 65;
        } else {
            /* One CSV table for all scenarios: the header once, before the first that prints. */
            r = run_scenario(root, names[i], NULL, csv && csv_header ? "csv-body" : format, &wo, &quotes);
            csv_header |= r == 0;
        }
        free(shown);
        if (r != 0 && json)
            fputs("null", stdout); /* keep the array valid; the error is on stderr */
        if (r != 0 && rc == 0)
            rc = r;
        free(names[i]);
    }
    free(names);
    tco_ini_cache_free(&files);
    if (json)
        fputs("]\n", stdout);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "tco: writing the summary to standard output failed\n");
        rc = 74;
    }
    return rc;
}
