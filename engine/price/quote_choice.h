/*
 * quote_choice.h - the quote that prices an item: among an item's quotes read
 * from CSV (read/quote_csv.h), the best valid one for the quantity bought on
 * the as-of date, and for each other one why it is not used.
 */
#ifndef TCO_QUOTE_CHOICE_H
#define TCO_QUOTE_CHOICE_H

#include <stdint.h>

#include "read/quote_csv.h"

/**
 * Choose for item @p item the quote that prices it: among quotes of that item
 * valid on @p as_of (quote_date <= as_of <= valid_until) whose min_qty <=
 * @p quantity, the lowest converted price; ties go to the earliest
 * valid_until, then to file order.  Sets every quote's status and reason for
 * that item (a reason is NULL when it could not be allocated).  Uses the index
 * of tco_quotes_index() when it is current, else scans every row.  Returns the
 * index of the chosen quote, or -1 if none is valid.
 */
long tco_quotes_choose(tco_quote_set *set, const char *item, double quantity, int32_t as_of);

/** Short words for a status ("used", "expired", ...). */
const char *tco_quote_status_name(tco_quote_status status);

#endif /* TCO_QUOTE_CHOICE_H */
