/* output.c - replace an output file through a private temporary; verify XLSX packages. */
#define _GNU_SOURCE /* memfd_create, getrandom */
#include "render/output.h"

#include <dirent.h>
#include <errno.h>
#include <expat.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <unzip.h>

#include "base/utf8.h"
#include "base/strbuf.h"
#include "base/text.h"

/* Sanitizer builds: keep sanitizer reports on the real stderr while fd 2 is held back. */
#if defined(__SANITIZE_ADDRESS__)
#define TCO_SANITIZER_REPORTS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TCO_SANITIZER_REPORTS 1
#endif
#endif
#ifdef TCO_SANITIZER_REPORTS
#include <sanitizer/common_interface_defs.h>
#endif

enum {
    RAND_LEN = 12,         /* random characters in a temporary's name: 62^12, about 71 bits */
    CREATE_TRIES = 64,     /* names tried before giving up (each clash is a file planted or a sweep racing) */
    MAX_PID_DIGITS = 10,
    XML_CHUNK = 64 * 1024, /* bytes read from a zip entry at a time */
    NAME_MAX_ZIP = 1024,   /* longest zip entry name accepted */
    VERIFY_SPLIT_BYTES = 128 * 1024 /* bulk XML above which a second thread checks about half of it */
};

static const char RAND_CHARS[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/* ---- paths and temporaries ------------------------------------------------------------ */

/* Folder part of @p path ("." when none), heap. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return tco_strdup(".");
    while (slash > path && slash[-1] == '/')
        slash--;
    if (slash == path)
        return tco_strdup("/");
    tco_strbuf b = {0};
    tco_strbuf_append_n(&b, path, (size_t)(slash - path));
    return tco_strbuf_take(&b);
}

/* Last component of @p path (borrowed). */
static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* True if process @p pid is gone (or a zombie, which will never finish its write). */
static bool process_gone(long pid)
{
    if (kill((pid_t)pid, 0) != 0)
        return errno == ESRCH;
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')');
    return paren != NULL && paren[1] == ' ' && paren[2] == 'Z';
}

/* The PID in a temporary's name: ".tco-PID-RANDOM.tmp" (RANDOM: RAND_LEN of RAND_CHARS) or the
 * older ".tco-PID.tmp", or the library's folder ".tco-PID-RANDOM.d" (*@p folder set).  Returns 0 for
 * any other name. */
static long temp_name_pid(const char *name, bool *folder)
{
    *folder = false;
    if (strncmp(name, ".tco-", 5) != 0)
        return 0;
    const char *p = name + 5;
    long pid = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9' && digits < MAX_PID_DIGITS) {
        pid = pid * 10 + (*p++ - '0');
        digits++;
    }
    if (digits == 0 || name[5] == '0' || pid > INT32_MAX)
        return 0;
    if (*p == '-') {
        p++;
        for (int i = 0; i < RAND_LEN; i++, p++)
            if (*p == '\0' || strchr(RAND_CHARS, *p) == NULL)
                return 0;
        if (strcmp(p, ".d") == 0) {
            *folder = true;
            return pid;
        }
    }
    return strcmp(p, ".tmp") == 0 ? pid : 0;
}


/* @p fd moved above the standard descriptors 0-2 (close-on-exec): when tco was started with one of them
 * closed, nothing of ours may sit there, where stderr redirection or a library's stdio would reach it. */
static int above_stdio(int fd)
{
    if (fd < 0 || fd > STDERR_FILENO)
        return fd;
    int nfd = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    int saved = errno;
    close(fd);
    errno = saved;
    return nfd;
}

/* Empty and remove the library's temporary folder @p name in @p parent: its regular files (the
 * library's part files a killed run left) and then the folder; anything else in it keeps it. */
/* Folder @p name in @p dirfd opened for listing, never through a link; NULL if it cannot be. */
static DIR *open_listing(int dirfd, const char *name)
{
    int fd = above_stdio(openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d == NULL && fd >= 0)
        close(fd);
    return d;
}

static void remove_lib_folder(int parent, const char *name)
{
    DIR *d = open_listing(parent, name);
    if (d == NULL)
        return;
    int fd = dirfd(d);
    struct dirent *e;
    struct stat st;
    while ((e = readdir(d)) != NULL)
        if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            unlinkat(fd, e->d_name, 0);
    closedir(d);
    unlinkat(parent, name, AT_REMOVEDIR);
}

/* Remove the temporaries that killed runs left in the folder @p dirfd: regular files of this user with a
 * temporary's exact name, whose process is gone and whose lock nobody holds.  Never follows a link, never
 * opens anything but a regular file (O_NONBLOCK: a FIFO swapped in meanwhile cannot block). */
static void sweep_stale(int dirfd)
{
    DIR *d = open_listing(dirfd, ".");
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        bool folder;
        long pid = temp_name_pid(e->d_name, &folder);
        struct stat st, ost;
        if (pid <= 0 || pid == (long)getpid() || fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            st.st_uid != geteuid() || !process_gone(pid))
            continue;
        if (folder) {
            /* Live while its run's temporary (the same name, .tmp) is locked: that covers PID namespaces. */
            char tmp[64];
            size_t n = strlen(e->d_name);
            snprintf(tmp, sizeof tmp, "%.*s.tmp", (int)(n - 2), e->d_name);
            int tfd = openat(dirfd, tmp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
            bool live = tfd >= 0 && flock(tfd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
            if (tfd >= 0)
                close(tfd);
            if (S_ISDIR(st.st_mode) && !live)
                remove_lib_folder(dirfd, e->d_name);
            continue;
        }
        if (!S_ISREG(st.st_mode))
            continue;
        int fd = openat(dirfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (fstat(fd, &ost) == 0 && S_ISREG(ost.st_mode) && ost.st_dev == st.st_dev && ost.st_ino == st.st_ino &&
            (flock(fd, LOCK_EX | LOCK_NB) == 0 || (errno != EWOULDBLOCK && errno != EINTR)))
            unlinkat(dirfd, e->d_name, 0);
        close(fd);
    }
    closedir(d);
}

/* Fill @p out with RAND_LEN random name characters (getrandom; a clock and counter mix if it fails:
 * the name then is less unpredictable, but O_EXCL still never opens anything planted). */
static void random_part(char out[RAND_LEN + 1])
{
    unsigned char r[RAND_LEN];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        static unsigned long counter;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        unsigned long long x = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 20) ^
                               ((unsigned long long)getpid() << 40) ^ ++counter;
        for (size_t i = 0; i < sizeof r; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            r[i] = (unsigned char)(x >> 56);
        }
    }
    for (size_t i = 0; i < RAND_LEN; i++)
        out[i] = RAND_CHARS[r[i] % (sizeof RAND_CHARS - 1)];
    out[RAND_LEN] = '\0';
}

/* True if @p name in @p dirfd is (still) the file open as @p fd. */
static bool name_is_fd(int dirfd, const char *name, int fd)
{
    struct stat a, b;
    return fstatat(dirfd, name, &a, AT_SYMLINK_NOFOLLOW) == 0 && fstat(fd, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

static void output_close(tco_output *out)
{
    if (out->captured >= 0)
        tco_output_loud(out, NULL);
    if (out->lib_tmpdir != NULL && out->dirfd >= 0)
        remove_lib_folder(out->dirfd, out->lib_name);
    free(out->lib_tmpdir);
    out->lib_tmpdir = NULL;
    if (out->fd >= 0)
        close(out->fd);
    if (out->dirfd >= 0)
        close(out->dirfd);
    out->fd = out->dirfd = -1;
    free(out->dir);
    free(out->tmp);
    out->dir = out->tmp = NULL;
}

/* The folder of @p path must be writable and @p path, if it exists, a regular file (*@p old its lstat(),
 * *@p exists whether it does); @p dir is the folder. */
static tco_error check_target(const char *path, const char *dir, struct stat *old, bool *exists, tco_diag *diag)
{
    *exists = false;
    if (access(dir, W_OK) != 0)
    {
        char p[TCO_DIAG_MAX], f[TCO_DIAG_MAX]; /* a path of 4 KB would leave no room for the reason */
        return tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot write into folder '%s': %s",
                            tco_utf8_elide(path, 400, p, sizeof p), tco_utf8_elide(dir, 400, f, sizeof f),
                            strerror(errno));
    }
    /* Replace only a regular file (never a symlink, device, FIFO or folder). */
    if (lstat(path, old) == 0) {
        if (!S_ISREG(old->st_mode))
            return tco_diag_set(diag, TCO_ERR_CANTCREATE,
                                "%s: exists and is not a regular file; refusing to replace it", path);
        *exists = true;
    } else if (errno != ENOENT) {
        return tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot examine the target: %s", path, strerror(errno));
    }
    return TCO_OK;
}

tco_error tco_output_check(const char *path, tco_diag *diag)
{
    char *dir = dir_of(path);
    if (dir == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    struct stat old;
    bool exists;
    tco_error e = check_target(path, dir, &old, &exists, diag);
    free(dir);
    return e;
}

tco_error tco_output_begin(tco_output *out, const char *path, tco_diag *diag)
{
    *out = (tco_output){.path = path, .fd = -1, .dirfd = -1, .saved_stderr = -1, .captured = -1};
    out->dir = dir_of(path);
    if (out->dir == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    tco_error e = check_target(path, out->dir, &out->old, &out->replacing, diag);
    if (e != TCO_OK)
        goto fail;
    /* O_PATH: a folder others may write into but not list (mode 0733) still works; the sweep needs to list. */
    out->dirfd = above_stdio(open(out->dir, O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (out->dirfd < 0) {
        e = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot open folder '%s': %s", path, out->dir,
                         strerror(errno));
        goto fail;
    }
    sweep_stale(out->dirfd);

    char name[64];
    int err = EEXIST;
    for (int attempt = 0; attempt < CREATE_TRIES && out->fd < 0; attempt++) {
        char rnd[RAND_LEN + 1];
        random_part(rnd);
        snprintf(name, sizeof name, ".tco-%ld-%s.tmp", (long)getpid(), rnd);
        int fd = above_stdio(
            openat(out->dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600));
        if (fd < 0) {
            err = errno;
            if (err == EEXIST || err == EINTR)
                continue;
            break;
        }
        /* The lock says "a live writer" to other runs' sweeps (also across PID namespaces).  A sweep that
         * took it first is about to remove the name: start over.  Without lock support, the PID alone says it. */
        if (flock(fd, LOCK_EX | LOCK_NB) != 0 && (errno == EWOULDBLOCK || errno == EINTR)) {
            close(fd);
            err = EEXIST;
            continue;
        }
        if (!name_is_fd(out->dirfd, name, fd)) { /* swept before we locked it */
            close(fd);
            err = EEXIST;
            continue;
        }
        out->fd = fd;
    }
    if (out->fd < 0) {
        e = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot create a temporary file in folder '%s': %s", path,
                         out->dir, strerror(err));
        goto fail;
    }
    tco_strbuf tb = {0};
    size_t dl = strlen(out->dir);
    tco_strbuf_printf(&tb, "%s%s%s", out->dir, dl > 0 && out->dir[dl - 1] == '/' ? "" : "/", name);
    out->tmp = tco_strbuf_take(&tb);
    if (out->tmp == NULL) {
        unlinkat(out->dirfd, name, 0);
        e = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        goto fail;
    }
    /* The library's part files go into a private folder of the same name (.d): a killed run's are swept
     * with it, where in the folder itself they would be left as tmp.XXXXXXXXXX. */
    size_t nl = strlen(name);
    snprintf(out->lib_name, sizeof out->lib_name, "%.*s.d", (int)(nl - 4), name);
    if (mkdirat(out->dirfd, out->lib_name, 0700) != 0) {
        int err2 = errno;
        unlinkat(out->dirfd, name, 0);
        e = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot create a temporary folder in folder '%s': %s", path,
                         out->dir, strerror(err2));
        goto fail;
    }
    tco_strbuf lb = {0};
    tco_strbuf_printf(&lb, "%.*s%s", (int)(strlen(out->tmp) - nl), out->tmp, out->lib_name);
    if ((out->lib_tmpdir = tco_strbuf_take(&lb)) == NULL) {
        unlinkat(out->dirfd, out->lib_name, AT_REMOVEDIR);
        unlinkat(out->dirfd, name, 0);
        e = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        goto fail;
    }
    /* The library opens the descriptor's inode through /proc, never a name in the folder. */
    snprintf(out->write_path, sizeof out->write_path, "/proc/self/fd/%d", out->fd);
    struct stat a, b;
    errno = 0;
    if (stat(out->write_path, &a) != 0 || fstat(out->fd, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
        e = tco_diag_set(diag, TCO_ERR_CANTCREATE,
                         "%s: cannot reach the temporary through %s (is /proc mounted?): %s", path, out->write_path,
                         errno ? strerror(errno) : "a different file");
        tco_output_abandon(out);
        return e;
    }
    return TCO_OK;
fail:
    output_close(out);
    return e;
}

/* ---- stderr held back ------------------------------------------------------------------- */

bool tco_output_quiet(tco_output *out)
{
    if (out->captured >= 0)
        return true;
    fflush(stderr);
    /* A closed stderr is occupied too, so that no file the library opens meanwhile lands on fd 2. */
    int saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    if (saved < 0 && errno != EBADF)
        return false;
    int mfd = above_stdio(memfd_create("tco-stderr", MFD_CLOEXEC));
    if (mfd < 0 || dup2(mfd, STDERR_FILENO) < 0) {
        int err = errno;
        if (saved >= 0)
            close(saved);
        if (mfd >= 0)
            close(mfd);
        errno = err;
        return false;
    }
    out->saved_stderr = saved < 0 ? -2 : saved;
    out->captured = mfd;
#ifdef TCO_SANITIZER_REPORTS
    if (saved >= 0)
        __sanitizer_set_report_fd((void *)(intptr_t)saved);
#endif
    return true;
}

bool tco_output_write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        s += w;
        n -= (size_t)w;
    }
    return true;
}

/* One line summing up held-back library output: the system error it reports ("System error = ..."), or
 * else its first "[ERROR]" line without the "[ERROR][file:line]: function(): " prefix; the /proc path
 * replaced by the target's, control characters as blanks.  Heap, or NULL when there is nothing. */
static char *summarise(const tco_output *out, const char *text)
{
    const char *line = strstr(text, "System error = ");
    if (line != NULL) {
        line += strlen("System error = ");
    } else if ((line = strstr(text, "[ERROR]")) != NULL) {
        line += 7;
        if (*line == '[' && strchr(line, ']'))
            line = strchr(line, ']') + 1;
        line += strspn(line, ": ");
        const char *paren = strstr(line, "(): ");
        const char *eol = strchr(line, '\n');
        if (paren && (eol == NULL || paren < eol) && strcspn(line, " ") > (size_t)(paren - line))
            line = paren + 4;
    } else {
        line = text;
    }
    line += strspn(line, " \n");
    size_t n = strcspn(line, "\n");
    tco_strbuf b = {0};
    size_t wl = strlen(out->write_path);
    for (size_t i = 0; i < n; i++) {
        if (wl > 0 && n - i >= wl && memcmp(line + i, out->write_path, wl) == 0) {
            tco_strbuf_append(&b, out->path);
            i += wl - 1;
        } else {
            tco_strbuf_append_n(&b, (unsigned char)line[i] < 0x20 ? " " : line + i, 1);
        }
    }
    while (b.len > 0 && (b.data[b.len - 1] == ' ' || b.data[b.len - 1] == '.'))
        b.data[--b.len] = '\0';
    if (b.len == 0) {
        tco_strbuf_free(&b);
        return NULL;
    }
    return tco_strbuf_take(&b);
}

void tco_output_loud(tco_output *out, char **detail)
{
    if (detail)
        *detail = NULL;
    if (out->captured < 0)
        return;
    fflush(stderr);
    if (out->saved_stderr >= 0) {
        dup2(out->saved_stderr, STDERR_FILENO);
        close(out->saved_stderr);
#ifdef TCO_SANITIZER_REPORTS
        __sanitizer_set_report_fd((void *)(intptr_t)STDERR_FILENO);
#endif
    } else {
        close(STDERR_FILENO); /* it was closed when tco started */
    }
    out->saved_stderr = -1;
    tco_strbuf text = {0};
    char buf[4096];
    ssize_t n;
    if (lseek(out->captured, 0, SEEK_SET) == 0)
        while ((n = read(out->captured, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
            if (n < 0)
                continue;
            if (detail == NULL)
                (void)tco_output_write_all(STDERR_FILENO, buf, (size_t)n);
            else if (text.len < 64 * 1024) /* the summary needs the first lines only */
                tco_strbuf_append_n(&text, buf, (size_t)n);
        }
    close(out->captured);
    out->captured = -1;
    if (detail && text.len > 0 && !text.failed)
        *detail = summarise(out, tco_strbuf_str(&text));
    tco_strbuf_free(&text);
}

/* ---- finishing ---------------------------------------------------------------------------- */

/* The process's umask, without changing it for longer than the read (tco is single-threaded). */
static mode_t current_umask(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (f != NULL) {
        char line[128];
        unsigned int m;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "Umask: %o", &m) == 1) {
                fclose(f);
                return (mode_t)(m & 0777);
            }
        fclose(f);
    }
    mode_t m = umask(022);
    umask(m);
    return m;
}

/* Put the verified temporary of @p out in place (tco_output_commit()'s second half); @p what names the file
 * in messages ("workbook", "file"). */
static tco_error put_in_place(tco_output *out, const char *what, tco_diag *diag);

tco_error tco_output_commit(tco_output *out, size_t expected_sheets, tco_diag *diag)
{
    if (out->captured >= 0)
        tco_output_loud(out, NULL);
    if (out->fd < 0)
        return tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: no temporary to put in place", out->path);
    tco_error e = tco_output_verify_xlsx(out->write_path, out->path, expected_sheets, diag);
    if (e != TCO_OK) {
        tco_output_abandon(out);
        return e;
    }
    return put_in_place(out, "workbook", diag);
}

tco_error tco_output_commit_text(tco_output *out, tco_diag *diag)
{
    if (out->captured >= 0)
        tco_output_loud(out, NULL);
    if (out->fd < 0)
        return tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: no temporary to put in place", out->path);
    if (fsync(out->fd) != 0) {
        tco_error e = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: writing the file failed: %s", out->path,
                                   strerror(errno));
        tco_output_abandon(out);
        return e;
    }
    return put_in_place(out, "file", diag);
}

static tco_error put_in_place(tco_output *out, const char *what, tco_diag *diag)
{
    tco_error e = TCO_OK;
    struct stat now;
    mode_t mode = 0;
    if (fstat(out->fd, &now) != 0) {
        e = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot examine the temporary '%s': %s", out->path, out->tmp,
                         strerror(errno));
    } else if (out->replacing) {
        mode = out->old.st_mode & 0777;
        if (geteuid() == 0) {
            if ((now.st_uid != out->old.st_uid || now.st_gid != out->old.st_gid) &&
                fchown(out->fd, out->old.st_uid, out->old.st_gid) != 0)
                e = tco_diag_set(diag, TCO_ERR_CANTCREATE,
                                 "%s: cannot give the new %s the owner of the file it replaces (%ld:%ld): %s",
                                 out->path, what, (long)out->old.st_uid, (long)out->old.st_gid, strerror(errno));
        } else if (now.st_gid != out->old.st_gid && fchown(out->fd, (uid_t)-1, out->old.st_gid) != 0) {
            mode &= ~(mode_t)070; /* the group differs now: grant it nothing the old one had */
        }
    } else {
        mode = 0666 & ~current_umask();
    }
    if (e == TCO_OK && fchmod(out->fd, mode) != 0)
        e = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot set the permissions of the new %s: %s",
                         out->path, what, strerror(errno));
    if (e == TCO_OK && !name_is_fd(out->dirfd, base_of(out->tmp), out->fd))
        e = tco_diag_set(diag, TCO_ERR_CANTCREATE,
                         "%s: the temporary '%s' was removed or replaced by another program while tco wrote it",
                         out->path, out->tmp);
    /* In the folder opened at the start, whatever happens to the path's folders meanwhile. */
    if (e == TCO_OK && renameat(out->dirfd, base_of(out->tmp), out->dirfd, base_of(out->path)) != 0)
        e = tco_diag_set(diag, TCO_ERR_CANTCREATE, "%s: cannot move the finished %s into place: %s", out->path,
                         what, strerror(errno));
    if (e != TCO_OK) {
        tco_output_abandon(out);
        return e;
    }
    output_close(out);
    return TCO_OK;
}

void tco_output_abandon(tco_output *out)
{
    if (out->fd >= 0 && out->dirfd >= 0 && out->tmp != NULL && name_is_fd(out->dirfd, base_of(out->tmp), out->fd))
        unlinkat(out->dirfd, base_of(out->tmp), 0);
    output_close(out);
}

/* ---- verification ----------------------------------------------------------------------- */

typedef struct rel_ref {
    char *target; /* resolved part name */
    char *from;   /* the .rels part naming it */
    char *id;     /* relationship id */
} rel_ref;

/* PART_SHEET (xl/worksheets/) and PART_CHART (xl/charts/) are bulk parts whose numbers are checked: a
 * number cell's <v>, a chart's cached <c:v> of a number series. */
typedef enum part_kind { PART_OTHER, PART_TYPES, PART_RELS, PART_WORKBOOK, PART_SHEET, PART_CHART } part_kind;

/* The first number in a part that is not a finite number (found, not yet reported: the sheet's name is
 * known only once xl/workbook.xml is read, which comes after the worksheets). */
typedef struct bad_number {
    size_t part;      /* its part's place in the directory; SIZE_MAX: none found */
    const char *name; /* the part's name (borrowed from the verifier's list of parts) */
    char where[200]; /* "cell H5", or "the cached point 2 of the series over 'Risk'!$B$7:$B$107" */
    char text[56];   /* what the <v> holds, cut */
} bad_number;

typedef struct verifier {
    const char *name; /* file name for messages */
    tco_diag *diag;
    tco_error err;
    char **parts;
    size_t n_parts, cap_parts;
    char **overrides, **defaults; /* content types: part names, extensions */
    size_t n_overrides, cap_overrides, n_defaults, cap_defaults;
    rel_ref *refs; /* every internal relationship */
    size_t n_refs, cap_refs;
    char **sheet_ids; /* r:id of each <sheet> in xl/workbook.xml */
    size_t n_sheets, cap_sheets;
    char **sheet_names; /* and its name */
    size_t n_sheet_names, cap_sheet_names;
    /* the part being parsed */
    const char *part;
    size_t part_index; /* its place in the directory */
    part_kind kind;
    /* numbers in a worksheet or chart: the cell or series being read, the <v> text gathered */
    bool number_cell;  /* in a worksheet: the current <c> holds a number (no t, or t="n") */
    int num_cache;     /* in a chart: depth of <c:numCache> / <c:numLit> */
    bool in_f;         /* in a chart: inside <c:f> (the series' reference, for messages) */
    char cell[16];     /* the current <c>'s r, or the current <c:pt>'s idx */
    char ref[120];     /* in a chart: the last <c:f> */
    size_t ref_len;
    char num[48];      /* the <v> text (cut at 47 bytes: a longer one is no number tco writes) */
    size_t num_len;
    bool num_long;
    bad_number bad;
    char *base; /* folder of the part a .rels part describes ("xl/"), heap */
    XML_Parser parser; /* the one in use: plain or ns */
    XML_Parser plain, ns; /* made once, reset for each part (a new parser per part costs more than parsing) */
} verifier;

static const char REL_NS[] = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

static tco_error vfail(verifier *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static tco_error vfail(verifier *v, const char *fmt, ...)
{
    if (v->err != TCO_OK)
        return v->err;
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    v->err = tco_diag_set(v->diag, TCO_ERR_CANTCREATE, "%s: the workbook written is damaged: %s", v->name, what);
    return v->err;
}

static void nomem(verifier *v)
{
    if (v->err == TCO_OK)
        v->err = tco_diag_set(v->diag, TCO_ERR_NOMEM, "out of memory");
}

/* Append a copy of @p s (or of its first @p n bytes) to a string list. */
static bool list_add(verifier *v, char ***list, size_t *n, size_t *cap, const char *s, size_t len)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        char **p = realloc(*list, nc * sizeof *p);
        if (p == NULL) {
            nomem(v);
            return false;
        }
        *list = p;
        *cap = nc;
    }
    char *c = malloc(len + 1);
    if (c == NULL) {
        nomem(v);
        return false;
    }
    memcpy(c, s, len);
    c[len] = '\0';
    (*list)[(*n)++] = c;
    return true;
}

static bool list_has(char *const *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], s) == 0)
            return true;
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Part names are sorted once all are read; then looked up by bsearch. */
static bool have_part(const verifier *v, const char *name)
{
    return bsearch(&name, v->parts, v->n_parts, sizeof *v->parts, cmp_str) != NULL;
}

static const char *local_name(const char *n)
{
    const char *bar = strrchr(n, '|');
    return bar ? bar + 1 : n;
}

static const char *attr(const XML_Char **atts, const char *name)
{
    for (size_t i = 0; atts[i] != NULL; i += 2)
        if (strcmp(atts[i], name) == 0)
            return atts[i + 1];
    return NULL;
}

/* Resolve a relationship @p target against @p base ("xl/worksheets/"): "../drawings/d.xml" becomes
 * "xl/drawings/d.xml"; "/xl/workbook.xml" is from the package root.  Heap, or NULL (*@p escapes set)
 * when ".." climbs out of the package. */
static char *resolve(const char *base, const char *target, bool *escapes)
{
    tco_strbuf in = {0}, outb = {0};
    *escapes = false;
    if (target[0] != '/')
        tco_strbuf_append(&in, base);
    tco_strbuf_append(&in, target[0] == '/' ? target + 1 : target);
    if (in.failed) {
        tco_strbuf_free(&in);
        return NULL;
    }
    const char *s = tco_strbuf_str(&in);
    size_t seg[256], depth = 0; /* start of each kept segment in outb */
    while (*s) {
        const char *slash = strchr(s, '/');
        size_t n = slash ? (size_t)(slash - s) : strlen(s);
        if (n == 0 || (n == 1 && s[0] == '.')) {
            /* skip */
        } else if (n == 2 && s[0] == '.' && s[1] == '.') {
            if (depth == 0) {
                *escapes = true;
                break;
            }
            outb.len = seg[--depth];
            if (outb.data)
                outb.data[outb.len] = '\0';
        } else if (depth == sizeof seg / sizeof seg[0]) {
            *escapes = true; /* deeper than any package tco writes */
            break;
        } else {
            seg[depth++] = outb.len;
            if (outb.len > 0)
                tco_strbuf_append(&outb, "/");
            tco_strbuf_append_n(&outb, s, n);
        }
        s += n + (slash ? 1 : 0);
    }
    tco_strbuf_free(&in);
    if (*escapes) {
        tco_strbuf_free(&outb);
        return NULL;
    }
    return tco_strbuf_take(&outb);
}

static void XMLCALL on_start(void *ud, const XML_Char *el, const XML_Char **atts)
{
    verifier *v = ud;
    const char *ln = local_name(el);
    if (v->err != TCO_OK)
        return;
    if (v->kind == PART_TYPES) {
        const char *pn;
        if (strcmp(ln, "Override") == 0 && (pn = attr(atts, "PartName")) != NULL)
            list_add(v, &v->overrides, &v->n_overrides, &v->cap_overrides, pn[0] == '/' ? pn + 1 : pn,
                     strlen(pn[0] == '/' ? pn + 1 : pn));
        else if (strcmp(ln, "Default") == 0 && (pn = attr(atts, "Extension")) != NULL)
            list_add(v, &v->defaults, &v->n_defaults, &v->cap_defaults, pn, strlen(pn));
    } else if (v->kind == PART_RELS && strcmp(ln, "Relationship") == 0) {
        const char *target = attr(atts, "Target"), *id = attr(atts, "Id"), *mode = attr(atts, "TargetMode");
        if (target == NULL || id == NULL) {
            vfail(v, "%s: a relationship without %s", v->part, target == NULL ? "Target" : "Id");
        } else if (mode == NULL || strcmp(mode, "External") != 0) {
            bool escapes;
            char *t = resolve(v->base, target, &escapes);
            if (t == NULL) {
                if (escapes)
                    vfail(v, "%s: relationship %s has a target outside the package or nested too deep (%s)",
                          v->part, id, target);
                else
                    nomem(v);
            } else {
                if (v->n_refs == v->cap_refs) {
                    size_t nc = v->cap_refs ? v->cap_refs * 2 : 32;
                    rel_ref *p = realloc(v->refs, nc * sizeof *p);
                    if (p == NULL) {
                        free(t);
                        nomem(v);
                        goto out;
                    }
                    v->refs = p;
                    v->cap_refs = nc;
                }
                rel_ref r = {t, tco_strdup(v->part), tco_strdup(id)};
                v->refs[v->n_refs++] = r;
                if (r.from == NULL || r.id == NULL)
                    nomem(v);
            }
        }
    } else if (v->kind == PART_WORKBOOK && strcmp(ln, "sheet") == 0) {
        char rid[sizeof REL_NS + 8];
        snprintf(rid, sizeof rid, "%s|id", REL_NS);
        const char *id = attr(atts, rid), *name = attr(atts, "name");
        if (id == NULL)
            vfail(v, "xl/workbook.xml: sheet '%.100s' has no r:id", name ? name : "?");
        else if (list_add(v, &v->sheet_ids, &v->n_sheets, &v->cap_sheets, id, strlen(id)))
            list_add(v, &v->sheet_names, &v->n_sheet_names, &v->cap_sheet_names, name ? name : "?",
                     strlen(name ? name : "?"));
    }
out:
    if (v->err != TCO_OK)
        XML_StopParser(v->parser, XML_FALSE);
}

/* ---- numbers: every number a worksheet cell or a chart's cache holds is a finite decimal ------------ */

/* The name after a prefix ("c:v" -> "v"): worksheets and charts are read without namespaces. */
static const char *after_prefix(const char *n)
{
    const char *colon = strrchr(n, ':');
    return colon ? colon + 1 : n;
}

/* True when @p s is a decimal number ([+-]digits[.digits][E[+-]digits], as Excel and libxlsxwriter write
 * them) whose value is finite: not INF, NAN, a hexadecimal or a number beyond the largest double. */
static bool finite_number(const char *s)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    size_t digits = 0;
    for (; *p >= '0' && *p <= '9'; p++)
        digits++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits++;
    if (digits == 0)
        return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == '\0' && isfinite(strtod(s, NULL));
}

static void XMLCALL on_number_text(void *ud, const XML_Char *s, int len)
{
    verifier *v = ud;
    char *buf = v->in_f ? v->ref : v->num;
    size_t *at = v->in_f ? &v->ref_len : &v->num_len, cap = v->in_f ? sizeof v->ref : sizeof v->num;
    size_t n = (size_t)len < cap - 1 - *at ? (size_t)len : cap - 1 - *at;
    if (!v->in_f && (size_t)len > n)
        v->num_long = true;
    memcpy(buf + *at, s, n);
    *at += n;
    buf[*at] = '\0';
}

static void XMLCALL on_number_start(void *ud, const XML_Char *el, const XML_Char **atts)
{
    verifier *v = ud;
    const char *ln = after_prefix(el);
    if (v->kind == PART_SHEET) {
        if (strcmp(ln, "c") == 0) {
            const char *t = attr(atts, "t"), *r = attr(atts, "r");
            v->number_cell = t == NULL || strcmp(t, "n") == 0;
            snprintf(v->cell, sizeof v->cell, "%s", r ? r : "?");
        } else if (strcmp(ln, "v") == 0 && v->number_cell) {
            v->num_len = 0;
            v->num[0] = '\0';
            v->num_long = false;
            XML_SetCharacterDataHandler(v->parser, on_number_text);
        }
        return;
    }
    if (strcmp(ln, "numCache") == 0 || strcmp(ln, "numLit") == 0) {
        v->num_cache++;
    } else if (strcmp(ln, "f") == 0) {
        v->in_f = true;
        v->ref_len = 0;
        v->ref[0] = '\0';
        XML_SetCharacterDataHandler(v->parser, on_number_text);
    } else if (strcmp(ln, "pt") == 0) {
        const char *idx = attr(atts, "idx");
        snprintf(v->cell, sizeof v->cell, "%s", idx ? idx : "?");
    } else if (strcmp(ln, "v") == 0 && v->num_cache > 0) {
        v->num_len = 0;
        v->num[0] = '\0';
        v->num_long = false;
        XML_SetCharacterDataHandler(v->parser, on_number_text);
    }
}

static void XMLCALL on_number_end(void *ud, const XML_Char *el)
{
    verifier *v = ud;
    const char *ln = after_prefix(el);
    if (v->kind == PART_CHART && (strcmp(ln, "numCache") == 0 || strcmp(ln, "numLit") == 0)) {
        v->num_cache--;
        return;
    }
    if (v->kind == PART_CHART && strcmp(ln, "f") == 0) {
        v->in_f = false;
        XML_SetCharacterDataHandler(v->parser, NULL);
        return;
    }
    if (strcmp(ln, "v") != 0 || (v->kind == PART_SHEET ? !v->number_cell : v->num_cache <= 0))
        return;
    XML_SetCharacterDataHandler(v->parser, NULL);
    if (v->bad.part != SIZE_MAX || (!v->num_long && finite_number(v->num)))
        return;
    v->bad.part = v->part_index;
    v->bad.name = v->part;
    if (v->kind == PART_SHEET)
        snprintf(v->bad.where, sizeof v->bad.where, "cell %s", v->cell);
    else
        snprintf(v->bad.where, sizeof v->bad.where, "the cached point %s of the series over %s", v->cell,
                 v->ref_len ? v->ref : "(no reference)");
    snprintf(v->bad.text, sizeof v->bad.text, "%s%s", v->num, v->num_long ? "..." : "");
}

/* The folder of the part that a .rels part describes: "xl/_rels/workbook.xml.rels" -> "xl/". */
static char *rels_base(const char *rels)
{
    const char *r = strstr(rels, "_rels/");
    size_t n = r ? (size_t)(r - rels) : 0;
    tco_strbuf b = {0};
    tco_strbuf_append_n(&b, rels, n);
    return tco_strbuf_take(&b);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Read the current zip entry @p part whole: size and CRC-32 checked, XML parts parsed. */
static void check_entry(verifier *v, unzFile z, const char *part, const unz_file_info64 *info, char *buf)
{
    bool xml = ends_with(part, ".xml") || ends_with(part, ".rels") || ends_with(part, ".vml");
    v->part = part;
    v->kind = strcmp(part, "[Content_Types].xml") == 0                     ? PART_TYPES
              : ends_with(part, ".rels")                                   ? PART_RELS
              : strcmp(part, "xl/workbook.xml") == 0                       ? PART_WORKBOOK
              : strncmp(part, "xl/worksheets/", 14) == 0 && ends_with(part, ".xml") ? PART_SHEET
              : strncmp(part, "xl/charts/", 10) == 0 && ends_with(part, ".xml")     ? PART_CHART
                                                                           : PART_OTHER;
    v->number_cell = v->in_f = false;
    v->num_cache = 0;
    v->ref_len = 0;
    v->ref[0] = '\0';
    free(v->base);
    v->base = NULL;
    if (v->kind == PART_RELS && (v->base = rels_base(part)) == NULL) {
        nomem(v);
        return;
    }
    int rc = unzOpenCurrentFile(z);
    if (rc != UNZ_OK) {
        vfail(v, "%s: the entry cannot be opened (zip error %d: local header damaged?)", part, rc);
        return;
    }
    /* The parts that describe the package are read with namespaces and a handler; the rest (the bulk:
     * worksheets, shared strings) without namespaces, which is faster: only parsed, but for the numbers of
     * worksheets and charts, which a handler checks. */
    v->parser = NULL;
    bool plain = v->kind == PART_OTHER || v->kind == PART_SHEET || v->kind == PART_CHART;
    if (xml) {
        XML_Parser *slot = plain ? &v->plain : &v->ns;
        if (*slot != NULL)
            XML_ParserReset(*slot, NULL);
        else
            *slot = plain ? XML_ParserCreate(NULL) : XML_ParserCreateNS(NULL, '|');
        v->parser = *slot;
        if (v->parser == NULL) {
            unzCloseCurrentFile(z);
            nomem(v);
            return;
        }
    }
    if (v->parser && !plain) {
        XML_SetUserData(v->parser, v);
        XML_SetStartElementHandler(v->parser, on_start);
    } else if (v->parser && v->kind != PART_OTHER) {
        XML_SetUserData(v->parser, v);
        XML_SetElementHandler(v->parser, on_number_start, on_number_end);
    }
    uint64_t total = 0;
    int n;
    while ((n = unzReadCurrentFile(z, buf, XML_CHUNK)) > 0 && v->err == TCO_OK) {
        total += (uint64_t)n;
        if (v->parser && XML_Parse(v->parser, buf, n, XML_FALSE) == XML_STATUS_ERROR)
            break;
    }
    if (v->err == TCO_OK && n < 0)
        vfail(v, "%s: the compressed data is damaged (zip error %d)", part, n);
    if (v->err == TCO_OK && v->parser && (n == 0 ? XML_Parse(v->parser, buf, 0, XML_TRUE) : XML_STATUS_ERROR) ==
                                                XML_STATUS_ERROR)
        vfail(v, "%s: XML not well-formed at line %lu, column %lu: %s", part,
              (unsigned long)XML_GetCurrentLineNumber(v->parser), (unsigned long)XML_GetCurrentColumnNumber(v->parser),
              XML_ErrorString(XML_GetErrorCode(v->parser)));
    rc = unzCloseCurrentFile(z);
    if (v->err == TCO_OK && total != info->uncompressed_size)
        vfail(v, "%s: %llu bytes read back, the directory says %llu", part, (unsigned long long)total,
              (unsigned long long)info->uncompressed_size);
    if (v->err == TCO_OK && rc == UNZ_CRCERROR)
        vfail(v, "%s: CRC-32 mismatch (the data is not what was written)", part);
    else if (v->err == TCO_OK && rc != UNZ_OK)
        vfail(v, "%s: the entry cannot be closed (zip error %d)", part, rc);
    v->parser = NULL;
}

static void free_list(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

/* The written package, read whole into memory once: minizip reads it through the callbacks below (its
 * documented custom-I/O interface), so checking each entry costs no seek or read system call. */
typedef struct zip_image {
    unsigned char *data;
    size_t size;
} zip_image;

/* One minizip stream over a zip_image: the image and the read position. */
typedef struct zip_cursor {
    const zip_image *image;
    size_t pos;
} zip_cursor;

static voidpf ZCALLBACK image_open(voidpf opaque, const void *filename, int mode)
{
    (void)filename;
    if ((mode & ZLIB_FILEFUNC_MODE_READWRITEFILTER) != ZLIB_FILEFUNC_MODE_READ)
        return NULL;
    zip_cursor *c = malloc(sizeof *c);
    if (c != NULL)
        *c = (zip_cursor){opaque, 0};
    return c;
}

static uLong ZCALLBACK image_read(voidpf opaque, voidpf stream, void *buf, uLong size)
{
    (void)opaque;
    zip_cursor *c = stream;
    size_t left = c->image->size - c->pos, n = size < left ? size : left;
    memcpy(buf, c->image->data + c->pos, n);
    c->pos += n;
    return (uLong)n;
}

static uLong ZCALLBACK image_write(voidpf opaque, voidpf stream, const void *buf, uLong size)
{
    (void)opaque, (void)stream, (void)buf, (void)size;
    return 0; /* read only */
}

static ZPOS64_T ZCALLBACK image_tell(voidpf opaque, voidpf stream)
{
    (void)opaque;
    return ((const zip_cursor *)stream)->pos;
}

static long ZCALLBACK image_seek(voidpf opaque, voidpf stream, ZPOS64_T offset, int origin)
{
    (void)opaque;
    zip_cursor *c = stream;
    size_t base = origin == ZLIB_FILEFUNC_SEEK_SET ? 0 : origin == ZLIB_FILEFUNC_SEEK_CUR ? c->pos : c->image->size;
    if (offset > c->image->size - base)
        return -1;
    c->pos = base + (size_t)offset;
    return 0;
}

static int ZCALLBACK image_close(voidpf opaque, voidpf stream)
{
    (void)opaque;
    free(stream);
    return 0;
}

static int ZCALLBACK image_error(voidpf opaque, voidpf stream)
{
    (void)opaque, (void)stream;
    return 0;
}

/* Read @p path whole into *@p img; false (errno set) when it cannot be opened or read, or is not a
 * regular file. */
static bool image_load(const char *path, zip_image *img)
{
    img->data = NULL;
    img->size = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size < SIZE_MAX;
    if (ok && (img->data = malloc(st.st_size > 0 ? (size_t)st.st_size : 1)) == NULL)
        ok = false;
    while (ok && img->size < (size_t)st.st_size) {
        ssize_t n = read(fd, img->data + img->size, (size_t)st.st_size - img->size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            ok = false; /* n == 0: the file shrank while it was read */
        else
            img->size += (size_t)n;
    }
    int err = errno;
    close(fd);
    if (!ok) {
        free(img->data);
        img->data = NULL;
        errno = err;
    }
    return ok;
}

/* True if @p img ends with a whole zip end-of-central-directory record (signature PK\5\6, then 18 bytes,
 * the last two the comment length, then exactly that comment).  minizip accepts a record missing its last
 * byte, so a file cut by one byte would otherwise pass. */
static bool zip_end_whole(const zip_image *img)
{
    size_t n = img->size < 22 + 65535 ? img->size : 22 + 65535;
    const unsigned char *tail = img->data + img->size - n;
    for (size_t i = n >= 22 ? n - 22 + 1 : 0; i-- > 0;)
        if (tail[i] == 'P' && tail[i + 1] == 'K' && tail[i + 2] == 5 && tail[i + 3] == 6 &&
            i + 22 + (size_t)(tail[i + 20] | tail[i + 21] << 8) == n)
            return true;
    return false;
}

/* One part of the package to check: where its directory record is, its sizes and CRC, its name (an index
 * into the verifier's parts, which is also its place in the directory) and the thread that checks it. */
typedef struct part_job {
    unz64_file_pos pos;
    unz_file_info64 info;
    size_t part;
    int thread;
} part_job;

/* Check, in directory order, the jobs of @p thread through @p z; the directory index of the first that
 * fails (with @p v's error set), or SIZE_MAX. */
static size_t check_jobs(verifier *v, unzFile z, char *const *parts, const part_job *jobs, size_t n, int thread,
                         char *buf)
{
    for (size_t i = 0; i < n; i++) {
        if (jobs[i].thread != thread)
            continue;
        unz64_file_pos pos = jobs[i].pos;
        v->part_index = jobs[i].part;
        if (unzGoToFilePos64(z, &pos) != UNZ_OK)
            vfail(v, "%s: its directory record cannot be found again", parts[jobs[i].part]);
        else
            check_entry(v, z, parts[jobs[i].part], &jobs[i].info, buf);
        if (v->err != TCO_OK)
            return jobs[i].part;
    }
    return SIZE_MAX;
}

/* The second thread's share of the checks: the bulk parts (worksheets, shared strings) given to it, through
 * its own minizip stream and parser over the same image.  Its verifier holds only its own error. */
typedef struct helper_checks {
    const char *name, *path;
    zlib_filefunc64_def *io;
    char *const *parts;
    const part_job *jobs;
    size_t n_jobs;
    tco_diag diag;
    tco_error err;
    size_t failed;
    bad_number bad; /* the first number found not finite in its parts */
} helper_checks;

static void *run_helper_checks(void *arg)
{
    helper_checks *h = arg;
    verifier w = {.name = h->name, .diag = &h->diag, .err = TCO_OK, .bad = {.part = SIZE_MAX}};
    char *buf = malloc(XML_CHUNK);
    unzFile z = buf ? unzOpen2_64(h->path, h->io) : NULL;
    h->failed = SIZE_MAX;
    if (z == NULL) {
        nomem(&w);
        for (size_t i = 0; i < h->n_jobs && h->failed == SIZE_MAX; i++)
            if (h->jobs[i].thread == 1)
                h->failed = h->jobs[i].part;
    } else {
        h->failed = check_jobs(&w, z, h->parts, h->jobs, h->n_jobs, 1, buf);
        unzClose(z);
    }
    free(buf);
    free(w.base);
    if (w.plain)
        XML_ParserFree(w.plain);
    h->err = w.err;
    h->bad = w.bad;
    return NULL;
}

/* Give the bulk parts (no handler, only size, CRC and well-formedness) to two threads, each about half
 * of the bytes, largest first; the package parts, whose handlers fill @p v's lists, stay on thread 0.
 * False when the parts are too few bytes for a second thread to pay. */
static bool split_jobs(part_job *jobs, size_t n, char *const *parts)
{
    uint64_t load[2] = {0, 0}, bulk = 0;
    size_t *order = malloc((n ? n : 1) * sizeof *order), k = 0;
    if (order == NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        const char *p = parts[jobs[i].part];
        if (strcmp(p, "[Content_Types].xml") == 0 || ends_with(p, ".rels") || strcmp(p, "xl/workbook.xml") == 0)
            load[0] += jobs[i].info.uncompressed_size;
        else
            order[k++] = i, bulk += jobs[i].info.uncompressed_size;
    }
    bool split = bulk >= VERIFY_SPLIT_BYTES;
    for (size_t a = 0; split && a < k; a++) { /* selection of the largest left: parts are few */
        size_t best = a;
        for (size_t b = a + 1; b < k; b++)
            if (jobs[order[b]].info.uncompressed_size > jobs[order[best]].info.uncompressed_size)
                best = b;
        size_t t = order[a];
        order[a] = order[best];
        order[best] = t;
        int to = load[1] < load[0];
        jobs[order[a]].thread = to;
        load[to] += jobs[order[a]].info.uncompressed_size;
    }
    free(order);
    return split;
}

tco_error tco_output_verify_xlsx(const char *path, const char *name, size_t expected_sheets, tco_diag *diag)
{
    verifier v = {.name = name ? name : path, .diag = diag, .err = TCO_OK, .bad = {.part = SIZE_MAX}};
    char *buf = malloc(XML_CHUNK);
    if (buf == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
    zip_image img;
    if (!image_load(path, &img)) {
        int err = errno;
        free(buf);
        return vfail(&v, "it cannot be read back: %s", strerror(err));
    }
    zlib_filefunc64_def io = {image_open, image_read, image_write, image_tell, image_seek, image_close, image_error,
                              &img};
    unzFile z = zip_end_whole(&img) ? unzOpen2_64(path, &io) : NULL;
    if (z == NULL) {
        free(img.data);
        free(buf);
        return vfail(&v, "not a complete zip archive (no readable central directory: cut short?)");
    }
    unz_global_info64 gi;
    int rc = unzGetGlobalInfo64(z, &gi);
    if (rc != UNZ_OK || gi.number_entry == 0)
        vfail(&v, "the zip archive has no entries");
    /* The directory first; a damage found in it is reported unless a part before it fails its check. */
    tco_diag dir_diag = {0};
    verifier dv = {.name = v.name, .diag = &dir_diag, .err = TCO_OK};
    part_job *jobs = NULL;
    size_t n_jobs = 0, cap_jobs = 0;
    for (rc = unzGoToFirstFile(z); rc == UNZ_OK && v.err == TCO_OK && dv.err == TCO_OK; rc = unzGoToNextFile(z)) {
        part_job job = {.thread = 0};
        char part[NAME_MAX_ZIP];
        if (unzGetCurrentFileInfo64(z, &job.info, part, sizeof part, NULL, 0, NULL, 0) != UNZ_OK ||
            job.info.size_filename >= sizeof part || unzGetFilePos64(z, &job.pos) != UNZ_OK) {
            vfail(&dv, "entry %zu: unreadable directory record or name", v.n_parts + 1);
            break;
        }
        if (part[0] == '\0' || ends_with(part, "/"))
            continue; /* a folder entry, not a part */
        if (list_has(v.parts, v.n_parts, part)) {
            vfail(&dv, "%s: the part is stored twice", part);
            break;
        }
        if (n_jobs == cap_jobs) {
            size_t nc = cap_jobs ? cap_jobs * 2 : 32;
            part_job *grown = realloc(jobs, nc * sizeof *grown);
            if (grown == NULL) {
                nomem(&v);
                break;
            }
            jobs = grown;
            cap_jobs = nc;
        }
        if (!list_add(&v, &v.parts, &v.n_parts, &v.cap_parts, part, strlen(part)))
            break;
        job.part = v.n_parts - 1;
        jobs[n_jobs++] = job;
    }
    if (v.err == TCO_OK && dv.err == TCO_OK && rc != UNZ_END_OF_LIST_OF_FILE)
        vfail(&dv, "the zip directory is damaged after entry %zu (zip error %d)", v.n_parts, rc);
    if (v.err == TCO_OK) {
        helper_checks h = {.name = v.name, .path = path, .io = &io, .parts = v.parts, .jobs = jobs,
                           .n_jobs = n_jobs, .err = TCO_OK, .failed = SIZE_MAX, .bad = {.part = SIZE_MAX}};
        pthread_t helper;
        bool two = split_jobs(jobs, n_jobs, v.parts);
        if (two && pthread_create(&helper, NULL, run_helper_checks, &h) != 0) {
            for (size_t i = 0; i < n_jobs; i++)
                jobs[i].thread = 0; /* no second thread: all on this one */
            two = false;
        }
        size_t failed = check_jobs(&v, z, v.parts, jobs, n_jobs, 0, buf);
        if (two) {
            pthread_join(helper, NULL);
            if (h.err != TCO_OK && h.failed < failed) { /* the first damaged part in directory order */
                *diag = h.diag;
                v.err = h.err;
            }
            if (h.bad.part < v.bad.part) /* and the first number that is not finite */
                v.bad = h.bad;
        }
        if (v.err == TCO_OK && dv.err != TCO_OK) {
            *diag = dir_diag;
            v.err = dv.err;
        }
    }
    free(jobs);
    unzClose(z);
    free(img.data);
    free(buf);
    free(v.base);
    if (v.plain)
        XML_ParserFree(v.plain);
    if (v.ns)
        XML_ParserFree(v.ns);

    if (v.err == TCO_OK) {
        qsort(v.parts, v.n_parts, sizeof *v.parts, cmp_str);
        static const char *const required[] = {"[Content_Types].xml", "_rels/.rels", "xl/workbook.xml",
                                               "xl/_rels/workbook.xml.rels", "xl/styles.xml"};
        for (size_t i = 0; i < sizeof required / sizeof required[0] && v.err == TCO_OK; i++)
            if (!have_part(&v, required[i]))
                vfail(&v, "%s: the part is missing", required[i]);
    }
    for (size_t i = 0; i < v.n_overrides && v.err == TCO_OK; i++)
        if (!have_part(&v, v.overrides[i]))
            vfail(&v, "%s: missing, although [Content_Types].xml lists it", v.overrides[i]);
    for (size_t i = 0; i < v.n_parts && v.err == TCO_OK; i++) {
        const char *p = v.parts[i], *dot = strrchr(p, '.'), *slash = strrchr(p, '/');
        if (strcmp(p, "[Content_Types].xml") == 0 || list_has(v.overrides, v.n_overrides, p))
            continue;
        if (dot == NULL || (slash && dot < slash) || !list_has(v.defaults, v.n_defaults, dot + 1))
            vfail(&v, "%s: no content type in [Content_Types].xml", p);
    }
    for (size_t i = 0; i < v.n_refs && v.err == TCO_OK; i++)
        if (!have_part(&v, v.refs[i].target))
            vfail(&v, "%s: missing, although %s names it (%s)", v.refs[i].target, v.refs[i].from, v.refs[i].id);
    for (size_t s = 0; s < v.n_sheets && v.err == TCO_OK; s++) {
        bool found = false;
        for (size_t i = 0; i < v.n_refs && !found; i++)
            found = strcmp(v.refs[i].from, "xl/_rels/workbook.xml.rels") == 0 &&
                    strcmp(v.refs[i].id, v.sheet_ids[s]) == 0;
        if (!found)
            vfail(&v, "xl/workbook.xml: sheet %zu (%s) has no relationship in xl/_rels/workbook.xml.rels", s + 1,
                  v.sheet_ids[s]);
    }
    if (v.err == TCO_OK && v.n_sheets < expected_sheets)
        vfail(&v, "xl/workbook.xml: %zu sheets, expected %zu", v.n_sheets, expected_sheets);
    if (v.err == TCO_OK && v.bad.part != SIZE_MAX) {
        /* A number that is not finite (INF, NAN: Excel repairs the file, openpyxl and pandas stop): named by
         * its sheet, through xl/workbook.xml and its relationships, and its cell. */
        const char *part = v.bad.name, *sheet = NULL;
        for (size_t i = 0; i < v.n_refs && sheet == NULL; i++)
            if (strcmp(v.refs[i].from, "xl/_rels/workbook.xml.rels") == 0 && strcmp(v.refs[i].target, part) == 0)
                for (size_t k = 0; k < v.n_sheets && k < v.n_sheet_names && sheet == NULL; k++)
                    if (strcmp(v.sheet_ids[k], v.refs[i].id) == 0)
                        sheet = v.sheet_names[k];
        if (sheet)
            vfail(&v, "sheet '%.100s' (%s) %s: '%s' is not a finite number", sheet, part, v.bad.where, v.bad.text);
        else
            vfail(&v, "%s: %s: '%s' is not a finite number", part, v.bad.where, v.bad.text);
    }

    free_list(v.parts, v.n_parts);
    free_list(v.overrides, v.n_overrides);
    free_list(v.defaults, v.n_defaults);
    free_list(v.sheet_ids, v.n_sheets);
    free_list(v.sheet_names, v.n_sheet_names);
    for (size_t i = 0; i < v.n_refs; i++) {
        free(v.refs[i].target);
        free(v.refs[i].from);
        free(v.refs[i].id);
    }
    free(v.refs);
    return v.err;
}
