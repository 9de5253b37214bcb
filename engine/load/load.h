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

/**
 * Load the scenario @p scenario_path using the catalog in @p root/pricing/ *.ini
 * and the template @p root/templates/<scenario's template>.ini.  @p root is the
 * project directory ("." for the current one).  Binds every name, checks input
 * ranges, orders the lines and evaluates them.
 * Errors: TCO_ERR_NOINPUT, TCO_ERR_INI, TCO_ERR_SYNTAX, TCO_ERR_UNKNOWN_NAME,
 * TCO_ERR_UNKNOWN_FUNCTION, TCO_ERR_ARITY, TCO_ERR_BAD_NAME, TCO_ERR_DUPLICATE,
 * TCO_ERR_CYCLE, TCO_ERR_EVAL, TCO_ERR_TOO_DEEP, TCO_ERR_NOMEM; the diagnostic
 * names the file and section/key.  On error *@p out is NULL.
 */
tco_error tco_model_load(const char *root, const char *scenario_path, tco_model **out, tco_diag *diag);

/**
 * As tco_model_load(), with @p n_overrides --set values applied to the scenario
 * before anything is read from it; each is validated like the INI value it
 * replaces, and the input it sets records its value before.
 */
tco_error tco_model_load_with(const char *root, const char *scenario_path, const tco_override *overrides,
                              size_t n_overrides, tco_model **out, tco_diag *diag);

/**
 * As tco_model_load_with(), reading the template and the catalog files through @p files (a cache the
 * caller keeps for the process, freed with tco_ini_cache_free()), so that the loads of one run read
 * each shared file once (--scenario all, --compare, --quotes).  NULL: the files are read for this
 * load alone.  The model keeps no pointer into the cache.  Errors as tco_model_load().
 */
tco_error tco_model_load_shared(const char *root, const char *scenario_path, const tco_override *overrides,
                                size_t n_overrides, tco_ini_cache *files, tco_model **out, tco_diag *diag);

/**
 * As tco_model_load_with(), except that the scenario's section @p skip_section (lower case, e.g.
 * "advise"; NULL for none) belongs to another consumer (tco advise reads a question's [advise]):
 * the loader reads none of its keys and does not refuse them as unknown.  @p files, when not NULL,
 * holds the shared files as for tco_model_load_shared().
 */
tco_error tco_model_load_skipping(const char *root, const char *scenario_path, const char *skip_section,
                                  const tco_override *overrides, size_t n_overrides, tco_ini_cache *files,
                                  tco_model **out, tco_diag *diag);

#endif /* TCO_LOAD_H */
