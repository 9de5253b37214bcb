/*
 * compare.h - several evaluated models in one workbook (compare.c): each option's sheets, prefixed, the
 * inputs they share on one sheet, and a Compare sheet; the Rank sheet of an advice (apps/rank.c) uses
 * the same options writer.
 */
#ifndef TCO_COMPARE_H
#define TCO_COMPARE_H

#include "render/book.h"
#include "render/workbook_kit.h"

/**
 * Write a comparison of @p n evaluated models (options A, B, ...) to @p path: a
 * Compare sheet first, then each option's own sheets prefixed "A ", "B ", ...
 * with its defined names prefixed "a_", "b_", ....  The Compare sheet holds,
 * as live formulas over those names, the template's [model] compare lines and
 * opex by year for every option, the difference of each to option A in money
 * and percent, each option's master check and a master check over all.
 * @p title heads the Compare sheet.  Errors as tco_workbook_write().
 */
tco_error tco_workbook_write_compare(tco_model *const *models, size_t n, const char *title, const char *path,
                                     const tco_workbook_options *opts, tco_diag *diag);

/** The options of one workbook (a comparison, or the options an advice lists): each option's sheets,
 *  prefixed "A ", "B ", ... with its names prefixed "a_", "b_", ..., and the site and finance inputs they
 *  all hold alike on one Shared inputs sheet (compare.c). */
typedef struct wb_options {
    /** The evaluated models, 1 to 26 (borrowed), and how many of the first are shown: their Summary
     *  sheets; every other sheet of an option is written and hidden (its names stay live for formulas
     *  elsewhere; a hidden sheet is not printed). */
    tco_model *const *models;
    size_t n, visible;
    /** Footer of the Shared inputs sheet (the workbook's title). */
    const char *title;
    /** Each option's description ("3x D-M in dc4, owned"), printed in the footer of its sheets with its
     *  scenario's name, so that a printed Summary says which option it is; NULL: the scenario's name alone. */
    const char *const *labels;
    /** Set by wb_write_options(): each option's sheet and name prefixes, and where its opex role
     *  line landed (-1 if none). */
    char sp[26][4], np[26][4];
    int opex_sheet[26], opex_row[26];
} wb_options;

/** Write the Shared inputs sheet (when the options share any input) and every option's own sheets
 *  (wb_write_model()), hiding all but the Summary of the first @p o->visible options.  Sets base->err
 *  on failure. */
void wb_write_options(writer *base, wb_options *o);

#endif /* TCO_COMPARE_H */
