/*
 * init.h - `tco init DIR`: a working folder for a user's own budget.
 *
 * The folder is a project root of its own (root.h), so `cd DIR && tco
 * --scenario NAME` and `tco --root DIR --scenario NAME` both run it:
 *
 *   DIR/scenarios/NAME.ini   a copy of the one scenario asked for
 *   DIR/pricing/             a copy of every file of the catalog (site.ini,
 *                            cards.ini, hosts.ini, fx.ini, ...), to edit
 *   DIR/templates/           a copy of the cost model, so the folder's figures
 *                            do not move when tco is upgraded
 *   DIR/README.md            what the files are, and the command that runs it
 *
 * The catalog copied from (normally the installed PREFIX/share/tco) is only
 * read.  Nothing is replaced and no link is followed: DIR must not exist or be
 * an empty folder (not a symbolic link), and every file and folder in it is
 * created new (O_CREAT | O_EXCL, O_NOFOLLOW), so a file or link planted there
 * meanwhile makes the run fail instead of being written through.  On any
 * failure what was created is removed again (DIR too, if this run made it).
 */
#ifndef TCO_INIT_H
#define TCO_INIT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"

/** What `tco init` is asked to make. */
typedef struct tco_init_request {
    /** The project root to copy from: its pricing/ and templates/ (every regular file whose
     *  name does not start with '.'). */
    const char *root;
    /** True when @ref root is the installed data folder: DIR may then not lie anywhere inside
     *  it.  (DIR may never lie in the root's pricing/, templates/, scenarios/ or docs/.) */
    bool root_installed;
    /** The installed data folder beside the binary (tco_root_installed_data()), or NULL: DIR may
     *  not lie in it however the root was found (--root, TCO_ROOT or the current folder may name
     *  it too). */
    const char *installed_data;
    /** The scenario file to copy (already resolved, e.g. ROOT/scenarios/cluster32.ini). */
    const char *scenario_path;
    /** The scenario's name in DIR, a valid scenario name: it becomes DIR/scenarios/NAME.ini. */
    const char *name;
    /** The folder to make. */
    const char *dir;
    /** The command that runs tco, as the README and the report show it: "tco" when tco is
     *  found on PATH, else a path to the binary. */
    const char *command;
} tco_init_request;

/**
 * Make the working folder @p req->dir (see the file comment), check that its
 * scenario loads from it (tco_model_load() with DIR as the root), and print to
 * @p report (when not NULL) what was made and the command that runs it.
 *
 * Errors (nothing is left behind): TCO_ERR_CANTCREATE when DIR exists and is
 * not an empty folder, is a symbolic link, lies in the catalog, its parent is
 * missing, or a file cannot be created or written ("DIR: ..." naming the file
 * and the reason); TCO_ERR_NOINPUT when a catalog file cannot be read; the
 * model's error (prefixed "DIR: the copied scenario does not load: ") when the
 * copy does not load; TCO_ERR_NOMEM.
 */
tco_error tco_init_folder(const tco_init_request *req, FILE *report, tco_diag *diag);

#endif /* TCO_INIT_H */
