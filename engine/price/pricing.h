/*
 * pricing.h - quotes into a model's inputs and the reporting currency (pricing.c): the best valid quote
 * for each quoted input, the fx inputs of the currencies quoted, and every money input converted to
 * the reporting currency at its source.
 */
#ifndef TCO_PRICING_H
#define TCO_PRICING_H

#include <stddef.h>
#include <stdint.h>
#include "base/error.h"
#include "model/model.h"
#include "read/fx.h"
#include "read/quote_csv.h"

/**
 * Price the model's quoted inputs from @p set: for each input with a quote key,
 * choose the best quote valid on @p as_of for the quantity the model buys
 * (tco_quotes_choose), set the input to its converted price (a plain value,
 * source naming the quote) and re-evaluate.  A per-tier input (quote = tier)
 * is priced row by row, each tier by the quotes for its name.  A value given
 * by --set (a scalar input or a tier row) is never replaced: the quotes that
 * would have priced it get TCO_QUOTE_OVERRIDDEN.  A per-tier input's source
 * names each quoted row; when that text would pass an Excel cell (32,767
 * UTF-16 units: many tiers with long vendor names) it names as many rows as
 * fit and the number of the others (all are on the Quotes sheet).  Quotes for items the model does
 * not price are marked not used, with the reason: an item in @p known_items
 * (tco_catalog_quote_items()) is not bought by this scenario, any other is
 * unknown.  Adds an input fx_CODE for
 * each foreign currency quoted.  Keeps @p set for the workbook's Quotes sheet
 * (the caller keeps it alive until the model is freed).
 * Each item the quotes tried to price and did not gets a warning in the model's quote_warnings, ending
 * with what follows: "the catalog's price stays", or with @p strict (--quotes-strict, where any such
 * warning stops the run and nothing is written) "under --quotes-strict that is an error".
 * Errors: TCO_ERR_EVAL, TCO_ERR_NOMEM.
 */
tco_error tco_model_apply_quotes(tco_model *model, tco_quote_set *set, const tco_fx *fx, int32_t as_of,
                                 char *const *known_items, size_t n_known, bool strict, tco_diag *diag);

/** What tco_quotes_note_unpriced() asks of the run (or runs) a quote set priced. */
typedef struct tco_quote_judge {
    /** True when what was priced buys none of @p item (0 switches, a card tier no option chooses): its rows
     *  failing is no warning.  Required. */
    bool (*buys_none)(void *ctx, const char *item);
    /** True when row @p i of the set priced a figure; NULL: when its status is TCO_QUOTE_USED. */
    bool (*priced)(void *ctx, size_t i);
    /** Why row @p i priced nothing, as the warning cites it; NULL: the row's own reason. */
    const char *(*reason)(void *ctx, size_t i);
    void *ctx;
} tco_quote_judge;

/**
 * The quote warnings of @p set after its rows were judged (statuses and reasons set): one for each item
 * whose rows all failed to price it (expired, not yet valid, under min_qty, unknown item, no exchange rate)
 * and none of which priced a figure, and one for each item a row prices while rows of it in a currency without
 * a rate could not be compared with that row (one of them may be cheaper); none for an item @p judge says
 * is not bought, nor for a value --set gives (those are choices, not failures).  Items in the order their
 * first row was read; each cites up to 3 rows as FILE:LINE: REASON and ends with what follows: "the
 * catalog's price stays" (or the quote used stays, or no price is taken from an unknown item), with @p strict
 * (--quotes-strict) "under --quotes-strict that is an error".  Appends each text (owned) to *@p warnings
 * (*@p n_warnings of them) and counts the items not priced in *@p n_unpriced.  tco_model_apply_quotes() judges
 * a scenario's run with it, tco advise its candidates.  Needs tco_quotes_index() current.  Errors:
 * TCO_ERR_NOMEM.
 */
tco_error tco_quotes_note_unpriced(const tco_quote_set *set, const tco_quote_judge *judge, bool strict,
                                   char ***warnings, size_t *n_warnings, size_t *n_unpriced, tco_diag *diag);

/**
 * Every item id quotes may name under @p root: the sections of the catalog files
 * that templates refer to by refs, the literal quote ids in templates/ *.ini,
 * and for quote = tier the sections of the template's [model] tiers file (the
 * word "tier" itself is not an item).
 * The files are read through @p files (tco_ini_cache_load(); NULL: read for this call alone).
 * Returns a heap array of heap strings (free each and the array).
 */
tco_error tco_catalog_quote_items(const char *root, tco_ini_cache *files, char ***items, size_t *n, tco_diag *diag);

/** Name of the input holding the reporting currency's rate: CNY per unit (pricing/fx.ini). */
#define TCO_FX_REPORT "fx_report"

/** The model's reporting currency: "CNY" unless tco_model_set_currency() chose another. */
const char *tco_model_currency(const tco_model *model);

/**
 * Report @p model in currency @p code (3 letters, case-insensitive; fx->reporting, CNY, or a code with
 * a rate in @p fx, after its --set rates): every figure shown stays a template formula, and the
 * money inputs are converted at their source.  For a code other than CNY this adds the input
 * fx_report (TCO_FX_REPORT: CNY per unit of @p code, its source pricing/fx.ini or the --set that gave
 * it), makes each money input (tco_unit_is_money(); not the fx_ rates) its CNY value over fx_report
 * (in_report, base_value), writes @p code for "CNY" in every money unit, chart title and warning,
 * sets the text input `currency` (if the template has one) to @p code, with @p given_by (e.g.
 * "--currency USD", or NULL when the files chose it) in its source, and re-evaluates.  Call it after
 * tco_model_apply_quotes(): a quoted price is converted like any other money input.
 * Errors: TCO_ERR_INI (no rate for @p code in @p fx; a money input's value, tier row or range end
 * that over the rate passes the largest double, named with where it comes from and the rate),
 * TCO_ERR_EVAL, TCO_ERR_NOMEM.
 */
tco_error tco_model_set_currency(tco_model *model, const char *code, const tco_fx *fx, const char *given_by,
                                 tco_diag *diag);

/**
 * Set the reporting rate fx_report (CNY per unit of the reporting currency) of a model that
 * tco_model_set_currency() reports in another currency to @p rate, and convert every money input
 * (in_report) again at it, as tco_model_set_currency() converted it: value = base_value / rate, each
 * tier row base_tiers / rate, the range ends given_low / rate and given_high / rate, the bounds
 * base_min / rate and base_max / rate.  Then re-evaluate.  This is what typing a new rate into the
 * workbook's fx_report cell does (each money cell is =BASE/fx_report), and what `--set fx.CODE=RATE`
 * gives.  Errors: TCO_ERR_UNKNOWN_NAME (the model is reported in CNY: no fx_report), TCO_ERR_INI
 * (@p rate outside TCO_FX_MIN_RATE to TCO_FX_MAX_RATE, or a money input that over it would pass the
 * largest double, as tco_model_set_currency() refuses it; nothing changes), TCO_ERR_EVAL.
 */
tco_error tco_model_set_report_rate(tco_model *model, double rate, tco_diag *diag);

/**
 * Set number input @p name (row @p tier of a per-tier input, a tier code; NULL for a single value) to
 * @p given in the units `--set` takes, and re-evaluate: for a money input of a model reported in
 * another currency (in_report) @p given is CNY: base_value (base_tiers[row]) = @p given, value =
 * @p given / fx_report, the one conversion tco_model_set_currency() makes; for fx_report the rate
 * (tco_model_set_report_rate()); for any other input the value itself (tco_model_set_input(),
 * tco_model_set_tier_input()).  So the JSON's `given` (or `value` where there is no `given`) of a run,
 * set here, gives that run's figures.  Errors: TCO_ERR_UNKNOWN_NAME (no such number input or tier),
 * TCO_ERR_INI (outside the input's min/max, checked in the reporting currency as for
 * tco_model_set_input(); nothing changes), TCO_ERR_EVAL.
 */
tco_error tco_model_set_given_input(tco_model *model, const char *name, const char *tier, double given,
                                    tco_diag *diag);

#endif /* TCO_PRICING_H */
