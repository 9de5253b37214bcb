/*
 * conventions.h - what each figure rests on: the status of every input (quote,
 * measured, seed figure, illustrative, what-if or stated), the capex lines by
 * the status of their prices, and the template's Conventions sheet.
 *
 * Nothing here computes a cost.  The status of an input is read from its
 * provenance, which the loader and tco_model_apply_quotes() record:
 *   - priced by a vendor quote (tco_model_apply_quotes())       -> quote
 *   - given by --set: a basis given by --set too (KEY_source) that starts
 *     "measured" -> measured, else                               -> what-if
 *   - the basis text (KEY_source) starts "measured"             -> measured
 *   - the basis text starts "seed §" (a figure of the seed, see
 *     docs/sources.md)                                           -> seed figure
 *   - the basis text contains "illustrative"                    -> illustrative
 *   - anything else (a scenario's own choice, a template default,
 *     a statute, a unit conversion)                              -> stated
 * A row of a per-tier input has its own status, from that row's basis.
 *
 * The template describes the rest:
 *   [model] capex_prices = LINE:PRICE PRICE ..., ...
 *       each capex line (a scalar line in money) and the prices it rests on,
 *       every input that prices it, an import duty too (inputs, or a line
 *       INDEX(PER_TIER_INPUT, ROW_LINE) such as card_price or card_import_duty,
 *       which rests on the chosen tier's row); the Summary shows capex by the
 *       status of those prices, each as a live sum of the lines.
 *   [convention.NAME] label = TEXT, value = NAME (optional), text = TEXT
 *       one row of the Conventions sheet, in template order: a label, the
 *       live formula =NAME over an input or scalar line when `value` is
 *       given (so the row follows an edit), and the explanation.
 */
#ifndef TCO_CONVENTIONS_H
#define TCO_CONVENTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "read/ini.h"
#include "model/model.h"

/** What an input value rests on (ordered from the weakest to the strongest). */
typedef enum tco_status {
    /** The basis says "illustrative": a placeholder until a quote or a measurement replaces it. */
    TCO_STATUS_ILLUSTRATIVE,
    /** Given by --set without a measured basis: a what-if, not a file's figure. */
    TCO_STATUS_WHATIF,
    /** Stated by a file (scenario, catalog, template default, statute) with no seed, quote or measurement. */
    TCO_STATUS_STATED,
    /** A figure of the seed ("seed §N: ..."; docs/sources.md restates each by section). */
    TCO_STATUS_SEED,
    /** A measurement: a basis starting "measured". */
    TCO_STATUS_MEASURED,
    /** A vendor quote's price (--quotes), converted to the model's currency and VAT basis. */
    TCO_STATUS_QUOTE,
    TCO_STATUS_COUNT_OF /**< number of statuses; not a status */
} tco_status;

/** The status as the Inputs sheet shows it: "quote", "measured", "seed figure", "illustrative",
 *  "what-if" or "stated".  Static text. */
const char *tco_status_name(tco_status s);

/** One sentence saying what @p s means, for the legend.  Static text. */
const char *tco_status_meaning(tco_status s);

/** The status of scalar input @p it (kind TCO_ITEM_INPUT). */
tco_status tco_status_of_input(const tco_item *it);

/** The status of row @p row (0-based) of per-tier input @p it (kind TCO_ITEM_TIER_INPUT). */
tco_status tco_status_of_tier_row(const tco_model *m, const tco_item *it, int row);

/**
 * Whether price @p idx is a line INDEX(PER_TIER_INPUT, ROW) such as card_price = INDEX(tier_price,
 * card_row): then *@p tier_input is the per-tier input's index and *@p row_item ROW's (a line or input
 * whose value is the 1-based row).  The workbook's Status of such a price reads the tier table's Status
 * column at that row.
 */
bool tco_price_tier_lookup(const tco_model *m, int idx, int *tier_input, int *row_item);

/**
 * The status of price @p idx: an input's own; for a per-tier input, or a line
 * INDEX(PER_TIER_INPUT, ROW) such as card_price, the status of the row the
 * model chose (ROW's value, 1-based); for any other line TCO_STATUS_STATED.
 */
tco_status tco_status_of_price(const tco_model *m, int idx);

/** A capex line and the prices it rests on ([model] capex_prices). */
typedef struct tco_capex_basis {
    /** The capex line (index into items: a scalar line in money). */
    int line;
    /** Its prices (indexes into items), n_prices of them. */
    int *prices;
    size_t n_prices;
} tco_capex_basis;

/** The status of capex line @p k of model->capex_basis: the weakest status among its prices
 *  (a line resting on one illustrative price is illustrative), a stated one left out while any other is
 *  there: a choice, a default or a statute (an import duty of 0 the catalog gives) is not an estimate, so a
 *  quoted card price with a stated duty is quoted.  Stated when every price is. */
tco_status tco_capex_status(const tco_model *m, size_t k);

/** One row of the Conventions sheet ([convention.NAME]). */
typedef struct tco_convention {
    /** The label (heap). */
    char *label;
    /** The input or scalar line shown as the live formula =NAME (index into items), or -1. */
    int value;
    /** The explanation (heap), or NULL. */
    char *text;
} tco_convention;

/**
 * Read [model] capex_prices and the [convention.NAME] sections of template @p t into
 * model->capex_basis and model->conventions (after every input and line is loaded).
 * Errors (the diagnostic names `file [section] key`): TCO_ERR_INI (a malformed list, an
 * unknown key, a convention without label, or with neither value nor text),
 * TCO_ERR_UNKNOWN_NAME (a name that is no such input or line, a capex line that is not a
 * scalar money line, a value that is not scalar), TCO_ERR_NOMEM.
 */
tco_error tco_conventions_load(tco_model *m, const tco_ini *t, tco_diag *diag);

/** Free model->capex_basis and model->conventions (tco_model_free() calls it). */
void tco_conventions_free(tco_model *m);

#endif /* TCO_CONVENTIONS_H */
