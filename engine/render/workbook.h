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

#include "base/error.h"
#include "model/model.h"
#include "render/book.h"

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

struct writer;
/** Write every sheet of w->m (Summary, Inputs, Quotes, calculation sheets, Charts, Conventions, then
 *  the caller's more_sheets) through the kit's writer @p w (workbook_kit.h); compare.c calls it once
 *  per option. */
void wb_write_model(struct writer *w);

/** Label widths of calculation sheets (wb_split_label_width(), a search over every width, each distinct
 *  text measured once), kept by their question (the labels', the sources' texts and the room) for
 *  the writers given it (writer.widths): the options of one comparison or advice share a template and
 *  ask the same questions.  NULL when out of memory (then nothing is kept). */
struct wb_label_widths *wb_label_widths_new(void);
/** Free what wb_label_widths_new() made (NULL: nothing). */
void wb_label_widths_free(struct wb_label_widths *c);

#endif /* TCO_WORKBOOK_H */
