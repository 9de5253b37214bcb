/*
 * ranges.h - ranges on inputs (ranges.c): KEY_range and KEY_dist parsed and checked, the --set key
 * of an input, and the list of every ranged input value that sensitivity and Monte Carlo move.
 */
#ifndef TCO_RANGES_H
#define TCO_RANGES_H

#include "base/error.h"
#include "model/model.h"

/** The name of distribution @p d as KEY_dist writes it ("triangular", "uniform", "pert", "normal",
 *  "lognormal"); "none" for TCO_DIST_NONE. */
const char *tco_dist_name(tco_dist d);

/** The distribution named @p text (case-insensitive, surrounding blanks allowed), or TCO_DIST_NONE when
 *  it names none of them. */
tco_dist tco_dist_parse(const char *text);

/**
 * The --set key (SECTION.KEY, heap) that gives input @p item of @p model (an index into items) a value:
 * its set_key for a scalar input; for tier row @p tier (0-based) of a per-tier input "card.KEY" when a
 * ref key of the scenario (card) names that row, else "ROW.KEY" ("C90.price").  @p tier is -1 for a
 * scalar input.  NULL for an item without a set_key, or when out of memory.
 */
char *tco_model_set_key(const tco_model *model, int item, int tier);

/** One ranged input value of a loaded model (tco_model_ranged_inputs()). */
typedef struct tco_ranged_input {
    /** Index of the input in model->items. */
    int item;
    /** The tier row (0-based) of a per-tier input, -1 for a scalar input. */
    int tier;
    /** Its range (borrowed from the model's item: valid while the model is). */
    const tco_range *range;
    /** The --set key that moves this value (heap), as SECTION.KEY without "=VALUE": "facility.pue",
     *  "card.price" for the tier row the scenario's card names, "C90.price" for another tier row.
     *  `--set KEY=V` with V = range->given_low gives the model with this input at LOW. */
    char *set;
    /** A name for tables (heap): the input's name, with the tier row for a per-tier input:
     *  "pue", "tier_price[D-M]". */
    char *label;
} tco_ranged_input;

/**
 * Every ranged input value of @p model, in item order (a per-tier input's rows in tier order): for
 * sensitivity and Monte Carlo runs, which move exactly these.  *@p out is a heap array of *@p n entries
 * (NULL when none), freed with tco_ranged_inputs_free().  Errors: TCO_ERR_NOMEM.
 */
tco_error tco_model_ranged_inputs(const tco_model *model, tco_ranged_input **out, size_t *n, tco_diag *diag);

/** Free what tco_model_ranged_inputs() returned (NULL allowed). */
void tco_ranged_inputs_free(tco_ranged_input *v, size_t n);

/**
 * Parse and check @p text, the value of a KEY_range found at @p place (e.g. pricing/site.ini
 * [facility] pue_range, or the argument --set facility.pue_range=1.2,1.6), for input @p it whose point value is
 * @p point: two numbers "LOW, HIGH", within the input's min/max, whole if it is, LOW <= point <= HIGH;
 * @p dist (TCO_DIST_TRIANGULAR unless KEY_dist chose another) lognormal needs LOW > 0.  On success
 * sets out->low, out->high, out->given_low, out->given_high and out->dist (nothing else).
 * Errors: TCO_ERR_INI with a message naming @p place (each end's as its part LOW or HIGH: "PLACE: LOW:
 * expected ...") and what was expected, the place as data (tco_diag_at()).
 */
tco_error tco_range_parse(const tco_item *it, const tco_place *place, const char *text, double point, tco_dist dist,
                          tco_range *out, tco_diag *diag);

/**
 * Parse @p text, found at @p place, strictly as a number for input @p it (tco_parse_number()), within its
 * min/max and whole if it is: what the loader checks of every number input value and of each end of its
 * range.  Errors: TCO_ERR_INI, "PLACE: expected a number >= MIN and <= MAX UNIT, found TEXT", the place
 * as data (tco_diag_at()).
 */
tco_error tco_input_number(const tco_item *it, const tco_place *place, const char *text, double *number,
                           tco_diag *diag);

/** True when @p v is above 0 and below the least value above 0 input @p it takes (tco_item least): refused
 *  as a value out of its range is. */
bool tco_input_below_least(const tco_item *it, double v);

/** Free the strings of @p r and mark it as no range (safe on a zeroed range). */
void tco_range_clear(tco_range *r);

#endif /* TCO_RANGES_H */
