/*
 * quote_choice.h - the quote that prices an item: among an item's quotes read
 * from CSV (read/quote_csv.h), the best valid one for the quantity bought on
 * the as-of date, and for each other one why it is not used.
 */
#ifndef TCO_QUOTE_CHOICE_H
#define TCO_QUOTE_CHOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/quote_csv.h"

/**
 * Choose for item @p item the quote that prices it: among quotes of that item
 * valid on @p as_of (quote_date <= as_of <= valid_until) whose min_qty <=
 * @p quantity, the lowest converted price; ties go to the earliest
 * valid_until, then to file order.  Sets every quote's status and reason for
 * that item but a row without an exchange rate (TCO_QUOTE_NO_RATE: it keeps its own, and is never chosen) (a reason is NULL when it could not be allocated).  Uses the index
 * of tco_quotes_index() when it is current, else scans every row.  Returns the
 * index of the chosen quote, or -1 if none is valid.
 */
long tco_quotes_choose(tco_quote_set *set, const char *item, double quantity, int32_t as_of);

/**
 * Whether quote @p q is valid on @p as_of by its dates (quote_date <= as_of <= valid_until; a missing
 * date does not limit).  When not, sets *@p status to TCO_QUOTE_EXPIRED or TCO_QUOTE_NOT_YET_VALID and
 * writes the reason into @p why (@p size bytes; 64 hold it; NULL for no reason): "expired: valid until
 * 2027-01-31, as of 2027-02-15" or "not yet valid: quoted 2026-12-01, as of 2026-11-30".  The one judgement of a run's
 * choice (tco_quotes_choose) and of `tco quotes check --as-of`.
 */
bool tco_quote_dates_valid(const tco_quote *q, int32_t as_of, tco_quote_status *status, char *why, size_t size);

/** Short words for a status ("used", "expired", ...). */
const char *tco_quote_status_name(tco_quote_status status);

#endif /* TCO_QUOTE_CHOICE_H */
