/* run.c - one run of the cost model: load, evaluate, quotes, currency (run.h). */
#include "price/run.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/names.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "model/evaluate.h"
#include "price/pricing.h"

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
        bool valid = q->status != TCO_QUOTE_NO_RATE && (q->valid_until == TCO_NO_DATE || q->valid_until >= k->as_of) &&
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

/* Errors stop a scenario run (nothing is priced from a file that cannot be read); warnings are kept in the
 * quote set (@p ctx), and the command reports them with the run's other warnings (render/report.h). */
typedef struct problems {
    tco_quote_set *set;
    bool nomem; /* a warning could not be kept */
} problems;

static bool stop_on_error(void *ctx, const tco_diag *problem, bool warning)
{
    problems *p = ctx;
    if (warning && !tco_quotes_keep_warning(p->set, problem))
        p->nomem = true;
    return warning && !p->nomem;
}

/* Load pricing/fx.ini with the run's --set fx.CODE rates. */
static tco_error load_fx(const tco_run_options *q, tco_fx *fx, tco_diag *d)
{
    char *fx_path = tco_path_join(q->root, "pricing/fx.ini");
    if (fx_path == NULL)
        return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    tco_error e = tco_fx_load_shared(fx_path, NULL, q->load.files, fx, d);
    free(fx_path);
    if (e != TCO_OK)
        return e;
    if (strcmp(fx->reporting, "CNY") != 0)
        return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = fx->path, .section = "fx", .key = "reporting"},
                           "the catalog's prices are in CNY, so its rates must be CNY per unit (reporting = CNY), "
                           "found %s", fx->reporting);
    for (size_t i = 0; i < q->n_fx_sets; i++) {
        /* A rate set twice (fx.usd=7 then FX.USD=7.1) is refused as any --set given twice is: the last one
         * was kept without a word. */
        for (size_t j = 0; j < i; j++)
            if (strcasecmp(q->fx_sets[j].key, q->fx_sets[i].key) == 0)
                return tco_diag_set(d, TCO_ERR_USAGE, "--set %s: sets [fx] %s again (first --set %s); give each "
                                    "value once", q->fx_sets[i].arg, q->fx_sets[i].key, q->fx_sets[j].arg);
        if ((e = tco_fx_set(fx, q->fx_sets[i].arg, q->fx_sets[i].key, q->fx_sets[i].value, d)) != TCO_OK)
            return e;
    }
    return TCO_OK;
}

/* Read the quote files and price the model from them (@p fx loaded by load_fx()). */
static tco_error apply_quotes(tco_model *m, const tco_run_options *q, tco_quote_set *set, tco_fx *fx, tco_diag *d)
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
    problems said = {.set = set};
    for (size_t i = 0; i < q->n_quote_files && e == TCO_OK; i++)
        if ((e = tco_quotes_read(q->quote_files[i], fx, keep_quote, &k, stop_on_error, &said, set, d)) != TCO_OK &&
            said.nomem)
            e = tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    /* A file that stops the run: the warnings read before its error are said with it, as nothing else will. */
    for (size_t i = 0; e != TCO_OK && i < set->n_file_warnings; i++)
        fputs("tco: warning: ", stderr), tco_text_put_terminal(stderr, set->file_warnings[i], strlen(set->file_warnings[i])),
            fputc('\n', stderr);
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
    if ((e = tco_catalog_quote_items(q->root, q->load.files, &items, &n_items, d)) == TCO_OK)
        e = tco_model_apply_quotes(m, set, fx, q->as_of, items, n_items, q->quotes_strict, d);
    for (size_t i = 0; i < n_items; i++)
        free(items[i]);
    free(items);
    return e;
}

/* Note each price quotes may set and the quantity it was judged against (tco_run_quotes_hold()). */
static tco_error note_priced(tco_run *run, tco_diag *d)
{
    const tco_model *m = run->model;
    size_t n = 0;
    for (size_t i = 0; i < m->n_items; i++)
        n += m->items[i].quote_item != NULL;
    run->priced = malloc((n ? n : 1) * sizeof *run->priced);
    run->priced_qty = malloc((n ? n : 1) * sizeof *run->priced_qty);
    if (run->priced == NULL || run->priced_qty == NULL)
        return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < m->n_items; i++) {
        int qty = m->items[i].quote_item ? tco_model_find(m, m->items[i].quote_qty) : -1;
        if (qty < 0)
            continue;
        run->priced[run->n_priced] = i;
        run->priced_qty[run->n_priced++] = m->items[qty].value;
    }
    return TCO_OK;
}

/* Whether quote row @p q is one of the rows that may price input @p it: its item, or for a per-tier
 * input any tier. */
static bool prices(const tco_model *m, const tco_item *it, const tco_quote *q)
{
    if (it->kind != TCO_ITEM_TIER_INPUT)
        return strcasecmp(q->item, it->quote_item) == 0;
    for (int r = 0; r < m->n_tiers; r++)
        if (strcasecmp(q->item, m->tier_names[r]) == 0)
            return true;
    return false;
}

bool tco_run_quotes_hold(const tco_run *run)
{
    const tco_model *m = run->model;
    for (size_t k = 0; k < run->n_priced; k++) {
        const tco_item *it = &m->items[run->priced[k]];
        double was = run->priced_qty[k], now = m->items[tco_model_find(m, it->quote_qty)].value;
        if (now == was)
            continue;
        double lo = was < now ? was : now, hi = was < now ? now : was;
        for (size_t i = 0; i < run->quotes.n; i++) {
            const tco_quote *q = &run->quotes.quotes[i];
            /* valid for one quantity and not the other: min_qty <= hi but not <= lo (NaN: never) */
            if (q->min_qty > lo && q->min_qty <= hi && prices(m, it, q))
                return false;
        }
    }
    return true;
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
static tco_error price_and_report(tco_run *run, tco_diag *d)
{
    tco_model *m = run->model;
    const tco_run_options *q = &run->opts;
    tco_quote_set *set = &run->quotes;
    tco_fx *fx = &run->fx;
    char *code = run->currency, *files_code = run->files_currency;
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
    bool fx_needed = q->n_quote_files > 0 || q->n_fx_sets > 0 || strcmp(code, "CNY") != 0;
    /* Without quotes, a --set rate can only be the reporting currency's. */
    for (size_t i = 0; q->n_quote_files == 0 && i < q->n_fx_sets; i++)
        if (strcasecmp(q->fx_sets[i].key, code) != 0)
            return tco_diag_set(d, TCO_ERR_USAGE, "--set %s: exchange rates convert vendor quotes (give --quotes "
                                "FILE.csv) and the reporting currency (here %s)\nTry 'tco --help'.",
                                q->fx_sets[i].arg, code);
    tco_error e = fx_needed ? load_fx(q, fx, d) : TCO_OK;
    if (e == TCO_OK && fx_needed && strcmp(code, fx->reporting) != 0) {
        double rate;
        if (!tco_fx_rate(fx, code, &rate)) {
            tco_strbuf known = {0};
            for (size_t k = 0; k < fx->n; k++)
                tco_strbuf_printf(&known, ", %s", fx->codes[k]);
            if (q->currency_given)
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
    if (e == TCO_OK && q->n_quote_files > 0)
        e = apply_quotes(m, q, set, fx, d);
    if (e == TCO_OK && q->n_quote_files > 0)
        e = note_priced(run, d);
    char given[32];
    snprintf(given, sizeof given, "--currency %s", code);
    if (e == TCO_OK && fx_needed)
        e = tco_model_set_currency(m, code, fx, q->currency_given ? given : NULL, d);
    return e;
}

/* The workbook's message for a value typed over a budget's acquisition cell (Excel allows 255 characters). */
static const char budget_why[] = "A budget prices owning the cards (capex and opex), so acquisition is own. Renting "
                                 "the same cards is priced on the Summary and Cash flow (Renting the same cards); "
                                 "tco advise with allow_cloud = yes ranks rented options.";

/* A budget owns its cards (tco_run_options.budget): refuse model @p m when its input acquisition is not own,
 * naming the place that gave the value (the scenario file's [scenario] acquisition or the --set argument),
 * why, and where renting is priced; else fix the input at own, so that its workbook cannot price renting. */
static tco_error budget_owns(tco_model *m, tco_diag *d)
{
    int i = tco_model_find(m, "acquisition");
    if (i < 0 || m->items[i].kind != TCO_ITEM_INPUT || m->items[i].text == NULL)
        return TCO_OK; /* a template that prices no acquisition: nothing is rented */
    const tco_item *it = &m->items[i];
    if (strcmp(it->text, "own") == 0)
        return tco_model_fix_text_input(m, it->name, budget_why, d);
    /* The place as data (tco_diag_at()); an input no file or --set gave is named as the input. */
    tco_place at = it->value_place;
    if (at.file == NULL && at.arg == NULL)
        at = (tco_place){.arg = "input acquisition"};
    return tco_diag_at(d, TCO_ERR_INI, &at,
                       "a budget prices owning the cards, its TCO their capex and opex: with acquisition = %.40s its "
                       "TCO and capex would describe a purchase not made; renting the same cards is priced in every "
                       "budget (its Summary and Cash flow: Renting the same cards, rental_cost_total), and tco "
                       "advise with [advise] allow_cloud = yes ranks rented options; %s", it->text,
                       it->value_place.arg ? "drop this --set" : "remove the key (own is the default)");
}

tco_error tco_run_open(const tco_run_options *opts, tco_run **out, tco_diag *diag)
{
    *out = NULL;
    tco_run *r = calloc(1, sizeof *r);
    if (r == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    r->opts = *opts;
    tco_error e = tco_model_load(opts->root, opts->scenario_path, &opts->load, &r->model, diag);
    if (e == TCO_OK && opts->budget)
        e = budget_owns(r->model, diag);
    if (e == TCO_OK)
        e = tco_model_evaluate(r->model, diag);
    if (e == TCO_OK)
        e = price_and_report(r, diag);
    if (e != TCO_OK) {
        tco_run_free(r);
        return e;
    }
    *out = r;
    return TCO_OK;
}

tco_error tco_run_twin(const tco_run *run, tco_run **out, tco_diag *diag)
{
    return tco_run_open(&run->opts, out, diag);
}

void tco_run_free(tco_run *run)
{
    if (run == NULL)
        return;
    tco_model_free(run->model);
    free(run->priced);
    free(run->priced_qty);
    tco_quotes_free(&run->quotes);
    tco_fx_free(&run->fx);
    free(run);
}
