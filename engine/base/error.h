/*
 * error.h - the one error enum of tco, its message table and the diagnostic
 * record every module fills in.
 *
 * Every failure in tco is reported as a tco_error code plus a tco_diag: a
 * one-line message that says *where* (file [section] key, or file:line:col)
 * and *what* was expected and found, and the place as data beside it.  All
 * diagnostics are written through tco_diag_at() (the place as data, formatted
 * in one place) or tco_diag_set() (Lua's luaX_syntaxerror habit).
 */
#ifndef TCO_ERROR_H
#define TCO_ERROR_H

#include <stdarg.h>
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

/** Longest section, key or column name a diagnostic keeps as its place, in bytes including the NUL. */
#define TCO_DIAG_NAME_MAX 128

/**
 * A diagnostic: the error code, a one-line message naming the place, and the
 * place as data (Lua keeps the location apart from the message): the terminal
 * prints the message, JSON takes the place from the fields; nothing re-parses
 * a message.  The place holds what applies: "" and 0 for the rest.
 * Zero-initialise before use ({0}); tco_diag_set() and tco_diag_at() overwrite it.
 */
typedef struct tco_diag {
    /** The error code; TCO_OK when nothing went wrong. */
    tco_error code;
    /** NUL-terminated message, truncated (never overflowed) at TCO_DIAG_MAX: the place, then the text. */
    char message[TCO_DIAG_MAX];
    /** The file as named on the command line or by its catalog (cut at TCO_DIAG_MAX bytes), or "". */
    char file[TCO_DIAG_MAX];
    /** 1-based line and column (a CSV field, or a character of an INI line or of a formula, counted
     *  from 1), or 0 when the diagnostic names none. */
    long line, column;
    /** A quote file's column by its header name ("unit_price"), an INI file's section and key as the
     *  message names them (as iniparser reads them, lower case, except the line checks' key, which
     *  is as written), each "" when it names none (cut at TCO_DIAG_NAME_MAX). */
    char column_name[TCO_DIAG_NAME_MAX], section[TCO_DIAG_NAME_MAX], key[TCO_DIAG_NAME_MAX];
    /** Offset in message of the text after the place ("expected a price", "LOW: expected ..."); 0 when
     *  the message names no place (tco_diag_set()) or the place alone fills it. */
    size_t text;
} tco_diag;

/**
 * Where a diagnostic is, as tco_diag_at() takes it: each field NULL or 0 when
 * it does not apply (borrowed for the call only).
 */
typedef struct tco_place {
    /** The file, as the user named it. */
    const char *file;
    /** 1-based line and column (a CSV field; a character with char_column), 0 when none. */
    long line, column;
    /** The column's header name in a quote file ("unit_price"), NULL when none. */
    const char *column_name;
    /** INI section and key, NULL when none. */
    const char *section, *key;
    /** True when column counts the characters of a text (an INI line, a formula: "FILE:LINE, column
     *  N", "FILE [SECTION] KEY, column N"), false for a quote file's field ("FILE:LINE: column N"). */
    int char_column;
    /** A command-line argument that gave the value, named where a file would be ("--set
     *  facility.pue=abc": "ARG: TEXT"; section and key may still say what it set), NULL when none. */
    const char *arg;
    /** The part of the value the text is about, after the place ("LOW" of a range: "PLACE: LOW:
     *  TEXT"; "inputs.pue" of a JSON file), NULL when none. */
    const char *part;
} tco_place;

/** @p where (NULL: none) at the character @p column of its text, "WHERE, column N" (char_column): the
 *  place of a character of a formula, from the formula's place. */
tco_place tco_place_column(const tco_place *where, long column);

/** Short English description of @p err; never NULL (unknown codes get a generic text). */
const char *tco_strerror(tco_error err);

/**
 * Record an error with no place as data: sets diag->code = @p err, formats the
 * message with printf-style @p fmt (which may still name a place in words) and
 * clears the place fields.  @p diag may be NULL (the error is then only returned).
 * Returns @p err so callers can write `return tco_diag_set(d, TCO_ERR_INI, ...)`.
 */
tco_error tco_diag_set(tco_diag *diag, tco_error err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/**
 * Record an error at @p place: sets diag->code = @p err, the place fields, and
 * the message as the place, then the text formatted printf-style from @p fmt,
 * in one of these forms (the first that fits what @p place gives):
 *
 *     FILE:LINE: column N (NAME): TEXT    a quote file's field (column_name)
 *     FILE:LINE: column N: TEXT           a quote file's field without a header name
 *     FILE:LINE, column N: TEXT           a character of an INI line (char_column)
 *     FILE [SECTION] KEY, column N: TEXT  a character of a formula (char_column; also
 *     FILE [SECTION], column N: TEXT        without the key, or without the section,
 *     FILE, column N: TEXT                  or with neither)
 *     FILE:LINE: [SECTION] KEY: TEXT      an INI line with its section and key
 *     FILE:LINE: [SECTION] TEXT           an INI line in a section
 *     FILE:LINE: TEXT
 *     FILE [SECTION] KEY: TEXT            an INI value
 *     FILE [SECTION]: TEXT                an INI section
 *     FILE: TEXT                          (a key without a section is data only)
 *     ARG: TEXT                           no file, a command-line argument (arg)
 *     TEXT                                neither
 *
 * with "PART: " after the place when @p place gives a part ("FILE [SECTION] KEY: LOW: TEXT"; diag->text
 * then points at "LOW: TEXT", since the part is not in the place's fields).
 *
 * diag->text is the offset of TEXT (0 when the place alone fills the message).
 * @p diag may be NULL.  Returns @p err.
 */
tco_error tco_diag_at(tco_diag *diag, tco_error err, const tco_place *place, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** tco_diag_at() with the arguments of @p fmt in @p ap (consumed, as vprintf). */
tco_error tco_diag_vat(tco_diag *diag, tco_error err, const tco_place *place, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/**
 * tco_diag_at() at a --set argument: the place "--set @p given" (@p given is SECTION.KEY=VALUE as typed),
 * with @p section and @p key what it sets as data: "--set facility.pue=abc: TEXT".
 */
tco_error tco_diag_at_set(tco_diag *diag, tco_error err, const char *given, const char *section, const char *key,
                          const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/**
 * Process exit code for @p err, sysexits-style: 0 ok, 64 usage, 65 data error,
 * 66 no input, 70 internal, 71 out of memory (EX_OSERR), 73 cannot create output.
 */
int tco_exit_code(tco_error err);

#endif /* TCO_ERROR_H */
