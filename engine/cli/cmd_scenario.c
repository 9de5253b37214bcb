/*
 * cmd_scenario.c - `tco [OPTIONS]`: --scenario NAME|PATH.ini|all, --compare A,B, --list, --help,
 * --version, and `tco [--root DIR] quotes check` reached through the options (commands.h).  Each
 * scenario is one run (price/run.h): its workbook, then its summary.
 */
#include "cli/commands.h"

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

#include "cli/cli.h"
#include "base/error.h"
#include "read/ini.h"
#include "model/model.h"
#include "render/output.h"
#include "read/dates.h"
#include "read/fx.h"
#include "read/quote_csv.h"
#include "render/report.h"
#include "read/root.h"
#include "apps/risk.h"
#include "apps/risk_sheets.h"
#include "read/scenarios.h"
#include "base/strbuf.h"
#include "render/workbook.h"
#include "base/text.h"
#include "base/utf8.h"
#include "render/compare.h"
#include "load/load.h"
#include "price/pricing.h"
#include "price/run.h"



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
    /* --quotes-strict: a quote warning (an unknown column, an item the quotes did not price) is an error */
    bool strict;
} quote_opts;

/* The default workbook name's suffix for a run whose inputs are not the scenario files alone, or that
 * adds sheets of its own: -quotes, -whatif, -sensitivity (--sensitivity), -risk (--monte-carlo), in that
 * order, then -usd when --currency USD is not the files' currency.  So a sensitivity run and a Monte Carlo
 * run never replace each other's workbook (both together: -sensitivity-risk). */
static const char *run_suffix(const quote_opts *quotes, const char *code, const char *files_code, char buf[48])
{
    bool whatif = quotes->n_sets + quotes->n_fx_sets > 0;
    snprintf(buf, 48, "%s%s%s", quotes->n > 0 ? (whatif ? "-quotes-whatif" : "-quotes") : whatif ? "-whatif" : "",
             quotes->sensitivity ? "-sensitivity" : "", quotes->draws > 0 ? "-risk" : "");
    if (strcmp(code, files_code) != 0) {
        size_t n = strlen(buf);
        snprintf(buf + n, 48 - n, "-%c%c%c", tolower((unsigned char)code[0]), tolower((unsigned char)code[1]),
                 tolower((unsigned char)code[2]));
    }
    return buf;
}

/* The --set values for option @p stem: the bare ones and those named for it (NAME:SECTION.KEY=VALUE). */
static size_t sets_for(const quote_opts *q, const char *stem, tco_override *out)
{
    size_t n = 0;
    for (size_t i = 0; i < q->n_sets; i++)
        if (q->sets[i].option[0] == '\0' || tco_utf8_casecmp(q->sets[i].option, stem) == 0)
            out[n++] = q->sets[i];
    return n;
}

/* The run of scenario @p spath with the command line's options and the --set values @p sets for it: a budget,
 * which owns its cards (a scenario or an option of --compare with acquisition = rent is refused, run.h). */
static tco_run_options run_options(const char *root, const char *spath, const tco_override *sets, size_t n_sets,
                                   const quote_opts *q)
{
    return (tco_run_options){.root = root, .scenario_path = spath,
                             .load = {.overrides = sets, .n_overrides = n_sets, .files = q->shared},
                             .fx_sets = q->fx_sets, .n_fx_sets = q->n_fx_sets, .quote_files = q->files,
                             .n_quote_files = q->n, .as_of = q->as_of, .currency = q->currency,
                             .currency_given = q->currency != NULL, .quotes_strict = q->strict, .budget = true};
}

static int run_scenario(const char *root, const char *scenario, const char *out, tco_output_format format, bool csv_header,
                        bool json_error, const tco_workbook_options *wo, const quote_opts *quotes)
{
    /* A failure prints the error's JSON document when the run prints one document (not in --scenario all). */
    tco_output_format error_format = json_error ? format : TCO_OUT_TABLE;
    tco_diag d = {0};
    char *spath = tco_scenario_path(root, scenario, "--scenario", NULL, &d);
    if (spath == NULL)
        return tco_cli_fail_as(&d, error_format);
    int same = tco_cli_out_not_inputs(out, spath, "the scenario", quotes->files, quotes->n);
    if (same != 0) {
        free(spath);
        return same;
    }
    char stem[201];
    tco_scenario_stem(scenario, stem, sizeof stem);
    bool question = tco_scenario_file_is_question(spath);
    if (question || tco_scenario_file_is_comparison(spath)) {
        /* A comparison is the wrong command as a question is (64), named as one: it was a file error (65),
         * "expected a [scenario] section", that did not say which command runs it. */
        fputs("tco: ", stderr);
        tco_text_put_terminal(stderr, spath, strlen(spath));
        fputs(question ? " is a question ([advise] section), not a scenario: run it with tco advise "
                       : " is a comparison ([compare] section), not a scenario: run it with tco --compare ", stderr);
        tco_text_put_terminal(stderr, stem, strlen(stem));
        fputc('\n', stderr);
        free(spath);
        return 64;
    }
    for (size_t i = 0; i < quotes->n_sets; i++)
        if (quotes->sets[i].option[0] != '\0' && tco_utf8_casecmp(quotes->sets[i].option, stem) != 0) {
            free(spath);
            return tco_cli_usage("--set %s: '%s' is not this run's scenario (%s); NAME:SECTION.KEY=VALUE names an option "
                               "of --compare", quotes->sets[i].arg, quotes->sets[i].option, stem);
        }
    tco_override sets[TCO_MAX_SETS];
    size_t n_sets = sets_for(quotes, stem, sets);
    char suffix[48];
    tco_run_options how = run_options(root, spath, sets, n_sets, quotes);
    tco_run *run = NULL;
    if (tco_run_open(&how, &run, &d) != TCO_OK) {
        free(spath);
        return tco_cli_fail_as(&d, error_format);
    }
    tco_model *m = run->model;
    const char *code = run->currency;
    tco_workbook_options o = *wo;
    o.currency = code;
    int strict = tco_cli_quotes_strict(quotes->strict, m->scenario_name, m->quotes, m->quote_warnings,
                                       m->n_quote_warnings, error_format);
    if (strict != 0) {
        tco_run_free(run);
        free(spath);
        return strict;
    }

    /* A run whose inputs differ from the scenario files never replaces the plain run's workbook:
     * out/NAME-quotes.xlsx with --quotes, out/NAME-whatif.xlsx with --set, NAME-quotes-whatif with both,
     * then -sensitivity with --sensitivity and -risk with --monte-carlo (run_suffix()). */
    char *default_out = NULL;
    int rc = 0;
    if (quotes->no_workbook)
        out = NULL; /* the summary names no workbook */
    else if (tco_cli_prepare_out(&out, &default_out, m->scenario_name, run_suffix(quotes, code, run->files_currency, suffix),
                         wo->force, &d) != TCO_OK ||
             ((quotes->sensitivity || quotes->draws > 0) && tco_output_check(out, &d) != TCO_OK)) {
        rc = tco_cli_fail_as(&d, error_format); /* a long run refuses a target it could not write before its work */
        tco_cli_unmake_out();
    }
    /* Sensitivity and Monte Carlo, before the workbook that shows them. */
    tco_risk risk = {0};
    if (rc == 0 && (quotes->sensitivity || quotes->draws > 0) &&
        tco_risk_run(run, quotes->sensitivity, quotes->draws, quotes->seed, isatty(STDERR_FILENO) ? stderr : NULL,
                     &risk, &d) != TCO_OK) {
        rc = tco_cli_fail_as(&d, error_format);
        tco_cli_unmake_out();
    }
    if (risk.sensitivity || risk.monte_carlo) {
        o.more_sheets = tco_risk_more_sheets;
        o.more_ctx = &risk;
    }
    if (rc == 0 && out != NULL && tco_workbook_write(m, out, &o, &d) != TCO_OK) {
        rc = tco_cli_fail_as(&d, error_format);
        tco_cli_unmake_out();
    }
    if (rc == 0) {
        tco_report_warnings(m, stderr); /* a valid question with a negative answer: said, and still exit 0 */
        bool risky = risk.sensitivity || risk.monte_carlo;
        if (format == TCO_OUT_JSON && risky) {
            tco_report_json_members(m, code, out, stdout);
            tco_risk_print_json(&risk, stdout);
            fputs("\n}\n", stdout);
        } else if (format == TCO_OUT_JSON)
            tco_report_json(m, code, out, stdout);
        else if (format == TCO_OUT_CSV)
            tco_report_csv(m, csv_header, stdout);
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
    tco_run_free(run);
    free(spath);
    return rc;
}

/* The keys of a comparison file's [compare] section (its only section). */
static const char *const compare_keys[] = {"scenarios", "title", "scenarios_source", "title_source", NULL};

/* Refuse what comparison file @p ini (at @p path) holds besides [compare] scenarios and title: an unknown
 * section or key is an error naming it, with the nearest known name within two edits, as a scenario's is
 * (a typo never falls back to a default: "titel" left the comparison untitled without a word). */
static tco_error check_compare_file(const tco_ini *ini, const char *path, tco_diag *d)
{
    for (int i = 0; i < tco_ini_section_count(ini); i++) {
        const char *sec = tco_ini_section_name(ini, i), *shown = tco_ini_section_as_written(ini, sec);
        if (strcasecmp(sec, "compare") != 0)
            return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = path, .section = shown ? shown : sec},
                               "unknown section%s; a comparison file has one section, [compare] (scenarios, title)",
                               tco_edit_distance(sec, "compare") <= 2 ? " (did you mean [compare]?)" : "");
        int s = tco_ini_section_index(ini, sec);
        for (int j = 0; j < tco_ini_key_count(ini, s); j++) {
            const char *key = tco_ini_key_at(ini, s, j), *best = NULL;
            size_t best_d = 3;
            bool ok = false;
            for (const char *const *a = compare_keys; *a && !ok; a++) {
                size_t dist = tco_edit_distance(key, *a);
                ok = dist == 0;
                if (dist < best_d)
                    best_d = dist, best = *a;
            }
            if (ok)
                continue;
            tco_place at = {.file = path, .section = "compare", .key = key};
            if (best)
                return tco_diag_at(d, TCO_ERR_INI, &at, "unknown key (did you mean '%s'?)", best);
            return tco_diag_at(d, TCO_ERR_INI, &at, "unknown key; expected one of: scenarios, title");
        }
    }
    return TCO_OK;
}

/* Refuse two entries of a comparison that are one file under two names (a symbolic or hard link, or a
 * path and a name): the option compared with itself.  Entries whose file cannot be found are left to the
 * load, which names them.  @p names has @p n entries; @p at, @p err as tco_list_check_set() takes them. */
static tco_error check_same_files(const char *root, char *const *names, int n, const char *file, tco_error err,
                                  const tco_place *at, tco_diag *d)
{
    struct stat st[26];
    bool found[26] = {false};
    for (int i = 0; i < n && i < 26; i++) {
        tco_diag scratch = {0};
        char *path = tco_scenario_path(root, names[i], "--compare", file, &scratch);
        found[i] = path != NULL && stat(path, &st[i]) == 0 && S_ISREG(st[i].st_mode);
        free(path);
        for (int j = 0; found[i] && j < i; j++)
            if (found[j] && st[j].st_dev == st[i].st_dev && st[j].st_ino == st[i].st_ino)
                return tco_diag_at(d, err, at,
                                   "'%s' and '%s' are the same file (entries %d and %d: a link or another name "
                                   "for it), so the comparison would hold one option twice",
                                   TCO_SHOWN(names[j]), TCO_SHOWN(names[i]), j + 1, i + 1);
    }
    return TCO_OK;
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
        if (tco_ini_has_section(&ini, "compare") && check_compare_file(&ini, path, d) != TCO_OK) {
            tco_ini_free(&ini);
            free(path);
            return -1;
        }
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
    /* Each entry a name, none empty ("a,,b" is refused, not read as "a,b"), none twice (compared by the
     * stem that names the option, case-insensitively: tco_list_check_set()). */
    /* The list as typed, cut to 200 bytes (at a whole character): a message holds 1,023 bytes, and a
     * list of 1,000 bytes echoed whole left of its reason "expected 2" and nothing more. */
    char where[300];
    size_t shown = strlen(arg) > 200 ? tco_utf8_prefix(arg, 200) : strlen(arg);
    snprintf(where, sizeof where, "--compare %.*s%s", (int)shown, arg, shown < strlen(arg) ? "..." : "");
    tco_place at = path ? (tco_place){.file = path, .section = "compare", .key = "scenarios"}
                        : (tco_place){.arg = where};
    tco_error bad = path ? TCO_ERR_INI : TCO_ERR_USAGE;
    *names = NULL;
    int n = tco_split_list(list, names);
    int n_read = n > 0 ? n : 0; /* the names to free if the list is refused below (n then -1) */
    if (n < 0)
        tco_diag_at(d, bad, &at, "expected scenario names separated by commas, none empty%s%s%s",
                    path ? ", found '" : "", path ? TCO_SHOWN(list) : "", path ? "'" : "");
    else if (n < 2 || n > 26)
        tco_diag_at(d, bad, &at, "expected 2 to 26 scenarios, found %d", n);
    else {
        char **stems = calloc((size_t)n, sizeof *stems);
        int k = 0;
        for (char buf[256]; stems && k < n; k++)
            if ((stems[k] = tco_strdup(tco_scenario_stem((*names)[k], buf, sizeof buf))) == NULL)
                break;
        if (stems == NULL || k < n) {
            tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
            n = -1;
        } else if (tco_list_check_set(stems, n, path ? TCO_ERR_DUPLICATE : TCO_ERR_USAGE, &at, d) != TCO_OK ||
                   check_same_files(root, *names, n, path, path ? TCO_ERR_DUPLICATE : TCO_ERR_USAGE, &at, d) != TCO_OK)
            n = -1;
        tco_free_list(stems, k);
    }
    if (n < 2 || n > 26) {
        tco_free_list(*names, n_read);
        *names = NULL;
        if (path)
            tco_ini_free(&ini);
        free(path);
        free(*title);
        free(*stem);
        *title = *stem = NULL;
        return -1;
    }
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
    return n;
}

/* tco --compare: load every option, write one workbook with a Compare sheet, print each summary. */
static int run_compare(const char *root, const char *arg, const char *out, tco_output_format format,
                       const tco_workbook_options *wo, const quote_opts *quotes)
{
    tco_diag d = {0};
    char **names = NULL, *title = NULL, *stem = NULL, *file = NULL;
    int n = compare_names(root, arg, &names, &title, &stem, &file, &d);
    if (n < 0) {
        free(title);
        free(stem);
        return tco_cli_fail_as(&d, format);
    }
    int same = tco_cli_out_not_inputs(out, file, "the comparison file", quotes->files, quotes->n);
    for (int i = 0; i < n && same == 0; i++) {
        tco_diag scratch = {0};
        char *spath = tco_scenario_path(root, names[i], "--compare", file, &scratch);
        same = tco_cli_out_not_input(out, spath, "the scenario");
        free(spath);
    }
    if (same != 0) {
        tco_free_list(names, n);
        free(title);
        free(stem);
        free(file);
        return same;
    }
    tco_run *runs[26] = {NULL};
    int rc = 0;
    char code[4] = "CNY", files_code[4] = "CNY", suffix[48];
    /* NAME:SECTION.KEY=VALUE must name one of the options. */
    char stems[26][201];
    for (int i = 0; i < n; i++)
        tco_scenario_stem(names[i], stems[i], sizeof stems[i]);
    for (size_t s = 0; s < quotes->n_sets && rc == 0; s++) {
        if (quotes->sets[s].option[0] == '\0')
            continue;
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= tco_utf8_casecmp(quotes->sets[s].option, stems[i]) == 0; /* as the names are compared */
        if (!found) {
            tco_strbuf list = {0};
            for (int i = 0; i < n; i++)
                tco_strbuf_printf(&list, "%s%s", i ? ", " : "", stems[i]);
            rc = tco_cli_usage("--set %s: no option '%s' in this comparison (options: %s)", quotes->sets[s].arg,
                             quotes->sets[s].option, tco_strbuf_str(&list));
            tco_strbuf_free(&list);
        }
    }
    for (int i = 0; i < n && rc == 0; i++) {
        char *spath = tco_scenario_path(root, names[i], "--compare", file, &d);
        bool is_q = spath && tco_scenario_file_is_question(spath);
        bool question = is_q || (spath && tco_scenario_file_is_comparison(spath)); /* no scenario to price */
        const char *what = is_q ? "a question ([advise] section)" : "a comparison ([compare] section)";
        const char *run = is_q ? "tco advise" : "tco --compare";
        /* Named in a comparison file, it is the file's fault (65, naming it), not the command line's. */
        if (question && file)
            tco_diag_at(&d, TCO_ERR_INI, &(tco_place){.file = file, .section = "compare", .key = "scenarios"},
                        "%s is %s, not a scenario: run it with %s %s", spath, what, run, stems[i]);
        else if (question)
            tco_diag_set(&d, TCO_ERR_USAGE, "%s is %s, not a scenario: run it with %s %s", spath, what, run,
                         stems[i]);
        tco_override sets[TCO_MAX_SETS];
        size_t n_sets = sets_for(quotes, stems[i], sets);
        tco_run_options how = run_options(root, spath, sets, n_sets, quotes);
        if (spath == NULL || question || tco_run_open(&how, &runs[i], &d) != TCO_OK)
            rc = tco_cli_fail_as(&d, format);
        else if ((rc = tco_cli_quotes_strict(quotes->strict, runs[i]->model->scenario_name, runs[i]->model->quotes,
                                             runs[i]->model->quote_warnings, runs[i]->model->n_quote_warnings,
                                             format)) != 0)
            ;
        else if (i > 0 && strcmp(runs[i]->currency, code) != 0) {
            tco_diag_set(&d, TCO_ERR_USAGE, "--compare: the options must report in one currency (%s: %s, %s: %s); "
                         "give --currency CODE", runs[0]->model->scenario_name, code, runs[i]->model->scenario_name,
                         runs[i]->currency);
            rc = tco_cli_fail_as(&d, format);
        } else {
            memcpy(code, runs[i]->currency, 4);
            if (i == 0)
                memcpy(files_code, runs[i]->files_currency, 4);
        }
        free(spath);
    }
    tco_workbook_options o = *wo;
    o.currency = code;
    /* A bare --set of a catalog entry (card.price) changes a different entry in options that buy
     * different cards: refused, naming the choices, rather than pricing a W-B and a D-M alike. */
    for (size_t s = 0; s < quotes->n_sets && rc == 0; s++) {
        const tco_override *bare = &quotes->sets[s];
        const char *first = bare->option[0] ? NULL : tco_model_ref_entry(runs[0]->model, bare->section);
        bool differ = false;
        for (int i = 1; first && i < n; i++) {
            const char *e_i = tco_model_ref_entry(runs[i]->model, bare->section);
            differ |= e_i == NULL || strcasecmp(e_i, first) != 0;
        }
        if (!differ)
            continue;
        tco_strbuf list = {0};
        for (int i = 0; i < n; i++) {
            const char *e_i = tco_model_ref_entry(runs[i]->model, bare->section);
            tco_strbuf_printf(&list, "%s%s (%s): --set %s:%s", i ? "; " : "", runs[i]->model->scenario_name,
                              e_i ? e_i : "none", stems[i], bare->arg);
        }
        rc = tco_cli_usage("--set %s: the options name different %s entries, so it would set each of them alike; name "
                         "the option: %s", bare->arg, bare->section, tco_strbuf_str(&list));
        tco_strbuf_free(&list);
    }
    for (int i = 1; i < n && rc == 0; i++)
        if (runs[i]->model->n_years != runs[0]->model->n_years || runs[i]->model->n_periods != runs[0]->model->n_periods) {
            tco_diag_set(&d, TCO_ERR_USAGE, "--compare: the options must cover the same years (%s: %d, %s: %d)",
                         runs[0]->model->scenario_name, runs[0]->model->n_years, runs[i]->model->scenario_name, runs[i]->model->n_years);
            rc = tco_cli_fail_as(&d, format);
        }
    char *default_out = NULL;
    if (quotes->no_workbook)
        out = NULL; /* the summary names no workbook */
    else if (rc == 0 && tco_cli_prepare_out(&out, &default_out, stem, run_suffix(quotes, code, files_code, suffix), wo->force,
                                    &d) != TCO_OK)
        rc = tco_cli_fail_as(&d, format);
    if (rc == 0 && out != NULL) {
        tco_model *models[26];
        for (int i = 0; i < n; i++)
            models[i] = runs[i]->model;
        if (tco_workbook_write_compare(models, (size_t)n, title, out, &o, &d) != TCO_OK) {
            rc = tco_cli_fail_as(&d, format);
            tco_cli_unmake_out();
        }
    }
    for (int i = 0; rc == 0 && i < n; i++)
        tco_report_warnings(runs[i]->model, stderr);
    if (rc == 0) {
        bool json = format == TCO_OUT_JSON;
        if (json)
            fputs("[\n", stdout);
        for (int i = 0; i < n; i++) {
            if (json)
                fputs(i ? ",\n" : "", stdout);
            else if (i && format != TCO_OUT_CSV)
                fputs("\n", stdout);
            if (json)
                tco_report_json(runs[i]->model, code, out, stdout);
            else if (format == TCO_OUT_CSV)
                tco_report_csv(runs[i]->model, i == 0, stdout);
            else
                tco_report_table(runs[i]->model, code, i + 1 == n ? out : NULL, stdout);
        }
        if (json)
            fputs("]\n", stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "tco: writing the summary to standard output failed\n");
            rc = 74;
        }
    }
    for (int i = 0; i < n; i++) {
        tco_run_free(runs[i]);
        free(names[i]);
    }
    free(names);
    free(title);
    free(stem);
    free(file);
    free(default_out);
    return rc;
}

/* `tco [OPTIONS]` (argv as main() has it): --scenario, --compare, --list, --help, --version, and quotes
 * check after the options. */
int tco_cmd_scenario(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"scenario", required_argument, NULL, 's'}, {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},   {"root", required_argument, NULL, 'r'},
        {"list", no_argument, NULL, 'l'},           {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},        {"quotes", required_argument, NULL, 'q'},
        {"as-of", required_argument, NULL, 'a'},    {"force", no_argument, NULL, 'F'},
        {"set", required_argument, NULL, 'S'},      {"compare", required_argument, NULL, 'c'},
        {"currency", required_argument, NULL, 'C'}, {"no-workbook", no_argument, NULL, 'N'},
        {"sensitivity", no_argument, NULL, 'y'},    {"monte-carlo", required_argument, NULL, 'M'},
        {"seed", required_argument, NULL, 'e'},     {"quotes-strict", no_argument, NULL, 'Q'},
        {NULL, 0, NULL, 0},
    };
    static quote_opts quotes; /* large: --set values */
    quotes.as_of = (int32_t)(time(NULL) / 86400);
    const char *scenario = NULL, *out = NULL, *format = "table", *root_arg = NULL;
    bool list = false, force = false, seed_given = false, as_of_given = false;
    const char *compare = NULL;
    quotes.seed = 1;
    opterr = 0;
    int c;
    const char *first[256] = {0}; /* single-value options: given once (tco_cli_once) */
    while ((c = getopt_long(argc, argv, "+:s:o:f:r:lhVq:a:c:", longopts, NULL)) != -1) {
        int once = c != 0 && strchr("sofracCMe", c) != NULL ? tco_cli_once(first, c, longopts, optarg) : 0;
        if (once != 0)
            return once;
        switch (c) {
        case 'q': {
            int bad = tco_cli_quotes_add(quotes.files, &quotes.n, optarg);
            if (bad != 0)
                return bad;
            break;
        }
        case 'F': force = true; break;
        case 'N': quotes.no_workbook = true; break;
        case 'Q': quotes.strict = true; break;
        case 'y': quotes.sensitivity = true; break;
        case 'M': case 'e': {
            char *end = NULL;
            errno = 0;
            unsigned long long v = optarg[0] >= '0' && optarg[0] <= '9' ? strtoull(optarg, &end, 10) : 0;
            bool ok = end != NULL && *end == '\0' && errno == 0;
            if (c == 'M' && (!ok || v < 1 || v > TCO_RISK_MAX_DRAWS))
                return tco_cli_usage("--monte-carlo: expected a whole number of draws from 1 to %d, found '%.40s'",
                                   TCO_RISK_MAX_DRAWS, optarg);
            /* A seed is printed in the JSON: below 2^53, so that every JSON reader (jq, JavaScript) holds it
             * exactly and `--seed` of what a run printed repeats it. */
            if (c == 'e' && (!ok || v > TCO_RISK_MAX_SEED))
                return tco_cli_usage("--seed: expected a whole number from 0 to %llu, found '%.40s'",
                                   (unsigned long long)TCO_RISK_MAX_SEED, optarg);
            if (c == 'M')
                quotes.draws = (size_t)v;
            else
                quotes.seed = (uint64_t)v, seed_given = true;
            break;
        }
        case 'C': {
            static char currency[4];
            int rc = tco_cli_currency(optarg, currency);
            if (rc != 0)
                return rc;
            quotes.currency = currency;
            break;
        }
        case 'c': compare = optarg; break;
        case 'S': {
            if (quotes.n_sets + quotes.n_fx_sets == TCO_MAX_SETS)
                return tco_cli_usage("--set: at most %d values", TCO_MAX_SETS);
            tco_diag sd = {0};
            tco_override *o = &quotes.sets[quotes.n_sets];
            if (tco_override_parse(optarg, o, &sd) != TCO_OK)
                return tco_cli_usage("%s", sd.message);
            if (strcasecmp(o->section, "fx") == 0 && o->option[0] != '\0')
                /* One rate per currency for the whole run: every option converts at it. */
                return tco_cli_usage("--set %s: an exchange rate is one for every option of the run; give it "
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
                return tco_cli_usage("--as-of: %s", why);
            as_of_given = true;
            break;
        }
        case 's': scenario = optarg; break;
        case 'o': out = optarg; break;
        case 'f': format = optarg; break;
        case 'r': root_arg = optarg; break;
        case 'l': list = true; break;
        case 'h': tco_cli_print_help(stdout); return 0;
        case 'V': printf("tco %s\n", TCO_VERSION); return 0;
        case ':': return tco_cli_usage("option '%s' needs a value", argv[optind - 1]);
        default: return tco_cli_usage("unknown option '%s'", tco_cli_bad_option(argc, argv));
        }
    }
    tco_root found;
    tco_diag rd = {0};
    if (optind < argc && strcmp(argv[optind], "quotes") == 0) {
        /* `tco quotes --help`, `tco quotes check ... --help` (before any "--"): the help, as for advise. */
        bool help = false;
        for (int i = optind + 1; i < argc && strcmp(argv[i], "--") != 0 && !help; i++)
            help = (i == optind + 1 || strcmp(argv[optind + 1], "check") == 0) &&
                   (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0);
        if (help)
            return tco_cli_print_command_help(stdout, "quotes");
        if (optind + 1 == argc || strcmp(argv[optind + 1], "check") != 0)
            return tco_cli_usage("quotes: expected the subcommand check, found %s%.200s%s: " QUOTES_USAGE,
                                 optind + 1 == argc ? "nothing" : "'", optind + 1 == argc ? "" : argv[optind + 1],
                                 optind + 1 == argc ? "" : "'");
        /* Only --root, --format and --as-of mean anything to a check; the rest would be silently dropped. */
        if (scenario || compare || out || list || force || quotes.n || quotes.n_sets || quotes.n_fx_sets ||
            quotes.currency || quotes.no_workbook || quotes.strict)
            return tco_cli_usage("%s", "quotes check reads quote files only: " QUOTES_USAGE);
        if (tco_cli_find_root(root_arg, &found, &rd) != TCO_OK)
            return tco_cli_fail(&rd);
        return tco_cmd_quotes_check(found.path, format, first['a'], argc - optind - 2, argv + optind + 2);
    }
    if (optind < argc && strcmp(argv[optind], "init") == 0)
        return tco_cli_usage("%s", "init takes its options after it: tco init DIR [--scenario NAME] [--root DIR]");
    if (optind < argc && strcmp(argv[optind], "advise") == 0)
        return tco_cli_usage("%s", "advise takes its options after it: " ADVISE_USAGE);
    if (optind < argc && strcmp(argv[optind], "diff") == 0)
        return tco_cli_usage("%s", "diff takes its options after it: tco diff OLD.json NEW.json [--order effect|file] "
                           "[--format table|json] [--out PATH.xlsx] [--root DIR]");
    if (optind < argc)
        return tco_cli_usage("unexpected argument '%s'", argv[optind]);
    tco_output_format fmt;
    if (!tco_cli_format(format, &fmt))
        return tco_cli_usage("--format: expected table, json or csv, found '%s'", format);
    if (tco_cli_find_root(root_arg, &found, &rd) != TCO_OK)
        return tco_cli_fail(&rd);
    const char *root = found.path;
    if (list && (scenario || compare || out || force || quotes.n || quotes.n_sets || quotes.n_fx_sets ||
                 quotes.currency || quotes.strict || quotes.no_workbook || quotes.sensitivity || quotes.draws || seed_given ||
                 fmt != TCO_OUT_TABLE))
        return tco_cli_usage("%s", "--list prints the scenarios and questions of the root: it takes --root alone "
                           "(tco [--root DIR] --list)");
    if (list)
        return tco_scenario_list(root);
    if (scenario == NULL && compare == NULL)
        return tco_cli_usage("%s", "no scenario given: use --scenario NAME or --compare A,B (tco --list shows them)");
    if (scenario != NULL && compare != NULL)
        return tco_cli_usage("%s", "--scenario and --compare do not go together");
    if (as_of_given && quotes.n == 0) /* a date that judges nothing would be ignored in silence */
        return tco_cli_usage("%s", "--as-of judges the dates of vendor quotes: give --quotes FILE.csv");
    if (quotes.strict && quotes.n == 0)
        return tco_cli_usage("%s", "--quotes-strict refuses a run whose quotes price nothing they name: give --quotes "
                             "FILE.csv");
    if (quotes.n_fx_sets > 0 && quotes.n == 0 && quotes.currency && strcasecmp(quotes.fx_sets[0].key, quotes.currency))
        return tco_cli_usage("--set %s: exchange rates convert vendor quotes (give --quotes FILE.csv) and the reporting "
                           "currency (here %s)", quotes.fx_sets[0].arg, quotes.currency);

    int bad_out = tco_cli_check_out(out, quotes.no_workbook, scenario ? scenario : "comparison");
    time_t created;
    if (bad_out != 0 || (bad_out = tco_cli_created_time(&created)) != 0)
        return bad_out;
    if (seed_given && quotes.draws == 0)
        return tco_cli_usage("%s", "--seed seeds the draws of --monte-carlo N; give --monte-carlo too");
    if (force && quotes.no_workbook) /* a --force that replaces nothing would be ignored in silence */
        return tco_cli_usage("%s", "--force replaces a workbook that Excel or LibreOffice has open, and "
                             "--no-workbook writes none; give one of them");
    if ((quotes.sensitivity || quotes.draws) && compare)
        return tco_cli_usage("%s", "--sensitivity and --monte-carlo run on one scenario at a time (--scenario NAME), not "
                           "on a comparison");
    if ((quotes.sensitivity || quotes.draws) && fmt == TCO_OUT_CSV)
        return tco_cli_usage("%s", "--sensitivity and --monte-carlo report as a table or JSON (--format table|json): the "
                           "CSV summary holds one value per input and output");

    tco_workbook_options wo = {.created = created, .currency = "CNY", .force = force};
    bool json = fmt == TCO_OUT_JSON;
    /* Issue 12 §4: the files every scenario of the run shares are read once, for the whole run. */
    tco_ini_cache files = {0};
    quotes.shared = &files;
    if (compare != NULL || strcmp(scenario, "all") != 0) {
        int r = compare != NULL ? run_compare(root, compare, out, fmt, &wo, &quotes)
                                : run_scenario(root, scenario, out, fmt, true, true, &wo, &quotes);
        tco_ini_cache_free(&files);
        return r;
    }
    if (out != NULL)
        return tco_cli_usage("--scenario all writes out/NAME.xlsx for each scenario; --out is not allowed with it");
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
        fputs("tco: ", stderr);
        tco_text_put_terminal(stderr, root, strlen(root));
        fputs("/scenarios: no scenarios found\n", stderr);
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
        bool csv = fmt == TCO_OUT_CSV;
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
            r = run_scenario(root, names[i], NULL, fmt, !csv_header, false, &wo, &quotes);
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
