/*
 * init.c - `tco init DIR`: a working folder for a user's own budget (see init.h).
 */
#include "apps/init.h"
#include "model/evaluate.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "render/output.h"
#include "base/utf8.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "load/load.h"

/* One file or folder this run created, named @p name in the folder open as @p dir_fd. */
typedef struct made_entry {
    int dir_fd;
    char *name;
    bool folder;
} made_entry;

/* A run of tco_init_folder(): what it made so far, so that a failure removes exactly that. */
typedef struct init_run {
    const tco_init_request *req;
    tco_diag *diag;
    /* DIR, open (O_DIRECTORY | O_NOFOLLOW); -1 before. */
    int fd;
    /* True if this run created DIR itself. */
    bool made_dir;
    made_entry *made;
    size_t n_made, cap_made;
    /* The subfolders pricing/, templates/, scenarios/ while open; -1 when not. */
    int sub_fd[3];
} init_run;

/* The three subfolders, in the order they are made. */
static const char *const sub_names[3] = {"pricing", "templates", "scenarios"};

/* Record "DIR/REL: WHAT: strerror(ERR)" (DIR alone when REL is NULL, no reason when ERR is 0). */
static tco_error fail_at(init_run *r, tco_error e, const char *rel, const char *what, int err)
{
    char *shown = rel ? tco_path_join(r->req->dir, rel) : NULL;
    tco_diag_set(r->diag, e, "%s: %s%s%s", shown ? shown : r->req->dir, what, err ? ": " : "", err ? strerror(err) : "");
    free(shown);
    return e;
}

/* Create the file or folder @p name in @p dir_fd (shown as DIR/@p rel), never through a link and
 * never over anything that exists; remember it for the clean-up.  A file is returned open for
 * writing; for a folder, the folder itself opened (O_DIRECTORY | O_NOFOLLOW).  @p mode: the
 * permissions asked for (the umask still applies).  -1 on failure. */
static int create_entry(init_run *r, int dir_fd, const char *name, const char *rel, bool folder, mode_t mode)
{
    if (r->n_made == r->cap_made) {
        size_t cap = r->cap_made ? 2 * r->cap_made : 16;
        made_entry *grown = realloc(r->made, cap * sizeof *grown);
        if (grown == NULL) {
            tco_diag_set(r->diag, TCO_ERR_NOMEM, "out of memory");
            return -1;
        }
        r->made = grown, r->cap_made = cap;
    }
    char *copy = tco_strdup(name);
    if (copy == NULL) {
        tco_diag_set(r->diag, TCO_ERR_NOMEM, "out of memory");
        return -1;
    }
    int fd;
    if (folder) {
        if (mkdirat(dir_fd, name, 0777) != 0) {
            fail_at(r, TCO_ERR_CANTCREATE, rel, "cannot create the folder", errno);
            free(copy);
            return -1;
        }
        r->made[r->n_made++] = (made_entry){dir_fd, copy, true};
        fd = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    } else {
        fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd >= 0)
            r->made[r->n_made++] = (made_entry){dir_fd, copy, false};
        else
            free(copy);
    }
    if (fd < 0)
        fail_at(r, TCO_ERR_CANTCREATE, rel, folder ? "cannot open the folder just made" : "cannot create the file",
                errno);
    return fd;
}

/* Finish a file written through @p fd: close it, reporting a failed write or close. */
static tco_error finish_file(init_run *r, int fd, bool written, const char *rel)
{
    int err = written ? 0 : errno;
    if (close(fd) != 0 && err == 0)
        err = errno;
    return err ? fail_at(r, TCO_ERR_CANTCREATE, rel, "cannot write the file", err) : TCO_OK;
}

/* Copy the regular file @p src to @p name in @p to_fd (shown as DIR/@p rel). */
static tco_error copy_file(init_run *r, const char *src, int to_fd, const char *name, const char *rel)
{
    /* O_NONBLOCK: a FIFO put where a catalog file should be is refused, not waited on. */
    int in = open(src, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
        int err = in < 0 ? errno : 0;
        if (in >= 0)
            close(in);
        return tco_diag_set(r->diag, TCO_ERR_NOINPUT, "%s: %s%s", src, err ? "cannot read it: " : "not a regular file",
                            err ? strerror(err) : "");
    }
    /* The copy is as private as the file it copies (a 0600 catalog stays 0600), and always the owner's
     * to edit (an installed 0444 one becomes 0644 under the usual umask). */
    int out = create_entry(r, to_fd, name, rel, false, (st.st_mode & 0666) | 0600);
    if (out < 0) {
        close(in);
        return r->diag->code;
    }
    char buf[65536];
    bool written = true;
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int err = errno;
            close(in);
            close(out);
            return tco_diag_set(r->diag, TCO_ERR_NOINPUT, "%s: cannot read it: %s", src, strerror(err));
        }
        if (n == 0 || !(written = tco_output_write_all(out, buf, (size_t)n)))
            break;
    }
    close(in);
    return finish_file(r, out, written, rel);
}

static int not_hidden(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

/* Names in the folder @p path to copy: regular files (links to one included) whose names do not
 * start with '.', in alphasort() order.  Returns the count, or -1 with the error in the diagnostic;
 * free with tco_free_list(). */
static int files_to_copy(init_run *r, const char *path, char ***names)
{
    struct dirent **ents;
    int n = scandir(path, &ents, not_hidden, alphasort);
    if (n < 0) {
        tco_diag_set(r->diag, TCO_ERR_NOINPUT, "%s: cannot read the folder: %s", path, strerror(errno));
        return -1;
    }
    int kept = 0;
    bool ok = (*names = calloc((size_t)n + 1, sizeof **names)) != NULL;
    for (int i = 0; i < n; i++) {
        char *full = ok ? tco_path_join(path, ents[i]->d_name) : NULL;
        struct stat st;
        ok = ok && full;
        if (ok && stat(full, &st) == 0 && S_ISREG(st.st_mode))
            ok = ((*names)[kept++] = tco_strdup(ents[i]->d_name)) != NULL;
        free(full);
        free(ents[i]);
    }
    free(ents);
    if (!ok) {
        tco_free_list(*names, kept);
        *names = NULL;
        tco_diag_set(r->diag, TCO_ERR_NOMEM, "out of memory");
        return -1;
    }
    return kept;
}

/* Copy every file of ROOT/@p sub (files_to_copy()) into the new folder DIR/@p sub open as
 * @p to_fd; the names copied are kept in *@p names (free with tco_free_list()). */
static int copy_folder(init_run *r, const char *sub, int to_fd, char ***names)
{
    char *from = tco_path_join(r->req->root, sub);
    int n = from ? files_to_copy(r, from, names) : -1;
    if (from == NULL)
        tco_diag_set(r->diag, TCO_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        tco_strbuf src = {0}, rel = {0};
        tco_strbuf_printf(&src, "%s/%s", from, (*names)[i]);
        tco_strbuf_printf(&rel, "%s/%s", sub, (*names)[i]);
        tco_error e = src.failed || rel.failed ? tco_diag_set(r->diag, TCO_ERR_NOMEM, "out of memory")
                                               : copy_file(r, tco_strbuf_str(&src), to_fd, (*names)[i],
                                                           tco_strbuf_str(&rel));
        tco_strbuf_free(&src);
        tco_strbuf_free(&rel);
        if (e != TCO_OK) {
            tco_free_list(*names, n);
            *names = NULL;
            n = -1;
        }
    }
    free(from);
    return n;
}

/* Append @p s as one word for a POSIX shell: as it is when it holds only characters no shell
 * treats specially, else in single quotes (each ' written as '\''). */
static void append_shell_word(tco_strbuf *b, const char *s)
{
    if (s[0] == '-') /* a relative path that a command would take for an option: ./-dir */
        tco_strbuf_append(b, "./");
    bool plain = s[0] != '\0';
    for (const char *p = s; *p && plain; p++)
        plain = isalnum((unsigned char)*p) || strchr("/._-+,:@%", *p) != NULL;
    if (plain) {
        tco_strbuf_append(b, s);
        return;
    }
    tco_strbuf_append(b, "'");
    for (const char *p = s; *p; p++)
        tco_strbuf_append(b, *p == '\'' ? "'\\''" : (char[2]){*p, '\0'});
    tco_strbuf_append(b, "'");
}

/* The README of the new folder; @p abs_dir and @p abs_root are the canonical paths of DIR and
 * the root copied from, @p command the tco command (shell-quoted). */
static void readme_text(const init_run *r, const char *abs_dir, const char *abs_root, const char *command,
                        char **pricing, int n_pricing, tco_strbuf *b)
{
    const char *name = r->req->name;
    tco_strbuf_printf(b, "# %s: a tco working folder\n\nRun it in this folder:\n\n    %s --scenario %s\n\n", name,
                      command, name);
    tco_strbuf_printf(b, "It prints the summary and writes the workbook out/%s.xlsx under the\n"
                      "current folder. From any other folder:\n\n    %s --root ", name, command);
    append_shell_word(b, abs_dir);
    tco_strbuf_printf(b, " --scenario %s\n\n", name);
    tco_strbuf_append(b, "`tco init` copied these files from ");
    append_shell_word(b, abs_root);
    tco_strbuf_printf(b, ",\nwhich stays as it is. They are yours to edit:\n\n"
                      "- `scenarios/%s.ini`: the scenario (card tier and count, host, years,\n"
                      "  utilisation, workload).\n"
                      "- `pricing/`: the catalog:", name);
    for (int i = 0; i < n_pricing; i++)
        tco_strbuf_printf(b, "%s `%s`", i ? "," : "", pricing[i]);
    tco_strbuf_append(b, ".\n"
                      "  `site.ini` is the site: facility (electricity price, PUE), UPS, racks,\n"
                      "  network, staffing, support, storage, finance and tax. The card and host\n"
                      "  prices in `cards.ini` and `hosts.ini` are illustrative until you put your\n"
                      "  own in, or price from vendor quotes with `--quotes FILE.csv`.\n"
                      "- `templates/`: the cost model, copied so that this folder's figures stay\n"
                      "  as they are when tco is upgraded.\n\n");
    tco_strbuf_printf(b, "For a variant, copy `scenarios/%s.ini` to `scenarios/OTHER.ini` and run\n"
                      "`tco --scenario OTHER`; `tco --list` shows the scenarios here, and\n"
                      "`man tco` every option.\n", name);
}

/* The canonical path DIR will have (DIR itself when it exists, else its parent's canonical path
 * and its last part) into @p out. */
static tco_error target_path(init_run *r, char out[PATH_MAX])
{
    const char *dir = r->req->dir;
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    struct stat st;
    if (lstat(dir, &st) == 0 && !S_ISLNK(st.st_mode))
        return realpath(dir, out) ? TCO_OK : fail_at(r, TCO_ERR_CANTCREATE, NULL, "cannot resolve the path", errno);
    size_t cut = len;
    while (cut > 0 && dir[cut - 1] != '/')
        cut--;
    tco_strbuf parent = {0};
    tco_strbuf_append_n(&parent, cut == 0 ? "." : dir, cut == 0 ? 1 : cut > 1 ? cut - 1 : cut); /* no '/' at the end */
    char canon[PATH_MAX];
    bool found = !parent.failed && realpath(tco_strbuf_str(&parent), canon) != NULL;
    int err = errno;
    char shown_dir[TCO_DIAG_MAX], shown_parent[TCO_DIAG_MAX]; /* a path of 4 KB left no room for the reason */
    if (!found)
        tco_diag_set(r->diag, TCO_ERR_CANTCREATE, "%s: cannot create the folder: its parent %s: %s",
                     tco_utf8_elide(dir, 400, shown_dir, sizeof shown_dir),
                     tco_utf8_elide(tco_strbuf_str(&parent), 400, shown_parent, sizeof shown_parent),
                     parent.failed ? "out of memory" : strerror(err));
    tco_strbuf_free(&parent);
    if (!found)
        return TCO_ERR_CANTCREATE;
    int n = snprintf(out, PATH_MAX, "%s/%.*s", strcmp(canon, "/") == 0 ? "" : canon, (int)(len - cut), dir + cut);
    return n >= PATH_MAX ? fail_at(r, TCO_ERR_CANTCREATE, NULL, "path too long", 0) : TCO_OK;
}

/* True if the canonical @p path is @p folder or lies inside it. */
static bool lies_in(const char *path, const char *folder)
{
    size_t n = strlen(folder);
    return strncmp(path, folder, n) == 0 && (path[n] == '\0' || path[n] == '/' || (n == 1 && folder[0] == '/'));
}

/* Refuse a DIR inside the catalog copied from (see tco_init_request). */
static tco_error check_outside_catalog(init_run *r, const char *target, const char *abs_root)
{
    static const char *const catalog[] = {"pricing", "templates", "scenarios", "docs"};
    const char *installed = r->req->root_installed ? abs_root : r->req->installed_data;
    if (installed && lies_in(target, installed))
        return tco_diag_set(r->diag, TCO_ERR_CANTCREATE, "%s: lies in the installed data folder %s, which tco init "
                            "never writes; give a folder outside it", r->req->dir, installed);
    for (size_t i = 0; i < sizeof catalog / sizeof catalog[0]; i++) {
        char folder[PATH_MAX];
        char *p = tco_path_join(abs_root, catalog[i]);
        bool in = p && realpath(p, folder) && lies_in(target, folder);
        free(p);
        if (in)
            return tco_diag_set(r->diag, TCO_ERR_CANTCREATE, "%s: lies in the catalog folder %s, which tco init "
                                "never writes; give a folder outside it", r->req->dir, folder);
    }
    return TCO_OK;
}

/* Create DIR, or take it when it is an empty folder; open it into r->fd. */
static tco_error open_target(init_run *r)
{
    const char *dir = r->req->dir;
    if (mkdir(dir, 0777) == 0)
        r->made_dir = true;
    else if (errno != EEXIST)
        return fail_at(r, TCO_ERR_CANTCREATE, NULL, "cannot create the folder", errno);
    struct stat st;
    if (!r->made_dir && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
        return fail_at(r, TCO_ERR_CANTCREATE, NULL, "is a symbolic link; tco init follows none: give a new folder", 0);
    r->fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (r->fd < 0)
        return fail_at(r, TCO_ERR_CANTCREATE, NULL,
                       errno == ENOTDIR ? "exists and is not a folder; give a new folder" : "cannot open the folder",
                       errno == ENOTDIR ? 0 : errno);
    if (r->made_dir)
        return TCO_OK;
    int probe = dup(r->fd);
    DIR *dp = probe < 0 ? NULL : fdopendir(probe);
    if (dp == NULL) {
        int err = errno;
        if (probe >= 0)
            close(probe);
        return fail_at(r, TCO_ERR_CANTCREATE, NULL, "cannot read the folder", err);
    }
    const struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(dp)) != NULL)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(dp);
    return empty ? TCO_OK
                 : fail_at(r, TCO_ERR_CANTCREATE, NULL,
                           "exists and is not empty; tco init replaces nothing: give a new or empty folder", 0);
}

/* Remove what the run made, newest first, and close what it opened. */
static void clean_up(init_run *r, bool keep)
{
    for (size_t i = r->n_made; i-- > 0;) {
        if (!keep)
            unlinkat(r->made[i].dir_fd, r->made[i].name, r->made[i].folder ? AT_REMOVEDIR : 0);
        free(r->made[i].name);
    }
    free(r->made);
    for (int i = 0; i < 3; i++)
        if (r->sub_fd[i] >= 0)
            close(r->sub_fd[i]);
    if (r->fd >= 0)
        close(r->fd);
    if (!keep && r->made_dir)
        rmdir(r->req->dir);
}

/* Check that the folder's scenario loads with the folder as the root. */
static tco_error check_loads(init_run *r)
{
    tco_strbuf rel = {0};
    tco_strbuf_printf(&rel, "scenarios/%s.ini", r->req->name);
    char *path = rel.failed ? NULL : tco_path_join(r->req->dir, tco_strbuf_str(&rel));
    tco_strbuf_free(&rel);
    if (path == NULL)
        return tco_diag_set(r->diag, TCO_ERR_NOMEM, "out of memory");
    tco_model *m = NULL;
    tco_diag d = {0};
    tco_error e = tco_model_load(r->req->dir, path, NULL, &m, &d);
    if (e == TCO_OK)
        e = tco_model_evaluate(m, &d);
    tco_model_free(m);
    free(path);
    if (e != TCO_OK)
        tco_diag_set(r->diag, e, "%s: the copied scenario does not load, so nothing is kept: %s", r->req->dir,
                     d.message);
    return e;
}

/* Make the folder's contents: the three subfolders with their copies, and the README. */
static tco_error fill(init_run *r, const char *abs_dir, const char *abs_root, const char *command, FILE *report)
{
    char **copied[2] = {NULL, NULL};
    int n_copied[2] = {0, 0};
    tco_error e = TCO_OK;
    for (int i = 0; i < 3 && e == TCO_OK; i++) {
        if ((r->sub_fd[i] = create_entry(r, r->fd, sub_names[i], sub_names[i], true, 0777)) < 0)
            e = r->diag->code;
        else if (i < 2 && (n_copied[i] = copy_folder(r, sub_names[i], r->sub_fd[i], &copied[i])) < 0)
            e = r->diag->code;
    }
    if (e == TCO_OK) {
        tco_strbuf file = {0}, rel = {0};
        tco_strbuf_printf(&file, "%s.ini", r->req->name);
        tco_strbuf_printf(&rel, "scenarios/%s.ini", r->req->name);
        e = file.failed || rel.failed ? tco_diag_set(r->diag, TCO_ERR_NOMEM, "out of memory")
                                      : copy_file(r, r->req->scenario_path, r->sub_fd[2], tco_strbuf_str(&file),
                                                  tco_strbuf_str(&rel));
        tco_strbuf_free(&file);
        tco_strbuf_free(&rel);
    }
    if (e == TCO_OK) {
        tco_strbuf text = {0};
        readme_text(r, abs_dir, abs_root, command, copied[0], n_copied[0], &text);
        int fd = text.failed ? -1 : create_entry(r, r->fd, "README.md", "README.md", false, 0666);
        if (text.failed)
            e = tco_diag_set(r->diag, TCO_ERR_NOMEM, "out of memory");
        else if (fd < 0)
            e = r->diag->code;
        else
            e = finish_file(r, fd, tco_output_write_all(fd, text.data, text.len), "README.md");
        tco_strbuf_free(&text);
    }
    if (e == TCO_OK)
        e = check_loads(r);
    if (e == TCO_OK && report) {
        tco_strbuf run = {0};
        tco_strbuf_append(&run, "cd ");
        append_shell_word(&run, r->req->dir);
        tco_strbuf_printf(&run, " && %s --scenario %s", command, r->req->name);
        /* The folder's name on the terminal escaped as every name tco prints (a bidi control or a line
         * separator cannot reorder or forge the line); a name that needs it gets no cd line to paste. */
        char *shown = NULL;
        size_t shown_len = 0;
        FILE *mem = open_memstream(&shown, &shown_len);
        if (mem) {
            tco_text_put_terminal(mem, r->req->dir, strlen(r->req->dir));
            fclose(mem);
        }
        bool plain = shown != NULL && strcmp(shown, r->req->dir) == 0;
        fputs("Made ", report);
        tco_text_put_terminal(report, r->req->dir, strlen(r->req->dir));
        fprintf(report, ": scenarios/%s.ini, pricing/ (%d file%s), templates/ (%d file%s), README.md\n", r->req->name,
                n_copied[0], n_copied[0] == 1 ? "" : "s", n_copied[1], n_copied[1] == 1 ? "" : "s");
        if (plain)
            fprintf(report, "Run it: %s\n", tco_strbuf_str(&run));
        else
            fprintf(report, "Run it in that folder: %s --scenario %s\n", command, r->req->name);
        free(shown);
        tco_strbuf_free(&run);
    }
    for (int i = 0; i < 2; i++)
        tco_free_list(copied[i], n_copied[i]);
    return e;
}

tco_error tco_init_folder(const tco_init_request *req, FILE *report, tco_diag *diag)
{
    init_run r = {.req = req, .diag = diag, .fd = -1, .sub_fd = {-1, -1, -1}};
    char abs_dir[PATH_MAX], abs_root[PATH_MAX], exe[PATH_MAX];
    if (realpath(req->root, abs_root) == NULL)
        return tco_diag_set(diag, TCO_ERR_NOINPUT, "%s: cannot resolve the catalog folder: %s", req->root,
                            strerror(errno));
    tco_error e = target_path(&r, abs_dir);
    if (e == TCO_OK)
        e = check_outside_catalog(&r, abs_dir, abs_root);
    if (e != TCO_OK)
        return e;
    /* The command as the user can type it again: a path is made absolute, a bare name kept. */
    tco_strbuf command = {0};
    const char *invoked = req->command && req->command[0] ? req->command : "tco";
    append_shell_word(&command, strchr(invoked, '/') && realpath(invoked, exe) ? exe : invoked);
    if (command.failed)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    e = open_target(&r);
    if (e == TCO_OK)
        e = fill(&r, abs_dir, abs_root, tco_strbuf_str(&command), report);
    clean_up(&r, e == TCO_OK);
    tco_strbuf_free(&command);
    return e;
}
