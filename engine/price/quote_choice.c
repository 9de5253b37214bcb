/* quote_choice.c - the best valid quote for an item and a quantity, and why each other one is not used
 * (quote_choice.h). */
#include "price/quote_choice.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "read/dates.h"

/* The first quote of @p item (SIZE_MAX if none), and the next after @p i. */
static size_t first_of(const tco_quote_set *set, const char *item)
{
    if (set->next_same && set->indexed == set->n) {
        size_t head;
        return tco_name_index_get(&set->by_item, item, &head) ? head : SIZE_MAX;
    }
    for (size_t i = 0; i < set->n; i++)
        if (strcasecmp(set->quotes[i].item, item) == 0)
            return i;
    return SIZE_MAX;
}

static size_t next_of(const tco_quote_set *set, const char *item, size_t i)
{
    if (set->next_same && set->indexed == set->n)
        return set->next_same[i];
    for (i++; i < set->n; i++)
        if (strcasecmp(set->quotes[i].item, item) == 0)
            return i;
    return SIZE_MAX;
}


const char *tco_quote_status_name(tco_quote_status status)
{
    switch (status) {
    case TCO_QUOTE_USED: return "used";
    case TCO_QUOTE_NOT_NEEDED: return "not needed";
    case TCO_QUOTE_BEATEN: return "not the best";
    case TCO_QUOTE_EXPIRED: return "expired";
    case TCO_QUOTE_NOT_YET_VALID: return "not yet valid";
    case TCO_QUOTE_UNDER_QTY: return "below minimum quantity";
    case TCO_QUOTE_NOT_IN_SCENARIO: return "not used by this scenario";
    case TCO_QUOTE_UNKNOWN_ITEM: return "unknown item";
    case TCO_QUOTE_OVERRIDDEN: return "replaced by --set";
    case TCO_QUOTE_NO_RATE: return "no exchange rate";
    }
    return "?";
}

static void set_reason(tco_quote *q, tco_quote_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_reason(tco_quote *q, tco_quote_status status, const char *fmt, ...)
{
    /* Whole, never cut: a reason cites at most a vendor (TCO_QUOTE_MAX_VENDOR), an item, a file
     * name and a line, so it always fits a cell (read/quote_csv.h). */
    q->status = status;
    free(q->reason);
    q->reason = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || (q->reason = malloc((size_t)n + 1)) == NULL)
        return; /* NULL: the callers' out-of-memory check (tco_model_apply_quotes) */
    va_start(ap, fmt);
    vsnprintf(q->reason, (size_t)n + 1, fmt, ap);
    va_end(ap);
}

bool tco_quote_dates_valid(const tco_quote *q, int32_t as_of, tco_quote_status *status, char *why, size_t size)
{
    char d1[16], d2[16]; /* formatted only for a reason: most rows are valid */
    if (q->valid_until != TCO_NO_DATE && q->valid_until < as_of) {
        *status = TCO_QUOTE_EXPIRED;
        if (why) {
            tco_format_date(q->valid_until, d1);
            tco_format_date(as_of, d2);
            snprintf(why, size, "expired: valid until %s, as of %s", d1, d2);
        }
        return false;
    }
    if (q->quote_date != TCO_NO_DATE && q->quote_date > as_of) {
        *status = TCO_QUOTE_NOT_YET_VALID;
        if (why) {
            tco_format_date(q->quote_date, d1);
            tco_format_date(as_of, d2);
            snprintf(why, size, "not yet valid: quoted %s, as of %s", d1, d2);
        }
        return false;
    }
    return true;
}

long tco_quotes_choose(tco_quote_set *set, const char *item, double quantity, int32_t as_of)
{
    long best = -1;
    char why[64];
    for (size_t i = first_of(set, item); i != SIZE_MAX; i = next_of(set, item, i)) {
        tco_quote *q = &set->quotes[i];
        tco_quote_status dated;
        if (q->status == TCO_QUOTE_NO_RATE) {
            continue; /* no price to compare: it keeps its status and reason (quote_csv.h) */
        } else if (!tco_quote_dates_valid(q, as_of, &dated, why, sizeof why)) {
            set_reason(q, dated, "%s", why);
        } else if (q->min_qty > quantity) {
            set_reason(q, TCO_QUOTE_UNDER_QTY, "minimum quantity %.15g, the scenario buys %.15g", q->min_qty,
                       quantity);
        } else {
            set_reason(q, TCO_QUOTE_BEATEN, "a cheaper valid quote was chosen");
            if (best < 0)
                best = (long)i;
            else {
                const tco_quote *b = &set->quotes[best];
                /* Lower price; then the earliest valid_until (no date counts as latest); then file order. */
                int64_t qv = q->valid_until == TCO_NO_DATE ? INT64_MAX : q->valid_until;
                int64_t bv = b->valid_until == TCO_NO_DATE ? INT64_MAX : b->valid_until;
                if (q->converted < b->converted || (q->converted == b->converted && qv < bv))
                    best = (long)i;
            }
        }
    }
    if (best >= 0) {
        tco_quote *b = &set->quotes[best];
        for (size_t i = first_of(set, item); i != SIZE_MAX; i = next_of(set, item, i)) {
            tco_quote *q = &set->quotes[i];
            if ((long)i != best && q->status == TCO_QUOTE_BEATEN)
                set_reason(q, TCO_QUOTE_BEATEN, "%s from %s (%s:%ld) was chosen",
                           b->converted < q->converted ? "a cheaper quote" : "an equal quote expiring sooner or listed first",
                           b->vendor, b->file, b->line);
        }
        set_reason(b, TCO_QUOTE_USED, "lowest valid price for %s", b->item);
    }
    return best;
}
