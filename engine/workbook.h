/*
 * workbook.h - render an evaluated tco_model as an XLSX workbook with
 * libxlsxwriter: every derived cell a live formula with the engine's result
 * cached, inputs as defined names on one Inputs sheet.
 *
 * Sheets, in order: Summary (the answer first), Inputs (name, value, unit,
 * source), then the template's calculation sheets ([model] sheets).  Scalar
 * sheets: Item | Unit | Value | Source.  Per-year sheets: Item | Unit | Year 1
 * .. Year N | Total | Source, with the same formula across each period row.
 * Costs are positive.  Text from any input file is written as text, never as a
 * formula (DESIGN.md invariant 4).
 *
 * The file is written through output.h: to an unpredictable temporary created
 * exclusively in the target's folder (.tco-PID-RANDOM.tmp; one left by a
 * killed run is removed by the next), verified as a complete XLSX package,
 * given the replaced file's permissions (and owner, as root), and renamed into
 * place only after workbook_close() succeeds, so an existing workbook is never
 * left half-written or replaced by a damaged one.
 */
#ifndef TCO_WORKBOOK_H
#define TCO_WORKBOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "error.h"
#include "model.h"

/** Options for tco_workbook_write(). */
typedef struct tco_workbook_options {
    /** Document `created` time; a fixed value makes output byte-reproducible. */
    time_t created;
    /** Reporting currency code shown in money formats, e.g. "CNY". */
    const char *currency;
    /** Replace the target even when a spreadsheet application's lock file says it is open. */
    bool force;
    /** A --sensitivity / --monte-carlo run's figures (risk.h), written on sheets of their own after the
     *  model's; NULL for none. */
    const struct tco_risk *risk;
} tco_workbook_options;

/**
 * Write @p model (already evaluated) to @p path.
 * Errors: TCO_ERR_CANTCREATE (folder missing or not writable, target not a
 * regular file, libxlsxwriter failure, the written package fails
 * tco_output_verify_xlsx(); the message names the path and the cause),
 * TCO_ERR_NOMEM.  On error no file is left at @p path or beside it, and a
 * previous file at @p path is unchanged.
 */
tco_error tco_workbook_write(const tco_model *model, const char *path, const tco_workbook_options *opts,
                             tco_diag *diag);

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

/**
 * If a spreadsheet application has @p path open, name its lock file: Excel's
 * "~$NAME.xlsx" or LibreOffice's ".~lock.NAME.xlsx#" beside it.  Returns true
 * and writes the lock file's path into @p lock (size @p size) when one exists.
 */
bool tco_workbook_locked(const char *path, char *lock, size_t size);

/**
 * The cell reference text that formulas use for item @p index: its defined
 * name for inputs, scalar lines and totals.  Exposed for tests.  Returns the
 * item's name (owned by the model).
 */
const char *tco_workbook_item_name(const tco_model *model, int index);

#endif /* TCO_WORKBOOK_H */
