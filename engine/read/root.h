/*
 * root.h - where tco finds its data: the project root.
 *
 * The project root is a folder holding pricing/ (the catalog), templates/ (the
 * cost model) and scenarios/.  tco may run from a checkout (./build/tco), from
 * an installation (PREFIX/bin/tco with its data in PREFIX/share/tco), or in a
 * working folder made by `tco init`; tco_root_find() picks the root in one
 * fixed order and, when none is found, says every place it looked.
 *
 * Only reads: nothing here creates or changes a file.
 */
#ifndef TCO_ROOT_H
#define TCO_ROOT_H

#include <limits.h>
#include <stdbool.h>

#include "base/error.h"

/**
 * Where this tco binary was built and where its installed data lies; fixed by
 * the build (CMakeLists.txt passes them to main.c).  Any field may be NULL or
 * "" when unknown, and that place is then not tried.
 */
typedef struct tco_root_layout {
    /** The checkout the binary was built from (CMAKE_SOURCE_DIR), used only when the running
     *  binary is the one in @ref build_dir. */
    const char *source_dir;
    /** The folder the built binary lies in, in its build tree. */
    const char *build_dir;
    /** The installed data folder relative to the running binary's folder, e.g. "../share/tco"
     *  (CMAKE_INSTALL_DATADIR/tco relative to CMAKE_INSTALL_BINDIR). */
    const char *data_reldir;
} tco_root_layout;

/** How the root was found, in the order tco_root_find() tries them. */
typedef enum tco_root_kind {
    /** --root DIR. */
    TCO_ROOT_GIVEN,
    /** The current folder, "." (a checkout, or a folder made by `tco init`). */
    TCO_ROOT_CURRENT,
    /** The environment variable TCO_ROOT. */
    TCO_ROOT_ENV,
    /** The checkout the binary was built from, when it runs from its build tree. */
    TCO_ROOT_BUILD_TREE,
    /** The installed data folder beside the binary (PREFIX/share/tco for PREFIX/bin/tco). */
    TCO_ROOT_INSTALLED
} tco_root_kind;

/** The root tco_root_find() picked. */
typedef struct tco_root {
    /** The root as it is shown in paths: the --root or TCO_ROOT text as given, ".", the
     *  layout's source_dir, or @ref installed.  Valid while the arguments, the environment,
     *  the layout and this struct live. */
    const char *path;
    /** How it was found. */
    tco_root_kind kind;
    /** Storage for the canonical path of the installed data folder (realpath()). */
    char installed[PATH_MAX];
} tco_root;

/** True if @p dir holds the folders pricing/ and templates/ (following symbolic links). */
bool tco_root_has_project(const char *dir);

/**
 * The installed data folder beside the running binary (its folder joined with
 * @p layout->data_reldir, canonicalised into @p out), whichever root a run uses; false when
 * there is none (no data folder built in, or it lacks pricing/ and templates/).
 */
bool tco_root_installed_data(const tco_root_layout *layout, char out[PATH_MAX]);

/**
 * Pick the project root, the first of:
 *  1. @p given (--root DIR), which must hold pricing/ and templates/;
 *  2. $TCO_ROOT when set and not empty, which must then hold them (an explicit setting beats a
 *     current folder anyone may have filled);
 *  3. the current folder, if it holds pricing/ and templates/;
 *  4. @p layout->source_dir, when the running binary (/proc/self/exe) lies in
 *     @p layout->build_dir (the same folder, compared by device and inode) and the
 *     checkout still holds pricing/ and templates/;
 *  5. the running binary's folder joined with @p layout->data_reldir, canonicalised.
 * The output folder is no business of the root: workbooks go to out/ under the
 * current folder whichever root is used.
 *
 * Returns TCO_OK with @p root filled in, or TCO_ERR_NOINPUT with a message in
 * @p diag: for a @p given or $TCO_ROOT folder without pricing/ and templates/,
 * "--root DIR: expected a folder holding pricing/ and templates/" (or
 * "TCO_ROOT=DIR: ..."); when nothing is found, "no project data found (a folder
 * holding pricing/ and templates/); looked in: ..." listing each place tried with
 * its path, and how to give one (--root, TCO_ROOT).  TCO_ERR_NOMEM on
 * allocation failure.
 */
tco_error tco_root_find(const tco_root_layout *layout, const char *given, tco_root *root, tco_diag *diag);

/**
 * Why a path whose stat() mode is @p mode cannot be read as an input file, when it is not a regular one:
 * "is a folder, not a file", "is a pipe or a socket, not a file", "is a device, not a file", else "not a
 * regular file".  The message of every input refused so (INI files, quote files, tco diff's inputs).
 */
const char *tco_not_file_reason(unsigned mode);

#endif /* TCO_ROOT_H */
