/*
 * ini.h - reading tco's INI files through iniparser, with the checks and
 * diagnostics tco needs.
 *
 * iniparser lower-cases section and key names, cuts an unquoted value at ';'
 * or '#', limits a line to 1024 bytes and keeps no line numbers; so every
 * diagnostic about a value names it as `file [section] key`, and numbers are
 * parsed strictly here (no "1,5", "12abc", NaN, inf or empty values).
 *
 * Before iniparser sees a file, tco checks every line (file:line messages):
 * UTF-8 text of XML 1.0 characters only (no control character but tab, no
 * a non-character (U+FFFE, U+FFFF, U+FDD0 to U+FDEF, ...), with the column counted in characters), at most
 * TCO_INI_MAX_LINE bytes, no line ending in '\' (iniparser would join it
 * with the next one, comments included), a value that begins with a quote
 * closes it with nothing but blanks or a comment after, an unquoted value holds
 * no ';' or '#', no duplicate section or key, and the limits below.
 *
 * iniparser 4.1 looks every name up by a linear scan, so a file with n
 * entries costs it n^2/2 comparisons.  tco therefore hands it one run of
 * whole sections at a time (at most 128 entries, or one larger section, so the
 * cost is linear in the file's size; a file of more than 4,096 entries on two
 * threads, with the values and the first error of a reading on one thread) and
 * keeps its own index, built while the lines are checked: a hash from section
 * name to section, and from
 * "section:key" to value for the keys of a section of more than 16 keys; a
 * smaller section's keys are compared in place (they lie together in memory).
 * Every lookup below takes constant time: a hash probe and at most 16
 * comparisons or a second probe, never a pass over the file's names.
 */
#ifndef TCO_INI_H
#define TCO_INI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/text.h"

/** Largest INI file read, in bytes (16 MiB: the template 100 times over, about 10 MB, is read); a larger one is
 * refused before it is read.  The key limits below bound memory whatever the size. */
#define TCO_INI_MAX_BYTES (16u * 1024u * 1024u)
/** Longest line in bytes, without its line end (iniparser reads 1024 bytes: 1022 characters, LF, NUL);
 * one less for a line that ends in CRLF. */
#define TCO_INI_MAX_LINE 1022
/** Most sections in one file (templates/tco.ini has 190; a template 100 times that size fits). */
#define TCO_INI_MAX_SECTIONS 50000
/** Most `key = value` lines in one file (templates/tco.ini has about 1,000). */
#define TCO_INI_MAX_KEYS 250000
/** Most keys in one section (the shipped files have at most 28). */
#define TCO_INI_MAX_SECTION_KEYS 1000

/** The hash index of a loaded file (engine/ini.c). */
struct tco_ini_index;

/** A loaded INI file. */
typedef struct tco_ini {
    /** Path as shown in diagnostics (heap). */
    char *path;
    /** Sections, keys and values, indexed by name (owned; opaque here). */
    struct tco_ini_index *index;
    /** Section names as written in the file (iniparser lower-cases them), in file order (owned). */
    char **sections;
    int n_sections;
    /** tco_fingerprint() of the file's bytes as read (a byte-order mark included): tells whether a
     *  file changed between two runs (the JSON summary's template fingerprint).  0 for a file that
     *  was not loaded from disk. */
    uint64_t fingerprint;
} tco_ini;

/**
 * Load @p path.  @p display is the path to show in messages (e.g. relative to
 * the project root); NULL means @p path.  Errors: TCO_ERR_NOINPUT (missing,
 * unreadable or not a regular file), TCO_ERR_INI (a line that fails a check
 * above, or a limit: `file:LINE: ...`), TCO_ERR_DUPLICATE (a section or key
 * given twice, naming the first line), TCO_ERR_NOMEM.  Time and memory are
 * linear in the file's size: any file up to the size limit is answered in
 * well under a second on one core.
 */
tco_error tco_ini_load(const char *path, const char *display, tco_ini *out, tco_diag *diag);

/** Release a loaded file (safe on a zeroed struct). */
void tco_ini_free(tco_ini *ini);

/**
 * Set [@p section] @p key to @p value (copied) in the loaded file, as if the
 * file said so: an existing key takes the new value in place, a new key goes
 * after the section's last, a new section after the last section.  Returns
 * false on allocation failure, or when @p value is NULL or a name is empty or
 * holds ':' (iniparser's separator), with the file unchanged.
 */
bool tco_ini_set(tco_ini *ini, const char *section, const char *key, const char *value);

/**
 * Value of [@p section] @p key (case-insensitive), or NULL when absent.  The
 * string belongs to @p ini: valid until the key is set again (tco_ini_set())
 * or the file is freed.  A hash lookup; allocates nothing.
 */
const char *tco_ini_get(const tco_ini *ini, const char *section, const char *key);

/**
 * Index of [@p section] (case-insensitive) among the file's sections, as tco_ini_section_name() numbers
 * them, or -1 when absent.  One hash of the name: a loader that reads several keys of one section finds
 * it once and reads them with tco_ini_get_in().
 */
int tco_ini_section_index(const tco_ini *ini, const char *section);

/**
 * Value of @p key (case-insensitive) in section number @p s (tco_ini_section_index(); -1 gives NULL):
 * what tco_ini_get() gives for that section's name, without looking the section up again.  The string
 * belongs to @p ini, as tco_ini_get()'s.  Allocates nothing.
 */
const char *tco_ini_get_in(const tco_ini *ini, int s, const char *key);

/** Number of keys of section number @p s (0 for -1). */
int tco_ini_key_count(const tco_ini *ini, int s);

/**
 * Key @p j (0 <= j < tco_ini_key_count()) of section number @p s, lower-case and without its section
 * ("price" of [D-M] price), in the order of tco_ini_keys(); NULL out of range.  Points into @p ini.
 */
const char *tco_ini_key_at(const tco_ini *ini, int s, int j);

/**
 * True when section number @p s holds a key whose name ends in _range, _dist, _range_source or _range_kind (the keys
 * beside a value's range, model.h), recorded while the file is checked and by tco_ini_set().  False for
 * -1.  A loader that finds no such key in a section need not look any of them up there.
 */
bool tco_ini_has_range_keys(const tco_ini *ini, int s);

/** True if [@p section] exists. */
bool tco_ini_has_section(const tco_ini *ini, const char *section);

/** Number of sections. */
int tco_ini_section_count(const tco_ini *ini);

/** Name of section @p i (lower-case, as iniparser keeps it), 0 <= i < count, in file order. */
const char *tco_ini_section_name(const tco_ini *ini, int i);

/** Section @p name as written in the file (e.g. "D-M" for "d-m"); @p name itself if not found. */
const char *tco_ini_section_as_written(const tco_ini *ini, const char *name);

/**
 * Keys of [@p section] as "section:key" strings, lower-case (iniparser's
 * form), in file order, then any added by tco_ini_set().  Returns a heap array
 * of @p *count pointers into the loaded file, valid until tco_ini_free() (free
 * the array only), or NULL with *count = 0 for an empty or missing section or
 * on allocation failure.
 */
const char **tco_ini_keys(const tco_ini *ini, const char *section, int *count);

/**
 * INI files read once and shared by every load of a process: `tco --scenario all`, `--compare` and
 * `--quotes` read the catalog, the templates and pricing/fx.ini once, not once per scenario.
 * Zero-initialise ({0}); free with tco_ini_cache_free().  The files are looked up by path and
 * display name (a linear pass over the files held: a run reads a few dozen at most).
 */
typedef struct tco_ini_cache {
    struct tco_ini_cached **files; /* owned */
    size_t n, cap;
} tco_ini_cache;

/**
 * The file at @p path (shown as @p display; NULL means @p path) as tco_ini_load() reads it, read
 * on the first call and held by @p cache for the later ones.  *@p out belongs to the cache (valid
 * until tco_ini_cache_free()) and must not be changed (no tco_ini_set()).  Errors as
 * tco_ini_load(), and nothing is held then: the next call reads the file again.
 */
tco_error tco_ini_cache_load(tco_ini_cache *cache, const char *path, const char *display, const tco_ini **out,
                             tco_diag *diag);

/** Release every file held (safe on a zeroed cache). */
void tco_ini_cache_free(tco_ini_cache *cache);

/**
 * Parse @p text strictly as a finite decimal number: optional sign, digits,
 * optional fraction and exponent, surrounding blanks allowed.  Rejects "",
 * "1,5", "12abc", "0x10", "nan", "inf", and non-zero values below the smallest
 * normal double ("1e-309", "1e-400"; tco_number_is_normal()).  Returns true
 * and sets *out on success.
 */
bool tco_parse_number(const char *text, double *out);

/**
 * The double that strtod(@p s, NULL) gives for @p s, a decimal number as tco_parse_number() accepts it
 * without blanks (optional sign, digits with an optional '.' and fraction, optional exponent): exactly
 * the same value.  Without an exponent, with at most 19 digits (leading zeros not counted) whose value
 * is at most 2^53 and at most 22 of them after the point (prices, counts, rates), it is found without
 * strtod(): the digits as an integer over a power of ten, both exact, divided once (W. D. Clinger's
 * fast path), which rounds as strtod() does.
 */
double tco_decimal_value(const char *s);

/**
 * The decimal number whose @p digits significant digits (leading zeros not counted), @p frac of them
 * after the point, make the integer @p m (wrapped past 19 digits), into *@p value, when Clinger's fast
 * path holds (at most 19 digits, m at most 2^53, at most 22 after the point): the value strtod() gives
 * the same text.  False, *@p value unchanged, when it does not hold (then strtod() or
 * tco_decimal_value() of the text).  Shared by tco_decimal_value() and the quote file's numbers, which
 * gather the digits as they check them.
 */
static inline bool tco_decimal_exact(uint64_t m, int digits, int frac, double *value)
{
    /* Clinger's fast path (W. D. Clinger, "How to read floating point numbers accurately", PLDI 1990):
     * with a mantissa m below 2^53 and f <= 22 digits after the point, m and 10^f are exact doubles and
     * the one rounding of m / 10^f is the correctly rounded value, which is what strtod() returns. */
    if (digits > 19 || m > (UINT64_C(1) << 53) || frac > 22)
        return false;
    *value = frac ? (double)m / tco_pow10_exact[frac] : (double)m; /* m / 10^0 is m */
    return true;
}


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

/**
 * tco_ini_number() for section number @p sec (tco_ini_section_index(); -1 for none), which the messages
 * call [@p section].
 */
tco_error tco_ini_number_in(const tco_ini *ini, int sec, const char *section, const char *key, bool required,
                            double *out, bool *found, tco_diag *diag);

/**
 * The key of [@p section] a user most likely wrote for the missing @p key, for a "found no such key"
 * message; NULL when none.  Points into @p ini.  A candidate is within two edits of @p key
 * ("utilization" for "utilisation") or the same word written another way: one holds the other, or
 * they share a stem (the first word, a plural 's' dropped: "card_count" for "cards").  Ranked by
 * meaning first (when @p number, a key whose value is a number before one whose value is not, so
 * "card = D-M" is not offered for a count), then the same word before a mere near spelling, then
 * the fewest edits, then the file's order.  Never @p key itself, nor a key beside it (@p key followed by
 * one of tco_ini_beside_suffixes: those say @p key is missing, not misspelt; "cards_count" is offered for
 * "cards"), nor a key for which @p taken (when not NULL) returns true with @p ctx: a key with a meaning of
 * its own ("card = D-M" names the card, so it is no misspelling of "cards").
 */
const char *tco_ini_near_key(const tco_ini *ini, const char *section, const char *key, bool number,
                             bool (*taken)(void *ctx, const char *key), void *ctx);

/** The suffixes of the keys beside a value KEY that describe it: KEY_source (its basis), KEY_range,
 *  KEY_dist, KEY_range_source, KEY_range_kind (docs/inputs.md); NULL-terminated, "_source" first. */
extern const char *const tco_ini_beside_suffixes[];

/**
 * Edit distance between two names, case-insensitive (ASCII), for "did you mean": Levenshtein's with two
 * neighbouring characters swapped counting one edit (the optimal string alignment distance: "cluster23"
 * is 1 from "cluster32"); exact when it is 0, 1 or 2, and 3 for anything farther (or a name over 64
 * bytes), which is all a suggestion needs.
 */
size_t tco_edit_distance(const char *a, const char *b);


#endif /* TCO_INI_H */
