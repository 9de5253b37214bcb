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
 *     is read instead: the same operation on the same operands), and a cell that is a copy of an
 *     earlier slot (a month that repeats the month before: the same year's electricity over 12) is
 *     read through that slot, so that the formulas after it find their operations again; a copy
 *     nothing reads is dropped; a running sum (CUMSUM, a line's Total) whose sum over one cell fewer
 *     was compiled outside every IF branch is carried on from it by one addition, the same additions
 *     in the same order (a month's CUMSUM from the month before's, not 36 additions in Month 36);
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
 *
 * Fixed inputs (tco_program_options.fix_inputs: Monte Carlo, the advisor's draws): the number inputs
 * that the runs do not change are compiled as the constants they hold, as the texts are, so that every
 * cell no varying input reaches (the monthly discount factors when the rate is not drawn, a card's
 * power, ...) is worked out once, when compiling, by the tree evaluator itself, and a run executes only
 * what a varying input reaches.  Such a program then holds for the model's number inputs too: a run
 * compares each fixed input with the value it was compiled with (as a whole program copies every input
 * in) and refuses a model that holds another (TCO_ERR_USAGE, naming it), and tco_program_fits() is
 * false for it.
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
 * only the cells they depend on, directly or through other lines, are compiled, a run computes only
 * those, and it copies back the targets' cells alone (every other item, the lines on the way to a
 * target included, keeps its cells as they were).  For runs that read a few figures many times (Monte
 * Carlo: the TCO, the net present cost and the unit cost); the model's own tco_model_evaluate() keeps
 * the whole program.  An index out of range is ignored.  Errors: TCO_ERR_NOMEM.
 */
tco_error tco_program_compile_for(const struct tco_model *model, const int *targets, size_t n_targets,
                                  tco_program **out, tco_diag *diag);

/** What tco_program_compile_with() compiles.  All zero: the whole model, every number input read from
 *  the model at each run (tco_program_compile()). */
typedef struct tco_program_options {
    /** The items to compute (indexes into model->items), as tco_program_compile_for(); NULL: all. */
    const int *targets;
    size_t n_targets;
    /** True: only the number inputs in @c varying are read from the model at each run; every other
     *  number input (scalar or per-tier) is compiled as the constant it holds now, and with it every
     *  cell that no varying input reaches (see "Fixed inputs" above). */
    bool fix_inputs;
    /** With fix_inputs: the input items the runs change (scalar or per-tier number inputs; a per-tier
     *  one varies in every row).  Repeats, out-of-range indexes and items that are not number inputs
     *  are ignored; none at all makes a program of constants. */
    const int *varying;
    size_t n_varying;
} tco_program_options;

/**
 * Compile @p model as @p options say (NULL: as tco_program_compile()).  Every cell a run gives, with
 * fixed inputs as with none, is the tree evaluator's value to the bit: a cell worked out when compiling
 * is the tree evaluator's own result for it, and an error there is left to the runs (the cell is
 * compiled as instructions, which fail where the tree does).  Errors: TCO_ERR_NOMEM.
 */
tco_error tco_program_compile_with(const struct tco_model *model, const tco_program_options *options,
                                   tco_program **out, tco_diag *diag);

/** True if @p program was compiled from a model of @p model's structure (same items, order, tiers,
 *  years, months and schedule: the counts are checked, the items are the caller's to know),
 *  @p model's text inputs and per-tier texts hold the texts it was compiled with (compared by value),
 *  and its fixed number inputs (if any) the numbers, so that it can evaluate it.  (It notes where the
 *  model now keeps an equal text.) */
bool tco_program_fits(tco_program *program, const struct tco_model *model);

/**
 * Evaluate @p model with @p program: inputs in, every line in dependency order, lines out into
 * @p model's items.  Returns TCO_OK, TCO_ERR_EVAL (no message: re-run the tree evaluator for it;
 * the items are then partly updated), TCO_ERR_NOMEM (copying a text line; message set) or, for a
 * program with fixed inputs, TCO_ERR_USAGE when @p model holds another number in one of them than
 * the program was compiled with (message set, naming it; nothing is run or copied: compile again).
 */
tco_error tco_program_run(tco_program *program, struct tco_model *model, tco_diag *diag);

/** Instructions in @p program (for benchmarks and tests). */
size_t tco_program_length(const tco_program *program);

/** Free @p program (NULL allowed). */
void tco_program_free(tco_program *program);

#endif /* TCO_PROGRAM_H */
