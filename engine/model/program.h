/*
 * program.h - a loaded model compiled once into a flat program that is quick to evaluate again
 * (issue 14 §4): what tco_model_evaluate() runs, and what the advisor, sensitivity, Monte Carlo
 * and the budget bridge re-run with changed inputs.
 *
 * The tree evaluator (formula.h, tco_formula_eval()) walks each line's formula tree, with a
 * callback for every name, for every year, month or tier cell.  A program is the same work laid
 * out flat, in the model's dependency order (tco_model.order):
 *   - every cell of the model (each input, each scalar line and total, each year of a per-year
 *     line, each month of a per-month line, each tier row of a per-tier input or line) is a slot:
 *     a number, a TRUE/FALSE flag and a text pointer, in three arrays indexed by slot;
 *   - every formula is unrolled once per cell into instructions over slots (dst = a OP b), its
 *     names resolved at compile time to the slot of the cell they stand for; IF is a conditional
 *     jump over the branch it does not take (only the chosen branch is evaluated, as in the tree),
 *     or a select when both branches are a name or a constant;
 *   - what is the same in every run is worked out once, when compiling: `year` and `month` are
 *     constants of their cell, and so are the texts (text inputs such as the facility mode or the
 *     card tier, the tier codes, the tier table's texts), so a subtree of only those is folded to
 *     a constant by the tree evaluator itself, an IF whose condition is then known keeps its one
 *     branch, and INDEX at a known row is that row's slot; an instruction already compiled outside
 *     every IF branch with the same operator and operand slots is not compiled again (its result
 *     is read instead: the same operation on the same operands);
 *   - each instruction calls the evaluator's own step for its operator or function (formula.h:
 *     tco_formula_arith, tco_formula_compare, tco_formula_binary, tco_formula_fold,
 *     tco_formula_round, ...), so every value is the tree's to the bit: the same operations on
 *     the same operands in the same order, no rule written twice.  Where both operands are known
 *     at compile time to be numbers (never text) the instruction skips the text tests.
 * A run copies the model's number inputs into their slots, executes the instructions and copies every
 * line's cells back into the model's items (value, years, tiers, text), as tco_model_evaluate()
 * documents.  It allocates nothing, except a copy of a scalar line's text when that text changes.
 *
 * Errors: a run that meets an error (division by zero, text in arithmetic, ...) stops and returns
 * TCO_ERR_EVAL without a message; tco_model_evaluate() then re-runs the tree evaluator, whose
 * diagnostic names the file, section and formula, the year or tier and the values of the names
 * (one message logic, in evaluate.c).
 *
 * A program belongs to the model it was compiled from and holds that model's item indexes: it is
 * valid while the model's structure (items, order, tiers, periods) and its texts are the ones it was
 * compiled for (tco_program_fits()); changing a number input needs no new compile, changing a text
 * input (tco_model_set_text_input()) makes tco_model_evaluate() walk the trees once and compile again
 * at the next evaluation (about 0.3 to 0.6 ms for cluster32).  It also runs another model of the same
 * shape (tco_model_same_shape(): the advisor's model of each host) whose texts fits() finds equal,
 * while the model it was compiled from lives: it reads that model's tier codes and per-tier texts and
 * its formulas' texts.  It holds its slot arrays, so one program runs one evaluation at a time.
 */
#ifndef TCO_PROGRAM_H
#define TCO_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

struct tco_model;

/** A compiled model (opaque). */
typedef struct tco_program tco_program;

/**
 * Compile @p model (loaded, bound and ordered) into *@p out.  Never fails for a formula the tree
 * evaluator accepts: a construct that can only give an error (e.g. SUM of a per-tier text input)
 * compiles to an instruction that fails, so that the tree evaluator names it.
 * Errors: TCO_ERR_NOMEM.  Free with tco_program_free().
 */
tco_error tco_program_compile(const struct tco_model *model, tco_program **out, tco_diag *diag);

/**
 * As tco_program_compile(), for the @p n_targets items @p targets (indexes into model->items) alone:
 * only the cells they depend on, directly or through other lines, are compiled, and a run computes
 * and copies back only those (every other item keeps its cells as they were).  For runs that read a
 * few figures many times (Monte Carlo: the TCO, the net present cost and the unit cost); the model's
 * own tco_model_evaluate() keeps the whole program.  An index out of range is ignored.
 * Errors: TCO_ERR_NOMEM.
 */
tco_error tco_program_compile_for(const struct tco_model *model, const int *targets, size_t n_targets,
                                  tco_program **out, tco_diag *diag);

/** True if @p program was compiled from a model of @p model's structure (same items, order, tiers,
 *  years, months and schedule: the counts are checked, the items are the caller's to know) and
 *  @p model's text inputs and per-tier texts hold the texts it was compiled with (compared by value),
 *  so that it can evaluate it.  (It notes where the model now keeps an equal text.) */
bool tco_program_fits(tco_program *program, const struct tco_model *model);

/**
 * Evaluate @p model with @p program: inputs in, every line in dependency order, lines out into
 * @p model's items.  Returns TCO_OK, TCO_ERR_EVAL (no message: re-run the tree evaluator for it;
 * the items are then partly updated) or TCO_ERR_NOMEM (copying a text line; message set).
 */
tco_error tco_program_run(tco_program *program, struct tco_model *model, tco_diag *diag);

/** Instructions in @p program (for benchmarks and tests). */
size_t tco_program_length(const tco_program *program);

/** Free @p program (NULL allowed). */
void tco_program_free(tco_program *program);

#endif /* TCO_PROGRAM_H */
