/* advise.c - tco advise: enumerate what a question allows, gate and price each candidate with the
 * cost model (inputs set in place on one run per host, price/run.h, and on a run of its own where a
 * quote's min_qty says so), rank, report (advise.h). */
#include "apps/advise.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "read/ini.h"
#include "render/report.h"
#include "base/text.h"
#include "base/utf8.h"
#include "apps/rank.h"
#include "load/load.h"
#include "model/bind.h"
#include "model/evaluate.h"
#include "model/program.h"
#include "price/pricing.h"
#include "price/quote_choice.h"
#include "price/run.h"
#include "read/dates.h"
#include "read/quote_csv.h"

/* ---- the names the advisor reads and sets (advise.h) ---------------------------------------- */

typedef struct names_ix {
    int card_tier, card_count, facility_mode, acquisition, currency;
    int cards_per_host, max_hosts, max_cards;
    int fits_host, feasible, memory, need, capex, cost, npv, cost_per_unit;
    int tokens, stream_tokens, decode_eff, target, days, train_eff, hosts;
    int replicas; /* replica_capacity (serve), -1 when the template has none */
} names_ix;

static const struct {
    const char *name;
    size_t offset;
    bool serve_only, train_only;
} needed[] = {
    {"card_tier", offsetof(names_ix, card_tier), false, false},
    {"card_count", offsetof(names_ix, card_count), false, false},
    {"facility_mode", offsetof(names_ix, facility_mode), false, false},
    {"acquisition", offsetof(names_ix, acquisition), false, false},
    {"cards_per_host", offsetof(names_ix, cards_per_host), false, false},
    {"max_hosts", offsetof(names_ix, max_hosts), false, false},
    {"max_cards", offsetof(names_ix, max_cards), false, false},
    {"check_card_fits_host", offsetof(names_ix, fits_host), false, false},
    {"check_feasible", offsetof(names_ix, feasible), false, false},
    {"cluster_memory_gb", offsetof(names_ix, memory), false, false},
    {"inference_memory_gb", offsetof(names_ix, need), true, false},
    {"training_memory_gb", offsetof(names_ix, need), false, true},
    {"option_capex", offsetof(names_ix, capex), false, false},
    {"option_cost", offsetof(names_ix, cost), false, false},
    {"option_npv_cost", offsetof(names_ix, npv), false, false},
    {"cost_per_unit", offsetof(names_ix, cost_per_unit), false, false},
    {"layout_tokens_per_s", offsetof(names_ix, tokens), false, false},
    {"layout_stream_tokens_per_s", offsetof(names_ix, stream_tokens), false, false},
    {"decode_efficiency", offsetof(names_ix, decode_eff), false, false},
    {"target_load_tokens_per_s", offsetof(names_ix, target), false, false},
    {"layout_train_days", offsetof(names_ix, days), false, false},
    {"train_efficiency", offsetof(names_ix, train_eff), false, false},
    {"hosts", offsetof(names_ix, hosts), false, false},
};

static tco_error find_names(const tco_model *m, bool train, names_ix *ix, tco_diag *d)
{
    for (size_t k = 0; k < sizeof needed / sizeof needed[0]; k++) {
        if ((needed[k].serve_only && train) || (needed[k].train_only && !train))
            continue;
        int i = tco_model_find(m, needed[k].name);
        if (i < 0 || tco_item_dim(&m->items[i]) != 0)
            return tco_diag_set(d, TCO_ERR_UNKNOWN_NAME, "%s: tco advise reads the single value '%s', which the "
                                "template does not define (docs/advise.md)", m->template_path, needed[k].name);
        *(int *)((char *)ix + needed[k].offset) = i;
    }
    ix->currency = tco_model_find(m, "currency");
    ix->replicas = train ? -1 : tco_model_find(m, "replica_capacity");
    return TCO_OK;
}

/* A scalar item's number; NaN when it holds text ("n.a.: ..."). */
static double num(const tco_model *m, int i)
{
    return m->items[i].text ? NAN : m->items[i].value;
}

/* ---- the question ---------------------------------------------------------------------------- */

static const char *const advise_keys[] = {"job", "tiers", "exclude_tiers", "hosts", "facility_modes", "allow_cloud",
                                          NULL};

/* The question file and the run's --set values, for messages that name where a value came from. */
typedef struct question {
    tco_ini ini;
    const tco_advise_request *req;
} question;

/* Where [advise] KEY's value came from, as data (error.h): the argument "--set advise.KEY=V" (written into
 * @p arg) when the run gave it, else the question's file; section advise and key KEY either way.  The
 * message then starts "--set advise.KEY=V: " or "FILE [advise] KEY: ".  Returns @p out. */
static const tco_place *place(const question *q, const char *key, tco_place *out, char arg[800])
{
    *out = (tco_place){.file = q->ini.path, .section = "advise", .key = key};
    for (size_t i = q->req->n_sets; i-- > 0;)
        if (strcasecmp(q->req->sets[i].section, "advise") == 0 && strcasecmp(q->req->sets[i].key, key) == 0) {
            snprintf(arg, 800, "--set %.600s", q->req->sets[i].arg);
            out->file = NULL;
            out->arg = arg;
            break;
        }
    return out;
}

/* Whether @p key is an [advise] key (or its KEY_source); if not, *@p near is a known key within two
 * edits of it, or NULL. */
static bool advise_key_known(const char *key, const char **near)
{
    size_t len = strlen(key);
    char base[128];
    snprintf(base, sizeof base, "%.*s", (int)(len > 7 && strcmp(key + len - 7, "_source") == 0 ? len - 7 : len), key);
    *near = NULL;
    for (const char *const *a = advise_keys; *a; a++) {
        if (strcmp(base, *a) == 0)
            return true;
        if (tco_edit_distance(base, *a) <= 2)
            *near = *a;
    }
    return false;
}

/* "(did you mean 'KEY'?)" or "; expected one of: ..." for an unknown [advise] key. */
static void advise_key_hint(const char *near, tco_strbuf *out)
{
    if (near) {
        tco_strbuf_printf(out, " (did you mean '%s'?)", near);
        return;
    }
    tco_strbuf_append(out, "; expected one of: ");
    for (const char *const *a = advise_keys; *a; a++)
        tco_strbuf_printf(out, "%s%s", a == advise_keys ? "" : ", ", *a);
}

/* Every key of [advise] is one the advisor reads (or its KEY_source). */
static tco_error check_advise_keys(const tco_ini *q, tco_diag *d)
{
    int n;
    const char **keys = tco_ini_keys(q, "advise", &n);
    tco_error e = TCO_OK;
    for (int k = 0; k < n && e == TCO_OK; k++) {
        const char *key = strchr(keys[k], ':') + 1, *near;
        if (advise_key_known(key, &near))
            continue;
        tco_strbuf hint = {0};
        advise_key_hint(near, &hint);
        e = tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = q->path, .section = "advise", .key = key}, "unknown key%s",
                        tco_strbuf_str(&hint));
        tco_strbuf_free(&hint);
    }
    free(keys);
    return e;
}

/* The [advise] KEY list: "all" or absent gives NULL with *n = 0 (everything); else the items, each
 * listed once (a repeat is refused, tco_list_check_set()). */
static tco_error advise_list(const question *qq, const char *key, char ***out, int *n, tco_diag *d)
{
    const tco_ini *q = &qq->ini;
    char where[800];
    tco_place at;
    *out = NULL;
    *n = 0;
    const char *v = tco_ini_get(q, "advise", key);
    bool exclude = strcmp(key, "exclude_tiers") == 0;
    /* "all" in a list of what to consider is everything; in exclude_tiers it excludes everything, which
     * leaves nothing to advise on (it read as "no list": nothing excluded, every tier ranked). */
    if (exclude && v != NULL && strcasecmp(v, "all") == 0)
        return tco_diag_at(d, TCO_ERR_INI, place(qq, key, &at, where),
                           "'%s' leaves nothing to consider: it excludes every tier of the catalog (leave "
                           "exclude_tiers out, or empty, to exclude none)", v);
    if (v == NULL || strcasecmp(v, "all") == 0 || (v[0] == '\0' && exclude))
        return TCO_OK;
    int k = tco_split_list(v, out);
    if (k <= 0)
        return tco_diag_at(d, TCO_ERR_INI, place(qq, key, &at, where),
                           "expected all or a comma-separated list of names, none empty, found '%s'", v);
    *n = k;
    return tco_list_check_set(*out, k, TCO_ERR_DUPLICATE, place(qq, key, &at, where), d);
}

/* Index of @p code among @p names (case-insensitive, as the tier lookup), or -1. */
static int name_index(char *const *names, int n, const char *code)
{
    for (int i = 0; i < n; i++)
        if (tco_utf8_casecmp(names[i], code) == 0)
            return i;
    return -1;
}

static tco_error unknown_entry(const question *q, const char *key, const char *entry, const char *file,
                               char *const *names, int n, tco_diag *d)
{
    tco_strbuf list = {0};
    char where[800];
    tco_place at;
    for (int i = 0; i < n; i++)
        tco_strbuf_printf(&list, "%s%s", i ? ", " : "", names[i]);
    tco_error e = tco_diag_at(d, TCO_ERR_INI, place(q, key, &at, where), "no entry '%s' in %s; expected one of: %s",
                              entry, file, tco_strbuf_str(&list));
    tco_strbuf_free(&list);
    return e;
}

/* Choose from @p all (n_all names as the catalog writes them) those the lists keep: @p keep (NULL:
 * all) less @p drop.  The result holds copies, in catalog order. */
static tco_error choose(const question *q, const char *key, const char *file, char *const *all, int n_all,
                        char *const *keep, int n_keep, char *const *drop, int n_drop, char ***out, int *n,
                        tco_diag *d)
{
    char where[800];
    tco_place at;
    for (int i = 0; i < n_keep; i++)
        if (name_index(all, n_all, keep[i]) < 0)
            return unknown_entry(q, key, keep[i], file, all, n_all, d);
    for (int i = 0; i < n_drop; i++)
        if (name_index(all, n_all, drop[i]) < 0)
            return unknown_entry(q, "exclude_tiers", drop[i], file, all, n_all, d);
    /* With a list of tiers, exclude_tiers has nothing to narrow: a tier both listed and excluded contradicts
     * itself, and one excluded but not listed is excluded already; either was dropped without a word
     * (tiers = W-B, D-M with exclude_tiers = D-M ranked W-B alone, exit 0). */
    for (int i = 0; keep && i < n_drop; i++) {
        char where_drop[800];
        tco_place at_drop;
        place(q, "exclude_tiers", &at_drop, where_drop);
        place(q, key, &at, where);
        bool listed = name_index(keep, n_keep, drop[i]) >= 0;
        char also[900];
        if (at.arg)
            snprintf(also, sizeof also, "%s", at.arg);
        else
            snprintf(also, sizeof also, "[advise] %s", key);
        return tco_diag_at(d, TCO_ERR_INI, &at_drop, listed ? "'%s' is listed in %s too: a tier is either considered "
                           "or excluded; leave it out of one of them" : "'%s' is not among the tiers %s lists, so "
                           "excluding it would change nothing; exclude_tiers narrows tiers = all, so leave it out "
                           "(or list the tiers to consider alone)", drop[i], TCO_SHOWN(also));
    }
    *out = calloc((size_t)n_all + 1, sizeof **out);
    *n = 0;
    if (*out == NULL)
        return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n_all; i++) {
        if ((keep && name_index(keep, n_keep, all[i]) < 0) || name_index(drop, n_drop, all[i]) >= 0)
            continue;
        if (((*out)[(*n)++] = tco_strdup(all[i])) == NULL)
            return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    }
    if (*n == 0 && n_drop > 0) /* tiers = all here: a list of tiers takes no exclude_tiers (above) */
        return tco_diag_at(d, TCO_ERR_INI, place(q, "exclude_tiers", &at, where),
                           "leaves nothing to consider: it excludes every tier of the catalog");
    if (*n == 0)
        return tco_diag_at(d, TCO_ERR_INI, place(q, key, &at, where), "leaves nothing to consider");
    return TCO_OK;
}

/* The sections of the catalog file pricing/STEM.ini under @p root, as written (heap strings), and the
 * file's path as shown. */
static tco_error catalog_sections(const char *root, const char *stem, char ***out, int *n, char **shown,
                                  tco_diag *d)
{
    tco_strbuf rel = {0};
    tco_strbuf_printf(&rel, "pricing/%s.ini", stem);
    char *path = tco_path_join(root, tco_strbuf_str(&rel));
    tco_strbuf_free(&rel);
    tco_ini ini = {0};
    *out = NULL;
    *n = 0;
    *shown = path;
    if (path == NULL)
        return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    tco_error e = tco_ini_load(path, NULL, &ini, d);
    int k = e == TCO_OK ? tco_ini_section_count(&ini) : 0;
    if (e == TCO_OK && (*out = calloc((size_t)k + 1, sizeof **out)) == NULL)
        e = tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    for (int i = 0; i < k && e == TCO_OK; i++, (*n)++)
        if (((*out)[i] = tco_strdup(tco_ini_section_as_written(&ini, tco_ini_section_name(&ini, i)))) == NULL)
            e = tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    tco_ini_free(&ini);
    return e;
}

/* The catalog file stems the template names: [model] tiers, and the refs entry for key host. */
static tco_error template_catalogs(const char *root, const tco_ini *q, char tiers[128], char hosts[128],
                                   tco_diag *d)
{
    const char *tname = tco_ini_get(q, "scenario", "template");
    tco_strbuf rel = {0};
    tco_strbuf_printf(&rel, "templates/%s.ini", tname && tname[0] ? tname : "tco");
    char *path = tco_path_join(root, tco_strbuf_str(&rel));
    tco_strbuf_free(&rel);
    tco_ini t = {0};
    tco_error e = path ? tco_ini_load(path, NULL, &t, d) : tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    tiers[0] = hosts[0] = '\0';
    if (e == TCO_OK) {
        const char *ts = tco_ini_get(&t, "model", "tiers");
        snprintf(tiers, 128, "%s", ts ? ts : "");
        char **refs = NULL;
        const char *rs = tco_ini_get(&t, "model", "refs");
        int n = rs ? tco_split_list(rs, &refs) : 0;
        for (int i = 0; i < n; i++)
            if (strncasecmp(refs[i], "host:", 5) == 0)
                snprintf(hosts, 128, "%s", refs[i] + 5);
        tco_free_list(refs, n);
        if (tiers[0] == '\0' || hosts[0] == '\0')
            e = tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = path, .section = "model"},
                            "tco advise needs a tier "
                            "catalog (tiers = FILE) and a host catalog (refs = host:FILE, ...)");
    }
    tco_ini_free(&t);
    free(path);
    return e;
}

/* ---- enumeration ----------------------------------------------------------------------------- */

/* What one run of the enumeration holds. */
typedef struct advise_run {
    tco_advice *a;
    const tco_advise_request *req;
    names_ix ix;
    int *warn_items; /* lines with a template warning */
    size_t n_warn;
    size_t cap;
    tco_diag *d;
    /* With quotes: the run of the candidate whose quotes no longer held on its host's run, kept for
     * the next candidates of the same tier, host, mode and acquisition while its quotes hold */
    tco_run *spare;
    int sp_tier, sp_host, sp_mode;
    bool sp_rent;
    /* With quotes: each tier's row in the tier table (a->tiers order), and for each row of the first
     * run's quote set the candidates priced from it */
    int *tier_row;
    size_t *quote_used;
    /* With quotes: for each item's first row in the first run's quote set, whether a candidate buys some of
     * the item (a quoted input of it, or its tier row, with a quantity above 0) */
    bool *item_bought;
    /* The programs compiled for the facility mode and tier being evaluated (at most one a host), which
     * each host's model of the first one's shape (shares[h]) runs where its texts fit (enumerate()) */
    tco_program **pool;
    size_t n_pool;
    bool *shares;
} advise_run;

static tco_error nomem(tco_diag *d)
{
    return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
}

/* The row of the first run's quote set that is row @p q of @p run's (the same files read the same way
 * keep the same rows, so usually the same index), or SIZE_MAX. */
static size_t master_row(const advise_run *r, const tco_run *run, size_t q)
{
    const tco_quote_set *m = &r->a->runs[0]->quotes, *set = &run->quotes;
    const tco_quote *x = &set->quotes[q];
    if (q < m->n && m->quotes[q].line == x->line && strcmp(m->quotes[q].file, x->file) == 0)
        return q;
    for (size_t i = 0; i < m->n; i++)
        if (m->quotes[i].line == x->line && strcmp(m->quotes[i].file, x->file) == 0)
            return i;
    return SIZE_MAX;
}

/* Count the quote rows that priced candidate @p run now holds (tier @p tier): each quoted input's
 * row, and of the per-tier inputs the candidate's tier row. */
static void count_quotes(advise_run *r, const tco_run *run, int tier)
{
    const tco_model *m = run->model;
    for (size_t k = 0; k < run->n_priced; k++) {
        const tco_item *it = &m->items[run->priced[k]];
        long q = -1;
        if (it->kind == TCO_ITEM_TIER_INPUT && it->tier_quotes && r->tier_row[tier] >= 0)
            q = it->tier_quotes[r->tier_row[tier]];
        else if (it->kind != TCO_ITEM_TIER_INPUT && it->quoted)
            q = (long)it->quote_index;
        size_t at = q >= 0 ? master_row(r, run, (size_t)q) : SIZE_MAX;
        if (at != SIZE_MAX)
            r->quote_used[at]++;
        /* What the candidate buys, for the warnings of items no quote priced (quote_warnings()) */
        const char *item = it->kind != TCO_ITEM_TIER_INPUT ? it->quote_item
                           : r->tier_row[tier] >= 0    ? m->tier_names[r->tier_row[tier]]
                                                       : NULL;
        int qty = tco_model_find(m, it->quote_qty);
        size_t first;
        if (item && qty >= 0 && m->items[qty].value > 0 &&
            tco_name_index_get(&r->a->runs[0]->quotes.by_item, item, &first))
            r->item_bought[first] = true;
    }
}

/* Append the candidate the model of @p run now holds. */
static tco_error record(advise_run *r, const tco_run *run, int tier, int host, int mode, bool rent, int cards)
{
    const tco_model *m = run->model;
    if (r->quote_used)
        count_quotes(r, run, tier);
    tco_advice *a = r->a;
    if (a->n_options == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        tco_advise_option *grown = realloc(a->options, cap * sizeof *grown);
        if (grown == NULL)
            return nomem(r->d);
        a->options = grown;
        r->cap = cap;
    }
    const names_ix *ix = &r->ix;
    tco_advise_option o = {.tier = tier, .host = host, .mode = mode, .rent = rent, .cards = cards,
                           .feasible = num(m, ix->feasible) == 1, .memory_gb = num(m, ix->memory),
                           .need_gb = num(m, ix->need), .capex = num(m, ix->capex), .cost = num(m, ix->cost),
                           .npv_cost = num(m, ix->npv), .cost_per_unit = num(m, ix->cost_per_unit),
                           .tokens_per_s = num(m, ix->tokens), .stream_tokens_per_s = num(m, ix->stream_tokens),
                           .decode_efficiency = num(m, ix->decode_eff), .train_days = num(m, ix->days),
                           .train_efficiency = num(m, ix->train_eff), .hosts_bought = num(m, ix->hosts),
                           .train = a->train, .seq = a->n_options};
    /* A layout that holds no replica has no throughput: n.a., not the figure its formula gives for none
     * (17.41 tokens/s per stream of a C30 that cannot hold a 70B replica), and a target's reason says so. */
    bool no_replica = ix->replicas >= 0 && num(m, ix->replicas) < 1;
    if (no_replica)
        o.tokens_per_s = o.stream_tokens_per_s = NAN;
    for (size_t w = 0; !o.feasible && w < r->n_warn; w++) {
        tco_strbuf b = {0};
        const char *warning = m->items[r->warn_items[w]].warning;
        if (!tco_report_warning_text(m, (size_t)r->warn_items[w], &b))
            continue;
        if (no_replica && warning && (strstr(warning, "{layout_tokens_per_s}") ||
                                      strstr(warning, "{layout_stream_tokens_per_s}"))) {
            tco_strbuf_clear(&b);
            tco_strbuf_append(&b, "serving misses its target: no throughput (n.a. tokens/s), as the layout holds "
                                  "no replica (see the memory reasons)");
        }
        tco_advise_reason *grown = realloc(o.reasons, (o.n_reasons + 1) * sizeof *grown);
        char *text = tco_strbuf_take(&b);
        if (grown == NULL || text == NULL) {
            free(text);
            free(grown ? grown : o.reasons);
            return nomem(r->d);
        }
        o.reasons = grown;
        o.reasons[o.n_reasons++] = (tco_advise_reason){a->models[0]->items[r->warn_items[w]].name, text};
    }
    if (!o.feasible && o.n_reasons == 0) { /* a gate without a warning: say which line said no */
        const tco_item *it = &m->items[ix->feasible];
        tco_strbuf b = {0};
        tco_strbuf_printf(&b, "%s: no", it->label);
        char *text = tco_strbuf_take(&b);
        if (text == NULL || (o.reasons = malloc(sizeof *o.reasons)) == NULL) {
            free(text);
            return nomem(r->d);
        }
        o.reasons[o.n_reasons++] = (tco_advise_reason){a->models[0]->items[ix->feasible].name, text};
    }
    a->options[a->n_options++] = o;
    return TCO_OK;
}

/* The largest card count to try on a host of @p slots slots: max_cards, else max_hosts x slots, the
 * smaller where both are set; INFINITY when neither is.  A double, so a bound past INT_MAX (max_hosts =
 * 1e9, max_cards = 1e15) is not mistaken for "no bound" nor cast out of range: the search's size check
 * refuses it before any bound is used as a count. */
static double card_bound(const tco_model *m, const names_ix *ix, int slots)
{
    double max_cards = num(m, ix->max_cards), max_hosts = num(m, ix->max_hosts);
    double b = INFINITY;
    if (max_cards > 0)
        b = max_cards;
    if (max_hosts > 0 && fmin(max_hosts * slots, DBL_MAX) < b) /* 1e308 hosts x 8 slots is still a bound */
        b = fmin(max_hosts * slots, DBL_MAX);
    return b;
}

/* The input whose value gives card_bound() on a host of @p slots slots: max_hosts where it bounds (alone, or
 * below max_cards), else max_cards (which is also named when neither bounds). */
static int bound_input(const tco_model *m, const names_ix *ix, int slots)
{
    double max_cards = num(m, ix->max_cards), max_hosts = num(m, ix->max_hosts);
    return max_hosts > 0 && !(max_cards > 0 && max_cards <= fmin(max_hosts * slots, DBL_MAX)) ? ix->max_hosts
                                                                                                : ix->max_cards;
}

/* Where input @p it's value came from as text, "--set ARG" or "FILE [SECTION] KEY" (tco_item value_place),
 * into @p out. */
static const char *value_place_text(const tco_item *it, char *out, size_t size)
{
    const tco_place *p = &it->value_place;
    if (p->arg)
        snprintf(out, size, "%s", p->arg);
    else if (p->file)
        snprintf(out, size, "%s [%s] %s", p->file, p->section ? p->section : "", p->key ? p->key : "");
    else
        snprintf(out, size, "the template's default");
    return out;
}


static tco_error option_run(const tco_advise_request *req, const tco_advice *a, const tco_advise_option *o,
                            tco_run **out, tco_diag *d);

/* Evaluate @p m: with @p p, a program compiled for its texts (from it or another host's model of its
 * shape, program.h), as tco_model_evaluate() runs its own (the trees give an error its message); without,
 * by tco_model_evaluate(). */
static tco_error evaluate(tco_model *m, tco_program *p, tco_diag *d)
{
    if (p == NULL)
        return tco_model_evaluate(m, d);
    tco_error e = tco_program_run(p, m, d);
    return e == TCO_ERR_EVAL ? tco_model_evaluate_tree(m, d) : e;
}

/* Set card_count to @p n on @p m and evaluate (with @p p, as evaluate()). */
static tco_error set_cards(tco_model *m, int n, tco_program *p, tco_diag *d)
{
    int card_count = tco_model_find(m, "card_count");
    tco_error e = card_count < 0 ? tco_model_set_input(m, "card_count", n, d)
                                 : tco_model_assign_input(m, card_count, n, d);
    return e == TCO_OK && card_count >= 0 ? evaluate(m, p, d) : e;
}

/* The run candidate @p o is evaluated on when the quotes of its host's run no longer hold for it: the
 * spare run while it is of the same tier, host, mode and acquisition and its quotes hold at @p o's card
 * count, else a run opened for @p o (which then becomes the spare). */
static tco_error spare_run(advise_run *r, const tco_advise_option *o, const tco_run **out)
{
    tco_error e = TCO_OK;
    if (r->spare && r->sp_tier == o->tier && r->sp_host == o->host && r->sp_mode == o->mode && r->sp_rent == o->rent) {
        if ((e = set_cards(r->spare->model, o->cards, NULL, r->d)) != TCO_OK)
            return e;
        if (tco_run_quotes_hold(r->spare)) {
            *out = r->spare;
            return TCO_OK;
        }
    }
    tco_run_free(r->spare);
    r->spare = NULL;
    if ((e = option_run(r->req, r->a, o, &r->spare, r->d)) != TCO_OK)
        return e;
    r->a->runs_opened++;
    r->sp_tier = o->tier, r->sp_host = o->host, r->sp_mode = o->mode, r->sp_rent = o->rent;
    *out = r->spare;
    return TCO_OK;
}

/* Every card count from 1 to @p bound on the model of @p run as it stands, evaluated as evaluate() with
 * @p p (or, with quotes whose min_qty a count crosses, on a run of the candidate's own, spare_run()); an
 * evaluation that fails names the candidate.  With @p at_one, the model was evaluated at one card
 * already (set_cards()). */
static tco_error counts(advise_run *r, const tco_run *run, int tier, int host, int mode, bool rent, int bound,
                        bool at_one, tco_program *p)
{
    tco_model *m = run->model;
    int card_count = tco_model_find(m, "card_count"); /* by index in the loop: no name lookup per candidate */
    for (int n = 1; n <= bound; n++) {
        tco_error e = TCO_OK;
        if (!(at_one && n == 1))
            e = card_count < 0 ? tco_model_set_input(m, "card_count", n, r->d)
                               : tco_model_assign_input(m, card_count, n, r->d);
        if (e == TCO_OK && card_count >= 0 && !(at_one && n == 1))
            e = evaluate(m, p, r->d);
        const tco_run *on = run;
        if (e == TCO_OK && !tco_run_quotes_hold(run)) {
            tco_advise_option o = {.tier = tier, .host = host, .mode = mode, .rent = rent, .cards = n};
            e = spare_run(r, &o, &on);
        }
        if (e == TCO_OK)
            e = record(r, on, tier, host, mode, rent, n);
        if (e != TCO_OK && e != TCO_ERR_NOMEM) {
            tco_advise_option o = {.tier = tier, .host = host, .mode = mode, .rent = rent, .cards = n};
            tco_strbuf b = {0};
            tco_advise_option_label(r->a, &o, &b);
            char why[TCO_DIAG_MAX];
            snprintf(why, sizeof why, "%s", r->d->message);
            tco_diag_set(r->d, e, "%s, candidate %s: %s", r->a->name, tco_strbuf_str(&b), why);
            tco_strbuf_free(&b);
        }
        if (e != TCO_OK)
            return e;
    }
    return TCO_OK;
}

static int compare_options(const void *pa, const void *pb)
{
    const tco_advise_option *a = pa, *b = pb;
    if (a->feasible != b->feasible)
        return a->feasible ? -1 : 1;
    if (a->feasible) {
        bool na = isnan(a->cost_per_unit), nb = isnan(b->cost_per_unit);
        if (na != nb)
            return na ? 1 : -1;
        if (!na && a->cost_per_unit != b->cost_per_unit)
            return a->cost_per_unit < b->cost_per_unit ? -1 : 1;
        if (a->capex != b->capex)
            return a->capex < b->capex ? -1 : 1;
        /* then the faster: a training run's fewer days, or serving's more tokens/s (the same money and
         * capital buy more speed; the Rank sheet's speed term, rank.h) */
        double sa = a->train ? a->train_days : b->tokens_per_s, sb = a->train ? b->train_days : a->tokens_per_s;
        if (sa != sb && !isnan(sa) && !isnan(sb))
            return sa < sb ? -1 : 1;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The overrides a model of the advice is loaded with: the run's --set values (but [advise]'s), then the
 * advisor's own (up to OWN_SETS of them: kind, card, cards, acquisition, host, and for one option of the
 * workbook its facility mode), whose text args holds. */
#define OWN_SETS 6
typedef struct own_sets {
    tco_override *v;
    size_t n, n_user;
    char args[OWN_SETS][700];
    /* the run's --set fx.CODE=RATE values (exchange rates, not overrides of the files) */
    tco_override *fx;
    size_t n_fx;
} own_sets;

/* Room for the run's --set values and @p n_own of the advisor's; the run's copied in ([fx] ones apart). */
static tco_error own_sets_begin(own_sets *s, const tco_advise_request *req, size_t n_own, tco_diag *d)
{
    s->n_user = s->n_fx = 0;
    for (size_t i = 0; i < req->n_sets; i++) {
        s->n_user += strcasecmp(req->sets[i].section, "advise") != 0 && strcasecmp(req->sets[i].section, "fx") != 0;
        s->n_fx += strcasecmp(req->sets[i].section, "fx") == 0;
    }
    s->n = s->n_user + n_own;
    if ((s->v = calloc(s->n, sizeof *s->v)) == NULL || (s->fx = calloc(s->n_fx + 1, sizeof *s->fx)) == NULL) {
        free(s->v);
        s->v = NULL;
        return nomem(d);
    }
    for (size_t i = 0, k = 0, f = 0; i < req->n_sets; i++)
        if (strcasecmp(req->sets[i].section, "fx") == 0)
            s->fx[f++] = req->sets[i];
        else if (strcasecmp(req->sets[i].section, "advise") != 0)
            s->v[k++] = req->sets[i];
    return TCO_OK;
}

static void own_sets_free(own_sets *s)
{
    free(s->v);
    free(s->fx);
}

/* A run of the question with the overrides of @p s, and the request's quotes and currency (run.h). */
static tco_error open_run(const tco_advise_request *req, const own_sets *s, tco_run **out, tco_diag *d)
{
    tco_run_options o = {.root = req->root, .scenario_path = req->path,
                         .load = {.overrides = s->v, .n_overrides = s->n, .files = req->files, .skip_section = "advise"},
                         .fx_sets = s->fx, .n_fx_sets = s->n_fx, .quote_files = req->quote_files,
                         .n_quote_files = req->n_quote_files, .as_of = req->as_of, .currency = req->currency,
                         .currency_given = req->currency != NULL, .quotes_strict = req->quotes_strict};
    return tco_run_open(&o, out, d);
}

/* The advisor's override number @p at: SECTION.KEY=VALUE. */
static tco_error set_own(own_sets *s, size_t at, const char *section, const char *key, const char *value,
                         tco_diag *d)
{
    snprintf(s->args[at], sizeof s->args[at], "%s.%s=%s", section, key, value);
    return tco_override_parse(s->args[at], &s->v[s->n_user + at], d);
}

/* The [scenario] keys the advisor sets for each candidate: a --set of one is refused, and so is a question
 * file that gives one (the kind it may give when it is the job's). */
static const char *const advisor_keys[] = {"card", "host", "cards", "kind", "acquisition", NULL};

static bool advisor_key(const tco_override *o)
{
    if (strcasecmp(o->section, "scenario") != 0)
        return false;
    for (const char *const *k = advisor_keys; *k; k++)
        if (strcasecmp(o->key, *k) == 0)
            return true;
    return false;
}

/* The question's [scenario] names none of the keys the advisor chooses (card, host, cards, acquisition):
 * each would be replaced for every candidate without a word.  Its kind, if any, is advise or the job's own
 * (inference for serve, training for train); another would contradict the job. */
static tco_error check_question_scenario(const question *qq, bool train, tco_diag *d)
{
    const tco_ini *q = &qq->ini;
    const char *job_kind = train ? "training" : "inference";
    for (const char *const *k = advisor_keys; *k; k++) {
        const char *v = tco_ini_get(q, "scenario", *k);
        tco_place at = {.file = q->path, .section = "scenario", .key = *k};
        if (v == NULL)
            continue;
        if (strcmp(*k, "kind") != 0)
            return tco_diag_at(d, TCO_ERR_INI, &at, "a question names no %s: tco advise chooses it for each candidate "
                               "(found '%s'); remove the key, and %s", *k, TCO_SHOWN(v),
                               strcmp(*k, "acquisition") == 0 ? "give [advise] allow_cloud = yes to also rent the cards"
                               : "narrow the search with [advise] tiers, hosts or the [constraints] limits");
        if (strcasecmp(v, "advise") != 0 && strcasecmp(v, job_kind) != 0)
            return tco_diag_at(d, TCO_ERR_INI, &at, "expected advise or %s (the kind [advise] job = %s prices), "
                               "found '%s'", job_kind, train ? "train" : "serve", TCO_SHOWN(v));
    }
    /* A question that lists [advise] facility_modes prices each candidate in each mode of the list, so a
     * facility mode of its own (the file's [facility] mode, a --set facility.mode) would be replaced without
     * a word: colocation in the file and facility_modes = owned priced owned alone. */
    const char *modes = tco_ini_get(q, "advise", "facility_modes");
    if (modes == NULL)
        return TCO_OK;
    char where[800];
    tco_place lp;
    place(qq, "facility_modes", &lp, where);
    char listed[1000];
    if (lp.arg)
        snprintf(listed, sizeof listed, "%s", lp.arg);
    else
        snprintf(listed, sizeof listed, "[advise] facility_modes = %s", modes);
    for (size_t i = 0; i < qq->req->n_sets; i++) {
        const tco_override *o = &qq->req->sets[i];
        if (strcasecmp(o->section, "facility") == 0 && strcasecmp(o->key, "mode") == 0)
            return tco_diag_set(d, TCO_ERR_USAGE, "--set %s: tco advise prices each candidate in each facility mode "
                                "listed (%s), so it takes no facility mode of its own; give --set "
                                "advise.facility_modes=%s to price in that mode alone", o->arg, TCO_SHOWN(listed),
                                o->value);
    }
    const char *mode = tco_ini_get(q, "facility", "mode");
    if (mode != NULL)
        return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = q->path, .section = "facility", .key = "mode"},
                           "a question that lists [advise] facility_modes names no facility mode of its own: tco "
                           "advise prices each candidate in each mode listed (%s), so its mode would be replaced "
                           "without a word (found '%s'); remove the key, or list only the modes to price", TCO_SHOWN(listed), TCO_SHOWN(mode));
    return TCO_OK;
}

static tco_error check_sets(const tco_advise_request *req, tco_ini *q, tco_diag *d)
{
    for (size_t i = 0; i < req->n_sets; i++) {
        const tco_override *o = &req->sets[i];
        if (o->option[0])
            return tco_diag_set(d, TCO_ERR_USAGE, "--set %s: NAME:SECTION.KEY=VALUE names an option of --compare; "
                                "tco advise takes SECTION.KEY=VALUE", o->arg);
        if (advisor_key(o))
            return tco_diag_set(d, TCO_ERR_USAGE, "--set %s: tco advise chooses [scenario] %s for each candidate; "
                                "narrow the search with advise.tiers, advise.hosts or the [constraints] limits", o->arg,
                                o->key);
        if (strcasecmp(o->section, "card") == 0) /* the card a run is loaded with is no candidate's (tiers[0]) */
            return tco_diag_set(d, TCO_ERR_USAGE, "--set %s: tco advise chooses the card for each candidate, so "
                                "card.%s names no one tier; give the tier's own entry, e.g. --set D-M.%s=%s", o->arg,
                                o->key, o->key, o->value);
        if (strcasecmp(o->section, "fx") == 0 && req->n_quote_files == 0 && req->currency == NULL)
            return tco_diag_set(d, TCO_ERR_USAGE, "--set %s: tco advise reads no quotes and reports in CNY, so it "
                                "takes no exchange rate (give --quotes FILE.csv or --currency CODE)", o->arg);
        const char *near;
        if (strcasecmp(o->section, "advise") == 0 && !advise_key_known(o->key, &near)) {
            tco_strbuf hint = {0};
            advise_key_hint(near, &hint);
            tco_error e = tco_diag_set(d, TCO_ERR_USAGE, "--set %s: no [advise] key '%s'%s", o->arg, o->key,
                                       tco_strbuf_str(&hint));
            tco_strbuf_free(&hint);
            return e;
        }
        /* advise.tiers=W-B then advise.tiers=D-M kept the last without a word: refused as any --set given
         * twice is (the model's own --set values are checked when each candidate's model is loaded). */
        for (size_t j = 0; j < i && strcasecmp(o->section, "advise") == 0; j++)
            if (strcasecmp(req->sets[j].section, "advise") == 0 && strcasecmp(req->sets[j].key, o->key) == 0)
                return tco_diag_set(d, TCO_ERR_USAGE, "--set %s: sets [advise] %s again (first --set %s); give "
                                    "each value once", o->arg, o->key, req->sets[j].arg);
        if (strcasecmp(o->section, "advise") == 0 && !tco_ini_set(q, "advise", o->key, o->value))
            return nomem(d);
    }
    return TCO_OK;
}

/* Load the models (one per host), read the lists, check the bounds. */
static tco_error load_models(const question *qq, advise_run *r)
{
    const tco_advise_request *req = qq->req;
    const tco_ini *q = &qq->ini;
    char where[800];
    tco_place at;
    tco_advice *a = r->a;
    tco_diag *d = r->d;
    const char *job = tco_ini_get(q, "advise", "job");
    if (job == NULL || (strcasecmp(job, "serve") != 0 && strcasecmp(job, "train") != 0))
        return tco_diag_at(d, TCO_ERR_INI, place(qq, "job", &at, where), "expected serve or train, found %s%s%s",
                           job ? "'" : "no such key", job ? job : "", job ? "'" : "");
    a->train = strcasecmp(job, "train") == 0;
    tco_error e = check_question_scenario(qq, a->train, d);
    if (e != TCO_OK)
        return e;
    own_sets s = {0};
    if (own_sets_begin(&s, req, 5, d) != TCO_OK)
        return TCO_ERR_NOMEM;
    if ((a->models = calloc((size_t)a->n_hosts, sizeof *a->models)) == NULL ||
        (a->runs = calloc((size_t)a->n_hosts, sizeof *a->runs)) == NULL) {
        own_sets_free(&s);
        return nomem(d);
    }
    e = set_own(&s, 0, "scenario", "kind", a->train ? "training" : "inference", d);
    if (e == TCO_OK)
        e = set_own(&s, 1, "scenario", "card", a->tiers[0], d);
    if (e == TCO_OK)
        e = set_own(&s, 2, "scenario", "cards", "1", d);
    if (e == TCO_OK)
        e = set_own(&s, 3, "scenario", "acquisition", "own", d);
    for (int h = 0; h < a->n_hosts && e == TCO_OK; h++) {
        if ((e = set_own(&s, 4, "scenario", "host", a->hosts[h], d)) == TCO_OK &&
            (e = open_run(req, &s, &a->runs[h], d)) == TCO_OK) {
            a->models[h] = a->runs[h]->model;
            a->n_models++;
            a->runs_opened++;
        }
    }
    own_sets_free(&s);
    if (e != TCO_OK)
        return e;
    tco_model *m = a->models[0];
    if ((e = find_names(m, a->train, &r->ix, d)) != TCO_OK)
        return e;
    snprintf(a->currency, sizeof a->currency, "%s", a->runs[0]->currency);
    snprintf(a->unit, sizeof a->unit, "%s/%s", a->currency, a->train ? "run" : "Mtok");
    if (req->n_quote_files > 0) {
        r->tier_row = malloc((size_t)a->n_tiers * sizeof *r->tier_row);
        r->quote_used = calloc(a->runs[0]->quotes.n + 1, sizeof *r->quote_used);
        r->item_bought = calloc(a->runs[0]->quotes.n + 1, sizeof *r->item_bought);
        if (r->tier_row == NULL || r->quote_used == NULL || r->item_bought == NULL)
            return nomem(d);
        for (int t = 0; t < a->n_tiers; t++) {
            r->tier_row[t] = -1;
            for (int k = 0; k < m->n_tiers && r->tier_row[t] < 0; k++)
                if (tco_utf8_casecmp(m->tier_names[k], a->tiers[t]) == 0)
                    r->tier_row[t] = k;
        }
    }
    a->years = m->n_years;
    a->target_tokens_per_s = num(m, r->ix.target);
    a->utilisation = tco_model_find(m, "utilisation") >= 0 ? num(m, tco_model_find(m, "utilisation")) : NAN;
    int runs = tco_model_find(m, "runs_per_year"); /* optional: a template without it ranks busy at utilisation */
    a->runs_per_year = runs >= 0 && tco_item_dim(&m->items[runs]) == 0 ? num(m, runs) : NAN;
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].warning)
            r->n_warn++;
    if ((r->warn_items = malloc((r->n_warn ? r->n_warn : 1) * sizeof *r->warn_items)) == NULL)
        return nomem(d);
    r->n_warn = 0;
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].warning)
            r->warn_items[r->n_warn++] = (int)i;
    /* [advise] facility_modes = all is every value of the template's facility_mode input, as tiers = all is
     * every tier: it read as no list, pricing the question's own mode alone (team-70b: 232 candidates, not
     * the 360 of owned, colocation), exit 0. */
    const char *listed = tco_ini_get(q, "advise", "facility_modes");
    if (listed != NULL && a->n_modes == 0 && strcasecmp(listed, "all") == 0) {
        int fm = tco_model_find(m, "facility_mode");
        const tco_item *it = fm >= 0 ? &m->items[fm] : NULL;
        if (it == NULL || it->n_choices == 0)
            return tco_diag_at(d, TCO_ERR_INI, place(qq, "facility_modes", &at, where),
                               "'%s' names no facility mode: the template's input facility_mode lists no values "
                               "(values = ...); list the modes to price", listed);
        if ((a->modes = calloc(it->n_choices, sizeof *a->modes)) == NULL)
            return nomem(d);
        for (size_t k = 0; k < it->n_choices; k++, a->n_modes++)
            if ((a->modes[k] = tco_strdup(it->choices[k])) == NULL)
                return nomem(d);
    }
    /* The modes: each must be a facility_mode value. */
    for (int k = 0; k < a->n_modes; k++)
        for (int h = 0; h < a->n_models; h++)
            if (tco_model_set_text_input(a->models[h], "facility_mode", a->modes[k], d) != TCO_OK) {
                char why[TCO_DIAG_MAX];
                snprintf(why, sizeof why, "%s", d->message);
                return tco_diag_at(d, TCO_ERR_INI, place(qq, "facility_modes", &at, where),
                                   "'%s' is not a facility mode (%s)", a->modes[k], why);
            }
    /* Bounds, and the size of the search; a refusal names where the bounding value came from: the --set that
     * gave it, or its file and key. */
    double total = 0;
    double largest = 0; /* the most cards of any host: a rented tier's bound is at most this */
    int largest_by = r->ix.max_cards, largest_slots = 0; /* the input that gives it, and that host's slots */
    for (int h = 0; h < a->n_models; h++) {
        int slots = (int)num(a->models[h], r->ix.cards_per_host);
        double bound = card_bound(a->models[h], &r->ix, slots);
        if (bound > largest || h == 0)
            largest = bound, largest_by = bound_input(a->models[h], &r->ix, slots), largest_slots = slots;
        if (isinf(bound)) {
            /* Both are 0: the place of one given by --set (what the user just typed), else of max_cards. */
            const tco_item *hosts = &m->items[r->ix.max_hosts], *cards = &m->items[r->ix.max_cards];
            bool by_hosts = hosts->value_place.arg != NULL && cards->value_place.arg == NULL;
            char other[800];
            value_place_text(by_hosts ? cards : hosts, other, sizeof other);
            return tco_diag_at(d, TCO_ERR_INI, &(by_hosts ? hosts : cards)->value_place,
                               "tco advise needs a bound on the card count: give max_cards or max_hosts (both are 0, "
                               "no limit; %s is 0 too)", other);
        }
        total += bound * a->n_tiers * (a->n_modes ? a->n_modes : 1);
    }
    const char *cloud = tco_ini_get(q, "advise", "allow_cloud");
    if (cloud && strcasecmp(cloud, "yes") != 0 && strcasecmp(cloud, "no") != 0)
        return tco_diag_at(d, TCO_ERR_INI, place(qq, "allow_cloud", &at, where), "expected yes or no, found '%s'",
                           cloud);
    if (cloud && strcasecmp(cloud, "yes") == 0)
        total += largest * a->n_tiers;
    if (total > TCO_ADVISE_MAX_CANDIDATES) {
        /* Named at the value that bounds the card count on the host that allows the most (the search grows
         * with it), so that a --set constraints.max_hosts=1e300 is blamed, not the question's file. */
        const tco_item *by = &m->items[largest_by];
        char bound[64];
        if (largest_by == r->ix.max_hosts)
            snprintf(bound, sizeof bound, "max_hosts = %.*g x %d cards a host", by->value < 1e15 ? 15 : 3,
                     by->value, largest_slots);
        else
            snprintf(bound, sizeof bound, "max_cards = %.*g", by->value < 1e15 ? 15 : 3, by->value);
        return tco_diag_at(d, TCO_ERR_INI, &by->value_place, "the search would evaluate up to %.*g candidates, more "
                           "than the %d tco advise takes (cards from 1 to %s, for each tier and host); lower "
                           "[constraints] max_cards or max_hosts, or narrow [advise] tiers or hosts",
                           total < 1e15 ? 15 : 3, fmin(total, DBL_MAX), TCO_ADVISE_MAX_CANDIDATES, bound);
    }
    return TCO_OK;
}

/* Free the programs of the pool: no program of the last facility mode and tier fits the next. */
static void pool_clear(advise_run *r)
{
    for (size_t i = 0; i < r->n_pool; i++)
        tco_program_free(r->pool[i]);
    r->n_pool = 0;
}

/* Compile host @p h's model at its texts into the pool (for the hosts after it) and *@p p. */
static tco_error pool_add(advise_run *r, int h, tco_program **p)
{
    tco_error e = tco_program_compile(r->a->models[h], &r->pool[r->n_pool], r->d);
    if (e == TCO_OK)
        *p = r->pool[r->n_pool++];
    return e;
}

/* The candidates of host @p h at the texts its model now holds (a facility mode, tier @p tier, owned or
 * rented cards): evaluated at one card, then, unless @p gate and the card does not fit the host
 * (check_card_fits_host; *@p fits false), at every card count up to @p bound.  They run the pool's
 * program that fits those texts, else one compiled from this model and added to the pool for the other
 * hosts: at once when the card will likely fit (no @p gate, or @p likely: it fitted the host in another
 * facility mode), else once the first evaluation, which walks the trees (evaluate.h), says it fits. */
static tco_error pair(advise_run *r, int h, int tier, int mode, bool rent, int bound, bool gate, bool likely,
                      bool *fits)
{
    tco_model *m = r->a->models[h];
    tco_program *p = NULL;
    for (size_t i = 0; r->shares[h] && i < r->n_pool && p == NULL; i++)
        if (tco_program_fits(r->pool[i], m))
            p = r->pool[i];
    bool compile = p == NULL && r->shares[h] && bound > 1;
    tco_error e = compile && (likely || !gate) ? pool_add(r, h, &p) : TCO_OK;
    if (e == TCO_OK)
        e = set_cards(m, 1, p, r->d);
    *fits = e == TCO_OK && (!gate || num(m, r->ix.fits_host) == 1);
    if (!*fits)
        return e;
    if (compile && p == NULL && (e = pool_add(r, h, &p)) != TCO_OK)
        return e;
    return counts(r, r->a->runs[h], tier, h, mode, rent, bound, true, p);
}

/* Option @p pa before @p pb in the order of the enumeration as tco advise has always listed it (and
 * numbered, seq: the last tie-break): owned cards by host, facility mode, tier and card count, then
 * rented ones by tier and card count. */
static int enumeration_order(const void *pa, const void *pb)
{
    const tco_advise_option *a = pa, *b = pb;
    int ka[] = {a->rent, a->rent ? 0 : a->host, a->mode, a->tier, a->cards};
    int kb[] = {b->rent, b->rent ? 0 : b->host, b->mode, b->tier, b->cards};
    for (size_t i = 0; i < sizeof ka / sizeof ka[0]; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

/* Every owned candidate, then the rented ones.  The texts of a facility mode and a tier are set on each
 * host's model in turn and the model evaluated at one card, which says whether the card fits the host
 * and is the first candidate: the program folds the texts (program.h), so that evaluation walks the
 * trees, which is all a tier that does not fit the host costs.  The other card counts run one program
 * compiled for those texts, which the next hosts of the same shape and texts (the same slot) run too,
 * so that a program is compiled once per facility mode, tier and kind of host.  The options are then
 * numbered in host order (enumeration_order()), as before the hosts shared programs. */
static tco_error enumerate(advise_run *r, bool cloud)
{
    tco_advice *a = r->a;
    int n_h = a->n_models, n_t = a->n_tiers;
    int *rent_host = malloc((size_t)n_t * sizeof *rent_host), *bound = malloc((size_t)n_h * sizeof *bound);
    double *rent_slots = malloc((size_t)n_t * sizeof *rent_slots), *slots = malloc((size_t)n_h * sizeof *slots);
    bool *fitted = calloc((size_t)n_t * (size_t)n_h, sizeof *fitted); /* in the first facility mode */
    r->pool = calloc((size_t)n_h, sizeof *r->pool);
    r->shares = calloc((size_t)n_h, sizeof *r->shares);
    tco_error e = rent_host && bound && rent_slots && slots && fitted && r->pool && r->shares ? TCO_OK : nomem(r->d);
    for (int t = 0; t < n_t && e == TCO_OK; t++)
        rent_host[t] = -1, rent_slots[t] = 0;
    for (int h = 0; h < n_h && e == TCO_OK; h++) {
        slots[h] = num(a->models[h], r->ix.cards_per_host);
        bound[h] = (int)card_bound(a->models[h], &r->ix, (int)slots[h]); /* at most the candidate limit: checked */
        r->shares[h] = tco_model_same_shape(a->models[0], a->models[h]);
    }
    bool fits;
    for (int k = 0; k < (a->n_modes ? a->n_modes : 1) && e == TCO_OK; k++)
        for (int t = 0; t < n_t && e == TCO_OK; t++) {
            pool_clear(r);
            for (int h = 0; h < n_h && e == TCO_OK; h++) {
                tco_model *m = a->models[h];
                bool *fit = &fitted[t * n_h + h];
                if (a->n_modes)
                    e = tco_model_assign_text_input(m, "facility_mode", a->modes[k], r->d);
                if (e == TCO_OK)
                    e = tco_model_assign_text_input(m, "card_tier", a->tiers[t], r->d);
                if (e != TCO_OK ||
                    (e = pair(r, h, t, a->n_modes ? k : -1, false, bound[h], true, *fit, &fits)) != TCO_OK)
                    break;
                *fit = k == 0 ? fits : *fit;
                if (!fits)
                    a->skipped_pairs += k == 0;
                else if (slots[h] > rent_slots[t] || (slots[h] == rent_slots[t] && h < rent_host[t]))
                    rent_host[t] = h, rent_slots[t] = slots[h]; /* the most slots, the first such host */
            }
        }
    for (int t = 0; cloud && t < n_t && e == TCO_OK; t++) {
        if (rent_host[t] < 0)
            continue;
        tco_model *m = a->models[rent_host[t]];
        pool_clear(r);
        if ((e = tco_model_assign_text_input(m, "acquisition", "rent", r->d)) == TCO_OK &&
            (e = tco_model_assign_text_input(m, "card_tier", a->tiers[t], r->d)) == TCO_OK)
            e = pair(r, rent_host[t], t, -1, true, (int)card_bound(m, &r->ix, (int)rent_slots[t]), false, false, &fits);
        if (e == TCO_OK)
            e = tco_model_assign_text_input(m, "acquisition", "own", r->d);
    }
    /* Each host that rented evaluated again, owning its cards, as the others are left. */
    for (int h = 0; cloud && h < n_h && e == TCO_OK; h++)
        for (int t = 0; t < n_t; t++)
            if (rent_host[t] == h) {
                e = tco_model_evaluate(a->models[h], r->d);
                break;
            }
    if (r->pool)
        pool_clear(r);
    free(r->pool);
    free(r->shares);
    r->pool = NULL;
    r->shares = NULL;
    free(rent_host);
    free(bound);
    free(rent_slots);
    free(slots);
    free(fitted);
    if (e == TCO_OK && a->n_options > 1)
        qsort(a->options, a->n_options, sizeof *a->options, enumeration_order);
    for (size_t i = 0; e == TCO_OK && i < a->n_options; i++)
        a->options[i].seq = i;
    return e;
}

/* Why no candidate was priced from quote @p q (of the first run's set), in words, into @p why. */
static void unused_reason(const tco_advice *a, const tco_quote *q, tco_strbuf *why)
{
    const tco_model *m = a->models[0];
    bool tier = name_index(m->tier_names, m->n_tiers, q->item) >= 0, host = name_index(a->hosts, a->n_hosts, q->item) >= 0;
    bool bought = false;
    for (size_t i = 0; i < a->n_options && !bought; i++) {
        const tco_advise_option *o = &a->options[i];
        bought = (tier && tco_utf8_casecmp(a->tiers[o->tier], q->item) == 0) ||
                 (host && !o->rent && tco_utf8_casecmp(a->hosts[o->host], q->item) == 0);
    }
    char min[32];
    snprintf(min, sizeof min, "%g", q->min_qty);
    if (q->status == TCO_QUOTE_EXPIRED || q->status == TCO_QUOTE_NOT_YET_VALID || q->status == TCO_QUOTE_UNKNOWN_ITEM ||
        q->status == TCO_QUOTE_OVERRIDDEN || q->status == TCO_QUOTE_NO_RATE)
        tco_strbuf_append(why, q->reason ? q->reason : tco_quote_status_name(q->status));
    else if (((tier || host) && !bought) || q->status == TCO_QUOTE_NOT_IN_SCENARIO)
        tco_strbuf_printf(why, "no candidate buys %s", q->item);
    else
        tco_strbuf_printf(why, "no candidate%s%s took it: a cheaper valid quote, or min_qty %s above what each buys",
                          tier || host ? " buying " : "", tier || host ? q->item : "", min);
}

/* Whether no candidate of the advice (advise_run @p ctx) buys any of @p item: an item of the catalog no
 * candidate bought, not one that is not a catalog item (its quotes tried to price it). */
static bool no_candidate_buys(void *ctx, const char *item)
{
    const advise_run *r = ctx;
    const tco_quote_set *set = &r->a->runs[0]->quotes;
    size_t first;
    return tco_name_index_get(&set->by_item, item, &first) && !r->item_bought[first] &&
           set->quotes[first].status != TCO_QUOTE_UNKNOWN_ITEM;
}

/* Whether row @p i of the first run's quote set priced a candidate. */
static bool priced_a_candidate(void *ctx, size_t i)
{
    const advise_run *r = ctx;
    return r->quote_used[i] > 0;
}

/* Why row @p i of the first run's quote set priced no candidate (list_quotes()'s reason). */
static const char *candidate_reason(void *ctx, size_t i)
{
    const advise_run *r = ctx;
    return i < r->a->n_quotes ? r->a->quotes[i].reason : NULL;
}

/* The quote warnings of the advice (tco_advice quote_warnings): each item some candidate buys whose rows all
 * failed to price it for every candidate, and each item priced while rows of it without a rate were not
 * compared, judged as a scenario's run is (price/pricing.h tco_quotes_note_unpriced()), each row cited with
 * why no candidate took it (list_quotes(): for a date, an unknown item or a rate the run's own reason). */
static tco_error quote_warnings(advise_run *r)
{
    tco_advice *a = r->a;
    const tco_quote_judge judge = {.buys_none = no_candidate_buys, .priced = priced_a_candidate,
                                   .reason = candidate_reason, .ctx = r};
    return tco_quotes_note_unpriced(&a->runs[0]->quotes, &judge, r->req->quotes_strict, &a->quote_warnings,
                                    &a->n_quote_warnings, &a->n_quote_unpriced, r->d);
}

/* The quote rows of the first run, each with the candidates priced from it and, with none, why. */
static tco_error list_quotes(advise_run *r)
{
    tco_advice *a = r->a;
    const tco_quote_set *set = &a->runs[0]->quotes;
    if ((a->quotes = calloc(set->n + 1, sizeof *a->quotes)) == NULL)
        return nomem(r->d);
    for (size_t i = 0; i < set->n; i++) {
        const tco_quote *q = &set->quotes[i];
        tco_advise_quote *x = &a->quotes[a->n_quotes++];
        x->row = q;
        x->candidates = r->quote_used[i];
        if (x->candidates > 0)
            continue;
        tco_strbuf why = {0};
        unused_reason(a, q, &why);
        if ((x->reason = tco_strbuf_take(&why)) == NULL)
            return nomem(r->d);
    }
    return TCO_OK;
}

tco_error tco_advise(const tco_advise_request *req, tco_advice *a, tco_diag *d)
{
    memset(a, 0, sizeof *a);
    question qq = {.req = req};
    tco_ini *qi = &qq.ini;
    advise_run r = {.a = a, .req = req, .d = d};
    char tier_stem[128], host_stem[128];
    char **all_tiers = NULL, **all_hosts = NULL, **keep = NULL, **drop = NULL;
    int n_all_tiers = 0, n_all_hosts = 0, n_keep = 0, n_drop = 0;
    char *tier_file = NULL, *host_file = NULL;
    tco_error e = tco_ini_load(req->path, NULL, qi, d);
    if (e == TCO_OK && !tco_ini_has_section(qi, "advise"))
        e = tco_diag_set(d, TCO_ERR_USAGE, "%s: not a question for tco advise (no [advise] section); run %s with "
                         "tco %s %s", req->path, tco_ini_has_section(qi, "compare") ? "a comparison" : "a scenario",
                         tco_ini_has_section(qi, "compare") ? "--compare" : "--scenario", req->name);
    if (e == TCO_OK)
        e = check_sets(req, qi, d);
    if (e == TCO_OK)
        e = check_advise_keys(qi, d);
    if (e == TCO_OK)
        e = template_catalogs(req->root, qi, tier_stem, host_stem, d);
    if (e == TCO_OK)
        e = catalog_sections(req->root, tier_stem, &all_tiers, &n_all_tiers, &tier_file, d);
    if (e == TCO_OK)
        e = catalog_sections(req->root, host_stem, &all_hosts, &n_all_hosts, &host_file, d);
    if (e == TCO_OK)
        e = advise_list(&qq, "tiers", &keep, &n_keep, d);
    if (e == TCO_OK)
        e = advise_list(&qq, "exclude_tiers", &drop, &n_drop, d);
    if (e == TCO_OK)
        e = choose(&qq, "tiers", tier_file, all_tiers, n_all_tiers, keep, n_keep, drop, n_drop, &a->tiers,
                   &a->n_tiers, d);
    tco_free_list(keep, n_keep);
    tco_free_list(drop, n_drop);
    keep = drop = NULL;
    n_keep = n_drop = 0;
    if (e == TCO_OK)
        e = advise_list(&qq, "hosts", &keep, &n_keep, d);
    if (e == TCO_OK)
        e = choose(&qq, "hosts", host_file, all_hosts, n_all_hosts, keep, n_keep, NULL, 0, &a->hosts,
                   &a->n_hosts, d);
    tco_free_list(keep, n_keep);
    if (e == TCO_OK && tco_ini_get(qi, "advise", "facility_modes"))
        e = advise_list(&qq, "facility_modes", &a->modes, &a->n_modes, d);
    const char *title = tco_ini_get(qi, "scenario", "title");
    if (e == TCO_OK && ((a->name = tco_strdup(req->name)) == NULL ||
                        (a->title = tco_strdup(title && title[0] ? title : req->name)) == NULL))
        e = nomem(d);
    if (e == TCO_OK)
        e = load_models(&qq, &r);
    const char *cloud = e == TCO_OK ? tco_ini_get(qi, "advise", "allow_cloud") : NULL;
    if (e == TCO_OK)
        e = enumerate(&r, cloud && strcasecmp(cloud, "yes") == 0);
    if (e == TCO_OK && r.quote_used)
        e = list_quotes(&r);
    if (e == TCO_OK && r.quote_used)
        e = quote_warnings(&r);
    if (e == TCO_OK) {
        if (a->n_options > 1) /* none: options is NULL, which qsort() must not be given */
            qsort(a->options, a->n_options, sizeof *a->options, compare_options);
        for (size_t i = 0; i < a->n_options && a->options[i].feasible; i++)
            a->options[i].rank = (int)++a->n_feasible;
    }
    tco_run_free(r.spare);
    free(r.tier_row);
    free(r.quote_used);
    free(r.item_bought);
    tco_free_list(all_tiers, n_all_tiers);
    tco_free_list(all_hosts, n_all_hosts);
    free(tier_file);
    free(host_file);
    free(r.warn_items);
    tco_ini_free(qi);
    return e;
}

void tco_advice_free(tco_advice *a)
{
    for (size_t i = 0; i < a->n_options; i++) {
        for (size_t k = 0; k < a->options[i].n_reasons; k++)
            free(a->options[i].reasons[k].text);
        free(a->options[i].reasons);
    }
    free(a->options);
    for (int h = 0; a->runs && h < a->n_hosts; h++)
        tco_run_free(a->runs[h]);
    free(a->runs);
    free(a->models);
    for (size_t i = 0; i < a->n_quotes; i++) {
        free(a->quotes[i].reason);
    }
    free(a->quotes);
    for (size_t i = 0; i < a->n_quote_warnings; i++)
        free(a->quote_warnings[i]);
    free(a->quote_warnings);
    tco_free_list(a->tiers, a->n_tiers);
    tco_free_list(a->hosts, a->n_hosts);
    tco_free_list(a->modes, a->n_modes);
    free(a->name);
    free(a->title);
    free(a->saved_path);
    free(a->saved_command);
    memset(a, 0, sizeof *a);
}

/* A run of option @p o alone: the question loaded afresh with the run's --set values and the option's
 * card, count, host, kind, acquisition and facility mode as overrides, so that its Inputs sheet names
 * each as the --set that chose it, priced from the request's quotes at what the option buys. */
static tco_error option_run(const tco_advise_request *req, const tco_advice *a, const tco_advise_option *o,
                            tco_run **out, tco_diag *d)
{
    own_sets s = {0};
    char cards[16];
    snprintf(cards, sizeof cards, "%d", o->cards);
    tco_error e = own_sets_begin(&s, req, o->mode >= 0 ? 6 : 5, d);
    if (e == TCO_OK)
        e = set_own(&s, 0, "scenario", "kind", a->train ? "training" : "inference", d);
    if (e == TCO_OK)
        e = set_own(&s, 1, "scenario", "card", a->tiers[o->tier], d);
    if (e == TCO_OK)
        e = set_own(&s, 2, "scenario", "cards", cards, d);
    if (e == TCO_OK)
        e = set_own(&s, 3, "scenario", "acquisition", o->rent ? "rent" : "own", d);
    if (e == TCO_OK)
        e = set_own(&s, 4, "scenario", "host", a->hosts[o->host], d);
    if (e == TCO_OK && o->mode >= 0)
        e = set_own(&s, 5, "facility", "mode", a->modes[o->mode], d);
    if (e == TCO_OK)
        e = open_run(req, &s, out, d);
    own_sets_free(&s);
    return e;
}

tco_error tco_advise_option_run(const tco_advise_request *req, const tco_advice *a, const tco_advise_option *o,
                                tco_run **out, tco_diag *d)
{
    return option_run(req, a, o, out, d);
}

tco_error tco_advise_workbook(const tco_advise_request *req, const tco_advice *a, const char *path,
                              const tco_workbook_options *opts, tco_diag *d)
{
    const tco_advise_option *listed[TCO_ADVISE_LISTED_MAX];
    size_t n = tco_advise_listed(a, listed);
    if (n == 0)
        return tco_diag_set(d, TCO_ERR_USAGE, "%s: no option to write a workbook of (no candidate)", a->name);
    tco_model *models[TCO_ADVISE_LISTED_MAX] = {NULL};
    tco_run *runs[TCO_ADVISE_LISTED_MAX] = {NULL};
    tco_rank_row rows[TCO_ADVISE_LISTED_MAX];
    /* The top options are live (their sheets, loaded afresh); the rest are the values the Rank sheet
     * needs, as the search computed them (the JSON's and the table's figures), in the columns' order. */
    size_t live = n < TCO_ADVISE_LIVE ? n : TCO_ADVISE_LIVE;
    double values[TCO_ADVISE_LISTED_MAX][8];
    tco_strbuf labels[TCO_ADVISE_LISTED_MAX], reasons[TCO_ADVISE_LISTED_MAX];
    memset(labels, 0, sizeof labels);
    memset(reasons, 0, sizeof reasons);
    tco_error e = TCO_OK;
    for (size_t i = 0; i < n && e == TCO_OK; i++) {
        const tco_advise_option *o = listed[i];
        tco_advise_option_label(a, o, &labels[i]);
        for (size_t k = 0; k < o->n_reasons; k++)
            tco_strbuf_printf(&reasons[i], "%s%s", k ? "; " : "", o->reasons[k].text);
        if (labels[i].failed || reasons[i].failed)
            e = nomem(d);
        else if (i < live && (e = option_run(req, a, o, &runs[i], d)) == TCO_OK)
            models[i] = runs[i]->model;
        const double serve_v[] = {o->tokens_per_s, o->stream_tokens_per_s, o->memory_gb, o->need_gb,
                                  o->capex, o->cost, o->npv_cost, o->cost_per_unit};
        const double train_v[] = {o->train_days, o->memory_gb, o->need_gb, o->capex, o->cost, o->npv_cost,
                                  o->cost_per_unit};
        memcpy(values[i], a->train ? train_v : serve_v, a->train ? sizeof train_v : sizeof serve_v);
        rows[i] = (tco_rank_row){tco_strbuf_str(&labels[i]), o->n_reasons ? tco_strbuf_str(&reasons[i]) : NULL,
                                 (double)o->seq + 1, i < live ? NULL : values[i], o->feasible};
    }
    const char *unit = tco_advise_unit(a);
    char capex[32], cost[48], npv[32];
    snprintf(capex, sizeof capex, "Capex (%s)", tco_advise_currency(a));
    snprintf(cost, sizeof cost, "Cost over the period (%s)", tco_advise_currency(a));
    snprintf(npv, sizeof npv, "NPV cost (%s)", tco_advise_currency(a));
    const tco_rank_column serve[] = {{"Throughput (tokens/s)", "layout_tokens_per_s"},
                                     {"Per stream (tokens/s)", "layout_stream_tokens_per_s"},
                                     {"Card memory (GB)", "cluster_memory_gb"},
                                     {"Memory needed (GB)", "inference_memory_gb"},
                                     {capex, "option_capex"},
                                     {cost, "option_cost"},
                                     {npv, "option_npv_cost"},
                                     {unit, "cost_per_unit"}};
    const tco_rank_column train[] = {{"Training run (days)", "layout_train_days"},
                                     {"Card memory (GB)", "cluster_memory_gb"},
                                     {"Memory needed (GB)", "training_memory_gb"},
                                     {capex, "option_capex"},
                                     {cost, "option_cost"},
                                     {npv, "option_npv_cost"},
                                     {unit, "cost_per_unit"}};
    size_t n_cols = a->train ? sizeof train / sizeof train[0] : sizeof serve / sizeof serve[0];
    tco_strbuf title = {0}, note = {0}, why = {0}, target = {0};
    tco_strbuf_printf(&title, "%s: %s", a->name, a->title);
    if (!a->train) {
        char t[64];
        tco_format_grouped(a->target_tokens_per_s, 2, t, sizeof t);
        tco_strbuf_printf(&target, " at the target load of %s tokens/s", t);
    }
    tco_strbuf_printf(&note, "%s, ranked by the %s%s (the lowest first; equal costs to the cheaper capex, then the "
                      "%s, then the earlier candidate); costs in %s over %d year%s. %zu candidate%s: %zu feasible, %zu rejected. "
                      "Listed: the %zu best, then each other tier's best option or, with none feasible, its closest "
                      "rejected one; the ranks are among the options listed. An option that fails a check shows no "
                      "figure, and its reasons as tco advise found them.",
                      a->train ? "Training" : "Serving", a->train ? "cost of one training run" : "cost per million tokens",
                      tco_strbuf_str(&target), a->train ? "shorter run" : "higher throughput", tco_advise_currency(a), a->years, tco_plural(a->years), a->n_options,
                      tco_plural((double)a->n_options), a->n_feasible,
                      a->n_options - a->n_feasible, a->n_feasible < TCO_ADVISE_TOP ? a->n_feasible : (size_t)TCO_ADVISE_TOP);
    if (n > live)
        tco_strbuf_printf(&note, " Live: the first %zu rows (Sheets: A to %c), each figure a formula over the option's own "
                          "sheets (its Summary shown, every other sheet hidden: unhide it to read) and the Shared "
                          "inputs sheet. The other %zu rows (Sheets: %s) are values: tco advise's figures at the "
                          "inputs as written, not recalculated. Change the electricity price on Shared inputs and "
                          "the first %zu rows move; every rank stays a live formula, ranking them against the "
                          "others' figures as computed (equal costs: the cheaper capex, then the faster, then the "
                          "earlier candidate). For every row at a new price: tco advise %s --set SECTION.KEY=VALUE.",
                          live, (char)('A' + live - 1), n - live, TCO_RANK_VALUES, live,
                          a->name);
    else
        tco_strbuf_append(&note, " Every figure and rank is a live formula over the option's own sheets (each Summary "
                          "shown, every other sheet hidden: unhide it to read) and the Shared inputs sheet: change the "
                          "electricity price there and the ranking moves.");
    if (req->n_quote_files > 0)
        tco_strbuf_append(&note, " Priced from vendor quotes: each option's Quotes sheet lists every row read and "
                          "whether it priced that option (a quote's min_qty is judged against what the option buys).");
    tco_advise_explain(a, &why);
    /* --monte-carlo (advise_risk.h): the top options' percentiles and shares, values beside the live figures. */
    double rv[5][TCO_ADVISE_LISTED_MAX];
    const char *rt[5][TCO_ADVISE_LISTED_MAX];
    char rh[5][64];
    tco_rank_values risk[5];
    const char *rn[5] = {"P10", "P50", "P90", "Feasible (share of draws)", "Cheapest (share of draws)"};
    for (int k = 0; k < 5 && a->risk_options > 0; k++) {
        snprintf(rh[k], sizeof rh[k], k < 3 ? "%s (%s, Monte Carlo)" : "%s", rn[k], unit);
        for (size_t i = 0; i < n; i++) {
            const tco_advise_option_risk *r = &listed[i]->risk;
            rv[k][i] = (const double[]){r->p10, r->p50, r->p90, r->feasible, r->p_best}[k];
            rt[k][i] = !r->drawn ? "not drawn (not in the top 10)" : isnan(rv[k][i]) ? "n.a.: fails a check in every draw" : NULL;
        }
        risk[k] = (tco_rank_values){rh[k], rv[k], rt[k], k >= 3};
    }
    if (a->risk_options > 0)
        tco_strbuf_printf(&note, " P10 to Cheapest: tco advise --monte-carlo %zu --seed %llu drew %zu ranged input%s "
                          "alike for each of the top %zu option%s (values, not formulas: they stay as drawn when an "
                          "input is changed here); docs/advise.md.", a->risk_draws,
                          (unsigned long long)a->risk_seed, a->risk_inputs, tco_plural((double)a->risk_inputs),
                          a->risk_options, tco_plural((double)a->risk_options));
    tco_rank_sheet sheet = {.title = tco_strbuf_str(&title), .note = tco_strbuf_str(&note), .gate = "check_feasible",
                            .columns = a->train ? train : serve, .n_columns = n_cols, .key = n_cols - 1,
                            .tie = n_cols - 4, .speed = 0, .speed_high_first = !a->train, .explanation = tco_strbuf_str(&why), .visible = live,
                            .values = a->risk_options > 0 ? risk : NULL, .n_values = a->risk_options > 0 ? 5 : 0,
                            .question = a->name};
    if (e == TCO_OK && (title.failed || note.failed || why.failed))
        e = nomem(d);
    if (e == TCO_OK)
        e = tco_workbook_write_rank(models, rows, n, &sheet, path, opts, d);
    for (size_t i = 0; i < n; i++) {
        tco_run_free(runs[i]);
        tco_strbuf_free(&labels[i]);
        tco_strbuf_free(&reasons[i]);
    }
    tco_strbuf_free(&title);
    tco_strbuf_free(&note);
    tco_strbuf_free(&why);
    tco_strbuf_free(&target);
    return e;
}
