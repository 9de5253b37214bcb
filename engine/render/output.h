/*
 * output.h - replace an output file safely: write it to an unpredictable
 * temporary created exclusively in the target's folder, verify it, give it the
 * replaced file's permissions (and owner, as root) on the descriptor, and
 * rename it into place.  Nothing but the target is ever written; no name in
 * the folder that another user could predict or plant is ever opened.
 *
 * Shape of a write (what workbook.c does):
 *
 *     tco_output out;
 *     if (tco_output_begin(&out, "out/book.xlsx", diag) != TCO_OK) return ...;
 *     // hand out.write_path to the library (it opens it with fopen "wb"),
 *     // its own temporaries to out.dir; optionally hold back its stderr:
 *     tco_output_quiet(&out);
 *     ... library writes and closes the file ...
 *     tco_output_loud(&out, library_failed ? &detail : NULL);
 *     if (library_failed) { tco_output_abandon(&out); return ...; }
 *     return tco_output_commit(&out, expected_sheets, diag);  // verifies, renames
 *
 * The temporary is DIR/.tco-PID-RANDOM.tmp (RANDOM: 12 characters [A-Za-z0-9]
 * from getrandom()), opened with O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, mode
 * 0600, and held under flock(LOCK_EX) until the run ends.  The library gets
 * the path "/proc/self/fd/N" of that descriptor: opening it reaches the same
 * inode whatever is done to names in the folder, so a planted symlink or FIFO
 * is never followed or opened (tco needs /proc mounted; without it the write
 * fails with exit 73 saying so).
 *
 * A run that is killed leaves its temporary behind; the next tco_output_begin()
 * on that folder removes it (sweep): only regular files, owned by this user,
 * named exactly .tco-PID-RANDOM.tmp (or the older .tco-PID.tmp), whose process
 * PID is gone and whose lock nobody holds (the lock covers a live writer in
 * another PID namespace).  Links are never followed.
 */
#ifndef TCO_OUTPUT_H
#define TCO_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "base/error.h"

/** One replacement in progress.  Fill with tco_output_begin(); end with commit or abandon. */
typedef struct tco_output {
    /** The target path as the caller gave it (borrowed; must outlive the write). */
    const char *path;
    /** The target's folder ("." when the path has none), heap; libxlsxwriter's tmpdir. */
    char *dir;
    /** The temporary's path, DIR/.tco-PID-RANDOM.tmp, heap. */
    char *tmp;
    /** libxlsxwriter's tmpdir: a private folder DIR/.tco-PID-RANDOM.d (mode 0700) made beside the
     *  temporary and removed with it, so that its part files never stay in DIR; heap, and its name. */
    char *lib_tmpdir;
    char lib_name[64];
    /** "/proc/self/fd/N": the path a library opens (fopen "wb") to write the temporary. */
    char write_path[32];
    /** Descriptor of the temporary (O_RDWR, close-on-exec, flock held); -1 when closed. */
    int fd;
    /** Descriptor of the folder (O_PATH), for the *at() calls; -1 when closed. */
    int dirfd;
    /** True when a regular file exists at the target; then @c old is its lstat(). */
    bool replacing;
    /** The replaced file's lstat() (mode, owner, group), when @c replacing. */
    struct stat old;
    /** While quiet: a duplicate of the real stderr (-2: stderr was closed); otherwise -1. */
    int saved_stderr;
    /** While quiet: the memory file that fd 2 points to; otherwise -1 (then not quiet). */
    int captured;
} tco_output;

/**
 * Start replacing @p path.  Refuses a folder that is missing or not writable
 * and a target that exists but is not a regular file (a symlink, FIFO, device
 * or folder: lstat(), never followed).  Sweeps stale temporaries of killed
 * runs from the folder, then creates the temporary and locks it.
 * Errors: TCO_ERR_CANTCREATE (the message names @p path and the cause:
 * folder, target kind, /proc unavailable, creation failure with strerror),
 * TCO_ERR_NOMEM.  On error nothing is left to clean up and nothing was created.
 */
tco_error tco_output_begin(tco_output *out, const char *path, tco_diag *diag);

/**
 * The checks of tco_output_begin() alone, creating nothing: @p path's folder is writable and @p path,
 * if it exists, is a regular file.  For a long run (Monte Carlo) to refuse a target it could not write
 * before the work, not after.  Errors as tco_output_begin().
 */
tco_error tco_output_check(const char *path, tco_diag *diag);

/**
 * Hold back what is written to stderr (fd 2) from now until tco_output_loud():
 * fd 2 is pointed at an anonymous memory file (memfd; no pipe, so a chatty
 * library cannot block).  In sanitizer builds, sanitizer reports keep going to
 * the real stderr meanwhile.  Returns false, stderr left alone and errno
 * set, if no memory file can be made (too many open files): the caller
 * stops then, since the write would fail with the library's lines first.
 */
bool tco_output_quiet(tco_output *out);

/**
 * Give stderr back.  With @p detail NULL, everything held back is written to
 * the real stderr now (nothing is lost on success).  Otherwise the held-back
 * text is not printed; instead *@p detail receives a one-line summary of it
 * (heap, NUL-terminated, NULL if there was nothing; the caller frees), to be
 * put in tco's own message, so that message comes first and alone.
 */
void tco_output_loud(tco_output *out, char **detail);

/**
 * Finish: verify the temporary as an XLSX package with at least
 * @p expected_sheets worksheets (tco_output_verify_xlsx()), set its
 * permissions on the descriptor - the replaced file's permission bits (0777;
 * set-id and sticky bits are dropped) or 0666 minus the umask for a new file -
 * and, when replacing as root, its owner and group (fchown), or as another
 * user its group when the user may (otherwise the group bits are cleared,
 * since the file's group then differs), and rename it onto the target.
 * Always closes @p out.
 * Errors: TCO_ERR_CANTCREATE (verification failed: the message names the part
 * and what was wrong; fchmod/fchown/rename failed: strerror).  On error the
 * temporary is removed and the target is untouched.
 */
tco_error tco_output_commit(tco_output *out, size_t expected_sheets, tco_diag *diag);

/**
 * As tco_output_commit(), for a text file the caller wrote to @p out->fd and checked itself (a scenario
 * file, `tco advise --save-scenario`): no XLSX verification; the temporary is flushed to disk (fsync),
 * given its permissions and renamed onto the target.  Always closes @p out.
 * Errors: TCO_ERR_CANTCREATE (fsync, fchmod/fchown or rename failed: strerror).  On error the temporary
 * is removed and the target is untouched.
 */
tco_error tco_output_commit_text(tco_output *out, tco_diag *diag);

/** Give up: remove the temporary (if it is still ours) and close @p out.  Safe to call twice. */
void tco_output_abandon(tco_output *out);

/**
 * Check that the file at @p path is a complete XLSX package: a zip archive
 * whose every entry reads back with the right size and CRC-32; every XML part
 * (.xml, .rels, .vml) complete, well-formed and namespace-correct (expat); the
 * parts [Content_Types].xml, _rels/.rels, xl/workbook.xml,
 * xl/_rels/workbook.xml.rels and xl/styles.xml present; every part named by a
 * content-type override or an internal relationship present; every part with
 * a content type; every sheet listed in xl/workbook.xml resolved through its
 * relationship to a part that exists; at least @p expected_sheets sheets
 * (0: any number); and every number cached a finite decimal
 * ([+-]digits[.digits][E[+-]digits] within the largest double): the <v> of
 * each number cell (no t, or t="n") of a worksheet (xl/worksheets/) and each
 * <c:v> of a <c:numCache> or <c:numLit> of a chart (xl/charts/), reported
 * once the structure is found whole, by sheet name and cell ("sheet 'Risk'
 * (xl/worksheets/sheet14.xml) cell H5: 'INF' is not a finite number") or by
 * chart part, point and series reference.  @p name is the file's name for messages (NULL: @p path).
 * Errors: TCO_ERR_CANTCREATE with "NAME: the workbook written is damaged:
 * PART: what was wrong" (for example "xl/sharedStrings.xml: XML not
 * well-formed at line 2, column 8190: unclosed token"), TCO_ERR_NOMEM.
 */
tco_error tco_output_verify_xlsx(const char *path, const char *name, size_t expected_sheets, tco_diag *diag);

/**
 * Write @p n bytes of @p s to the descriptor @p fd, resuming after short writes and
 * interrupted calls (EINTR).  Returns true when all were written; false on an error (errno
 * set by write(), or 0 bytes written).
 */
bool tco_output_write_all(int fd, const char *s, size_t n);

#endif /* TCO_OUTPUT_H */
