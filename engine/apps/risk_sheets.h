/*
 * risk_sheets.h - the workbook sheets of a risk run (risk_sheets.c): Sensitivity (the table and a
 * tornado chart), Risk (the percentile table, an S-curve and a histogram) and Run snapshot (every
 * input as the run had it, beside its live cell, and the check that says "stale: run tco again" once
 * one differs).  A scenario workbook writes them as its caller's own sheets:
 * tco_workbook_options.more_sheets = tco_risk_more_sheets, more_ctx = the tco_risk.
 */
#ifndef TCO_RISK_SHEETS_H
#define TCO_RISK_SHEETS_H

#include "apps/risk.h"
#include "render/workbook_kit.h"

/** Add and write the sheets of @p risk after the model's own (Sensitivity if it ran, Risk if Monte
 *  Carlo ran, then Run snapshot), through @p w; errors in w->err. */
void wb_write_risk_sheets(writer *w, const tco_risk *risk);

/** wb_write_risk_sheets() as tco_workbook_options.more_sheets: @p risk is the const tco_risk. */
void tco_risk_more_sheets(struct writer *w, const void *risk);

#endif
