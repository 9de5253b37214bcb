/*
 * bind.h - the loader's last two steps (model.c), on a model whose items and formulas are loaded:
 * every name in a formula bound to the item it stands for, and the items put in dependency order.
 * Internal to the engine: tco_model_load() runs both.
 */
#ifndef TCO_BIND_H
#define TCO_BIND_H

#include "base/error.h"
#include "model/model.h"

/**
 * Bind every NAME node of every item's formula in @p model: node->ref becomes the index of the item it
 * names.  Checks that a name exists (with "did you mean" for a near miss), that `year` and `month`
 * appear only in per-year and per-month lines, that a schedule line reads only schedule lines, that a
 * vector (per-year, per-tier, per-month) is read in a line of its own shape or whole, through SUM, MIN
 * or MAX, and that CUMSUM takes a line of its own time line.  Errors: TCO_ERR_UNKNOWN_NAME,
 * TCO_ERR_SYNTAX (CUMSUM), each naming the formula's place and column.
 */
tco_error tco_model_bind(tco_model *model, tco_diag *diag);

/**
 * Fill @p model->order (n_items entries, heap, freed with the model) with the items in dependency
 * order: each after every item its formula reads (a total after its line).  Depth-first over the
 * bound formulas (call tco_model_bind() first).  Errors: TCO_ERR_CYCLE (a circular reference, named
 * "a -> b -> a" from the first item of the cycle's place), TCO_ERR_NOMEM.
 */
tco_error tco_model_order(tco_model *model, tco_diag *diag);

/** Period columns of per-year item @p it (a per-year line or the Total of one): n_schedule_periods
 *  on the schedule sheet, else n_periods; n_months for a per-month item; 0 for any other. */
int tco_item_periods(const tco_model *m, const tco_item *it);

/** Dimension of @p it: 0 a single value, 1 per year, 2 per tier, 3 per month (built-in `year`, `tier`,
 *  `month` count as their dimension). */
int tco_item_dim(const tco_item *it);

#endif /* TCO_BIND_H */
