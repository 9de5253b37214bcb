/* pricing.c - price a loaded model from vendor quotes (model.h: tco_model_apply_quotes(),
 * tco_catalog_quote_items()): the best valid quote per priced input and tier row, checked
 * against the input's range, fx inputs for foreign currencies, sources naming the quotes. */
#include "model/model.h"

#include <ctype.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "read/ini.h"
#include "base/names.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "model/evaluate.h"
#include "model/ranges.h"
#include "price/pricing.h"
#include "price/quote_choice.h"
#include "read/dates.h"

/* A chosen quote @p b outside the range of input @p it (a tier row @p row, or NULL) stops the run, as a
 * --set of the same value does: a quote is never used for a value its input's min/max refuse. */
static tco_error quote_in_range(const tco_model *m, const tco_item *it, const char *row, const tco_quote *b,
                                tco_diag *diag)
{
    double v = b->converted;
    bool low = !isnan(it->min) && v < it->min, high = !isnan(it->max) && v > it->max;
    bool frac = it->integer && v != floor(v);
    if (!low && !high && !frac)
        return TCO_OK;
    char price[32], conv[32], bound[32] = "";
    tco_format_double(b->unit_price, price);
    tco_format_double(v, conv);
    if (low || high)
        tco_format_double(low ? it->min : it->max, bound);
    tco_strbuf place = {0}, what = {0};
    if (b->vat_included)
        tco_strbuf_printf(&what, "%s %s incl. VAT = %s CNY ex VAT", price, b->currency, conv);
    else if (b->rate != 1)
        tco_strbuf_printf(&what, "%s %s = %s CNY", price, b->currency, conv);
    else
        tco_strbuf_printf(&what, "%s %s", conv, b->currency);
    if (row)
        tco_strbuf_printf(&place, "the %s row of %s", row, it->name);
    else
        tco_strbuf_printf(&place, "%s", it->name);
    tco_error e = tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = b->file, .line = b->line},
                              "quote %s%sfrom %s for %s: %s is %s %s of %s (%s [input.%s]); a quote "
                              "outside its input's range is not used: correct the quote or the range",
                              b->quote_id, b->quote_id[0] ? " " : "", b->vendor, b->item,
                              tco_strbuf_str(&what),
                              frac ? "not a whole number, as required" : low ? "below the min" : "above the max",
                              bound, tco_strbuf_str(&place), m->template_path, it->name);
    tco_strbuf_free(&place);
    tco_strbuf_free(&what);
    return e;
}

/* A quote prices a value whose range came with another value: the range goes with it (it described
 * the catalog's or the scenario's price), unless a --set gave it, which then must hold the quoted price
 * @p v (of input @p it, tier row @p row or NULL). */
static tco_error quote_range(const tco_item *it, const char *row, double v, tco_range *r, tco_diag *diag)
{
    if (r->dist == TCO_DIST_NONE)
        return TCO_OK;
    if (!r->by_set) {
        tco_range_clear(r);
        return TCO_OK;
    }
    if (v >= r->low && v <= r->high)
        return TCO_OK;
    char price[32], lo[32], hi[32];
    tco_format_double(v, price);
    tco_format_double(r->low, lo);
    tco_format_double(r->high, hi);
    return tco_diag_set(diag, TCO_ERR_INI, "%s: expected LOW <= value <= HIGH, found the quoted price %s%s%s of %s "
                        "outside the range %s to %s: correct the range or the quote", r->given, price,
                        row ? " for " : "", row ? row : "", it->name, lo, hi);
}

/* Append an input made at run time (the FX rates of quoted currencies). */
static tco_item *model_add_input(tco_model *m, const char *name)
{
    tco_item *it = tco_model_add_item(m, TCO_ITEM_INPUT, name);
    if (it)
        it->format = TCO_FMT_RATIO;
    return it;
}

static tco_error apply_chosen_quotes(tco_model *m, tco_quote_set *set, const tco_fx *fx, int32_t as_of,
                                     const tco_name_index *known_index, char *const *known_items, size_t n_known,
                                     tco_diag *diag);
static bool buys_none(void *ctx, const char *item);

tco_error tco_model_apply_quotes(tco_model *m, tco_quote_set *set, const tco_fx *fx, int32_t as_of,
                                 char *const *known_items, size_t n_known, bool strict, tco_diag *diag)
{
    m->quotes = set;
    m->as_of = as_of;
    /* Each choice below looks only at its item's rows, and each row's item is found in one probe:
     * linear in rows, whatever the catalog's size (11,000 tiers x 20,000 rows). */
    tco_name_index known = {0};
    if (!tco_quotes_index(set))
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    for (size_t k = 0; k < n_known; k++)
        if (tco_name_index_put(&known, known_items[k], NULL) == NULL) {
            tco_name_index_free(&known);
            return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        }
    tco_error e = apply_chosen_quotes(m, set, fx, as_of, &known, known_items, n_known, diag);
    tco_name_index_free(&known);
    const tco_quote_judge judge = {.buys_none = buys_none, .ctx = m};
    if (e == TCO_OK)
        e = tco_quotes_note_unpriced(set, &judge, strict, &m->quote_warnings, &m->n_quote_warnings,
                                     &m->n_quote_unpriced, diag);
    return e;
}

/* The statuses of a row that tried to price its item and could not. */
static bool unpriced_status(tco_quote_status s)
{
    return s == TCO_QUOTE_EXPIRED || s == TCO_QUOTE_NOT_YET_VALID || s == TCO_QUOTE_UNDER_QTY ||
           s == TCO_QUOTE_UNKNOWN_ITEM || s == TCO_QUOTE_NO_RATE;
}

/* The text input whose values are the tier codes (template values_from = tier: card_tier), or NULL. */
static const tco_item *tier_choice(const tco_model *m)
{
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].choices_are_tiers && m->items[i].text != NULL)
            return &m->items[i];
    return NULL;
}

/* Whether the scenario buys tier @p tier: it is the chosen tier (tier_choice()), or the template chooses
 * none (then every row may be bought). */
static bool tier_bought(const tco_model *m, const char *tier)
{
    const tco_item *choice = tier_choice(m);
    return choice == NULL || strcasecmp(choice->text, tier) == 0;
}

/* The most of @p item any price of @p m buys (the quote_qty of each input it prices; for a tier name,
 * of the per-tier input), or -1 when no price takes @p item. */
static double bought(const tco_model *m, const char *item)
{
    double most = -1;
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        if (it->quote_item == NULL)
            continue;
        bool takes = it->kind != TCO_ITEM_TIER_INPUT && strcasecmp(it->quote_item, item) == 0;
        bool tier_row = false;
        for (int r = 0; !takes && it->kind == TCO_ITEM_TIER_INPUT && r < m->n_tiers; r++)
            takes = tier_row = strcasecmp(m->tier_names[r], item) == 0;
        int q = takes ? tco_model_find(m, it->quote_qty) : -1;
        double qty = q < 0 ? -1 : tier_row && !tier_bought(m, item) ? 0 : m->items[q].value;
        if (qty > most)
            most = qty; /* a tier row other than the chosen tier's: none of it is bought */
    }
    return most;
}

/* Rows a warning cites by place and reason; the others of the same item are counted. */
#define UNPRICED_CITED 3

/* Whether the scenario of model @p ctx buys none of @p item (0 switches, a tier row it does not choose): an
 * item no price takes (an unknown one) is not "none": quotes tried to price it. */
static bool buys_none(void *ctx, const char *item)
{
    return bought(ctx, item) == 0;
}

/* Whether row @p i of @p set priced a figure: the judge's, else its status. */
static bool row_priced(const tco_quote_judge *j, const tco_quote_set *set, size_t i)
{
    return j->priced ? j->priced(j->ctx, i) : set->quotes[i].status == TCO_QUOTE_USED;
}

tco_error tco_quotes_note_unpriced(const tco_quote_set *set, const tco_quote_judge *judge, bool strict,
                                   char ***warnings, size_t *n_warnings, size_t *n_unpriced, tco_diag *diag)
{
    if (set->indexed != set->n || (set->n && set->next_same == NULL))
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory"); /* tco_quotes_index() failed */
    tco_name_index seen = {0};
    size_t *first = malloc((set->n ? set->n : 1) * sizeof *first), n_items = 0;
    bool *failed = malloc((set->n ? set->n : 1) * sizeof *failed);
    /* per item: rows without a rate, and the row used (SIZE_MAX: none) */
    size_t *no_rate = calloc(set->n ? set->n : 1, sizeof *no_rate), *used = malloc((set->n ? set->n : 1) * sizeof *used);
    tco_error e = first && failed && no_rate && used ? TCO_OK : tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    /* Each item's first row, and whether every row of it failed. */
    for (size_t i = 0; i < set->n && e == TCO_OK; i++) {
        const tco_quote *q = &set->quotes[i];
        bool added = false;
        size_t *slot = tco_name_index_put(&seen, q->item, &added);
        if (slot == NULL) {
            e = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
            break;
        }
        if (added) {
            *slot = n_items;
            first[n_items] = i;
            used[n_items] = SIZE_MAX;
            failed[n_items++] = true;
        }
        bool priced = row_priced(judge, set, i);
        failed[*slot] &= unpriced_status(q->status) && !priced;
        no_rate[*slot] += q->status == TCO_QUOTE_NO_RATE;
        if (priced && used[*slot] == SIZE_MAX)
            used[*slot] = i;
    }
    for (size_t g = 0; g < n_items && e == TCO_OK; g++) {
        const char *item = set->quotes[first[g]].item;
        /* An item the scenario buys none of (0 switches) is not bought: its rows fail on min_qty alone. */
        bool uncompared = !failed[g] && no_rate[g] > 0 && used[g] != SIZE_MAX;
        if ((!failed[g] && !uncompared) || judge->buys_none(judge->ctx, item))
            continue;
        tco_strbuf b = {0};
        size_t rows = 0, cited = 0;
        /* The item's rows in file order: the chain of tco_quotes_index() (made above; no row added since). */
        for (size_t i = first[g]; i != SIZE_MAX; i = set->next_same[i])
            rows++;
        if (uncompared) {
            rows = no_rate[g];
            tco_strbuf_printf(&b, "%zu quote%s for %s not compared (no exchange rate): ", rows, rows == 1 ? "" : "s",
                              item);
        } else if (set->quotes[first[g]].status == TCO_QUOTE_UNKNOWN_ITEM)
            tco_strbuf_printf(&b, "no quote prices '%s' (%zu row%s): ", item, rows, rows == 1 ? "" : "s");
        else
            tco_strbuf_printf(&b, "no quote prices %s (%zu row%s, none valid): ", item, rows, rows == 1 ? "" : "s");
        for (size_t i = first[g]; i != SIZE_MAX && cited < UNPRICED_CITED; i = set->next_same[i]) {
            const tco_quote *q = &set->quotes[i];
            if (uncompared && q->status != TCO_QUOTE_NO_RATE)
                continue;
            const char *why = judge->reason ? judge->reason(judge->ctx, i) : q->reason;
            tco_strbuf_printf(&b, "%s%s:%ld: %s", cited++ ? "; " : "", q->file, q->line, why ? why : q->reason);
        }
        if (rows > cited)
            tco_strbuf_printf(&b, "; %zu more (every row's reason: the Quotes sheet, or quotes.unused in --format json)", rows - cited);
        const tco_quote *u = uncompared ? &set->quotes[used[g]] : NULL;
        if (strict) /* the run stops: no price stays, none is taken */
            tco_strbuf_append(&b, "; under --quotes-strict that is an error");
        else if (uncompared)
            tco_strbuf_printf(&b, "; %s is priced from the quote used (%s:%ld), which one of these may undercut", item,
                              u->file, u->line);
        else if (set->quotes[first[g]].status == TCO_QUOTE_UNKNOWN_ITEM)
            tco_strbuf_append(&b, "; no price is taken from it");
        else
            tco_strbuf_append(&b, "; the catalog's price stays");
        char *text = tco_strbuf_take(&b);
        char **grown = text ? realloc(*warnings, (*n_warnings + 1) * sizeof *grown) : NULL;
        if (grown == NULL) {
            free(text);
            e = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
            break;
        }
        *warnings = grown;
        (*warnings)[(*n_warnings)++] = text;
        *n_unpriced += !uncompared;
    }
    tco_name_index_free(&seen);
    free(first);
    free(failed);
    free(no_rate);
    free(used);
    return e;
}

static tco_error apply_chosen_quotes(tco_model *m, tco_quote_set *set, const tco_fx *fx, int32_t as_of,
                                     const tco_name_index *known_index, char *const *known_items, size_t n_known,
                                     tco_diag *diag)
{
    /* FX rates of the currencies quoted, as inputs: the Quotes sheet converts with them. */
    for (size_t i = 0; i < set->n; i++) {
        const char *ccy = set->quotes[i].currency;
        if (set->quotes[i].status == TCO_QUOTE_NO_RATE)
            continue; /* no rate to make an input of: the row prices nothing */
        if (strcasecmp(ccy, fx->reporting) == 0 || strcasecmp(ccy, fx->report) == 0)
            continue; /* the catalog's CNY (rate 1), or the reporting currency (its rate is fx_report) */
        char name[16], lower[4];
        for (int c = 0; c < 3; c++)
            lower[c] = (char)tolower((unsigned char)ccy[c]);
        lower[3] = '\0';
        snprintf(name, sizeof name, "fx_%s", lower);
        if (tco_model_find(m, name) >= 0)
            continue;
        tco_item *it = model_add_input(m, name);
        char date[16];
        tco_format_date(fx->as_of, date);
        tco_strbuf label = {0}, unit = {0}, source = {0};
        tco_strbuf_printf(&label, "Exchange rate, %s per %s", fx->reporting, ccy);
        tco_strbuf_printf(&unit, "%s/%s", fx->reporting, ccy);
        /* A rate given by --set fx.CODE=R says so, and what the file said, as any --set input does. */
        const char *set_arg = NULL;
        char was[32] = "";
        for (size_t k = 0; fx->set_args && k < fx->n; k++)
            if (strcasecmp(fx->codes[k], ccy) == 0 && fx->set_args[k]) {
                set_arg = fx->set_args[k];
                tco_format_double(fx->file_rates[k], was);
            }
        if (set_arg)
            tco_strbuf_printf(&source, "--set %s (was %s): ", set_arg, was);
        tco_strbuf_printf(&source, "%s [fx] %s, rates as of %s", fx->path, lower, date);
        if (it == NULL || (it->label = tco_strbuf_take(&label)) == NULL || (it->unit = tco_strbuf_take(&unit)) == NULL ||
            (it->source = tco_strbuf_take(&source)) == NULL || (set_arg && (it->original = tco_strdup(was)) == NULL))
            return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        tco_fx_rate(fx, ccy, &it->value);
        it->min = 0;
    }
    /* A --set rate no quote is in would change nothing: refused, as a --set no input reads is. */
    for (size_t k = 0; fx->set_args && k < fx->n; k++) {
        if (fx->set_args[k] == NULL)
            continue;
        char name[16];
        snprintf(name, sizeof name, "fx_%c%c%c", tolower((unsigned char)fx->codes[k][0]),
                 tolower((unsigned char)fx->codes[k][1]), tolower((unsigned char)fx->codes[k][2]));
        if (tco_model_find(m, name) < 0 && strcasecmp(fx->codes[k], fx->report) != 0)
            return tco_diag_set(diag, TCO_ERR_INI, "--set %s: no quote read is in %s, so no price uses this rate",
                                fx->set_args[k], fx->codes[k]);
    }
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        if (it->quote_item == NULL || it->kind != TCO_ITEM_TIER_INPUT)
            continue;
        /* The tier catalog row by row: the price if the scenario bought its quantity of that tier.
         * The source names each quoted row while it fits a cell; the rest are counted. */
        double qty = m->items[tco_model_find(m, it->quote_qty)].value;
        tco_strbuf notes = {0};
        /* The notes share the cell with the source and ". Quoted: " (100 units of margin). */
        size_t used = tco_xlsx_text_units(it->source) + 100, untold = 0;
        size_t room = used < TCO_QUOTE_MAX_CELL ? TCO_QUOTE_MAX_CELL - used : 0;
        for (int r = 0; r < m->n_tiers; r++) {
            if (it->tier_set && it->tier_set[r])
                continue; /* a --set row: marked below */
            long best = tco_quotes_choose(set, m->tier_names[r], qty, as_of);
            if (best < 0)
                continue;
            const tco_quote *b = &set->quotes[best];
            tco_error re = quote_in_range(m, it, m->tier_names[r], b, diag);
            if (re != TCO_OK) {
                tco_strbuf_free(&notes);
                return re;
            }
            if (it->tier_ranges && (re = quote_range(it, m->tier_names[r], b->converted, &it->tier_ranges[r], diag)) !=
                                       TCO_OK) {
                tco_strbuf_free(&notes);
                return re;
            }
            it->tiers[r] = b->converted;
            if (it->tier_quotes == NULL) {
                if ((it->tier_quotes = malloc((size_t)m->n_tiers * sizeof *it->tier_quotes)) == NULL) {
                    tco_strbuf_free(&notes);
                    return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
                }
                for (int k = 0; k < m->n_tiers; k++)
                    it->tier_quotes[k] = -1;
            }
            it->tier_quotes[r] = best;
            char price[32];
            tco_format_double(b->converted, price);
            tco_strbuf one = {0};
            tco_strbuf_printf(&one, "%s%s: quote %s%sfrom %s (%s:%ld), %s %s", notes.len ? "; " : "",
                              m->tier_names[r], b->quote_id, b->quote_id[0] ? " " : "", b->vendor, b->file, b->line,
                              price, fx->reporting);
            if (b->vat_included)
                tco_strbuf_append(&one, " ex VAT");
            tco_strbuf_append_capped(&notes, tco_strbuf_str(&one), room, &untold);
            if (one.failed)
                notes.failed = true;
            tco_strbuf_free(&one);
        }
        /* A quote that prices the row of a tier the scenario does not buy is not needed by it: it is kept for
         * the row (choosing that tier in the workbook prices it), but the scenario's figures do not use it. */
        const tco_item *choice = tier_choice(m);
        for (int r = 0; choice && it->tier_quotes && r < m->n_tiers; r++) {
            if (it->tier_quotes[r] < 0 || tier_bought(m, m->tier_names[r]))
                continue;
            tco_quote *q = &set->quotes[it->tier_quotes[r]];
            tco_strbuf why = {0};
            tco_strbuf_printf(&why, "lowest valid price for %s, which scenario %s does not buy (%s is %s): it prices "
                              "the %s row of %s only", m->tier_names[r], m->scenario_name, choice->name, choice->text,
                              m->tier_names[r], it->name);
            free(q->reason);
            q->status = TCO_QUOTE_NOT_NEEDED;
            if ((q->reason = tco_strbuf_take(&why)) == NULL) {
                tco_strbuf_free(&notes);
                return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
            }
        }
        if (untold)
            tco_strbuf_printf(&notes, "; %zu more tier%s quoted (see the Quotes sheet)", untold, untold == 1 ? "" : "s");
        if (notes.len) {
            tco_strbuf src = {0};
            tco_strbuf_printf(&src, "%s. Quoted: %s", it->source, tco_strbuf_str(&notes));
            char *text = notes.failed ? NULL : tco_strbuf_take(&src);
            tco_strbuf_free(&src);
            if (text == NULL) {
                tco_strbuf_free(&notes);
                return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
            }
            free(it->source);
            it->source = text;
        }
        tco_strbuf_free(&notes);
    }
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        if (it->quote_item == NULL || it->kind == TCO_ITEM_TIER_INPUT || it->original != NULL)
            continue; /* a --set value is the user's explicit what-if: quotes do not replace it */
        int q = tco_model_find(m, it->quote_qty);
        double qty = m->items[q].value;
        long best = tco_quotes_choose(set, it->quote_item, qty, as_of);
        if (best < 0)
            continue;
        const tco_quote *b = &set->quotes[best];
        tco_error re = quote_in_range(m, it, NULL, b, diag);
        if (re == TCO_OK)
            re = quote_range(it, NULL, b->converted, &it->range, diag);
        if (re != TCO_OK)
            return re;
        char price[32], conv[32], rate[32];
        tco_format_double(b->unit_price, price);
        tco_format_double(b->converted, conv);
        tco_format_double(b->rate, rate);
        tco_strbuf src = {0};
        tco_strbuf_printf(&src, "quote %s%sfrom %s (%s:%ld): %s %s", b->quote_id, b->quote_id[0] ? " " : "",
                          b->vendor, b->file, b->line, price, b->currency);
        if (b->vat_included) {
            char vat[32];
            tco_format_double(b->vat_rate * 100, vat);
            tco_strbuf_printf(&src, " incl. %s%% VAT", vat);
            if (b->rate != 1)
                tco_strbuf_printf(&src, " x %s", rate);
            char div[32], ex[32];
            tco_format_double(1 + b->vat_rate, div);
            snprintf(ex, sizeof ex, "%.15g", b->converted); /* 113000 / 1.13 is 100000.00000000001 */
            tco_strbuf_printf(&src, " / %s = %s %s ex VAT", div, ex, fx->reporting);
        } else if (b->rate != 1)
            tco_strbuf_printf(&src, " x %s = %s %s", rate, conv, fx->reporting);
        char old[32];
        tco_format_double(it->value, old);
        /* The quote's part is bounded (quote_csv.h caps); the catalog's source is cited while it fits a cell. */
        if (tco_utf16_units(tco_strbuf_str(&src)) + tco_utf16_units(it->source) + 64 <= TCO_QUOTE_MAX_CELL)
            tco_strbuf_printf(&src, "; the catalog's value was %s (%s)", old, it->source);
        else
            tco_strbuf_printf(&src, "; the catalog's value was %s", old);
        char *text = tco_strbuf_take(&src);
        if (text == NULL)
            return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        free(it->source);
        it->source = text;
        it->catalog_value = it->value;
        it->quoted = true;
        it->quote_index = (size_t)best;
        it->value = b->converted;
    }
    /* Quotes for a value a --set gives: not used, and why (unless another input they price chose them). */
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        if (it->quote_item == NULL)
            continue;
        for (int r = -1; r < (it->kind == TCO_ITEM_TIER_INPUT ? m->n_tiers : 0); r++) {
            const char *item = r < 0 ? it->quote_item : m->tier_names[r];
            bool by_set = r < 0 ? it->kind != TCO_ITEM_TIER_INPUT && it->original != NULL
                                : it->tier_set != NULL && it->tier_set[r] != NULL;
            if (!by_set)
                continue;
            for (size_t k = 0; k < set->n; k++) {
                tco_quote *q = &set->quotes[k];
                if (q->reason != NULL || strcasecmp(q->item, item) != 0)
                    continue;
                q->status = TCO_QUOTE_OVERRIDDEN;
                tco_strbuf b = {0};
                if (r < 0)
                    tco_strbuf_printf(&b, "%s is given by --set (%s); quotes do not replace a --set value", it->name,
                                      it->label);
                else
                    tco_strbuf_printf(&b, "the %s row of %s is given by --set %s; quotes do not replace a --set value",
                                      item, it->name, it->tier_set[r]);
                if ((q->reason = tco_strbuf_take(&b)) == NULL)
                    return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
            }
        }
    }
    for (size_t i = 0; i < set->n; i++) {
        tco_quote *q = &set->quotes[i];
        /* Decided by a choice above; a row without a rate keeps its own reason where the scenario prices its
         * item, and where it does not, the item says why first (as for a row in any currency). */
        if (q->reason != NULL && (q->status != TCO_QUOTE_NO_RATE || bought(m, q->item) >= 0))
            continue;
        free(q->reason);
        q->reason = NULL;
        bool known = tco_name_index_get(known_index, q->item, NULL);
        q->status = known ? TCO_QUOTE_NOT_IN_SCENARIO : TCO_QUOTE_UNKNOWN_ITEM;
        tco_strbuf b = {0};
        if (known)
            tco_strbuf_printf(&b, "scenario %s does not buy %s", m->scenario_name, q->item);
        else {
            /* The catalog item nearest within 2 edits (the first of the nearest), as `quotes check` suggests. */
            const char *near = NULL;
            size_t near_d = 3;
            for (size_t k = 0; k < n_known && near_d > 1; k++) {
                size_t dist = tco_edit_distance(q->item, known_items[k]);
                if (dist < near_d)
                    near_d = dist, near = known_items[k];
            }
            if (near)
                tco_strbuf_printf(&b, "'%s' is not a catalog item (did you mean '%s'?)", q->item, near);
            else
                tco_strbuf_printf(&b, "'%s' is not a catalog item (card tiers, hosts, or the template's quote ids)",
                                  q->item);
        }
        if ((q->reason = tco_strbuf_take(&b)) == NULL)
            return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < set->n; i++)
        if (set->quotes[i].reason == NULL) /* set_reason could not allocate */
            return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    return tco_model_evaluate(m, diag);
}

/* Append each section of ROOT/pricing/STEM.ini, as written, with a newline, to @p list (nothing if unreadable). */
static void append_catalog_sections(const char *root, const char *stem, tco_ini_cache *files, tco_strbuf *list,
                                    tco_diag *diag)
{
    tco_strbuf rel = {0};
    tco_strbuf_printf(&rel, "pricing/%s.ini", stem);
    char *path = rel.failed ? NULL : tco_path_join(root, tco_strbuf_str(&rel));
    tco_strbuf_free(&rel);
    const tco_ini *cat = NULL;
    if (path && tco_ini_cache_load(files, path, NULL, &cat, diag) == TCO_OK)
        for (int s = 0; s < cat->n_sections; s++) {
            tco_strbuf_append(list, cat->sections[s]);
            tco_strbuf_append(list, "\n");
        }
    free(path);
}

tco_error tco_catalog_quote_items(const char *root, tco_ini_cache *files, char ***items, size_t *n, tco_diag *diag)
{
    *items = NULL;
    *n = 0;
    tco_ini_cache own = {0}; /* without a cache given, the files are read for this call alone */
    if (files == NULL)
        files = &own;
    tco_strbuf list = {0};
    char *pattern = tco_path_join(root, "templates/*.ini");
    glob_t g;
    int rc = pattern ? glob(pattern, 0, NULL, &g) : GLOB_NOSPACE;
    free(pattern);
    tco_error e = TCO_OK;
    for (size_t f = 0; rc == 0 && f < g.gl_pathc && e == TCO_OK; f++) {
        const tco_ini *t = NULL;
        if ((e = tco_ini_cache_load(files, g.gl_pathv[f], NULL, &t, diag)) != TCO_OK)
            break;
        const char *refs = tco_ini_get(t, "model", "refs");
        char **pairs = NULL;
        int np = refs ? tco_split_list(refs, &pairs) : 0;
        /* Each catalog's sections once per template, however many inputs quote it. */
        bool *listed = np > 0 ? calloc((size_t)np, sizeof *listed) : NULL;
        bool tiers_listed = false;
        if (np > 0 && listed == NULL)
            e = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        for (int i = 0; i < tco_ini_section_count(t) && e == TCO_OK; i++) {
            const char *quote = tco_ini_get(t, tco_ini_section_name(t, i), "quote");
            if (quote == NULL)
                continue;
            bool is_ref = false;
            for (int k = 0; k < np && !is_ref; k++) {
                const char *colon = strchr(pairs[k], ':');
                if (colon && (size_t)(colon - pairs[k]) == strlen(quote) && strncasecmp(pairs[k], quote, strlen(quote)) == 0) {
                    is_ref = true;
                    if (!listed[k]) /* each of its sections is an item */
                        append_catalog_sections(root, colon + 1, files, &list, diag);
                    listed[k] = true;
                }
            }
            const char *tiers = tco_ini_get(t, "model", "tiers");
            if (!is_ref && strcasecmp(quote, "tier") == 0) {
                /* quote = tier: the rows of the tier catalog are the items, not the word "tier" */
                if (tiers && !tiers_listed)
                    append_catalog_sections(root, tiers, files, &list, diag);
                tiers_listed = true;
            } else if (!is_ref)
                tco_strbuf_printf(&list, "%s\n", quote);
        }
        free(listed);
        tco_free_list(pairs, np > 0 ? np : 0);
    }
    if (rc == 0)
        globfree(&g);
    tco_ini_cache_free(&own);
    if (e != TCO_OK) {
        tco_strbuf_free(&list);
        return e;
    }
    char *all = tco_strbuf_take(&list);
    if (all == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    tco_name_index seen = {0}; /* keys borrowed from all: one probe per line, not a scan */
    size_t cap = 0;
    for (char *line = strtok(all, "\n"); line; line = strtok(NULL, "\n")) {
        bool added = false;
        if (tco_name_index_put(&seen, line, &added) == NULL)
            goto oom;
        if (!added)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(*items, cap * sizeof *grown);
            if (grown == NULL)
                goto oom;
            *items = grown;
        }
        if (((*items)[*n] = tco_strdup(line)) == NULL)
            goto oom;
        (*n)++;
    }
    tco_name_index_free(&seen);
    free(all);
    return TCO_OK;
oom:
    tco_name_index_free(&seen);
    free(all);
    return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
}

/* ---- reporting currency ---- */

const char *tco_model_currency(const tco_model *m)
{
    return m->currency[0] ? m->currency : "CNY";
}

/* The fx_ rates (fx_usd, fx_report) are CNY per unit of a currency: ratios, not money. */
static bool is_rate(const tco_item *it)
{
    return strncmp(it->name, "fx_", 3) == 0;
}

/* Write @p code over each word "CNY" of @p text (in place: the same length). */
static void recode(char *text, const char *code)
{
    for (char *p = text ? strstr(text, "CNY") : NULL; p; p = strstr(p + 3, "CNY")) {
        bool starts = p == text || !isalnum((unsigned char)p[-1]), ends = !isalnum((unsigned char)p[3]);
        if (starts && ends)
            memcpy(p, code, 3);
    }
}

/* A CNY amount @p base in the reporting currency at @p rate (CNY per unit): the one conversion, as the
 * workbook's =BASE/fx_report computes it (every line is a template formula over the converted inputs). */
static double in_report(double base, double rate)
{
    return base / rate;
}

/* Refuse the CNY figure @p base of money input @p it (tier row @p row, or -1; @p part: NULL for the value,
 * "LOW" or "HIGH" of its range) when over @p rate (fx_report, @p rep) it passes the largest double: the
 * conversion, not a template formula over an infinite input, is what failed.  Names the input, where its
 * value comes from and the rate with its source. */
static tco_error converted_check(const tco_model *m, const tco_item *it, int row, const char *part, double base,
                                 double rate, const tco_item *rep, tco_diag *diag)
{
    if (isfinite(in_report(base, rate)))
        return TCO_OK;
    char v[32], r[32];
    tco_format_double(base, v);
    tco_format_double(rate, r);
    const char *unit = it->unit && strlen(it->unit) >= 3 ? it->unit + 3 : ""; /* "/card" of "USD/card" */
    const char *code = m->currency[0] ? m->currency : "the reporting currency";
    tco_strbuf what = {0}, from = {0};
    if (row >= 0)
        tco_strbuf_printf(&what, "%s, row %s", it->name, m->tier_names[row]);
    else
        tco_strbuf_append(&what, it->name);
    if (part)
        tco_strbuf_printf(&what, ", %s of its range", part);
    const tco_range *range = part == NULL ? NULL : row >= 0 ? &it->tier_ranges[row] : &it->range;
    if (range && range->given)
        tco_strbuf_append(&from, TCO_SHOWN(range->given));
    else if (row >= 0 && it->tier_set && it->tier_set[row])
        tco_strbuf_printf(&from, "--set %s", it->tier_set[row]);
    else
        tco_strbuf_append(&from, it->source ? TCO_SHOWN(it->source) : "");
    tco_error e = tco_diag_set(diag, TCO_ERR_INI,
                               "%s = %s CNY%s (%s) in %s: over %s = %s CNY/%s (%s) it passes the largest number "
                               "(1.8e308); give a smaller value or report in a currency with a larger rate",
                               tco_strbuf_str(&what), v, unit, tco_strbuf_str(&from), code, TCO_FX_REPORT, r, code,
                               rep && rep->source ? TCO_SHOWN(rep->source) : "");
    tco_strbuf_free(&what);
    tco_strbuf_free(&from);
    return e;
}

/* Check that every figure convert() makes of money input @p it at @p rate is finite (before anything is
 * converted, so that a refusal changes nothing).  The bounds are not checked: a bound past the largest
 * number bounds nothing, as none does. */
static tco_error convert_check(const tco_model *m, const tco_item *it, double rate, const tco_item *rep,
                               tco_diag *diag)
{
    tco_error e = TCO_OK;
    if (it->kind == TCO_ITEM_INPUT) {
        e = converted_check(m, it, -1, NULL, it->base_value, rate, rep, diag);
        if (e == TCO_OK && it->range.dist != TCO_DIST_NONE)
            e = converted_check(m, it, -1, "LOW", it->range.given_low, rate, rep, diag);
        if (e == TCO_OK && it->range.dist != TCO_DIST_NONE)
            e = converted_check(m, it, -1, "HIGH", it->range.given_high, rate, rep, diag);
        return e;
    }
    for (int r = 0; r < m->n_tiers && e == TCO_OK; r++) {
        e = converted_check(m, it, r, NULL, it->base_tiers[r], rate, rep, diag);
        if (e == TCO_OK && it->tier_ranges && it->tier_ranges[r].dist != TCO_DIST_NONE)
            e = converted_check(m, it, r, "LOW", it->tier_ranges[r].given_low, rate, rep, diag);
        if (e == TCO_OK && it->tier_ranges && it->tier_ranges[r].dist != TCO_DIST_NONE)
            e = converted_check(m, it, r, "HIGH", it->tier_ranges[r].given_high, rate, rep, diag);
    }
    return e;
}

/* Money input @p it (in_report) converted from its CNY base at @p rate: its value or tier rows, its
 * range's ends (converted as its value) and its bounds (0 and none stay as they are). */
static void convert(const tco_model *m, tco_item *it, double rate)
{
    it->min = isnan(it->base_min) || it->base_min == 0 ? it->base_min : in_report(it->base_min, rate);
    it->max = isnan(it->base_max) || it->base_max == 0 ? it->base_max : in_report(it->base_max, rate);
    if (it->kind == TCO_ITEM_INPUT) {
        it->value = in_report(it->base_value, rate);
        it->range.low = in_report(it->range.given_low, rate);
        it->range.high = in_report(it->range.given_high, rate);
        return;
    }
    for (int r = 0; r < m->n_tiers; r++) {
        it->tiers[r] = in_report(it->base_tiers[r], rate);
        if (it->tier_ranges) {
            it->tier_ranges[r].low = in_report(it->tier_ranges[r].given_low, rate);
            it->tier_ranges[r].high = in_report(it->tier_ranges[r].given_high, rate);
        }
    }
}

tco_error tco_model_set_currency(tco_model *m, const char *code, const tco_fx *fx, const char *given_by,
                                 tco_diag *diag)
{
    char up[4] = "";
    for (int c = 0; c < 3 && code[c]; c++)
        up[c] = (char)toupper((unsigned char)code[c]);
    double rate = 1;
    if (strlen(code) != 3 || !tco_fx_rate(fx, up, &rate)) {
        tco_strbuf known = {0};
        for (size_t k = 0; k < fx->n; k++)
            tco_strbuf_printf(&known, ", %s", fx->codes[k]);
        tco_error e = tco_diag_set(diag, TCO_ERR_INI, "%s: no exchange rate for '%s' in %s; the reporting currency "
                                   "is one of %s%s", given_by ? given_by : "currency", code, fx->path, fx->reporting,
                                   tco_strbuf_str(&known));
        tco_strbuf_free(&known);
        return e;
    }
    int cur = tco_model_find(m, "currency");
    if (cur >= 0 && m->items[cur].kind == TCO_ITEM_INPUT && m->items[cur].text &&
        (given_by || strcmp(m->items[cur].text, up) != 0)) { /* the code as chosen, in upper case */
        tco_item *it = &m->items[cur];
        tco_strbuf src = {0};
        if (given_by)
            tco_strbuf_printf(&src, "chosen by %s, the files say %s: ", given_by, it->text);
        tco_strbuf_append(&src, it->source);
        char *text = tco_strdup(up), *source = tco_strbuf_take(&src);
        if (text == NULL || source == NULL) {
            free(text);
            free(source);
            return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        }
        free(it->text);
        free(it->source);
        it->text = text;
        it->source = source;
    }
    if (strcasecmp(up, fx->reporting) == 0) {
        m->currency[0] = '\0';
        return TCO_OK; /* the catalog's own: every value as the files give it */
    }
    memcpy(m->currency, up, 4);
    if (tco_model_find(m, TCO_FX_REPORT) >= 0)
        return tco_diag_at(diag, TCO_ERR_DUPLICATE, &(tco_place){.file = m->template_path},
                           "'%s' is the reporting currency's rate and cannot be an input or line name", TCO_FX_REPORT);
    /* The rate: CNY per unit of the reporting currency, from pricing/fx.ini or a --set fx.CODE. */
    const char *set_arg = NULL;
    char was[32] = "", lower[4] = {(char)tolower((unsigned char)up[0]), (char)tolower((unsigned char)up[1]),
                                   (char)tolower((unsigned char)up[2]), '\0'};
    for (size_t k = 0; fx->set_args && k < fx->n; k++)
        if (strcasecmp(fx->codes[k], up) == 0 && fx->set_args[k]) {
            set_arg = fx->set_args[k];
            tco_format_double(fx->file_rates[k], was);
        }
    tco_item *rep = model_add_input(m, TCO_FX_REPORT);
    char date[16] = "no date";
    if (fx->as_of != TCO_NO_DATE)
        tco_format_date(fx->as_of, date);
    tco_strbuf label = {0}, unit = {0}, source = {0};
    tco_strbuf_printf(&label, "Reporting currency %s: exchange rate, %s per %s (each money input is its %s value "
                      "over it)", up, fx->reporting, up, fx->reporting);
    tco_strbuf_printf(&unit, "%s/%s", fx->reporting, up);
    if (set_arg)
        tco_strbuf_printf(&source, "--set %s (was %s): ", set_arg, was);
    tco_strbuf_printf(&source, "%s [fx] %s, rates as of %s", fx->path, lower, date);
    char set_key[8]; /* --set fx.CODE=RATE gives the rate */
    snprintf(set_key, sizeof set_key, "fx.%s", lower);
    if (rep == NULL || (rep->label = tco_strbuf_take(&label)) == NULL || (rep->unit = tco_strbuf_take(&unit)) == NULL ||
        (rep->source = tco_strbuf_take(&source)) == NULL || (set_arg && (rep->original = tco_strdup(was)) == NULL) ||
        (rep->set_key = tco_strdup(set_key)) == NULL) {
        tco_strbuf_free(&label);
        tco_strbuf_free(&unit);
        tco_strbuf_free(&source);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    rep->value = rate;
    rep->site_wide = true; /* one reporting rate for every option of a comparison */
    rep->min = TCO_FX_MIN_RATE;
    rep->max = TCO_FX_MAX_RATE;
    /* Money inputs at their source: the CNY value kept as the base, the value that over fx_report. */
    for (size_t i = 0; i < m->n_items; i++) {
        tco_item *it = &m->items[i];
        bool input = it->kind == TCO_ITEM_INPUT || it->kind == TCO_ITEM_TIER_INPUT;
        if (!tco_unit_is_money(it->unit) || is_rate(it))
            continue;
        memcpy(it->unit, up, 3);
        if (!input || it->text || it->tier_texts)
            continue;
        it->in_report = true;
        it->integer = false; /* a whole CNY price is not a whole USD price */
        it->base_min = it->min;
        it->base_max = it->max;
        it->base_value = it->value;
        if (it->kind == TCO_ITEM_TIER_INPUT) {
            if ((it->base_tiers = malloc((size_t)(m->n_tiers ? m->n_tiers : 1) * sizeof *it->base_tiers)) == NULL)
                return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
            for (int r = 0; r < m->n_tiers; r++)
                it->base_tiers[r] = it->tiers[r];
        }
        tco_error e = convert_check(m, it, rate, rep, diag);
        if (e != TCO_OK)
            return e;
        convert(m, it, rate);
    }
    for (size_t c = 0; c < m->n_charts; c++)
        recode(m->charts[c].title, up);
    for (size_t i = 0; i < m->n_items; i++)
        recode(m->items[i].warning, up);
    return tco_model_evaluate(m, diag);
}

/* The index of fx_report in @p m, or -1 (with @p diag set) when the model is reported in CNY. */
static int report_rate(const tco_model *m, tco_diag *diag)
{
    int rep = m->currency[0] ? tco_model_find(m, TCO_FX_REPORT) : -1;
    if (rep < 0)
        tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "no input named '%s': the model is reported in the catalog's "
                     "currency, CNY", TCO_FX_REPORT);
    return rep;
}

tco_error tco_model_set_report_rate(tco_model *m, double rate, tco_diag *diag)
{
    int rep = report_rate(m, diag);
    if (rep < 0)
        return TCO_ERR_UNKNOWN_NAME;
    tco_error e = TCO_OK;
    for (size_t i = 0; i < m->n_items && e == TCO_OK; i++) /* nothing changes when one would overflow */
        if (m->items[i].in_report)
            e = convert_check(m, &m->items[i], rate, &m->items[rep], diag);
    if (e == TCO_OK)
        e = tco_model_assign_input(m, rep, rate, diag); /* within TCO_FX_MIN_RATE..TCO_FX_MAX_RATE */
    if (e != TCO_OK)
        return e;
    for (size_t i = 0; i < m->n_items; i++)
        if (m->items[i].in_report)
            convert(m, &m->items[i], rate);
    return tco_model_evaluate(m, diag);
}

tco_error tco_model_set_given_input(tco_model *m, const char *name, const char *tier, double given, tco_diag *diag)
{
    int idx = tco_model_find(m, name);
    if (idx >= 0 && m->currency[0] && strcasecmp(m->items[idx].name, TCO_FX_REPORT) == 0 && tier == NULL)
        return tco_model_set_report_rate(m, given, diag);
    if (idx < 0 || !m->items[idx].in_report)
        return tier ? tco_model_set_tier_input(m, name, tier, given, diag) : tco_model_set_input(m, name, given, diag);
    tco_item *it = &m->items[idx];
    int rep = report_rate(m, diag);
    if (rep < 0)
        return TCO_ERR_UNKNOWN_NAME;
    double rate = m->items[rep].value;
    tco_error e;
    if (it->kind == TCO_ITEM_INPUT) {
        if (tier != NULL)
            return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "input %s is a single value, not per tier", name);
        if ((e = converted_check(m, it, -1, NULL, given, rate, &m->items[rep], diag)) != TCO_OK ||
            (e = tco_model_assign_input(m, idx, in_report(given, rate), diag)) != TCO_OK)
            return e;
        it->base_value = given;
        return tco_model_evaluate(m, diag);
    }
    int r = tco_model_tier_row(m, tier);
    if (r < 0)
        return tco_diag_set(diag, TCO_ERR_UNKNOWN_NAME, "input %s: no tier named '%s'", name, tier ? tier : "");
    if ((e = converted_check(m, it, r, NULL, given, rate, &m->items[rep], diag)) != TCO_OK ||
        (e = tco_model_assign_tier_input(m, idx, r, in_report(given, rate), diag)) != TCO_OK)
        return e;
    it->base_tiers[r] = given;
    return tco_model_evaluate(m, diag);
}
