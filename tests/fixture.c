/* fixture.c - parse tests/fixtures/formulas/ *.test files. */
#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
