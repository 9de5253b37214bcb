/*
 * inputs_sheet.h - the Inputs sheet (inputs_sheet.c): every input a named value with its unit, range,
 * status, name and source, and the tier catalog table beside them; a comparison's Shared inputs sheet.
 */
#ifndef TCO_INPUTS_SHEET_H
#define TCO_INPUTS_SHEET_H

#include "render/workbook_kit.h"

/** What an input's Status cell reads once its value is typed over (a value other than the run wrote). */
#define TCO_INPUT_EDITED "edited"
/* Its meaning in the Status legend. */
#define TCO_INPUT_EDITED_MEANING                                                                            \
    "edited: typed over in this workbook, so the status tco found no longer holds (the Summary counts the " \
    "capex resting on it as on edited prices)"

/** The defined name of the exchange rate quote @p q is converted at ("fx_usd"), into @p name. */
void wb_quote_rate_name(const tco_model *m, const tco_quote *q, char name[16]);

/** Write the Inputs sheet @p ws of w->m (inputs_sheet.c): every input a named value with its unit,
 *  range, status, name and source, the status legend, and the tier catalog table beside them.  Places
 *  every input in w->place. */
void wb_write_inputs(writer *w, lxw_worksheet *ws);

/** Write the Shared inputs sheet @p ws of a comparison: the inputs w->shared marks, of model w->m,
 *  laid out as on Inputs and named without a prefix (electricity_price), which every option's
 *  reference cell uses.  Set w->shared, w->np = "" and w->sp = "" first. */
void wb_write_shared_inputs(writer *w, lxw_worksheet *ws);

#endif /* TCO_INPUTS_SHEET_H */
