/*
 * loader.h - private to engine/load/: the state of one load (the `loader`), the helpers every part of
 * the loader shares (loader.c), and each part's entry points, one section per file.  Calls go one way,
 * down this list: load.c (the public entry points of load.h, and load_all(), which runs the parts in
 * order); the parts, catalog.c, inputs.c, lines.c, sheets.c, budget.c and checks.c; overrides.c;
 * loader.c.  Nothing outside engine/load/ includes this header.
 *
 * Every function taking a loader @p ld reports its errors through ld->diag, whose message names the
 * file and the [section] key (or the --set argument) at fault.
 */
#ifndef TCO_LOADER_H
#define TCO_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "base/names.h"
#include "model/model.h"
#include "read/ini.h"

/* The --set override of load.h, whose tco_override is this struct: load.h is not included here, as load.c
 * (load.h's own file) includes this header and the house's include check would see a circle. */
struct tco_override;

/* A scenario key that names a catalog section: `card = D-M` names a section of pricing/cards.ini. */
typedef struct ref_key {
    char *key;      /* scenario [scenario] key, e.g. "card" */
    char *file;     /* catalog file stem, e.g. "cards" */
    char *value;    /* the scenario's value as written, e.g. "D-M" */
    int file_index; /* index into loader.catalog */
} ref_key;

/* A set of strings (heap, owned), each once: the strings in v, looked up through a name index. */
typedef struct name_set {
    char **v;
    size_t n, cap;
    tco_name_index ix;
} name_set;

/* Everything open while loading; freed by loader_free() (load.c). */
typedef struct loader {
    const char *root;
    tco_ini scenario;
    /* The template and the catalog files, read once per process through the cache (never changed:
     * --set values go to the scenario). */
    tco_ini_cache *cache;
    const tco_ini *template_ini;
    const tco_ini **catalog;
    size_t n_catalog;
    ref_key *refs;
    size_t n_refs;
    int tier_file; /* catalog index of [model] tiers, -1 without */
    const struct tco_override *overrides;
    size_t n_overrides;
    char **originals; /* per override: the value it replaced (heap), or NULL */
    name_set consumed; /* "section:key" of the scenario that the model used (lower case) */
    name_set from_sections; /* SEC of every template from = SEC.KEY (lower case; each prefix ending at a '.') */
    bool from_sections_done; /* from_sections filled (collect_from_sections()) */
    name_set values_read;    /* "section:KEY" of every input value read (lower case): its KEY_range, KEY_dist and
                              * KEY_range_source belong to it (check_catalog_ranges()) */
    name_set range_sections; /* every section an input value was read from (lower case) */
    char **shared;          /* [model] shared: the site and finance sections a comparison shares */
    int n_shared;
    const char *skip_section; /* lower case: a scenario section another consumer reads (tco_load_options.skip_section) */
    tco_model *model;
    tco_diag *diag;
    struct trees_ahead *ahead; /* the lines' formula trees parsed on a second thread, or NULL (lines.c) */
} loader;

/* ---- small helpers (here, and loader.c) ---------------------------------------------------------------- */

/* A value the loader refuses after it was read (a backstop behind the input's own checks, e.g. years
 * past what a sheet can hold): the message at the place the input's value was given (tco_item
 * value_place: FILE [SECTION] KEY, or the --set), else, for an input not read from a file, after its
 * provenance text.  Returns TCO_ERR_INI. */
tco_error value_refused(loader *ld, const tco_item *it, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** Report running out of memory: TCO_ERR_NOMEM, always. */
static inline tco_error oom(loader *ld)
{
    return tco_diag_set(ld->diag, TCO_ERR_NOMEM, "out of memory while loading the model");
}

/* A section of a loaded file found once for its keys (tco_ini_section_index(); index -1 when absent), so
 * that the dozen keys a loader reads from it cost no hash of the section's name each.  @p name is the
 * section as the messages name it. */
typedef struct ini_sec {
    const tco_ini *ini;
    const char *name;
    int index;
} ini_sec;

/** Section @p name of @p ini, found once (index -1 when @p ini has no such section). */
static inline ini_sec sec_named(const tco_ini *ini, const char *name)
{
    return (ini_sec){ini, name, tco_ini_section_index(ini, name)};
}

/** The value of @p key in section @p s, or NULL. */
static inline const char *sec_get(const ini_sec *s, const char *key)
{
    return tco_ini_get_in(s->ini, s->index, key);
}

/** True if @p set holds @p text (exactly: the sets hold lower-case text). */
static inline bool name_set_has(const name_set *set, const char *text)
{
    return tco_name_index_get(&set->ix, text, NULL);
}

/**
 * Add heap string @p text to @p set, which takes it (and frees it when it has it already).  False on
 * allocation failure (@p text freed).
 */
bool name_set_add(name_set *set, char *text);

/**
 * Add "section:key" (or "section" when @p key is NULL), in lower case, to @p set.  Copied, not printed,
 * and looked up before it is copied to the heap (about a thousand of these on each load, most of the
 * sections already there).  False on allocation failure.
 */
bool name_set_add_lower(name_set *set, const char *section, const char *key);

/** Free the strings of @p set and the set's own memory; leaves an empty set. */
void name_set_free(name_set *set);

/** The place FILE [PREFIX.NAME] KEY of the template's section for item @p name ("line.", "capex"; @p key
 *  NULL for the section alone) in *@p at, the section written into @p section (@p size bytes); returns
 *  @p at, for tco_diag_at(). */
const tco_place *item_place(tco_place *at, char *section, size_t size, const tco_ini *file, const char *prefix,
                            const char *name, const char *key);

/** Mark scenario [@p section] @p key (NULL: the section) as read by the model.  False on allocation failure. */
static inline bool mark_consumed(loader *ld, const char *section, const char *key)
{
    return name_set_add_lower(&ld->consumed, section, key);
}

/** True if the model read @p entry, "section:key" in lower case (mark_consumed()). */
static inline bool is_consumed(const loader *ld, const char *entry)
{
    return name_set_has(&ld->consumed, entry);
}

/** Add an item of @p kind named @p name to the model (tco_model_add_item()); NULL on allocation failure. */
static inline tco_item *add_item(loader *ld, tco_item_kind kind, const char *name)
{
    return tco_model_add_item(ld->model, kind, name);
}

/** The number format an item of unit @p unit shows in (money for CNY..., kW, percent for share..., a
 *  count for a whole number or a unit that counts things; a plain number otherwise). */
tco_format format_for_unit(const char *unit, bool integer);

/**
 * Parse template [@p section] format = @p text (money, kw, percent, count, ratio, number, yesno or never,
 * in any case) into *@p out.  Errors: TCO_ERR_INI (any other word).
 */
tco_error parse_format(loader *ld, const char *section, const char *text, tco_format *out);

/**
 * Check that every key of section @p s is one of @p allowed (NULL-terminated; "summary_*" allows any key
 * starting "summary_").  Errors: TCO_ERR_INI (an unknown key, with the nearest allowed one or the list).
 */
tco_error check_keys(loader *ld, const ini_sec *s, const char *const *allowed);

/**
 * Check [@p section] unit = @p unit of @p ini: at most 64 characters as Excel counts them (a unit is
 * shown in its input's data-validation message, at most 255).  Errors: TCO_ERR_INI.
 */
tco_error check_unit(loader *ld, const tco_ini *ini, const char *section, const char *unit);

/**
 * Check that @p name, of [@p section] in @p ini, does not start with a prefix tco reserves for the names
 * it adds (fx_, the exchange rates of quotes).  Errors: TCO_ERR_BAD_NAME.
 */
tco_error check_reserved(loader *ld, const tco_ini *ini, const char *section, const char *name);

/** The value of required key @p key of section @p s in *@p out.  Errors: TCO_ERR_INI (no such key, or empty). */
tco_error need_string(loader *ld, const ini_sec *s, const char *key, const char **out);

/**
 * The required keys @p keys (NULL-terminated) of section @p s: their values in @p out, in order.
 * Errors: as need_string(), for the first key missing.
 */
tco_error need_strings(loader *ld, const ini_sec *s, const char *const *keys, const char **out);

/** A yes/no key of template section @p s in *@p out; absent means no.  Errors: TCO_ERR_INI (another value). */
tco_error yes_no(loader *ld, const ini_sec *s, const char *key, bool *out);

/**
 * @p path as the workbook's source texts show it: relative to the project root when it lies under
 * ld->root ("pricing/site.ini" whether the root was given as "." or "/srv/tco"), else as given (a
 * scenario file elsewhere).  A pointer into @p path; messages keep the whole path.
 */
const char *shown_in_book(const loader *ld, const char *path);

/** True for a built-in name (year, tier, month, error_cells): no cell of its own to show on Summary or Compare. */
bool builtin(const tco_item *it);

/** The [scenario] keys the loader reads for itself, not for an input: title, template, description, kind
 *  (NULL-terminated). */
extern const char *const scenario_own_keys[];

/** The context of key_has_meaning(): the loader and a section of the scenario or the catalog, as written. */
typedef struct key_owner {
    const loader *ld;
    const char *section;
} key_owner;

/**
 * For tco_ini_near_key()'s @p taken (@p ctx a key_owner): true if @p key has a meaning of its own in the
 * section, so it is no misspelling of a missing key: in [scenario] a ref key (card, host) or one of
 * scenario_own_keys; anywhere a key an input of the template reads from that section (from = SECTION.KEY,
 * or from = card.KEY when the section is the entry the card key names).  "card = D-M" is then not offered
 * for a missing "cards", nor "cards = 32" for a missing "card".
 */
bool key_has_meaning(void *ctx, const char *key);

/* ---- --set overrides (overrides.c) --------------------------------------------------------------------- */

/** The section override @p o names: a ref key (card) stands for the entry it names (D-M). */
const char *override_section(const loader *ld, const struct tco_override *o);

/**
 * Apply the --set values to the scenario as if its file said them, and remember in ld->originals what
 * each replaced (a key set twice: the value before the first --set).  Phase 0 (before anything is
 * read): [scenario] keys such as card or template; phase 1 (once the refs are known, so card.price
 * names [D-M] price): every other section.  Errors: TCO_ERR_NOMEM.
 */
tco_error apply_overrides(loader *ld, int phase);

/** The index of the --set in effect for [@p section] @p key (the last one given), or -1. */
int override_of(const loader *ld, const char *section, const char *key);

/* ---- the catalog, its ref keys and its tiers (catalog.c) ---------------------------------------------- */

/**
 * Read every root/pricing/ *.ini through ld->cache into ld->catalog.  Errors: TCO_ERR_NOINPUT (no
 * catalog file), those of tco_ini_load(), TCO_ERR_DUPLICATE (a section in two files), TCO_ERR_NOMEM.
 */
tco_error load_catalog(loader *ld);

/**
 * Parse [model] refs = @p spec (KEY:FILE, ..., e.g. card:cards) and resolve each against the scenario's
 * [scenario] KEY, an entry of pricing/FILE.ini, into ld->refs and the model's ref_keys and ref_entries.
 * Errors: TCO_ERR_INI (a malformed spec, a missing or empty key, no such entry), TCO_ERR_NOINPUT (no such
 * catalog file), TCO_ERR_NOMEM.
 */
tco_error load_refs(loader *ld, const char *spec);

/**
 * [model] tiers = FILE: the tier codes, the sections of pricing/FILE.ini in file order, into the model
 * (tier_names, tier_path) and ld->tier_file (-1 without the key).  Errors: TCO_ERR_NOINPUT (no such
 * file), TCO_ERR_INI (no section), TCO_ERR_DUPLICATE (two codes that differ only in case), TCO_ERR_NOMEM.
 */
tco_error load_tiers(loader *ld);

/* ---- the template's inputs and their values (inputs.c) ------------------------------------------------- */

/**
 * [model] shared = SEC, SEC, ...: the sections of the site and finance inputs (pricing/site.ini's facility,
 * finance, tax, staffing) that a comparison writes once for every option (tco_item.site_wide), into
 * ld->shared (before the inputs are read).  Errors: TCO_ERR_INI (an empty list).
 */
tco_error load_shared(loader *ld);

/**
 * Template section number @p index, an [input.NAME]: the input, its value from the scenario, the
 * catalog, a --set or its default, with its range and its source text, added to the model.  Errors:
 * TCO_ERR_INI (a key missing, unknown or malformed, a value out of its bounds), TCO_ERR_BAD_NAME,
 * TCO_ERR_DUPLICATE (a name defined twice), TCO_ERR_NOMEM.
 */
tco_error load_input(loader *ld, int index);

/* ---- the template's lines and the built-in names (lines.c) --------------------------------------------- */

/**
 * Template section number @p index, a [line.NAME]: the line and its parsed formula, added to the model.
 * Errors: TCO_ERR_INI, TCO_ERR_BAD_NAME, TCO_ERR_DUPLICATE, TCO_ERR_NOMEM, and those of
 * tco_formula_parse() (TCO_ERR_SYNTAX, TCO_ERR_UNKNOWN_FUNCTION, TCO_ERR_ARITY, TCO_ERR_TOO_DEEP).
 */
tco_error load_line(loader *ld, int index);

/* Parse the formulas of the template's [line.NAME] sections on a second thread, in file order, while
 * this one makes the items (load_line() takes each tree when it comes to it, parsing here itself what
 * the second thread could not: the messages are the same).  Only for a template of more than
 * LINES_AHEAD_MIN lines; without memory or a thread nothing is started, and nothing changes. */
void lines_ahead_start(loader *ld);

/* Stop and join the second thread of lines_ahead_start() (if any); the trees it parsed and no line took
 * go with the model's (tco_model.trees). */
void lines_ahead_finish(loader *ld);

/**
 * Add the built-in item @p name of @p kind (what it is, for the message: @p what) with @p label, @p unit
 * and @p source (NULL: none), a name no input or line may take.  Errors: TCO_ERR_DUPLICATE (the template
 * defines @p name), TCO_ERR_NOMEM.
 */
tco_error add_builtin(loader *ld, tco_item_kind kind, const char *name, const char *what, const char *label,
                      const char *unit, const char *source);

/**
 * Resolve each line's warning_if and check that every {NAME} in its warning names a scalar item (after
 * binding).  Errors: TCO_ERR_UNKNOWN_NAME, TCO_ERR_INI (a malformed {NAME}).
 */
tco_error bind_warnings(loader *ld);

/* ---- the workbook's shape from [model] and [chart.NAME] (sheets.c) ------------------------------------ */

/**
 * [model] schedule = SHEET:INPUT[, INPUT...]: the per-year lines of SHEET run from Year first_year to Year
 * max(N, INPUT, ...) (tco_model.schedule_sheet), so that a depreciation schedule reaches the end of the
 * longest book life (one per asset class) even past the analysis period.  Each INPUT is a whole-number
 * scalar input fixed by the scenario (structural = yes: it sets columns, as `years` does) of 1 to 100.  After the years are known, before the
 * per-year values are allocated.  Errors: TCO_ERR_INI.
 */
tco_error load_schedule(loader *ld);

/**
 * [model] sheets, the [chart.NAME] sections, the conventions (tco_conventions_load()), and the rows of
 * [model] compare, checks and summary (with their _KIND variants), into the model (after binding).
 * Errors: TCO_ERR_INI, TCO_ERR_DUPLICATE (a sheet listed twice), TCO_ERR_UNKNOWN_NAME, TCO_ERR_NOMEM.
 */
tco_error load_sheets_and_summary(loader *ld);

/* ---- the cash flow and the budget of the JSON report (budget.c) --------------------------------------- */

/**
 * [model] cash_flow = KEY:LINE, ...: the JSON cash_flow object's arrays, each a per-year line.
 * Errors: TCO_ERR_INI, TCO_ERR_UNKNOWN_NAME, TCO_ERR_DUPLICATE, TCO_ERR_NOMEM.
 */
tco_error load_cash_flow(loader *ld);

/**
 * The months of the per-month lines: [model] budget_start names a text input YYYY-MM (Month 1),
 * fiscal_year_start an input 1..12 (the fiscal year's first month); [model] budget = KEY:LINE, ...
 * and budget_total = NAME give the JSON budget object.  Errors: TCO_ERR_UNKNOWN_NAME, TCO_ERR_INI,
 * TCO_ERR_DUPLICATE, TCO_ERR_NOMEM.
 */
tco_error load_budget(loader *ld);

/* ---- what nothing read: unknown keys and sections, stray ranges (checks.c) ---------------------------- */

/**
 * The catalog may hold keys no template reads, but not a range that belongs to nothing: in every catalog
 * section an input value was read from, each KEY_range, KEY_dist and KEY_range_source is one beside an
 * input's KEY, and no other key is within two edits of one (a misspelt range would otherwise be ignored
 * without a word).  The keys of values read and their KEY_source are not compared.  After the inputs.
 * Errors: TCO_ERR_INI, TCO_ERR_NOMEM.
 */
tco_error check_catalog_ranges(loader *ld);

/**
 * Every key in the scenario must have been used: a typo must not fall back to a default silently.  Each
 * section and key of the scenario (but those of ld->skip_section) is one the model read, or one of
 * [scenario]'s own; the message names the nearest the template reads.  After the inputs; fills
 * ld->from_sections.  Errors: TCO_ERR_INI (naming the --set that gave the key, if one did),
 * TCO_ERR_NOMEM.
 */
tco_error check_scenario_consumed(loader *ld);

/** Fill ld->from_sections from the template's from keys (a hash set, so that checking each scenario section
 *  does not scan the whole template); once per load, later calls return at once.  Errors: TCO_ERR_NOMEM. */
tco_error collect_from_sections(loader *ld);

/**
 * Each section [model] shared names must be the section of some input's from key (after
 * check_scenario_consumed(), which collects them).  Errors: TCO_ERR_INI.
 */
tco_error check_shared(loader *ld);

#endif /* TCO_LOADER_H */
