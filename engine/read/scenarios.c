/* scenarios.c - the scenarios/ folder: scenario names, the listing, a name resolved to its file, and
 * what kind of file it is (a scenario, a comparison, a question for tco advise). */
#include "read/scenarios.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "read/ini.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"

static int compare_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* True if @p name can be a scenario name: 1 to 200 ASCII letters, digits, '-' and '_'
 * (so it is safe as --scenario NAME, as out/NAME.xlsx and in messages). */
bool tco_scenario_name_ok(const char *name)
{
    size_t n = 0;
    for (const char *p = name; *p; p++, n++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_'))
            return false;
    return n > 0 && n <= 200;
}

/* @p name as it may be shown on a terminal (heap): control characters, and every byte
 * above 0x7F unless the name is UTF-8, become '?'.  NULL on allocation failure. */
char *tco_shown_name(const char *name)
{
    char *s = tco_strdup(name);
    bool utf8 = s && tco_utf8_valid(s, strlen(s), NULL);
    for (char *p = s; p && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F || ((unsigned char)*p >= 0x80 && !utf8))
            *p = '?';
    return s;
}

/* A scenario name for a file named @p name (heap): each run of other characters becomes '_'. */
char *tco_scenario_suggested_name(const char *name)
{
    tco_strbuf b = {0};
    for (const char *p = name; *p && b.len < 200; p++) {
        char one[2] = {*p, '\0'};
        bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
                  *p == '_';
        if (ok || b.len == 0 || b.data[b.len - 1] != '_')
            tco_strbuf_append(&b, ok ? one : "_");
    }
    return tco_strbuf_take(&b);
}

/* Sorted scenario names (file stems) under root/scenarios; returns count, -1 if unreadable.
 * Stems that cannot be scenario names (tco_scenario_name_ok()) are included: --list marks them
 * and --scenario all refuses them by name. */
int tco_scenario_names(const char *root, char ***out)
{
    *out = NULL;
    char *dir = tco_path_join(root, "scenarios");
    DIR *d = dir ? opendir(dir) : NULL;
    free(dir);
    if (d == NULL)
        return -1;
    int n = 0;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".ini") != 0 || e->d_name[0] == '.')
            continue;
        if ((size_t)n == cap) { /* by doubling: one realloc a name took 34 s for 50,000 files under ASan */
            char **grown = n < INT_MAX / 2 ? realloc(*out, (cap = cap ? 2 * cap : 64) * sizeof *grown) : NULL;
            if (grown == NULL)
                break;
            *out = grown;
        }
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

int tco_scenario_list(const char *root)
{
    char **names;
    int n = tco_scenario_names(root, &names);
    if (n < 0) {
        fprintf(stderr, "tco: %s/scenarios: cannot read the scenario folder\n", root);
        return 66;
    }
    for (int i = 0; i < n; i++) {
        char rel[600];
        snprintf(rel, sizeof rel, "scenarios/%s.ini", names[i]);
        char *path = tco_path_join(root, rel);
        tco_ini ini = {0};
        tco_diag d = {0};
        const char *title = "(unreadable)";
        if (path && tco_ini_load(path, NULL, &ini, &d) == TCO_OK) {
            const char *t = tco_ini_get(&ini, "scenario", "title");
            bool cmp = t == NULL && tco_ini_has_section(&ini, "compare");
            if (cmp)
                t = tco_ini_get(&ini, "compare", "title");
            if (cmp && !tco_scenario_name_ok(names[i])) {
                char *shown = tco_shown_name(names[i]);
                printf("%-16s %s (comparison; not a comparison name: rename the file to letters, digits, '-' and "
                       "'_')\n",
                       shown ? shown : "?", t ? t : "");
                free(shown);
            } else if (cmp)
                printf("%-16s %s (comparison: tco --compare %s)\n", names[i], t ? t : "", names[i]);
            bool question = !cmp && tco_ini_has_section(&ini, "advise");
            if (question && tco_scenario_name_ok(names[i]))
                printf("%-16s %s (question: tco advise %s)\n", names[i], t ? t : "", names[i]);
            if (cmp || (question && tco_scenario_name_ok(names[i]))) {
                tco_ini_free(&ini);
                free(path);
                free(names[i]);
                continue;
            }
            title = (t && t[0]) ? t : names[i];
        }
        if (tco_scenario_name_ok(names[i]))
            printf("%-16s %s\n", names[i], title);
        else {
            char *shown = tco_shown_name(names[i]);
            printf("%-16s %s (not a scenario name: rename the file to letters, digits, '-' and '_', or give its "
                   "path)\n",
                   shown ? shown : "?", title == names[i] ? "" : title);
            free(shown);
        }
        tco_ini_free(&ini);
        free(path);
        free(names[i]);
    }
    free(names);
    return 0;
}

/* Refuse the scenario argument @p arg: from the [compare] scenarios of comparison file @p file (TCO_ERR_INI,
 * with the message @p in_file), or from the command line (TCO_ERR_USAGE, with the message @p on_line).
 * NULL. */
static char *refuse_name(tco_diag *d, const char *file, const char *in_file, const char *on_line)
{
    if (file)
        tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = file, .section = "compare", .key = "scenarios"}, "%s",
                    in_file);
    else
        tco_diag_set(d, TCO_ERR_USAGE, "%s", on_line);
    return NULL;
}

/* Resolve a scenario: a path if it ends in .ini or holds '/', else root/scenarios/NAME.ini.
 * @p arg came from the command-line @p option ("--scenario", "--compare"; a bad name is then a
 * usage error) or, when @p file is not NULL, from that comparison file's [compare] scenarios. */
char *tco_scenario_path(const char *root, const char *arg, const char *option, const char *file, tco_diag *d)
{
    size_t len = strlen(arg);
    struct stat st;
    bool has_ini = len > 4 && strcmp(arg + len - 4, ".ini") == 0;
    /* A file named ".ini" (or " .ini") names no scenario: the name before .ini is the scenario's name. */
    const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
    size_t blen = strlen(base), blank = 0;
    while (blen >= 4 && blank < blen - 4 && (base[blank] == ' ' || base[blank] == '\t'))
        blank++;
    char in_file[TCO_DIAG_MAX], on_line[TCO_DIAG_MAX];
    if (blen >= 4 && strcmp(base + blen - 4, ".ini") == 0 && blank == blen - 4 && (has_ini || blen == 4)) {
        snprintf(in_file, sizeof in_file, "'%.200s': a file named '.ini' names no scenario (a scenario is named by "
                 "its file's name before .ini); rename it, e.g. to NAME.ini", arg);
        snprintf(on_line, sizeof on_line, "%s %.200s: a file named '.ini' names no scenario (a scenario is named by "
                 "its file's name before .ini); rename it, e.g. to %.*sNAME.ini", option, arg, (int)(base - arg), arg);
        return refuse_name(d, file, in_file, on_line);
    }
    if (strchr(arg, '/') || (has_ini && stat(arg, &st) == 0))
        return tco_strdup(arg);
    char stem[256];
    if (has_ini) { /* "cluster32.ini" not in the current folder: try scenarios/ */
        snprintf(stem, sizeof stem, "%.*s", (int)(len - 4), arg);
        arg = stem;
    }
    if (!tco_scenario_name_ok(arg)) {
        snprintf(in_file, sizeof in_file, "expected a scenario name (at most 200 letters, digits, '-', '_') or a "
                 "path to an .ini file, found '%.200s'", arg);
        snprintf(on_line, sizeof on_line, "%s '%.200s': expected a scenario name (at most 200 letters, digits, '-', "
                 "'_') or a path to an .ini file\nTry 'tco --help'.", option, arg);
        return refuse_name(d, file, in_file, on_line);
    }
    char rel[600];
    snprintf(rel, sizeof rel, "scenarios/%s.ini", arg);
    char *path = tco_path_join(root, rel);
    if (path && stat(path, &st) != 0) {
        char **names;
        int n = tco_scenario_names(root, &names);
        tco_strbuf list = {0}, near = {0};
        /* Did you mean: the same name in another case (names are case-sensitive, as file names are), else the
         * nearest within two edits. */
        size_t best = 3;
        for (int i = 0; i < n; i++)
            if (strcasecmp(names[i], arg) == 0) {
                tco_strbuf_printf(&near, " (did you mean '%s'? names are case-sensitive)", names[i]);
                best = 0;
                break;
            }
        for (int i = 0; i < n && best > 0; i++) {
            size_t dist = tco_edit_distance(names[i], arg);
            if (dist < best && dist < strlen(arg)) {
                best = dist;
                tco_strbuf_clear(&near);
                tco_strbuf_printf(&near, " (did you mean '%s'?)", names[i]);
            }
        }
        for (int i = 0; i < n; i++) {
            tco_strbuf_printf(&list, "%s%s", i ? ", " : "", names[i]);
            free(names[i]);
        }
        free(names);
        tco_diag_at(d, TCO_ERR_NOINPUT, &(tco_place){.file = path}, "no such scenario '%s'%s; available: %s", arg,
                    tco_strbuf_str(&near), n > 0 ? tco_strbuf_str(&list) : "none (is --root right?)");
        tco_strbuf_free(&near);
        tco_strbuf_free(&list);
        free(path);
        return NULL;
    }
    return path;
}

bool tco_scenario_file_is_question(const char *path)
{
    tco_ini ini = {0};
    tco_diag d = {0};
    bool yes = tco_ini_load(path, NULL, &ini, &d) == TCO_OK && tco_ini_has_section(&ini, "advise");
    tco_ini_free(&ini);
    return yes;
}

/* True if scenarios/NAME.ini is a question for tco advise (an [advise] section). */
bool tco_scenario_is_question(const char *root, const char *name)
{
    char rel[600];
    snprintf(rel, sizeof rel, "scenarios/%s.ini", name);
    char *path = tco_path_join(root, rel);
    bool yes = path && tco_scenario_file_is_question(path);
    free(path);
    return yes;
}

bool tco_scenario_is_comparison(const char *root, const char *name)
{
    char rel[600];
    snprintf(rel, sizeof rel, "scenarios/%s.ini", name);
    char *path = tco_path_join(root, rel);
    bool yes = path && tco_scenario_file_is_comparison(path);
    free(path);
    return yes;
}

bool tco_scenario_file_is_comparison(const char *path)
{
    tco_ini ini = {0};
    tco_diag d = {0};
    bool yes = tco_ini_load(path, NULL, &ini, &d) == TCO_OK && tco_ini_has_section(&ini, "compare") &&
               !tco_ini_has_section(&ini, "scenario");
    tco_ini_free(&ini);
    return yes;
}

/* File stem of a --scenario argument, for messages: "a/b/site.ini" -> "site". */
const char *tco_scenario_stem(const char *arg, char *stem, size_t size)
{
    const char *base = strrchr(arg, '/');
    base = base ? base + 1 : arg;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".ini") == 0)
        n -= 4;
    /* Trimmed as the loader trims the scenario's name (load.c): "a/cluster8 .ini" is the option cluster8,
     * so --compare a/cluster8\ .ini,cluster8 names cluster8 twice (it compared two options both labelled
     * cluster8). */
    while (n > 0 && (*base == ' ' || *base == '\t' || *base == '\r' || *base == '\n'))
        base++, n--;
    while (n > 0 && (base[n - 1] == ' ' || base[n - 1] == '\t' || base[n - 1] == '\r' || base[n - 1] == '\n'))
        n--;
    snprintf(stem, size, "%.*s", (int)(n < size ? n : size - 1), base);
    return stem;
}
