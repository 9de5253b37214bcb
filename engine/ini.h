/*
 * ini.h - reading tco's INI files through iniparser, with the checks and
 * diagnostics tco needs.
 *
 * iniparser lower-cases section and key names, cuts an unquoted value at ';'
 * or '#', limits a line to 1024 bytes and keeps no line numbers; so every
 * diagnostic about a value names it as `file [section] key`, and numbers are
 * parsed strictly here (no "1,5", "12abc", NaN, inf or empty values).
 */
#ifndef TCO_INI_H
#define TCO_INI_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/** A loaded INI file. */
typedef struct tco_ini {
    /** Path as shown in diagnostics (heap). */
    char *path;
    /** iniparser's dictionary (opaque here). */
    void *dict;
    /** Section names as written in the file (iniparser lower-cases them), in file order. */
    char **sections;
    int n_sections;
} tco_ini;

/**
 * Load @p path.  @p display is the path to show in messages (e.g. relative to
 * the project root); NULL means @p path.  Errors: TCO_ERR_NOINPUT (missing or
 * unreadable), TCO_ERR_INI (iniparser's syntax error, with its line number).
 */
tco_error tco_ini_load(const char *path, const char *display, tco_ini *out, tco_diag *diag);

/** Release a loaded file (safe on a zeroed struct). */
void tco_ini_free(tco_ini *ini);

/**
 * Set [@p section] @p key to @p value in the loaded file (creating the section),
 * as if the file said so.  Returns false on allocation failure.
 */
bool tco_ini_set(tco_ini *ini, const char *section, const char *key, const char *value);

/** Value of [@p section] @p key (case-insensitive), or NULL when absent. */
const char *tco_ini_get(const tco_ini *ini, const char *section, const char *key);

/** True if [@p section] exists. */
bool tco_ini_has_section(const tco_ini *ini, const char *section);

/** Number of sections. */
int tco_ini_section_count(const tco_ini *ini);

/** Name of section @p i (lower-case, as iniparser keeps it), 0 <= i < count. */
const char *tco_ini_section_name(const tco_ini *ini, int i);

/** Section @p name as written in the file (e.g. "D-M" for "d-m"); @p name itself if not found. */
const char *tco_ini_section_as_written(const tco_ini *ini, const char *name);

/**
 * Keys of [@p section] as "section:key" strings (iniparser's form), in file
 * order.  Returns a heap array of @p *count pointers into the dictionary (free
 * the array only), or NULL with *count = 0 for an empty or missing section.
 */
const char **tco_ini_keys(const tco_ini *ini, const char *section, int *count);

/**
 * Parse @p text strictly as a finite decimal number: optional sign, digits,
 * optional fraction and exponent, surrounding blanks allowed.  Rejects "",
 * "1,5", "12abc", "0x10", "nan", "inf", and non-zero values below the smallest
 * normal double ("1e-309", "1e-400"; tco_number_is_normal()).  Returns true
 * and sets *out on success.
 */
bool tco_parse_number(const char *text, double *out);

/** True when @p text is a number that tco_parse_number() refuses only for being below the smallest normal double. */
bool tco_number_tiny(const char *text);

/**
 * Read [@p section] @p key as a number (tco_parse_number()).  Errors, with a
 * message `file [section] key: expected a number, found '...'`: TCO_ERR_INI
 * when missing (if @p required) or malformed.  When absent and not required,
 * returns TCO_OK and leaves *out unchanged, setting *found = false.
 */
tco_error tco_ini_number(const tco_ini *ini, const char *section, const char *key, bool required,
                         double *out, bool *found, tco_diag *diag);

/** Levenshtein distance between two short ASCII strings, case-insensitive (for "did you mean"). */
size_t tco_edit_distance(const char *a, const char *b);

#endif /* TCO_INI_H */
