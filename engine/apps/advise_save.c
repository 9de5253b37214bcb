/* advise_save.c - `tco advise NAME --save-scenario FILE.ini [--pick RANK]`: an option of the advice as a
 * scenario file that prices to the advice's figures (advise_save.h). */
#include "apps/advise_save.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "model/model.h"
#include "price/run.h"
#include "read/dates.h"
#include "read/ini.h"
#include "render/output.h"
#include "render/report.h"

static tco_error nomem(tco_diag *d)
{
    return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
}

/* True when @p a and @p b name the same file (device and inode); false when either is missing. */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The folder of @p path ("." when it has none), heap. */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    tco_strbuf b = {0};
    if (slash == NULL)
        tco_strbuf_append(&b, ".");
    else
        tco_strbuf_printf(&b, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    return tco_strbuf_take(&b);
}

/* Refuse a target that is an input of the run: the question, a quote file, or a file in the project's
 * pricing/ or templates/ folder (every .ini there is read as the catalog or a template). */
static tco_error check_target(const tco_advise_request *req, const char *path, tco_diag *d)
{
    if (same_file(path, req->path))
        return tco_diag_set(d, TCO_ERR_USAGE, "--save-scenario %s: is the question this run reads (%s); give "
                            "another file, e.g. scenarios/%s-best.ini", path, req->path, req->name);
    for (size_t i = 0; i < req->n_quote_files; i++)
        if (same_file(path, req->quote_files[i]))
            return tco_diag_set(d, TCO_ERR_USAGE, "--save-scenario %s: is the quote file --quotes %s this run "
                                "reads; give another file", path, req->quote_files[i]);
    struct stat st;
    if (!req->force && lstat(path, &st) == 0) /* a scenario file may hold a user's edits: never replaced unasked */
        return tco_diag_set(d, TCO_ERR_CANTCREATE, "--save-scenario %s: a file is already there, and a scenario file "
                            "may hold edits of yours, so tco does not replace it: give another name, or --force to "
                            "replace it", path);
    char *dir = folder_of(path);
    if (dir == NULL)
        return nomem(d);
    const char *inputs[] = {"pricing", "templates"};
    tco_error e = TCO_OK;
    for (size_t k = 0; k < 2 && e == TCO_OK; k++) {
        char *in = tco_path_join(req->root, inputs[k]);
        if (in == NULL)
            e = nomem(d);
        else if (same_file(dir, in))
            e = tco_diag_set(d, TCO_ERR_USAGE, "--save-scenario %s: lies in the project's %s/ folder, whose every "
                             ".ini file tco reads as %s; save scenarios in scenarios/ or elsewhere", path, inputs[k],
                             k == 0 ? "the catalog" : "a template");
        free(in);
    }
    free(dir);
    return e;
}

/* The section a --set SECTION.KEY writes into: a ref key of [scenario] (card, host) names the catalog entry
 * the scenario chose (card = D-M: [D-M]), as the loader applies it (load/overrides.c); else SECTION. */
static const char *set_section(const tco_ini *q, const tco_override *o)
{
    const char *v = strcasecmp(o->section, "scenario") != 0 ? tco_ini_get(q, "scenario", o->section) : NULL;
    return v && v[0] ? v : o->section;
}

/* @p key ends with @p tail. */
static bool ends_with(const char *key, const char *tail)
{
    size_t n = strlen(key), t = strlen(tail);
    return n >= t && strcasecmp(key + n - t, tail) == 0;
}

/* Set [@p sec] @p key = @p value and KEY_source = @p source in @p q. */
static bool set_with_source(tco_ini *q, const char *sec, const char *key, const char *value, const char *source)
{
    if (!tco_ini_set(q, sec, key, value))
        return false;
    if (source == NULL || ends_with(key, "_source"))
        return true;
    tco_strbuf k = {0};
    tco_strbuf_printf(&k, "%s_source", key);
    bool ok = !k.failed && tco_ini_set(q, sec, tco_strbuf_str(&k), source);
    tco_strbuf_free(&k);
    return ok;
}

/* Whether a value must be written in double quotes for iniparser to read it back as it is: a ';' or '#'
 * (which end an unquoted value), a leading quote, or blanks at either end (which it trims). */
static bool needs_quotes(const char *v)
{
    size_t n = strlen(v);
    return strpbrk(v, ";#") != NULL || v[0] == '"' || v[0] == '\'' ||
           (n > 0 && (v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' || v[n - 1] == '\t'));
}

/* The file's text, section by section, keys in order ([advise] left out, and each "\nsection:key\n" of
 * @p dropped, lower case), into @p b. */
static tco_error write_sections(const tco_ini *q, const char *dropped, tco_strbuf *b, tco_diag *d)
{
    for (int s = 0; s < tco_ini_section_count(q); s++) {
        const char *name = tco_ini_section_name(q, s);
        if (strcasecmp(name, "advise") == 0)
            continue;
        tco_strbuf_printf(b, "\n[%s]\n", tco_ini_section_as_written(q, name));
        int n = 0;
        const char **keys = tco_ini_keys(q, name, &n);
        if (keys == NULL && n == 0 && tco_ini_key_count(q, tco_ini_section_index(q, name)) > 0)
            return nomem(d);
        for (int j = 0; j < n; j++) {
            const char *key = strchr(keys[j], ':') + 1, *v = tco_ini_get(q, name, key);
            char probe[600];
            snprintf(probe, sizeof probe, "\n%s\n", keys[j]);
            if (v == NULL || strstr(dropped, probe) != NULL)
                continue;
            if (needs_quotes(v) && strchr(v, '"') != NULL) {
                free(keys);
                return tco_diag_set(d, TCO_ERR_INI, "%s [%s] %s: a scenario file cannot hold this value (it needs "
                                    "quotes and holds a '\"'): %s", q->path, name, key, TCO_SHOWN(v));
            }
            tco_strbuf_printf(b, needs_quotes(v) ? "%s = \"%s\"\n" : "%s = %s\n", key, v);
        }
        free(keys);
    }
    return b->failed ? nomem(d) : TCO_OK;
}

/* The command that prices the saved file as the advice priced the option: its quotes, day, currency and
 * exchange rates are the run's, not the file's. */
static void run_command(const tco_advise_request *req, const char *path, tco_strbuf *b)
{
    tco_strbuf_printf(b, "tco --scenario %s", path);
    for (size_t i = 0; i < req->n_quote_files; i++)
        tco_strbuf_printf(b, " --quotes %s", req->quote_files[i]);
    if (req->n_quote_files > 0) {
        char day[16];
        tco_format_date(req->as_of, day);
        tco_strbuf_printf(b, " --as-of %s", day);
    }
    if (req->currency)
        tco_strbuf_printf(b, " --currency %s", req->currency);
    for (size_t i = 0; i < req->n_sets; i++)
        if (strcasecmp(req->sets[i].section, "fx") == 0)
            tco_strbuf_printf(b, " --set %s", req->sets[i].arg);
}

/* The scenario file of option @p o (rank @p rank) into @p text: the question with the option's choices and
 * the run's --set values in it, each with its source. */
static tco_error scenario_text(const tco_advise_request *req, const tco_advice *a, const tco_advise_option *o,
                               int rank, const char *path, tco_strbuf *text, tco_diag *d)
{
    tco_ini q = {0};
    tco_error e = tco_ini_load(req->path, NULL, &q, d);
    if (e != TCO_OK)
        return e;
    tco_strbuf label = {0}, src = {0}, title = {0}, per = {0}, cmd = {0};
    tco_advise_option_label(a, o, &label);
    char unit_cost[64], tco_text[64], target[64];
    tco_format_grouped(o->cost_per_unit, 2, unit_cost, sizeof unit_cost);
    tco_format_grouped(o->cost, 0, tco_text, sizeof tco_text);
    tco_format_grouped(a->target_tokens_per_s, 2, target, sizeof target);
    if (a->train)
        tco_strbuf_printf(&per, "%s %s a training run", unit_cost, a->unit);
    else
        tco_strbuf_printf(&per, "%s %s at the target load of %s tokens/s", unit_cost, a->unit, target);
    tco_strbuf_printf(&src, "tco advise %s: rank %d of %zu feasible options, %s", a->name, rank, a->n_feasible,
                      tco_strbuf_str(&per));
    const char *qt = tco_ini_get(&q, "scenario", "title");
    tco_strbuf_printf(&title, "%s: %s (tco advise %s, rank %d)", qt && qt[0] ? qt : a->name, tco_strbuf_str(&label),
                      a->name, rank);
    /* The run's --set values, as the loader applies them (in order; [advise] and [fx] are not the file's). */
    /* card and host name catalog entries (refs), first: a --set card.KEY goes to the entry chosen.  They take
     * no KEY_source; the file's first lines say who chose them. */
    bool ok = tco_ini_set(&q, "scenario", "card", a->tiers[o->tier]) && tco_ini_set(&q, "scenario", "host", a->hosts[o->host]);
    tco_strbuf dropped = {0};
    tco_strbuf_append(&dropped, "\n");
    for (size_t i = 0; i < req->n_sets && ok; i++) {
        const tco_override *s = &req->sets[i];
        if (strcasecmp(s->section, "advise") == 0 || strcasecmp(s->section, "fx") == 0)
            continue;
        const char *sec = set_section(&q, s);
        tco_strbuf why = {0}, k = {0};
        tco_strbuf_printf(&why, "--set %s given to tco advise %s", s->arg, a->name);
        /* A value --set drops the range its file gave it (docs/inputs.md), so the saved file drops it too. */
        const char *tails[] = {"_range", "_dist", "_range_source"};
        for (size_t t = 0; t < 3 && !ends_with(s->key, "_source") && !ends_with(s->key, "_range") &&
                           !ends_with(s->key, "_dist"); t++) {
            tco_strbuf_free(&k);
            tco_strbuf_printf(&k, "%s%s", s->key, tails[t]);
            if (tco_ini_get(&q, sec, tco_strbuf_str(&k)) != NULL)
                tco_strbuf_printf(&dropped, "%s:%s\n", sec, tco_strbuf_str(&k));
        }
        ok = ok && !why.failed && set_with_source(&q, sec, s->key, s->value, tco_strbuf_str(&why));
        tco_strbuf_free(&why);
        tco_strbuf_free(&k);
    }
    /* The advisor's choices (after the --set values, as its own overrides come after them). */
    char cards[16];
    snprintf(cards, sizeof cards, "%d", o->cards);
    const char *job = a->train ? "training" : "inference";
    tco_strbuf kind_src = {0};
    tco_strbuf_printf(&kind_src, "tco advise %s: [advise] job = %s", a->name, a->train ? "train" : "serve");
    ok = ok && !src.failed && !title.failed && !kind_src.failed && tco_ini_set(&q, "scenario", "title", tco_strbuf_str(&title)) &&
         set_with_source(&q, "scenario", "kind", job, tco_strbuf_str(&kind_src)) &&
         set_with_source(&q, "scenario", "cards", cards, tco_strbuf_str(&src)) &&
         set_with_source(&q, "scenario", "acquisition", o->rent ? "rent" : "own", tco_strbuf_str(&src));
    if (ok && o->mode >= 0)
        ok = set_with_source(&q, "facility", "mode", a->modes[o->mode], tco_strbuf_str(&src));
    tco_strbuf_free(&kind_src);
    run_command(req, path, &cmd);
    if (!ok || label.failed || per.failed || cmd.failed)
        e = nomem(d);
    if (e == TCO_OK) {
        const char *base = strrchr(path, '/');
        tco_strbuf_printf(text, "; %s - a scenario saved by tco advise %s --save-scenario (rank %d of %zu "
                          "feasible options)\n; %s: %s; cost over the period %s %s\n; card, cards, host, acquisition%s and kind: "
                          "chosen by %s\n; Price it: %s\n", base ? base + 1 : path, a->name, rank, a->n_feasible,
                          tco_strbuf_str(&label), tco_strbuf_str(&per), tco_text, a->currency,
                          o->mode >= 0 ? ", [facility] mode" : "", tco_strbuf_str(&src), tco_strbuf_str(&cmd));
        if (!a->train)
            tco_strbuf_printf(text, "; The advice charges the target load (the tokens asked for, %s tokens/s, x "
                              "utilisation x availability): cost_per_million_tokens_at_target.\n; The Summary's cost "
                              "per million tokens served is at the layout's own throughput x utilisation x availability.\n",
                              target);
        for (size_t c = 0; !dropped.failed && c < dropped.len; c++) /* iniparser's names are lower case */
            dropped.data[c] = (char)tolower((unsigned char)dropped.data[c]);
        e = dropped.failed ? nomem(d) : write_sections(&q, tco_strbuf_str(&dropped), text, d);
    }
    tco_strbuf_free(&dropped);
    tco_ini_free(&q);
    tco_strbuf_free(&label);
    tco_strbuf_free(&src);
    tco_strbuf_free(&title);
    tco_strbuf_free(&per);
    tco_strbuf_free(&cmd);
    return e == TCO_OK && text->failed ? nomem(d) : e;
}

/* A scalar line's number in @p m, NaN when it is text or missing. */
static double line_value(const tco_model *m, const char *name)
{
    int i = tco_model_find(m, name);
    return i < 0 || m->items[i].text ? NAN : m->items[i].value;
}

/* Load the written file as `tco --scenario` would (at @p tmp) and compare its figures with the advice's. */
static tco_error check_saved(const tco_advise_request *req, tco_advice *a, const tco_advise_option *o,
                             const char *tmp, const char *path, tco_diag *d)
{
    tco_override fx[64];
    size_t n_fx = 0;
    for (size_t i = 0; i < req->n_sets && n_fx < sizeof fx / sizeof fx[0]; i++)
        if (strcasecmp(req->sets[i].section, "fx") == 0)
            fx[n_fx++] = req->sets[i];
    tco_run_options ro = {.root = req->root, .scenario_path = tmp, .load = {.files = req->files},
                          .fx_sets = fx, .n_fx_sets = n_fx, .quote_files = req->quote_files,
                          .n_quote_files = req->n_quote_files, .as_of = req->as_of, .currency = req->currency,
                          .currency_given = req->currency != NULL, .budget = true};
    tco_run *run = NULL;
    tco_error e = tco_run_open(&ro, &run, d);
    if (e != TCO_OK) {
        char why[TCO_DIAG_MAX];
        snprintf(why, sizeof why, "%s", d->message);
        tco_run_free(run);
        return tco_diag_set(d, e, "%s: the scenario written does not load (please report this question): %s", path,
                            why);
    }
    const tco_model *m = run->model;
    double cost = line_value(m, "option_cost"), unit = line_value(m, "cost_per_unit");
    double tco = m->role_tco >= 0 ? line_value(m, m->items[m->role_tco].name) : NAN;
    if (cost != o->cost || tco != o->cost || !(unit == o->cost_per_unit || (isnan(unit) && isnan(o->cost_per_unit)))) {
        char x[32], y[32], u[32], v[32];
        tco_format_double(tco, x);
        tco_format_double(o->cost, y);
        tco_format_double(unit, u);
        tco_format_double(o->cost_per_unit, v);
        e = tco_diag_set(d, TCO_ERR_EVAL, "%s: the scenario written prices to a TCO of %s and %s per unit, the "
                         "advice to %s and %s (please report this question); nothing written", path, x, u, y, v);
    } else {
        a->saved_tco = tco;
        a->saved_served_unit = a->train ? NAN : line_value(m, "cost_per_million_tokens");
    }
    tco_run_free(run);
    return e;
}

tco_error tco_advise_save_scenario(const tco_advise_request *req, tco_advice *a, int rank, const char *path,
                                   tco_diag *d)
{
    if (a->n_feasible == 0)
        /* The question's data, not the command line, leaves nothing to save (65); the advice is not printed
         * on this failure, so the message says where its rejections are shown. */
        return tco_diag_set(d, TCO_ERR_EVAL, "--save-scenario %s: no option of %s is feasible, so there is none to "
                            "save (tco advise %s without --save-scenario lists the rejections)", path, a->name,
                            a->name);
    if (rank < 1 || (size_t)rank > a->n_feasible)
        return tco_diag_set(d, TCO_ERR_USAGE, "--pick %d: %s ranks %zu feasible option%s; expected a rank from 1 to "
                            "%zu", rank, a->name, a->n_feasible, a->n_feasible == 1 ? "" : "s", a->n_feasible);
    const tco_advise_option *o = &a->options[rank - 1];
    if (o->rent) {
        tco_strbuf l = {0};
        tco_advise_option_label(a, o, &l);
        /* The first owned option the advice ranks, so the user can pick it without reading the table. */
        size_t owned = 0;
        while (owned < a->n_feasible && a->options[owned].rent)
            owned++;
        char pick[96] = "no feasible option is owned";
        if (owned < a->n_feasible)
            snprintf(pick, sizeof pick, "the first owned option is rank %zu: --pick %zu", owned + 1, owned + 1);
        tco_error e = tco_diag_set(d, TCO_ERR_USAGE, "--save-scenario %s: rank %d, %s, is rented: a scenario budgets "
                                   "owning the cards (its TCO is capex and opex), so it would not price the rental "
                                   "the advice ranks; save an owned option (%s)", path, rank,
                                   l.failed ? "" : tco_strbuf_str(&l), pick);
        tco_strbuf_free(&l);
        return e;
    }
    tco_error e = check_target(req, path, d);
    if (e != TCO_OK)
        return e;
    tco_strbuf text = {0};
    if ((e = scenario_text(req, a, o, rank, path, &text, d)) != TCO_OK) {
        tco_strbuf_free(&text);
        return e;
    }
    tco_output out;
    if ((e = tco_output_begin(&out, path, d)) != TCO_OK) {
        tco_strbuf_free(&text);
        return e;
    }
    if (!tco_output_write_all(out.fd, text.data, text.len))
        e = tco_diag_set(d, TCO_ERR_CANTCREATE, "%s: writing the file failed: %s", path, strerror(errno));
    tco_strbuf_free(&text);
    if (e == TCO_OK)
        e = check_saved(req, a, o, out.tmp, path, d);
    if (e != TCO_OK) {
        tco_output_abandon(&out);
        return e;
    }
    if ((e = tco_output_commit_text(&out, d)) != TCO_OK)
        return e;
    tco_strbuf cmd = {0};
    run_command(req, path, &cmd);
    if ((a->saved_path = tco_strdup(path)) == NULL || cmd.failed) {
        tco_strbuf_free(&cmd);
        return nomem(d);
    }
    a->saved_command = tco_strbuf_take(&cmd);
    a->saved_rank = rank;
    return TCO_OK;
}

void tco_advise_save_print_table(const tco_advice *a, FILE *out)
{
    if (a->saved_path == NULL)
        return;
    const tco_advise_option *o = &a->options[a->saved_rank - 1];
    tco_strbuf l = {0};
    tco_advise_option_label(a, o, &l);
    char tco[64], unit[64], served[64], layout[64], target[64];
    tco_format_grouped(a->saved_tco, 0, tco, sizeof tco);
    tco_format_grouped(o->cost_per_unit, 2, unit, sizeof unit);
    /* The path as given, escaped for the terminal (base/text.h): a U+202E in it cannot reorder the line. */
    fputs("\nScenario saved: ", out);
    tco_text_put_terminal(out, a->saved_path, strlen(a->saved_path));
    fprintf(out, ", rank %d, %s; ", a->saved_rank, l.failed ? "" : tco_strbuf_str(&l));
    /* the command with this run's quotes, day and currency: the file alone prices at the catalog's */
    tco_text_put_terminal(out, a->saved_command, strlen(a->saved_command));
    fprintf(out, " gives its TCO, %s %s, and %s %s%s\n", tco, a->currency, unit, a->unit,
            a->train ? "" : " at the target load"); /* "CNY/run", not "CNY/run a run" */
    if (!a->train && !isnan(a->saved_served_unit)) {
        tco_format_grouped(a->saved_served_unit, 2, served, sizeof served);
        tco_format_grouped(o->tokens_per_s, 2, layout, sizeof layout);
        tco_format_grouped(a->target_tokens_per_s, 2, target, sizeof target);
        char u[64];
        tco_format_grouped(a->utilisation, 2, u, sizeof u);
        fprintf(out, "  Its cost per million tokens served, %s %s, is at the layout's %s tokens/s x utilisation %s "
                "x availability; the advice's %s at the target load of %s tokens/s x %s x availability\n", served,
                a->unit, layout, u, unit, target, u);
    }
    tco_strbuf_free(&l);
}
