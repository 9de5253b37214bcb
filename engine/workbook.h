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

/** What a Rank sheet cell gives for an option that fails its gate (check_feasible), instead of a figure. */
#define TCO_RANK_FAILS "n.a.: fails a check"
/** What the Rank cell gives for an option with no number to rank by. */
#define TCO_RANK_UNRANKED "not ranked"

/** One option of a Rank workbook (tco_workbook_write_rank()). */
typedef struct tco_rank_row {
    /** The option as people read it, e.g. "2x D-M in dc4, owned". */
    const char *label;
    /** The reasons it fails its checks at the inputs as written ("; "-joined), NULL when it passes. */
    const char *reasons;
    /** Its position in the enumeration (1-based): the last tie-break of the rank. */
    double candidate;
} tco_rank_row;

/** A figure column of the Rank sheet: each option's value of one scalar template line. */
typedef struct tco_rank_column {
    /** Column header with its unit, e.g. "CNY/Mtok". */
    const char *header;
    /** The line, e.g. "option_capex" (read as a_option_capex, b_option_capex, ...). */
    const char *name;
} tco_rank_column;

/** The Rank sheet's shape. */
typedef struct tco_rank_sheet {
    /** Heads the sheet (and names the workbook); the note under it says what is ranked and how. */
    const char *title, *note;
    /** The line that must be 1 for an option to get figures and a rank, e.g. "check_feasible". */
    const char *gate;
    /** The figure columns; columns[key] is ranked, the lowest first, and equal keys go to the lower
     *  columns[tie] (capex), then to the lower candidate number. */
    const tco_rank_column *columns;
    size_t n_columns, key, tie;
    /** The advisor's one line on the winner at the inputs as written (shown as text), or NULL. */
    const char *explanation;
    /** Options whose sheets are shown (the first ones); the others' are written and hidden. */
    size_t visible;
} tco_rank_sheet;

/**
 * Write a Rank workbook of @p n evaluated models (1 to 26, options A, B, ...; borrowed) to @p path: a Rank
 * sheet first, one row per option in @p rows (row i is model i), then the Shared inputs sheet and each
 * option's sheets as in a comparison (prefixes "A ", "a_"; those past @p sheet->visible hidden).  Every
 * figure of a row is the live formula =IF(x_GATE=1, x_LINE, TCO_RANK_FAILS), so an option that cannot run
 * shows no cost or throughput (its reasons instead); the Rank cell is the live
 *   IF(ISNUMBER(K), RANK(K, keys, 1) + SUMPRODUCT(ISNUMBER(keys) * (keys = K) * ((ties < T) + (ties = T) *
 *   (candidates < N))), TCO_RANK_UNRANKED)
 * (K, T, N the row's key, tie and candidate number; Gnumeric and LibreOffice compute it alike), and below
 * the table the best and the runner-up by those ranks and (runner-up - best) / runner-up of the key.
 * Errors as tco_workbook_write(); TCO_ERR_USAGE for @p n outside 1..26 or key/tie not a column,
 * TCO_ERR_UNKNOWN_NAME for a column naming no line.
 */
tco_error tco_workbook_write_rank(tco_model *const *models, const tco_rank_row *rows, size_t n,
                                  const tco_rank_sheet *sheet, const char *path, const tco_workbook_options *opts,
                                  tco_diag *diag);

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
