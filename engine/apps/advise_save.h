/*
 * advise_save.h - `tco advise NAME --save-scenario FILE.ini [--pick RANK]`: from the advice to a budget.
 *
 * The option of rank RANK (1, the winner, by default) is written as a scenario file that `tco --scenario
 * FILE.ini` prices to the advice's figures: the question's own sections and keys (its [advise] section
 * left out), with every value the advisor chose for the option written where a scenario gives it, each with
 * its source ("tco advise team-70b: rank 1 of 98 feasible ..."):
 *
 *   [scenario] kind, card, cards, host, acquisition   (and title: the question's, with the option)
 *   [facility] mode                                   (when the question lists [advise] facility_modes)
 *   every --set SECTION.KEY=VALUE of the advice       (a card.KEY or host.KEY in the section of the card or
 *                                                      host chosen, [D-M] price; a range the question gave
 *                                                      that key is dropped, as the --set dropped it)
 *
 * The file's first lines say which option it is, the command that prices it (with the advice's --quotes,
 * --as-of, --currency and --set fx.CODE values, which are a run's, not a file's), and at which load each
 * cost per million tokens is: the advice ranks by the cost at the target load (cost_per_unit), the budget's
 * Summary shows both that and the cost per million tokens served at the layout's throughput.
 *
 * Before the file is put in place it is loaded as `tco --scenario` loads it (tco_run_open() with the
 * advice's quotes and currency) and its option_cost and cost_per_unit are compared with the advice's: a
 * file that would not reproduce the advice is never written.  It is written as every output of tco is
 * (render/output.h: a temporary beside the target, then renamed), and never over an input of the run.
 */
#ifndef TCO_ADVISE_SAVE_H
#define TCO_ADVISE_SAVE_H

#include <stdio.h>

#include "apps/advise.h"
#include "base/error.h"

/**
 * Write option @p rank (1-based among the feasible options of @p a) of the advice @p req answered as a
 * scenario file at @p path (see the file comment), and note it in @p a (saved_path, saved_rank, saved_tco,
 * saved_served_unit).
 * Errors: TCO_ERR_USAGE (@p rank outside 1 to the feasible options, or no option feasible; a rented option:
 * a scenario budgets owning the cards; @p path the question, a --quotes file, or in the project's pricing/
 * or templates/ folder, whose every file the catalog reads); TCO_ERR_INI (a value that a scenario file
 * cannot hold: a double quote in a value that needs quoting); TCO_ERR_EVAL (the written file does not
 * price to the advice's figures); the run's errors (tco_run_open()); TCO_ERR_CANTCREATE (output.h);
 * TCO_ERR_NOMEM.  On error nothing is left at @p path (a file there before is untouched).
 */
tco_error tco_advise_save_scenario(const tco_advise_request *req, tco_advice *a, int rank, const char *path,
                                   tco_diag *d);

/**
 * The terminal lines of a saved scenario (after tco_advise_print_table()): the file, the option, the command
 * that prices it and its TCO, and for serving why its Summary's cost per million tokens served differs from
 * the advice's (the layout's throughput against the target load).  Nothing when none was saved.
 */
void tco_advise_save_print_table(const tco_advice *a, FILE *out);

#endif /* TCO_ADVISE_SAVE_H */
