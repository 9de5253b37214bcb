/*
 * root.c - where tco finds its data (see root.h for the order).
 */
#include "read/root.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/text.h"

/* True if ROOT/SUB is a folder. */
static bool has_folder(const char *root, const char *sub)
{
    char *path = tco_path_join(root, sub);
    struct stat st;
    bool yes = path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    free(path);
    return yes;
}

bool tco_root_has_project(const char *dir)
{
    return dir && dir[0] && has_folder(dir, "pricing") && has_folder(dir, "templates");
}

/* True if @p a and @p b are the same existing folder. */
static bool same_folder(const char *a, const char *b)
{
    struct stat sa, sb;
    return a && b && a[0] && b[0] && stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISDIR(sa.st_mode) &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The running binary's path from /proc/self/exe into @p exe; false (with errno's text in
 * @p exe) when it cannot be read. */
static bool own_path(char exe[PATH_MAX])
{
    ssize_t n = readlink("/proc/self/exe", exe, PATH_MAX);
    if (n <= 0 || n >= PATH_MAX) {
        snprintf(exe, PATH_MAX, "%s", n < 0 ? strerror(errno) : "path too long");
        return false;
    }
    exe[n] = '\0';
    return exe[0] == '/';
}

/* The folder of the binary at absolute path @p exe ("/" for one at the top), heap; NULL out of memory. */
static char *binary_folder(const char *exe)
{
    const char *slash = strrchr(exe, '/');
    tco_strbuf b = {0};
    tco_strbuf_append_n(&b, exe, slash == exe ? 1 : (size_t)(slash - exe));
    return tco_strbuf_take(&b);
}

/* The installed data folder beside the binary's folder @p bin, as built in (not canonical), heap; NULL
 * when the build has none, or out of memory (*@p nomem set). */
static char *data_folder(const tco_root_layout *layout, const char *bin, bool *nomem)
{
    *nomem = false;
    if (!layout->data_reldir || !layout->data_reldir[0])
        return NULL;
    tco_strbuf b = {0};
    tco_strbuf_printf(&b, "%s/%s", strcmp(bin, "/") == 0 ? "" : bin, layout->data_reldir);
    char *data = tco_strbuf_take(&b);
    *nomem = data == NULL;
    return data;
}

bool tco_root_installed_data(const tco_root_layout *layout, char out[PATH_MAX])
{
    char exe[PATH_MAX];
    bool nomem;
    char *bin = own_path(exe) ? binary_folder(exe) : NULL;
    char *data = bin ? data_folder(layout, bin, &nomem) : NULL;
    bool ok = data && tco_root_has_project(data) && realpath(data, out) != NULL;
    free(bin);
    free(data);
    return ok;
}

tco_error tco_root_find(const tco_root_layout *layout, const char *given, tco_root *root, tco_diag *diag)
{
    root->path = NULL;
    root->installed[0] = '\0';
    if (given) {
        if (!tco_root_has_project(given))
            return tco_diag_set(diag, TCO_ERR_NOINPUT, "--root %s: expected a folder holding pricing/ and templates/",
                                given);
        root->path = given, root->kind = TCO_ROOT_GIVEN;
        return TCO_OK;
    }
    /* An explicit TCO_ROOT comes before the current folder, which anyone who can write there may fill. */
    const char *env = getenv("TCO_ROOT");
    if (env && env[0]) {
        if (!tco_root_has_project(env))
            return tco_diag_set(diag, TCO_ERR_NOINPUT,
                                "TCO_ROOT=%s: expected a folder holding pricing/ and templates/ (or unset it)", env);
        root->path = env, root->kind = TCO_ROOT_ENV;
        return TCO_OK;
    }
    if (tco_root_has_project(".")) {
        root->path = ".", root->kind = TCO_ROOT_CURRENT;
        return TCO_OK;
    }

    char exe[PATH_MAX];
    bool know_exe = own_path(exe);
    char *bin = NULL; /* the binary's folder */
    if (know_exe && (bin = binary_folder(exe)) == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    bool in_build_tree = know_exe && layout->build_dir && same_folder(bin, layout->build_dir);
    if (in_build_tree && tco_root_has_project(layout->source_dir)) {
        free(bin);
        root->path = layout->source_dir, root->kind = TCO_ROOT_BUILD_TREE;
        return TCO_OK;
    }
    bool nomem = false;
    char *data = know_exe ? data_folder(layout, bin, &nomem) : NULL;
    if (nomem) {
        free(bin);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    }
    if (data) {
        if (tco_root_has_project(data) && realpath(data, root->installed) != NULL) {
            free(bin);
            free(data);
            root->path = root->installed, root->kind = TCO_ROOT_INSTALLED;
            return TCO_OK;
        }
    }

    /* Nothing found: say where, in the order tried. */
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL)
        snprintf(cwd, sizeof cwd, "%s", strerror(errno));
    tco_strbuf m = {0};
    tco_strbuf_printf(&m, "no project data found (a folder holding pricing/ and templates/); looked in: $TCO_ROOT "
                      "(not set), the current folder (%s)", cwd);
    if (in_build_tree)
        tco_strbuf_printf(&m, ", the checkout this tco was built from (%s)", layout->source_dir);
    if (data)
        tco_strbuf_printf(&m, ", the installed data beside %s (%s)", exe, data);
    else
        tco_strbuf_printf(&m, ", no installed data (%s: %s)", "/proc/self/exe", know_exe ? "no data folder built in" : exe);
    tco_strbuf_append(&m, "; pass --root DIR or set TCO_ROOT to a folder that has them");
    free(bin);
    free(data);
    tco_diag_set(diag, TCO_ERR_NOINPUT, "%s", m.failed ? "no project data found" : tco_strbuf_str(&m));
    tco_strbuf_free(&m);
    return TCO_ERR_NOINPUT;
}

const char *tco_not_file_reason(unsigned mode)
{
    if (S_ISDIR(mode))
        return "is a folder, not a file";
    if (S_ISFIFO(mode) || S_ISSOCK(mode))
        return "is a pipe or a socket, not a file";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "is a device, not a file";
    return "not a regular file";
}
