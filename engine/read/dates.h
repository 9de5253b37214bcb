/*
 * dates.h - calendar dates as tco's files write them: YYYY-MM-DD, read into days
 * since 1970-01-01 (proleptic Gregorian) and written back.  Quote files
 * (quote_date, valid_until), pricing/fx.ini (as_of) and --as-of use them.
 */
#ifndef TCO_DATES_H
#define TCO_DATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Sentinel for an absent date. */
#define TCO_NO_DATE INT32_MIN

/** Parse YYYY-MM-DD (a real calendar date from 1900 on) into days since 1970-01-01. */
bool tco_parse_date(const char *text, int32_t *days);

/**
 * As tco_parse_date(), saying why not in @p why (may be NULL): "expected a
 * date as YYYY-MM-DD, found '31/12/2026'" when the form is wrong, "no such
 * day: '2026-02-30' (February 2026 has 28 days)" or "no such day: '2026-13-01'
 * names month 13 (months are 01 to 12)" when the form is right but names no
 * day, "expected a date from 1900-01-01 on, found '...'" before 1900.
 */
bool tco_date_check(const char *text, int32_t *days, char *why, size_t why_size);

/** Format days since 1970-01-01 as YYYY-MM-DD into @p out (at least 11 bytes). */
void tco_format_date(int32_t days, char out[16]);

#endif /* TCO_DATES_H */
