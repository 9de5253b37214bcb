/*
 * fx.h - exchange rates: pricing/fx.ini's [fx] section (reporting = CNY,
 * as_of = DATE, and CODE = rate keys), and --set fx.CODE=RATE replacing a rate.
 * Quote prices convert to the reporting currency at these rates.
 */
#ifndef TCO_FX_H
#define TCO_FX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "read/ini.h"

/** Range of an exchange rate in pricing/fx.ini (reporting units per unit), checked when it is read:
 *  with prices of at most 15 significant digits, every converted price is then finite and normal. */
#define TCO_FX_MIN_RATE 1e-6
#define TCO_FX_MAX_RATE 1e6

/** Exchange rates: pricing/fx.ini [fx] reporting = CNY, as_of = DATE, and CODE = rate keys. */
typedef struct tco_fx {
    /** Reporting currency code, e.g. "CNY". */
    char reporting[4];
    /** Date of the rates (days since 1970), or TCO_NO_DATE (dates.h). */
    int32_t as_of;
    /** Currency codes (upper case) and reporting units per one unit. */
    char (*codes)[4];
    double *rates;
    size_t n;
    /** Where the rates come from, for sources: "pricing/fx.ini". */
    char *path;
    /** Per rate, after tco_fx_set(): the --set argument that replaced it (borrowed, e.g.
     *  "fx.usd=7.2"), else NULL, and the rate the file gave; both NULL until a rate is set. */
    const char **set_args;
    double *file_rates;
    /** The run's reporting currency when it is not the catalog's (--currency, [finance] currency), else
     *  "": quotes in it convert at the fx_report input (model.h), not at an fx_CODE input of their own. */
    char report[4];
} tco_fx;

/**
 * Load exchange rates from @p path (display name @p display).
 * Errors: TCO_ERR_NOINPUT, TCO_ERR_INI (bad code, rate or date).
 */
tco_error tco_fx_load(const char *path, const char *display, tco_fx *fx, tco_diag *diag);

/** As tco_fx_load(), reading the file through @p files (see tco_ini_cache_load(); NULL: read for this
 *  call alone), so that the scenarios of one run read it once. */
tco_error tco_fx_load_shared(const char *path, const char *display, tco_ini_cache *files, tco_fx *fx,
                             tco_diag *diag);

/**
 * Replace the rate of currency @p code (case-insensitive) with @p value, as --set @p arg
 * (fx.usd=7.2, kept borrowed for sources) asks; quotes read after it convert at the new rate.
 * Checked as the file's rates are: a code with a rate in the file, not the reporting currency,
 * a number from TCO_FX_MIN_RATE to TCO_FX_MAX_RATE.  Errors: TCO_ERR_INI naming @p arg, TCO_ERR_NOMEM.
 */
tco_error tco_fx_set(tco_fx *fx, const char *arg, const char *code, const char *value, tco_diag *diag);

/** Rate for @p code (case-insensitive), 1 for the reporting currency; false if unknown. */
bool tco_fx_rate(const tco_fx *fx, const char *code, double *rate);

/**
 * Append to @p out why a quote in currency @p code (three letters, upper case) that has no rate in @p fx
 * prices nothing, and how to give it one: "no exchange rate for KRW in pricing/fx.ini (it has USD, EUR,
 * ...): add krw = RATE (CNY per KRW) to its [fx] section to use this quote".  The reason of a quote row of
 * status TCO_QUOTE_NO_RATE (quote_csv.h), and the text `tco quotes check` warns with.
 */
void tco_fx_no_rate(const tco_fx *fx, const char *code, tco_strbuf *out);

/** True if @p s has the form of a currency code: three ASCII letters, either case ("USD", "usd"). */
bool tco_fx_code_valid(const char *s);

/** Free the rates (safe on a zeroed struct). */
void tco_fx_free(tco_fx *fx);

#endif /* TCO_FX_H */
