/*
 * program_impl.h - the inside of a compiled program (program.h), shared by its compiler (program.c)
 * and its runner (program_run.c), which include program.h first.  Not for other files: they see
 * tco_program as opaque.  (It does not include program.h: the house's include order has no circle.)
 */
#ifndef TCO_PROGRAM_IMPL_H
#define TCO_PROGRAM_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum opcode {
    OP_ADD,           /* num[dst] = a + b for operands never text (tco_formula_arith) */
    OP_SUB,           /* a - b, as OP_ADD */
    OP_MUL,           /* a * b, as OP_ADD */
    OP_DIV,           /* a / b, as OP_ADD */
    OP_POW,           /* a ^ b, as OP_ADD */
    OP_ADD_N,         /* OP_ADD .. OP_POW into a slot that only ever holds numbers: its flag and text stay */
    OP_SUB_N,
    OP_MUL_N,
    OP_DIV_N,
    OP_POW_N,
    OP_COMPARE,       /* dst = a OP b for two numbers or two TRUE/FALSE (tco_formula_compare) */
    OP_BINARY,        /* dst = a OP b for any values (tco_formula_binary) */
    OP_UNARY,         /* dst = OP a (tco_formula_unary) */
    OP_MOVE,          /* dst = a */
    OP_JUMP_FALSE,    /* if a is FALSE or 0 go to c (tco_formula_truth) */
    OP_JUMP_UNLESS,   /* if not (a OP b) go to c, for two numbers or two TRUE/FALSE (tco_formula_compare) */
    OP_SELECT,        /* dst = IF(a, b, c) where b and c need no instructions (tco_formula_truth) */
    OP_SELECT_IF,     /* dst = IF(a OP b, c, d) where c and d need no instructions, as OP_JUMP_UNLESS */
    OP_JUMP,          /* go to c */
    OP_FOLD,          /* dst = FUNC(slots args[a .. a+b)) for SUM MIN MAX AND OR (tco_formula_fold) */
    OP_AGGREGATE,     /* dst = FUNC over num[a .. a+b) (tco_formula_aggregate) */
    OP_APPLY1,        /* dst = FUNC(a) for NOT ABS ISNUMBER ISTEXT (tco_formula_apply1) */
    OP_ROUND,         /* dst = FUNC(a, b) for ROUND ROUNDUP ROUNDDOWN (tco_formula_round) */
    OP_INDEX,         /* dst = slot b + position a - 1 of a vector of c slots */
    OP_MATCH,         /* dst = position of text args[a] in the c text slots from b, mode args[a+1] */
    OP_IRR,           /* dst = IRR over num[a .. a+b) */
    OP_RUNNING_SUM,   /* dst = 0 + num[a] + ... + num[a+b-1] (CUMSUM, a per-year line's Total) */
    OP_RESULT_NUMBER, /* dst = a, a per-year, per-month or per-tier cell: a number, never text or TRUE/FALSE */
    OP_RESULT_SCALAR, /* dst = a, a scalar line: never TRUE/FALSE or empty text */
    OP_FAIL,          /* an error the tree evaluator names */
    /* The same operations where the compiler knows the slots' kinds (specialise()): a slot of a plain kind
     * (only numbers, or only TRUE/FALSE) keeps the flag and text it was made with, so these store the
     * number alone; an operand that never holds text is a condition by its number alone. */
    OP_COMPARE_B,     /* OP_COMPARE into a slot that only ever holds TRUE/FALSE */
    OP_MOVE_N,        /* OP_MOVE (or OP_RESULT_NUMBER of a number) into a slot of a plain kind */
    OP_SELECT_N,      /* OP_SELECT on a condition never text, into a slot of a plain kind */
    OP_SELECT_IF_N,   /* OP_SELECT_IF into a slot of a plain kind */
    OP_JUMP_FALSE_N,  /* OP_JUMP_FALSE on a condition never text */
    OP_FOLD_N,        /* OP_FOLD of operands that never hold text (nor TRUE/FALSE for SUM, MIN and MAX), into
                       * a slot of a plain kind */
    OP_AND_N,         /* OP_FOLD_N of AND with two operands, a and b: TRUE when both are not 0 */
    OP_OR_N,          /* OP_FOLD_N of OR with two operands, a and b: TRUE when either is not 0 */
    OP_RUNNING_ADD,   /* dst = num[a] + num[b]: OP_RUNNING_SUM over one cell more than the running sum in slot
                       * a, whose last cell is b (a month's CUMSUM from the month before's, the same sum) */
    OP_END            /* the end of the program (one, after the last instruction; not counted) */
} opcode;

typedef struct instr {
    uint8_t code; /* opcode */
    uint8_t op;   /* tco_op or tco_func */
    int32_t dst, a, b, c, d;
} instr;

/* What a run copies from the model into slots before it starts (texts are compiled in: add_guard). */
typedef enum copy_kind { COPY_NUMBER, COPY_TIER_NUMBERS } copy_kind;
typedef struct copy_in {
    copy_kind kind;
    int item, slot;
} copy_in;

/* What a run copies from slots into the model after it ends (a scalar line whose slot holds only numbers
 * is copied as OUT_SCALAR).  In the program, sorted by kind (sort_copies()). */
typedef enum out_kind { OUT_SCALAR, OUT_LINE_TEXT, OUT_YEARS, OUT_TIERS, OUT_KINDS } out_kind;
typedef struct copy_out {
    out_kind kind;
    int item, slot, count;
} copy_out;

/* A text the program was compiled with, as a constant: a text input's value (its copy, owned), or a
 * row of a per-tier text input (the model's pointer).  A run needs the model to hold it still. */
typedef struct guard {
    int item, row; /* row -1: a scalar text input */
    const char *seen; /* the model's pointer at the last check */
    char *copy;       /* the text compiled with (a copy for tier rows too: another model's equal text fits) */
} guard;

/* A number input compiled as the constant it held (tco_program_options.fix_inputs): every cell read
 * from it was computed from this value when compiling, so a run refuses a model that holds another. */
typedef struct pin {
    int item, row; /* row -1: a scalar input; else the row of a per-tier input */
    double value;  /* compared as bits */
} pin;

struct tco_program {
    bool partial; /* compiled for some targets only (tco_program_options.targets) */
    instr *code;
    size_t n_code, cap_code;
    int32_t *args; /* operand lists of OP_FOLD and OP_MATCH */
    size_t n_args, cap_args;
    /* The slots: number, TRUE/FALSE flag, text (borrowed: formula trees, tier names, input texts). */
    double *num;
    unsigned char *isb;
    const char **txt;
    unsigned char *type;  /* compile time only (freed after compiling) */
    unsigned char *konst; /* compile time only: 1 for a constant's slot */
    size_t n_slots, cap_slots;
    copy_in *ins;
    size_t n_ins, cap_ins;
    copy_out *outs;
    size_t n_outs, cap_outs;
    size_t n_ins_number, outs_end[OUT_KINDS]; /* the copies sorted by kind: where each kind ends */
    int *base; /* first slot of each item's cells, -1 for none */
    guard *guards;
    size_t n_guards, cap_guards;
    pin *pins; /* the number inputs compiled as constants (none unless fix_inputs) */
    size_t n_pins, cap_pins;
    /* The structure compiled for (tco_program_fits). */
    size_t n_items, n_order;
    int n_tiers, n_periods, n_schedule_periods, n_months, first_year;
};

#endif /* TCO_PROGRAM_IMPL_H */
