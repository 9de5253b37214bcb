/*
 * error.h - the one error enum of tco, its message table and the diagnostic
 * record every module fills in.
 *
 * Every failure in tco is reported as a tco_error code plus a tco_diag: a
 * one-line message that says *where* (file [section] key, or file:line:col)
 * and *what* was expected and found.  All diagnostics are written through
 * tco_diag_set() (Lua's luaX_syntaxerror habit), so the format stays uniform.
 */
#ifndef TCO_ERROR_H
#define TCO_ERROR_H

#include <stddef.h>

/** Error codes.  Keep tco_strerror()'s table in step (checked by a test). */
typedef enum tco_error {
    /** No error. */
    TCO_OK = 0,
    /** Command-line usage error (exit 64). */
    TCO_ERR_USAGE,
    /** An input file could not be opened or read (exit 66). */
    TCO_ERR_NOINPUT,
    /** A value in an INI file is missing, malformed or out of range (exit 65). */
    TCO_ERR_INI,
    /** A formula could not be parsed (exit 65). */
    TCO_ERR_SYNTAX,
    /** A formula names an input or line that does not exist (exit 65). */
    TCO_ERR_UNKNOWN_NAME,
    /** A formula calls a function outside the supported subset (exit 65). */
    TCO_ERR_UNKNOWN_FUNCTION,
    /** A function was called with the wrong number of arguments (exit 65). */
    TCO_ERR_ARITY,
    /** A name is not a valid Excel defined name (e.g. PUE1, R2C3, c) (exit 65). */
    TCO_ERR_BAD_NAME,
    /** The same name is defined twice (exit 65). */
    TCO_ERR_DUPLICATE,
    /** Line items depend on each other in a cycle (exit 65). */
    TCO_ERR_CYCLE,
    /** Evaluation failed: division by zero, #NUM!, a non-numeric result (exit 65). */
    TCO_ERR_EVAL,
    /** Formula nesting deeper than TCO_FORMULA_MAX_DEPTH (exit 65). */
    TCO_ERR_TOO_DEEP,
    /** The output workbook could not be created or written (exit 73). */
    TCO_ERR_CANTCREATE,
    /** Out of memory (exit 71). */
    TCO_ERR_NOMEM,
    /** Number of codes; not an error. */
    TCO_ERR_COUNT
} tco_error;

/** Longest diagnostic message kept, in bytes including the NUL. */
#define TCO_DIAG_MAX 1024

/**
 * A diagnostic: the error code and a one-line message naming the place.
 * Zero-initialise before use ({0}); tco_diag_set() overwrites it.
 */
typedef struct tco_diag {
    /** The error code; TCO_OK when nothing went wrong. */
    tco_error code;
    /** NUL-terminated message, truncated (never overflowed) at TCO_DIAG_MAX. */
    char message[TCO_DIAG_MAX];
} tco_diag;

/** Short English description of @p err; never NULL (unknown codes get a generic text). */
const char *tco_strerror(tco_error err);

/**
 * Record an error: sets diag->code = @p err and formats the message with
 * printf-style @p fmt.  @p diag may be NULL (the error is then only returned).
 * Returns @p err so callers can write `return tco_diag_set(d, TCO_ERR_INI, ...)`.
 */
tco_error tco_diag_set(tco_diag *diag, tco_error err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/**
 * Process exit code for @p err, sysexits-style: 0 ok, 64 usage, 65 data error,
 * 66 no input, 70 internal, 71 out of memory (EX_OSERR), 73 cannot create output.
 */
int tco_exit_code(tco_error err);

#endif /* TCO_ERROR_H */
