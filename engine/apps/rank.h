/*
 * rank.h - the advice workbook (rank.c): a Rank sheet whose ranks are live formulas, the live options'
 * figures formulas over their sheets (written with the comparison's options writer, render/compare.h),
 * the other rows' values as tco computed them.
 */
#ifndef TCO_RANK_H
#define TCO_RANK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "model/model.h"
#include "render/book.h"

/** What a Rank sheet cell gives for an option that fails its gate (check_feasible), instead of a figure. */
#define TCO_RANK_FAILS "n.a.: fails a check"
/** What the Rank cell gives for an option with no number to rank by. */
#define TCO_RANK_UNRANKED "not ranked"
/** The Sheets cell of a row of values (tco_rank_row.values): no sheets, its figures as tco computed them. */
#define TCO_RANK_VALUES "values at run"

/** One option of a Rank workbook (tco_workbook_write_rank()). */
typedef struct tco_rank_row {
    /** The option as people read it, e.g. "2x D-M in dc4, owned". */
    const char *label;
    /** The reasons it fails its checks at the inputs as written ("; "-joined), NULL when it passes. */
    const char *reasons;
    /** Its position in the enumeration (1-based): the last tie-break of the rank. */
    double candidate;
    /** NULL for a live row: its figures are formulas over its model's sheets.  Else a row of values: its
     *  figures as tco computed them at run time, one per column of the sheet (NaN: no number), written as
     *  numbers, with no sheets and no model of its own (its model is NULL). */
    const double *values;
    /** For a row of values: whether the option passes its gate (check_feasible = 1). */
    bool passes;
} tco_rank_row;

/** A figure column of the Rank sheet: each option's value of one scalar template line. */
typedef struct tco_rank_column {
    /** Column header with its unit, e.g. "CNY/Mtok". */
    const char *header;
    /** The line, e.g. "option_capex" (read as a_option_capex, b_option_capex, ...). */
    const char *name;
} tco_rank_column;

/** A column of numbers tco computed off-sheet (not formulas: e.g. `tco advise --monte-carlo`'s percentiles),
 *  after the figure columns. */
typedef struct tco_rank_values {
    /** Column header with its unit, e.g. "P50 (CNY/Mtok, Monte Carlo)". */
    const char *header;
    /** One value per row; a row whose @c text is not NULL shows that text instead. */
    const double *v;
    const char *const *text;
    /** True for a share shown as a percentage (0.25 as 25%); false: the key column's number format. */
    bool share;
} tco_rank_values;

/** The Rank sheet's shape. */
typedef struct tco_rank_sheet {
    /** Heads the sheet (and names the workbook); the note under it says what is ranked and how. */
    const char *title, *note;
    /** The line that must be 1 for an option to get figures and a rank, e.g. "check_feasible". */
    const char *gate;
    /** The figure columns; columns[key] is ranked, the lowest first, and equal keys go to the lower
     *  columns[tie] (capex), then to the faster by columns[speed] (the higher when @c speed_high_first,
     *  e.g. tokens/s; else the lower, e.g. days a training run), then to the lower candidate number. */
    const tco_rank_column *columns;
    size_t n_columns, key, tie, speed;
    bool speed_high_first;
    /** The advisor's one line on the winner at the inputs as written (shown as text), or NULL. */
    const char *explanation;
    /** Live options whose Summary sheets are shown (the first ones); every other sheet is written and
     *  hidden. */
    size_t visible;
    /** Columns of values after the figures, before the candidate number (none: NULL, 0). */
    const tco_rank_values *values;
    size_t n_values;
    /** The question's name (tco advise NAME), for the line on how to get an option's budget workbook;
     *  NULL: no such line. */
    const char *question;
} tco_rank_sheet;

/**
 * Write a Rank workbook of @p n options (1 to 26) to @p path: a Rank sheet first, one row per option in
 * @p rows, then the Shared inputs sheet and the sheets of each live option as in a comparison (options
 * A, B, ...: prefixes "A ", "a_"; the Summaries of the first @p sheet->visible shown, every other sheet
 * hidden).  The live rows come first: row i is evaluated model @p models[i] (borrowed); the rows after
 * them are rows of values (tco_rank_row.values; their models NULL), written as numbers and marked so on
 * the sheet.  Every figure of a live row is the formula =IF(x_GATE=1, x_LINE, TCO_RANK_FAILS), so an
 * option that cannot run shows no cost or throughput (its reasons instead); a row of values shows the
 * same, as values.  The Rank cell of every row is the live count of the rows before it,
 *   IF(ISNUMBER(K), 1 + SUMPRODUCT(ISNUMBER(keys) * ((keys < K-) + (keys >= K-) * (keys <= K+) *
 *   ((ties < T-) + (ties >= T-) * (ties <= T+) * ((speeds < S-) + (speeds >= S-) * (speeds <= S+) *
 *   (candidates < N)))))), TCO_RANK_UNRANKED)
 * (K, T, S, N the row's key, tie, speed and candidate number, x-/x+ the bounds x -/+ 1e-12 |x|, within
 * which two figures are equal; speeds > S+ instead of speeds < S- when the higher speed goes first;
 * Gnumeric and LibreOffice compute it alike), and below
 * the table the best and the runner-up by those ranks and (runner-up - best) / runner-up of the key.
 * Errors as tco_workbook_write(); TCO_ERR_USAGE for @p n outside 1..26, key/tie/speed not a column, or a live
 * row after a row of values or none live, TCO_ERR_UNKNOWN_NAME for a column naming no line.
 */
tco_error tco_workbook_write_rank(tco_model *const *models, const tco_rank_row *rows, size_t n,
                                  const tco_rank_sheet *sheet, const char *path, const tco_workbook_options *opts,
                                  tco_diag *diag);

#endif /* TCO_RANK_H */
