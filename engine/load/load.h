/*
 * load.h - the model from its INI files (load.c): the scenario, the catalog (pricing/) and the
 * template (templates/), with --set overrides, bound and ordered.  The floor above the model: it
 * includes model/ and read/, and nothing above it.
 */
#ifndef TCO_LOAD_H
#define TCO_LOAD_H

#include <stddef.h>
#include "base/error.h"
#include "model/model.h"
#include "read/ini.h"

/** One --set SECTION.KEY=VALUE override: as if the scenario file said [SECTION] KEY = VALUE. */
typedef struct tco_override {
    /** The argument as given, e.g. "facility.pue=1.2" (for messages). */
    const char *arg;
    /** Section (a scenario section, catalog section, or a ref key such as card), key and value. */
    char section[128], key[128], value[512];
    /** The option it is for in a comparison (--set NAME:SECTION.KEY=VALUE), else "". */
    char option[201];
} tco_override;

/**
 * The catalog entry scenario @p model names for the template's ref key @p key (e.g. "D-M" for
 * "card"), or NULL when @p key is not a ref key.
 */
const char *tco_model_ref_entry(const tco_model *model, const char *key);

/**
 * Parse "SECTION.KEY=VALUE", or "OPTION:SECTION.KEY=VALUE" for one option of a comparison, into @p out.  Errors: TCO_ERR_USAGE with a message
 * naming the argument and what was expected.
 */
tco_error tco_override_parse(const char *arg, tco_override *out, tco_diag *diag);

/** How tco_model_load() reads a scenario; a zeroed struct (or NULL) is a plain load. */
typedef struct tco_load_options {
    /** --set values applied to the scenario before anything is read from it (@p n_overrides of them;
     *  NULL for none): each is validated like the INI value it replaces, and the input it sets records
     *  its value before. */
    const tco_override *overrides;
    size_t n_overrides;
    /** The template and catalog files read through this cache (tco_ini_cache_load(); the caller keeps it
     *  for the process and frees it with tco_ini_cache_free()), so that the loads of one run read each
     *  shared file once (--scenario all, --compare, --quotes, advise).  NULL: the files are read for this
     *  load alone.  The model keeps no pointer into the cache. */
    tco_ini_cache *files;
    /** A scenario section (lower case, e.g. "advise") that belongs to another consumer (tco advise reads a
     *  question's [advise]): the loader reads none of its keys and does not refuse them as unknown.  NULL:
     *  none. */
    const char *skip_section;
} tco_load_options;

/**
 * Load the scenario @p scenario_path using the catalog in @p root/pricing/ *.ini
 * and the template @p root/templates/<scenario's template>.ini, as @p opts says
 * (NULL: no --set values, no shared cache, no section skipped).  @p root is the
 * project directory ("." for the current one).  Binds every name, checks input
 * ranges and orders the lines; it does not evaluate them: the caller calls
 * tco_model_evaluate() (evaluate.h) before it reads a value.
 * Errors: TCO_ERR_NOINPUT, TCO_ERR_INI, TCO_ERR_SYNTAX, TCO_ERR_UNKNOWN_NAME,
 * TCO_ERR_UNKNOWN_FUNCTION, TCO_ERR_ARITY, TCO_ERR_BAD_NAME, TCO_ERR_DUPLICATE,
 * TCO_ERR_CYCLE, TCO_ERR_TOO_DEEP, TCO_ERR_NOMEM; the diagnostic names the file
 * and section/key.  On error *@p out is NULL.
 */
tco_error tco_model_load(const char *root, const char *scenario_path, const tco_load_options *opts, tco_model **out,
                         tco_diag *diag);

#endif /* TCO_LOAD_H */
