/*
 * main.c - the `tco` command line.
 *
 *   tco --scenario NAME|PATH.ini [--out PATH] [--format table|json] [--root DIR]
 *   tco --list | --help | --version
 *
 * Exit codes (sysexits): 0 ok, 64 usage, 65 bad data, 66 missing input,
 * 70 internal, 71 out of memory, 73 cannot create the workbook, 74 cannot
 * write the summary to standard output.
 */
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

#include "error.h"
#include "ini.h"
#include "model.h"
#include "report.h"
#include "strbuf.h"
#include "workbook.h"

#ifndef TCO_VERSION
#define TCO_VERSION "0.1.0"
#endif
#ifndef TCO_DEFAULT_ROOT
#define TCO_DEFAULT_ROOT "."
#endif

/* 2026-01-01T00:00:00Z: the workbook's fixed creation time unless SOURCE_DATE_EPOCH is set. */
#define TCO_FIXED_CREATED 1767225600

static const char usage_text[] =
    "Usage: tco --scenario NAME [--out PATH] [--format table|json] [--root DIR]\n"
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
    "                        out/NAME.xlsx; the out/ folder is created if missing)\n"
    "  -f, --format FMT      summary on stdout: table (default) or json\n"
    "  -r, --root DIR        project root holding pricing/, templates/, scenarios/\n"
    "                        (default: the current folder if it has them, else\n"
    "                        $TCO_ROOT, else the folder tco was built from)\n"
    "  -l, --list            list the scenarios and exit\n"
    "  -h, --help            show this help and exit\n"
    "  -V, --version         show the version and exit\n"
    "\n"
    "Examples:\n"
    "  tco --scenario cluster32                 writes out/cluster32.xlsx\n"
    "  tco --scenario cluster32 --format json   the same, summary as JSON\n"
    "  tco --scenario all                       every scenario in scenarios/\n"
    "  tco --scenario my/site.ini --out /tmp/site.xlsx\n"
    "\n"
    "Exit status: 0 ok, 64 usage, 65 invalid input data, 66 input file missing,\n"
    "70 internal error, 71 out of memory, 73 cannot create the workbook,\n"
    "74 cannot write the summary.  Errors name the file and the place:\n"
    "file [section] key, or file [section] formula, column N.\n"
    "See docs/cli.md, docs/model.md and docs/formulas.md.\n";

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

static bool has_project(const char *root)
{
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/pricing", root);
    snprintf(b, sizeof b, "%s/templates", root);
    return is_dir(a) && is_dir(b);
}

static const char *find_root(const char *given)
{
    if (given)
        return given;
    if (has_project("."))
        return ".";
    const char *env = getenv("TCO_ROOT");
    if (env && env[0])
        return env;
    return TCO_DEFAULT_ROOT;
}

static char *root_path(const char *root, const char *rel)
{
    tco_strbuf b = {0};
    if (strcmp(root, ".") != 0)
        tco_strbuf_printf(&b, "%s/", root);
    tco_strbuf_append(&b, rel);
    return tco_strbuf_take(&b);
}

static int compare_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted scenario names (file stems) under root/scenarios; returns count, -1 if unreadable. */
static int scenario_names(const char *root, char ***out)
{
    *out = NULL;
    char *dir = root_path(root, "scenarios");
    DIR *d = dir ? opendir(dir) : NULL;
    free(dir);
    if (d == NULL)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".ini") != 0 || e->d_name[0] == '.')
            continue;
        char **grown = realloc(*out, (size_t)(n + 1) * sizeof *grown);
        if (grown == NULL)
            break;
        *out = grown;
        (*out)[n] = tco_strdup(e->d_name);
        if ((*out)[n] == NULL)
            break;
        (*out)[n][len - 4] = '\0';
        n++;
    }
    closedir(d);
    qsort(*out, (size_t)n, sizeof **out, compare_str);
    return n;
}

static int list_scenarios(const char *root)
{
    char **names;
    int n = scenario_names(root, &names);
    if (n < 0) {
        fprintf(stderr, "tco: %s/scenarios: cannot read the scenario folder\n", root);
        return 66;
    }
    for (int i = 0; i < n; i++) {
        char rel[600];
        snprintf(rel, sizeof rel, "scenarios/%s.ini", names[i]);
        char *path = root_path(root, rel);
        tco_ini ini = {0};
        tco_diag d = {0};
        const char *title = "(unreadable)";
        if (path && tco_ini_load(path, NULL, &ini, &d) == TCO_OK) {
            const char *t = tco_ini_get(&ini, "scenario", "title");
            title = (t && t[0]) ? t : names[i];
        }
        printf("%-16s %s\n", names[i], title);
        tco_ini_free(&ini);
        free(path);
        free(names[i]);
    }
    free(names);
    return 0;
}

/* Resolve --scenario: a path if it ends in .ini or holds '/', else root/scenarios/NAME.ini. */
static char *scenario_path(const char *root, const char *arg, tco_diag *d)
{
    size_t len = strlen(arg);
    struct stat st;
    bool has_ini = len > 4 && strcmp(arg + len - 4, ".ini") == 0;
    if (strchr(arg, '/') || (has_ini && stat(arg, &st) == 0))
        return tco_strdup(arg);
    char stem[256];
    if (has_ini) { /* "cluster32.ini" not in the current folder: try scenarios/ */
        snprintf(stem, sizeof stem, "%.*s", (int)(len - 4), arg);
        arg = stem;
    }
    for (const char *p = arg; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_') || p - arg >= 200) {
            tco_diag_set(d, TCO_ERR_USAGE, "--scenario '%.200s': expected a scenario name (at most 200 letters, digits, '-', '_') "
                         "or a path to an .ini file\nTry 'tco --help'.", arg);
            return NULL;
        }
    char rel[600];
    snprintf(rel, sizeof rel, "scenarios/%s.ini", arg);
    char *path = root_path(root, rel);
    if (path && stat(path, &st) != 0) {
        char **names;
        int n = scenario_names(root, &names);
        tco_strbuf list = {0};
        for (int i = 0; i < n; i++) {
            tco_strbuf_printf(&list, "%s%s", i ? ", " : "", names[i]);
            free(names[i]);
        }
        free(names);
        tco_diag_set(d, TCO_ERR_NOINPUT, "%s: no such scenario '%s'; available: %s", path, arg,
                     n > 0 ? tco_strbuf_str(&list) : "none (is --root right?)");
        tco_strbuf_free(&list);
        free(path);
        return NULL;
    }
    return path;
}

/* Load one scenario, write its workbook (default out/NAME.xlsx) and print its summary. */
static int run_scenario(const char *root, const char *scenario, const char *out, bool json,
                        const tco_workbook_options *wo)
{
    tco_diag d = {0};
    char *spath = scenario_path(root, scenario, &d);
    if (spath == NULL)
        return fail(&d);
    tco_model *m = NULL;
    if (tco_model_load(root, spath, &m, &d) != TCO_OK) {
        free(spath);
        return fail(&d);
    }
    free(spath);

    char *default_out = NULL;
    if (out == NULL) {
        if (!is_dir("out") && mkdir("out", 0777) != 0 && errno != EEXIST) {
            tco_diag_set(&d, TCO_ERR_CANTCREATE, "out/: cannot create the output folder: %s", strerror(errno));
            tco_model_free(m);
            return fail(&d);
        }
        tco_strbuf b = {0};
        tco_strbuf_printf(&b, "out/%s.xlsx", m->scenario_name);
        out = default_out = tco_strbuf_take(&b);
    }
    int rc = 0;
    if (out == NULL)
        rc = fail(&(tco_diag){TCO_ERR_NOMEM, "out of memory"});
    else if (tco_workbook_write(m, out, wo, &d) != TCO_OK)
        rc = fail(&d);
    else if (json)
        tco_report_json(m, "CNY", out, stdout);
    else
        tco_report_table(m, "CNY", out, stdout);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "tco: writing the summary to standard output failed\n");
        rc = 74;
    }
    free(default_out);
    tco_model_free(m);
    return rc;
}

/* File stem of a --scenario argument, for messages: "a/b/site.ini" -> "site". */
static const char *scenario_stem(const char *arg, char stem[256])
{
    const char *base = strrchr(arg, '/');
    base = base ? base + 1 : arg;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
        n -= 4;
    snprintf(stem, 256, "%.*s", (int)n, base);
    return stem;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"scenario", required_argument, NULL, 's'}, {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},   {"root", required_argument, NULL, 'r'},
        {"list", no_argument, NULL, 'l'},           {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},        {NULL, 0, NULL, 0},
    };
    const char *scenario = NULL, *out = NULL, *format = "table", *root_arg = NULL;
    bool list = false;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":s:o:f:r:lhV", longopts, NULL)) != -1) {
        switch (c) {
        case 's': scenario = optarg; break;
        case 'o': out = optarg; break;
        case 'f': format = optarg; break;
        case 'r': root_arg = optarg; break;
        case 'l': list = true; break;
        case 'h': fputs(usage_text, stdout); return 0;
        case 'V': printf("tco %s\n", TCO_VERSION); return 0;
        case ':': return usage_error("option '%s' needs a value", argv[optind - 1]);
        default: return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0)
        return usage_error("--format: expected table or json, found '%s'", format);
    const char *root = find_root(root_arg);
    if (root_arg && !has_project(root_arg)) {
        fprintf(stderr, "tco: --root %s: expected a folder holding pricing/ and templates/\n", root_arg);
        return 66;
    }
    if (list)
        return list_scenarios(root);
    if (scenario == NULL)
        return usage_error("%s", "no scenario given: use --scenario NAME (tco --list shows them)");

    size_t olen = out ? strlen(out) : 0;
    if (out && (is_dir(out) || (olen > 0 && out[olen - 1] == '/'))) {
        char stem[256];
        return usage_error("--out %s: is a folder; give a file name such as %s%s%s.xlsx", out, out,
                           out[olen - 1] == '/' ? "" : "/", scenario_stem(scenario, stem));
    }
    if (out && (olen < 5 || strcasecmp(out + olen - 5, ".xlsx") != 0))
        return usage_error("--out %s: expected a file name ending in .xlsx", out);

    /* SOURCE_DATE_EPOCH (reproducible builds): whole seconds up to 9999-12-31T23:59:59Z. */
    time_t created = TCO_FIXED_CREATED;
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    double sde_v;
    if (sde && sde[0]) {
        if (!tco_parse_number(sde, &sde_v) || sde_v < 0 || sde_v > 253402300799.0 || sde_v != floor(sde_v)) {
            return usage_error("SOURCE_DATE_EPOCH: expected whole seconds since 1970 up to 253402300799, found '%s'",
                               sde);
        }
        created = (time_t)sde_v;
    }

    tco_workbook_options wo = {.created = created, .currency = "CNY"};
    bool json = strcmp(format, "json") == 0;
    if (strcmp(scenario, "all") != 0)
        return run_scenario(root, scenario, out, json, &wo);
    if (out != NULL)
        return usage_error("--scenario all writes out/NAME.xlsx for each scenario; --out is not allowed with it");
    char **names;
    int n = scenario_names(root, &names);
    if (n <= 0) {
        fprintf(stderr, "tco: %s/scenarios: no scenarios found\n", root);
        return 66;
    }
    /* Every scenario is run even when one fails; the first failure's code is returned. */
    int rc = 0;
    if (json)
        fputs("[\n", stdout);
    for (int i = 0; i < n; i++) {
        fprintf(stderr, "tco: [%d/%d] %s\n", i + 1, n, names[i]);
        if (json && i > 0)
            fputs(",\n", stdout);
        else if (!json && i > 0)
            fputs("\n", stdout);
        int r = run_scenario(root, names[i], NULL, json, &wo);
        if (r != 0 && rc == 0)
            rc = r;
        free(names[i]);
    }
    free(names);
    if (json)
        fputs("]\n", stdout);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "tco: writing the summary to standard output failed\n");
        rc = 74;
    }
    return rc;
}
