/*
 * scenarios.h - the scenarios/ folder under a project root: which file names can be scenarios, the
 * --list listing, resolving --scenario NAME (or a path) to its file, and telling scenarios, comparisons
 * ([compare]) and questions ([advise]) apart.
 */
#ifndef TCO_SCENARIOS_H
#define TCO_SCENARIOS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

/** True if @p name can be a scenario name: 1 to 200 ASCII letters, digits, '-' and '_' (safe as
 *  --scenario NAME, as out/NAME.xlsx and in messages). */
bool tco_scenario_name_ok(const char *name);

/** @p name as a terminal may show it (heap): control characters, and every byte above 0x7F unless the
 *  name is UTF-8, become '?'.  NULL on allocation failure. */
char *tco_shown_name(const char *name);

/** A scenario name for a file named @p name (heap): each run of other characters becomes '_'. */
char *tco_scenario_suggested_name(const char *name);

/** The sorted file stems of ROOT/scenarios/\*.ini in *@p out (heap strings in a heap array); the count,
 *  or -1 when the folder cannot be read.  Stems that cannot be names (tco_scenario_name_ok()) are kept. */
int tco_scenario_names(const char *root, char ***out);

/** Print `tco --list` on stdout: each scenario with its title, comparisons and questions marked, names
 *  that cannot be used said so.  Returns 0, or 66 (said on stderr) when the folder cannot be read. */
int tco_scenario_list(const char *root);

/** The file of scenario @p arg (heap): a path if it ends in .ini or holds '/', else
 *  ROOT/scenarios/NAME.ini.  @p arg came from command-line @p option ("--scenario", "--compare"; a bad
 *  name is then TCO_ERR_USAGE) or, when @p file is not NULL, from that comparison file's [compare]
 *  scenarios (TCO_ERR_INI).  A missing file is TCO_ERR_NOINPUT listing the names there are.  NULL on
 *  error, with @p d set. */
char *tco_scenario_path(const char *root, const char *arg, const char *option, const char *file, tco_diag *d);

/** True if ROOT/scenarios/NAME.ini is a question for tco advise (an [advise] section). */
bool tco_scenario_is_question(const char *root, const char *name);

/** True if ROOT/scenarios/NAME.ini is a comparison ([compare] and no [scenario] section). */
bool tco_scenario_is_comparison(const char *root, const char *name);

/** The file stem of a scenario argument into @p stem (@p size bytes, cut to fit), which it returns:
 *  "a/b/site.ini" gives "site".  The name an option of a comparison is known by (--set NAME:...). */
const char *tco_scenario_stem(const char *arg, char *stem, size_t size);

/** True if @p path is a readable INI file with an [advise] section: a question for tco advise, not a
 *  scenario to price. */
bool tco_scenario_file_is_question(const char *path);

/** True if @p path is a readable INI file with a [compare] section and no [scenario] section: a comparison
 *  for tco --compare, not a scenario to price (what tco_scenario_is_comparison() asks of a name). */
bool tco_scenario_file_is_comparison(const char *path);

#endif /* TCO_SCENARIOS_H */
