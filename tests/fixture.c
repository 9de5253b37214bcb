/* fixture.c - parse tests/fixtures/formulas/ *.test files; the quote suites' shared helpers (fixture.h). */
#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "loaded.h"
#include "read/ini.h"

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static bool parse_inputs(fixture_case *c, char *list)
{
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        if (eq == NULL || c->n_inputs >= FIXTURE_MAX_INPUTS)
            return false;
        *eq = '\0';
        snprintf(c->input_names[c->n_inputs], sizeof c->input_names[0], "%s", trim(tok));
        if (!tco_parse_number(eq + 1, &c->input_values[c->n_inputs]))
            return false;
        c->n_inputs++;
    }
    return true;
}

tco_error fixture_lookup(void *ctx, const tco_node *n, tco_value *v, tco_diag *diag)
{
    const fixture_case *c = ctx;
    for (size_t i = 0; i < c->n_inputs; i++)
        if (strcasecmp(c->input_names[i], n->name) == 0) {
            v->number = c->input_values[i];
            v->is_bool = false;
            v->text = NULL;
            return TCO_OK;
        }
    return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "unknown name '%s'", n->name);
}

fixture_case *fixture_read(const char *path, size_t *n)
{
    *n = 0;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return NULL;
    fixture_case *cases = NULL;
    fixture_case *cur = NULL;
    char line[1024];
    int lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char *s = trim(line);
        if (s[0] == '#')
            continue;
        if (s[0] == '\0') {
            cur = NULL;
            continue;
        }
        char *colon = strchr(s, ':');
        if (colon == NULL) {
            ok = false;
            break;
        }
        *colon = '\0';
        char *key = s, *val = trim(colon + 1);
        if (strcmp(key, "formula") == 0) {
            fixture_case *grown = realloc(cases, (*n + 1) * sizeof *grown);
            if (grown == NULL) {
                ok = false;
                break;
            }
            cases = grown;
            cur = &cases[(*n)++];
            memset(cur, 0, sizeof *cur);
            snprintf(cur->file, sizeof cur->file, "%s", path);
            cur->line = lineno;
            snprintf(cur->formula, sizeof cur->formula, "%s", val);
        } else if (cur == NULL) {
            ok = false;
        } else if (strcmp(key, "inputs") == 0) {
            ok = parse_inputs(cur, val);
        } else if (strcmp(key, "value") == 0) {
            cur->has_value = true;
            if (strcmp(val, "TRUE") == 0 || strcmp(val, "FALSE") == 0) {
                cur->value_is_bool = true;
                cur->value = val[0] == 'T';
            } else {
                ok = tco_parse_number(val, &cur->value);
            }
        } else if (strcmp(key, "print") == 0) {
            cur->has_print = true;
            snprintf(cur->print, sizeof cur->print, "%s", val);
        } else if (strcmp(key, "error") == 0) {
            cur->has_error = true;
            char *sp = strchr(val, ' ');
            if (sp) {
                *sp = '\0';
                snprintf(cur->error_fragment, sizeof cur->error_fragment, "%s", trim(sp + 1));
            }
            snprintf(cur->error_code, sizeof cur->error_code, "%s", val);
        } else {
            ok = false;
        }
    }
    fclose(f);
    if (!ok) {
        fprintf(stderr, "%s:%d: malformed fixture line\n", path, lineno);
        free(cases);
        *n = 0;
        return NULL;
    }
    return cases;
}

bool fixture_keep_all(void *ctx, const tco_quote *q)
{
    (void)ctx;
    (void)q;
    return true;
}

bool fixture_collect(void *ctx, const tco_diag *problem, bool warning)
{
    fixture_problems *pr = ctx;
    if (warning)
        pr->warnings++;
    else if (pr->errors++ == 0)
        snprintf(pr->first, sizeof pr->first, "%s", problem->message);
    return true;
}

tco_error fixture_fx(const char *root, tco_fx *fx, tco_diag *d)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/pricing/fx.ini", root);
    return tco_fx_load(path, "pricing/fx.ini", fx, d);
}

bool fixture_temp_file(char *path, const char *data, size_t len)
{
    snprintf(path, 64, "/tmp/tco-test-quotes-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return false;
    FILE *f = fdopen(fd, "wb");
    if (f == NULL) {
        close(fd);
        remove(path);
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    if (fclose(f) != 0)
        ok = false;
    if (!ok)
        remove(path);
    return ok;
}

tco_error fixture_read_quote_bytes(const char *root, const char *data, size_t len, fixture_problems *pr,
                                   tco_quote_set *set, tco_diag *d)
{
    char path[64];
    if (!fixture_temp_file(path, data, len))
        return tco_diag_set(d, TCO_ERR_NOINPUT, "cannot write a temporary quote file");
    tco_fx fx = {0};
    tco_error e = fixture_fx(root, &fx, d);
    if (e == TCO_OK)
        e = tco_quotes_read(path, &fx, fixture_keep_all, NULL, fixture_collect, pr, set, d);
    tco_fx_free(&fx);
    remove(path);
    return e;
}

tco_model *fixture_load_ok(const char *root, const char *path)
{
    tco_model *m = NULL;
    tco_diag d = {0};
    tco_error e = load_evaluated(root, path, NULL, &m, &d);
    if (e != TCO_OK)
        fprintf(stderr, "\n%s\n", d.message);
    CU_ASSERT_EQUAL_FATAL(e, TCO_OK);
    return m;
}
