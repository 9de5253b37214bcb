/* ranges.c - ranges on inputs (model.h, "ranges on inputs"): the KEY_range text checked against its
 * input, the distribution names, and the list of a loaded model's ranged values with the --set key of
 * each.  The loader (model.c) finds the keys; quotes (pricing.c) and the reporting currency drop or
 * convert them. */
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "model/ranges.h"

static const char *const dist_names[TCO_DIST_COUNT_OF] = {
    [TCO_DIST_NONE] = "none",       [TCO_DIST_TRIANGULAR] = "triangular", [TCO_DIST_UNIFORM] = "uniform",
    [TCO_DIST_PERT] = "pert",       [TCO_DIST_NORMAL] = "normal",         [TCO_DIST_LOGNORMAL] = "lognormal",
};
_Static_assert(sizeof dist_names / sizeof dist_names[0] == TCO_DIST_COUNT_OF, "a name for every tco_dist");

const char *tco_dist_name(tco_dist d)
{
    return d >= 0 && d < TCO_DIST_COUNT_OF ? dist_names[d] : "none";
}

tco_dist tco_dist_parse(const char *text)
{
    if (text == NULL)
        return TCO_DIST_NONE;
    while (*text == ' ' || *text == '\t')
        text++;
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    for (int d = TCO_DIST_TRIANGULAR; d < TCO_DIST_COUNT_OF; d++)
        if (strlen(dist_names[d]) == n && strncasecmp(text, dist_names[d], n) == 0)
            return (tco_dist)d;
    return TCO_DIST_NONE;
}

void tco_range_clear(tco_range *r)
{
    free(r->basis);
    free(r->given);
    *r = (tco_range){0};
}

bool tco_input_below_least(const tco_item *it, double v)
{
    return !isnan(it->least) && v > 0 && v < it->least;
}

tco_error tco_input_number(const tco_item *it, const tco_place *place, const char *text, double *number,
                           tco_diag *diag)
{
    if (!tco_parse_number(text, number) && tco_number_tiny(text))
        return tco_diag_at(diag, TCO_ERR_INI, place, "expected %s, found '%s'", TCO_NORMAL_EXPECTED, text);
    if (!tco_parse_number(text, number))
        return tco_diag_at(diag, TCO_ERR_INI, place,
                           "expected a number in %s (digits, '.' for decimals, no thousands "
                           "separators or units), found '%s'",
                           it->unit, text);
    double v = *number;
    if ((!isnan(it->min) && v < it->min) || (!isnan(it->max) && v > it->max) || (it->integer && v != floor(v)) ||
        tco_input_below_least(it, v)) {
        /* With least: "0 or a number >= LEAST ...", the least value above 0 in place of min. */
        bool least = !isnan(it->least);
        char lo[32] = "", hi[32] = "";
        if (!isnan(it->min))
            tco_format_double(least ? it->least : it->min, lo);
        if (!isnan(it->max))
            tco_format_double(it->max, hi);
        return tco_diag_at(diag, TCO_ERR_INI, place, "expected %s%s%s%s%s%s%s %s, found %s", least ? "0 or " : "",
                           it->integer ? "a whole number" : "a number", isnan(it->min) ? "" : " >= ", lo,
                           (!isnan(it->min) && !isnan(it->max)) ? " and" : "", isnan(it->max) ? "" : " <= ", hi,
                           it->unit, text);
    }
    return TCO_OK;
}

/* The text from @p p to @p end without the blanks around it, into @p out. */
static void trimmed(tco_strbuf *out, const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    tco_strbuf_printf(out, "%.*s", (int)(end - p), p);
}

tco_error tco_range_parse(const tco_item *it, const tco_place *place, const char *text, double point, tco_dist dist,
                          tco_range *out, tco_diag *diag)
{
    const char *comma = strchr(text, ',');
    if (comma == NULL || strchr(comma + 1, ',') != NULL)
        return tco_diag_at(diag, TCO_ERR_INI, place,
                           "expected LOW, HIGH (two numbers in %s separated by a comma, e.g. 1.2, 1.6), "
                           "found '%s'", it->unit, text);
    tco_strbuf low_text = {0}, high_text = {0}, low_part = {0}, high_part = {0};
    trimmed(&low_text, text, comma);
    trimmed(&high_text, comma + 1, comma + 1 + strlen(comma + 1));
    /* Each end is the place's part LOW or HIGH (after a part the place already has). */
    const char *had = place && place->part ? place->part : NULL;
    tco_strbuf_printf(&low_part, "%s%sLOW", had ? had : "", had ? ": " : "");
    tco_strbuf_printf(&high_part, "%s%sHIGH", had ? had : "", had ? ": " : "");
    tco_place low_place = place ? *place : (tco_place){0}, high_place = low_place;
    low_place.part = tco_strbuf_str(&low_part);
    high_place.part = tco_strbuf_str(&high_part);
    double low = 0, high = 0;
    tco_error e = low_text.failed || high_text.failed || low_part.failed || high_part.failed
                      ? tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory")
                      : TCO_OK;
    if (e == TCO_OK)
        e = tco_input_number(it, &low_place, tco_strbuf_str(&low_text), &low, diag);
    if (e == TCO_OK)
        e = tco_input_number(it, &high_place, tco_strbuf_str(&high_text), &high, diag);
    tco_strbuf_free(&low_text);
    tco_strbuf_free(&high_text);
    tco_strbuf_free(&low_part);
    tco_strbuf_free(&high_part);
    if (e != TCO_OK)
        return e;
    char lo[32], hi[32], pt[32];
    tco_format_double(low, lo);
    tco_format_double(high, hi);
    tco_format_double(point, pt);
    if (low > high)
        return tco_diag_at(diag, TCO_ERR_INI, place, "expected LOW <= HIGH, found LOW %s above HIGH %s", lo, hi);
    if (point < low || point > high)
        return tco_diag_at(diag, TCO_ERR_INI, place,
                           "expected LOW <= value <= HIGH, found the value %s %s the range %s to %s (%s %s)", pt,
                           point < low ? "below" : "above", lo, hi, it->name, it->unit);
    if (dist == TCO_DIST_LOGNORMAL && low <= 0)
        return tco_diag_at(diag, TCO_ERR_INI, place, "a lognormal range needs LOW > 0, found LOW %s", lo);
    out->dist = dist;
    out->low = out->given_low = low;
    out->high = out->given_high = high;
    return TCO_OK;
}

char *tco_model_set_key(const tco_model *m, int item, int tier)
{
    const tco_item *it = &m->items[item];
    if (it->set_key == NULL)
        return NULL;
    tco_strbuf set = {0};
    if (tier < 0)
        tco_strbuf_append(&set, it->set_key);
    else {
        /* The row the scenario's card (a ref key naming a tier) names is card.KEY; any row is ROW.KEY. */
        const char *row = m->tier_names[tier], *via = row;
        for (size_t k = 0; k < m->n_refs; k++)
            if (strcasecmp(m->ref_entries[k], row) == 0)
                via = m->ref_keys[k];
        tco_strbuf_printf(&set, "%s.%s", via, it->set_key);
    }
    return tco_strbuf_take(&set);
}

/* Append the entry for @p r of item @p i (tier row @p tier, -1 for a scalar) to @p v. */
static bool add_ranged(const tco_model *m, int i, int tier, const tco_range *r, tco_ranged_input *v, size_t *n)
{
    const tco_item *it = &m->items[i];
    tco_strbuf label = {0};
    if (tier < 0)
        tco_strbuf_append(&label, it->name);
    else
        tco_strbuf_printf(&label, "%s[%s]", it->name, m->tier_names[tier]);
    char *s = tco_model_set_key(m, i, tier), *l = tco_strbuf_take(&label);
    if (s == NULL || l == NULL) {
        free(s);
        free(l);
        return false;
    }
    v[(*n)++] = (tco_ranged_input){.item = i, .tier = tier, .range = r, .set = s, .label = l};
    return true;
}

tco_error tco_model_ranged_inputs(const tco_model *m, tco_ranged_input **out, size_t *n, tco_diag *diag)
{
    *out = NULL;
    *n = 0;
    size_t count = 0;
    for (size_t i = 0; i < m->n_items; i++) {
        const tco_item *it = &m->items[i];
        count += it->kind == TCO_ITEM_INPUT && it->range.dist != TCO_DIST_NONE;
        for (int r = 0; it->kind == TCO_ITEM_TIER_INPUT && it->tier_ranges && r < m->n_tiers; r++)
            count += it->tier_ranges[r].dist != TCO_DIST_NONE;
    }
    if (count == 0)
        return TCO_OK;
    tco_ranged_input *v = calloc(count, sizeof *v);
    if (v == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    size_t k = 0;
    bool ok = true;
    for (size_t i = 0; i < m->n_items && ok; i++) {
        const tco_item *it = &m->items[i];
        if (it->kind == TCO_ITEM_INPUT && it->range.dist != TCO_DIST_NONE)
            ok = add_ranged(m, (int)i, -1, &it->range, v, &k);
        for (int r = 0; ok && it->kind == TCO_ITEM_TIER_INPUT && it->tier_ranges && r < m->n_tiers; r++)
            if (it->tier_ranges[r].dist != TCO_DIST_NONE)
                ok = add_ranged(m, (int)i, r, &it->tier_ranges[r], v, &k);
    }
    if (!ok) {
        tco_ranged_inputs_free(v, k);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    *out = v;
    *n = k;
    return TCO_OK;
}

void tco_ranged_inputs_free(tco_ranged_input *v, size_t n)
{
    for (size_t k = 0; v && k < n; k++) {
        free(v[k].set);
        free(v[k].label);
    }
    free(v);
}
