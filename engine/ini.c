/* ini.c - iniparser wrapper with strict values and located diagnostics. */
#define _GNU_SOURCE /* memfd_create */
#include "ini.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <iniparser/iniparser.h>

#include "strbuf.h"

/* iniparser reports syntax errors through a process-wide callback with no
 * context pointer; this buffer is the only way to hand the message back.  It is
 * written only inside tco_ini_load() and read right after. */
static char parser_message[512];

static int capture_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[sizeof parser_message];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* Keep the first message (the failing line); flatten newlines. */
    if (parser_message[0] == '\0') {
        for (char *p = buf; *p; p++)
            if (*p == '\n')
                *p = ' ';
        snprintf(parser_message, sizeof parser_message, "%s", buf);
    }
    return n;
}

/* Limits that keep a hostile file from exhausting time or memory. */
#define INI_MAX_BYTES (8u * 1024u * 1024u)
#define INI_MAX_SECTIONS 10000
/* iniparser reads lines with fgets into 1024 bytes: 1022 characters plus "\n" and NUL. */
#define INI_MAX_LINE 1022

typedef struct seen_entry {
    char *name; /* "section" or "section:key", lower-case */
    int line;
} seen_entry;

typedef struct lint {
    const char *display;
    tco_diag *diag;
    seen_entry *seen;
    size_t n_seen, cap_seen;
    size_t sections;
    tco_ini *out; /* receives the section names as written */
} lint;

static void lint_free(lint *l)
{
    for (size_t i = 0; i < l->n_seen; i++)
        free(l->seen[i].name);
    free(l->seen);
}

/* Record @p name first seen at @p line; returns the earlier line if already seen, 0 if new, -1 on OOM. */
static int lint_seen(lint *l, const char *name, size_t len, int line)
{
    for (size_t i = 0; i < l->n_seen; i++)
        if (strlen(l->seen[i].name) == len && strncasecmp(l->seen[i].name, name, len) == 0)
            return l->seen[i].line;
    if (l->n_seen == l->cap_seen) {
        size_t cap = l->cap_seen ? l->cap_seen * 2 : 64;
        seen_entry *grown = realloc(l->seen, cap * sizeof *grown);
        if (grown == NULL)
            return -1;
        l->seen = grown;
        l->cap_seen = cap;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return -1;
    for (size_t i = 0; i < len; i++)
        copy[i] = (char)tolower((unsigned char)name[i]);
    copy[len] = '\0';
    l->seen[l->n_seen++] = (seen_entry){copy, line};
    return 0;
}

static const char *skip_blank(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Check one logical line [p, end) of the file (line number @p line). */
static tco_error lint_line(lint *l, const char *p, const char *end, int line, char *section, size_t section_size)
{
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    p = skip_blank(p, end);
    if (p == end || *p == ';' || *p == '#')
        return TCO_OK;
    if (*p == '[') {
        const char *close = memchr(p, ']', (size_t)(end - p));
        if (close == NULL || close != end - 1)
            return tco_diag_set(l->diag, TCO_ERR_INI, "%s:%d: expected a section header '[name]', found '%.*s'",
                                l->display, line, (int)(end - p > 60 ? 60 : end - p), p);
        const char *n0 = skip_blank(p + 1, close), *n1 = close;
        while (n1 > n0 && (n1[-1] == ' ' || n1[-1] == '\t'))
            n1--;
        if (n0 == n1)
            return tco_diag_set(l->diag, TCO_ERR_INI, "%s:%d: empty section name '[]'", l->display, line);
        if (memchr(n0, ':', (size_t)(n1 - n0)) != NULL)
            return tco_diag_set(l->diag, TCO_ERR_INI, "%s:%d: section name [%.*s] may not contain ':'",
                                l->display, line, (int)(n1 - n0), n0);
        if (++l->sections > INI_MAX_SECTIONS)
            return tco_diag_set(l->diag, TCO_ERR_INI, "%s:%d: more than %d sections", l->display, line,
                                INI_MAX_SECTIONS);
        int first = lint_seen(l, n0, (size_t)(n1 - n0), line);
        if (first < 0)
            return tco_diag_set(l->diag, TCO_ERR_NOMEM, "%s: out of memory", l->display);
        if (first > 0)
            return tco_diag_set(l->diag, TCO_ERR_DUPLICATE, "%s:%d: duplicate section [%.*s] (first at line %d)",
                                l->display, line, (int)(n1 - n0), n0, first);
        snprintf(section, section_size, "%.*s", (int)(n1 - n0), n0);
        char **grown = realloc(l->out->sections, (size_t)(l->out->n_sections + 1) * sizeof *grown);
        char *copy = tco_strdup(section);
        if (grown == NULL || copy == NULL) {
            free(copy);
            if (grown)
                l->out->sections = grown;
            return tco_diag_set(l->diag, TCO_ERR_NOMEM, "%s: out of memory", l->display);
        }
        l->out->sections = grown;
        l->out->sections[l->out->n_sections++] = copy;
        return TCO_OK;
    }
    const char *eq = memchr(p, '=', (size_t)(end - p));
    const char *k1 = eq;
    while (k1 && k1 > p && (k1[-1] == ' ' || k1[-1] == '\t'))
        k1--;
    if (eq == NULL || k1 == p)
        return tco_diag_set(l->diag, TCO_ERR_INI, "%s:%d: expected 'key = value', '[section]' or a comment, found '%.*s'",
                            l->display, line, (int)(end - p > 60 ? 60 : end - p), p);
    if (section[0] == '\0')
        return tco_diag_set(l->diag, TCO_ERR_INI, "%s:%d: key '%.*s' comes before any [section]", l->display, line,
                            (int)(k1 - p), p);
    if (memchr(p, ':', (size_t)(k1 - p)) != NULL)
        return tco_diag_set(l->diag, TCO_ERR_INI, "%s:%d: [%s] key '%.*s' may not contain ':'", l->display, line,
                            section, (int)(k1 - p), p);
    /* iniparser ends an unquoted value at ';' or '#' (its inline comment): the rest would be lost. */
    const char *v = skip_blank(eq + 1, end);
    if (v < end && *v != '"' && *v != '\'') {
        const char *cut = v;
        while (cut < end && *cut != ';' && *cut != '#')
            cut++;
        if (cut < end)
            return tco_diag_set(l->diag, TCO_ERR_INI,
                                "%s:%d: [%s] %.*s: the value holds '%c', where iniparser would cut it off (\"%.*s\" "
                                "would be lost); remove it or put the whole value in double quotes",
                                l->display, line, section, (int)(k1 - p), p, *cut,
                                (int)(end - cut > 40 ? 40 : end - cut), cut);
    }
    char entry[1100];
    int n = snprintf(entry, sizeof entry, "%s:%.*s", section, (int)(k1 - p), p);
    int first = lint_seen(l, entry, (size_t)n < sizeof entry ? (size_t)n : sizeof entry - 1, line);
    if (first < 0)
        return tco_diag_set(l->diag, TCO_ERR_NOMEM, "%s: out of memory", l->display);
    if (first > 0)
        return tco_diag_set(l->diag, TCO_ERR_DUPLICATE, "%s:%d: [%s] %.*s: duplicate key (first at line %d)",
                            l->display, line, section, (int)(k1 - p), p, first);
    return TCO_OK;
}

/* Whole-file checks before iniparser sees it: UTF-8 text without control
 * characters, lines within iniparser's limit, every line a section, a
 * key = value pair or a comment, no key outside a section, no duplicate
 * section or key (iniparser would silently keep the last one). */
static tco_error lint_file(const char *text, size_t size, const char *display, tco_ini *out, tco_diag *diag)
{
    /* Pass 1: every physical line is UTF-8 text without control characters, within the length limit. */
    int line = 1;
    for (const char *p = text, *end = text + size; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        if (len > 0 && p[len - 1] == '\r')
            len--;
        if (len > INI_MAX_LINE)
            return tco_diag_set(diag, TCO_ERR_INI, "%s:%d: line is %zu bytes long; at most %d are allowed", display,
                                line, len, INI_MAX_LINE);
        size_t badpos;
        if (!tco_utf8_valid(p, len, &badpos))
            return tco_diag_set(diag, TCO_ERR_INI,
                                "%s:%d, column %zu: not valid UTF-8 (byte 0x%02X); save the file as UTF-8", display,
                                line, badpos + 1, (unsigned char)p[badpos]);
        for (size_t i = 0; i < len; i++) {
            unsigned char c = (unsigned char)p[i];
            if ((c < 0x20 && c != '\t') || c == 0x7F)
                return tco_diag_set(diag, TCO_ERR_INI, "%s:%d, column %zu: control character 0x%02X is not allowed",
                                    display, line, i + 1, c);
        }
        p = nl ? nl + 1 : end;
    }
    /* Pass 2: the shape of each logical line.  iniparser joins a line ending in
     * '\' with the next; the first physical line holds the section or key. */
    lint l = {.display = display, .diag = diag, .out = out};
    char section[1024] = "";
    tco_error e = TCO_OK;
    line = 1;
    bool continued = false;
    for (const char *p = text, *end = text + size; p < end && e == TCO_OK; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *lend = nl ? nl : end;
        if (lend > p && lend[-1] == '\r')
            lend--;
        bool ends_backslash = lend > p && lend[-1] == '\\';
        if (!continued)
            e = lint_line(&l, p, ends_backslash ? lend - 1 : lend, line, section, sizeof section);
        continued = ends_backslash;
        p = nl ? nl + 1 : end;
    }
    lint_free(&l);
    return e;
}

tco_error tco_ini_load(const char *path, const char *display, tco_ini *out, tco_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (display == NULL)
        display = path;
    struct stat st;
    if (stat(path, &st) != 0)
        return tco_diag_set(diag, TCO_ERR_NOINPUT, "%s: cannot open: %s", display, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return tco_diag_set(diag, TCO_ERR_NOINPUT, "%s: not a regular file", display);
    if ((unsigned long long)st.st_size > INI_MAX_BYTES)
        return tco_diag_set(diag, TCO_ERR_INI, "%s: %lld bytes; INI files are limited to %u bytes", display,
                            (long long)st.st_size, INI_MAX_BYTES);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return tco_diag_set(diag, TCO_ERR_NOINPUT, "%s: cannot open: %s", display, strerror(errno));
    char *text = malloc(INI_MAX_BYTES + 1);
    size_t size = text ? fread(text, 1, INI_MAX_BYTES + 1, f) : 0;
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (text == NULL)
        return tco_diag_set(diag, TCO_ERR_NOMEM, "%s: out of memory", display);
    if (read_error || size > INI_MAX_BYTES) {
        free(text);
        return tco_diag_set(diag, read_error ? TCO_ERR_NOINPUT : TCO_ERR_INI, "%s: %s", display,
                            read_error ? "read error" : "file grew past the size limit while reading");
    }
    /* A UTF-8 byte-order mark (Windows editors add one) is dropped; UTF-16 is refused. */
    size_t skip = 0;
    if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        skip = 3;
    else if (size >= 2 && (memcmp(text, "\xFF\xFE", 2) == 0 || memcmp(text, "\xFE\xFF", 2) == 0)) {
        free(text);
        return tco_diag_set(diag, TCO_ERR_INI, "%s: the file is UTF-16; save it as UTF-8", display);
    }
    tco_error e = lint_file(text + skip, size - skip, display, out, diag);
    if (e != TCO_OK) {
        free(text);
        tco_ini_free(out);
        return e;
    }
    /* Hand iniparser the checked bytes (without the BOM) through an in-memory file. */
    int fd = memfd_create("tco-ini", MFD_CLOEXEC);
    bool ok = fd >= 0;
    for (size_t done = skip; ok && done < size;) {
        ssize_t n = write(fd, text + done, size - done);
        if (n <= 0)
            ok = false;
        else
            done += (size_t)n;
    }
    free(text);
    if (!ok) {
        if (fd >= 0)
            close(fd);
        tco_ini_free(out);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "%s: cannot buffer the file: %s", display, strerror(errno));
    }
    char fdpath[64];
    snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fd);
    parser_message[0] = '\0';
    iniparser_set_error_callback(capture_error);
    dictionary *d = iniparser_load(fdpath);
    iniparser_set_error_callback(NULL);
    close(fd);
    if (d == NULL) {
        /* Not expected after lint_file(); keep iniparser's reason, without the /proc path. */
        size_t n = strlen(parser_message);
        while (n > 0 && isspace((unsigned char)parser_message[n - 1]))
            parser_message[--n] = '\0';
        char *at = strstr(parser_message, fdpath);
        if (at)
            memmove(at, at + strlen(fdpath), strlen(at + strlen(fdpath)) + 1);
        tco_ini_free(out);
        return tco_diag_set(diag, TCO_ERR_INI, "%s: not a valid INI file (%s)", display,
                            parser_message[0] ? parser_message : "iniparser could not read it");
    }
    out->dict = d;
    out->path = tco_strdup(display);
    if (out->path == NULL) {
        tco_ini_free(out);
        return tco_diag_set(diag, TCO_ERR_NOMEM, "%s: out of memory", display);
    }
    return TCO_OK;
}

void tco_ini_free(tco_ini *ini)
{
    if (ini->dict)
        iniparser_freedict(ini->dict);
    for (int i = 0; i < ini->n_sections; i++)
        free(ini->sections[i]);
    free(ini->sections);
    free(ini->path);
    memset(ini, 0, sizeof *ini);
}

/* iniparser's key for [section] key, lower-cased: "section:key". */
static void entry_name(char *buf, size_t size, const char *section, const char *key)
{
    snprintf(buf, size, "%s:%s", section, key);
    for (char *p = buf; *p; p++)
        *p = (char)tolower((unsigned char)*p);
}

const char *tco_ini_get(const tco_ini *ini, const char *section, const char *key)
{
    char entry[1100];
    entry_name(entry, sizeof entry, section, key);
    return iniparser_getstring(ini->dict, entry, NULL);
}

bool tco_ini_set(tco_ini *ini, const char *section, const char *key, const char *value)
{
    char entry[1100];
    entry_name(entry, sizeof entry, section, "");
    entry[strlen(entry) - 1] = '\0';
    if (iniparser_find_entry(ini->dict, entry) == 0 && iniparser_set(ini->dict, entry, NULL) != 0)
        return false;
    entry_name(entry, sizeof entry, section, key);
    return iniparser_set(ini->dict, entry, value) == 0;
}

bool tco_ini_has_section(const tco_ini *ini, const char *section)
{
    char entry[1100];
    entry_name(entry, sizeof entry, section, "");
    entry[strlen(entry) - 1] = '\0'; /* drop the ':' */
    return iniparser_find_entry(ini->dict, entry) != 0;
}

int tco_ini_section_count(const tco_ini *ini)
{
    return iniparser_getnsec(ini->dict);
}

const char *tco_ini_section_name(const tco_ini *ini, int i)
{
    return iniparser_getsecname(ini->dict, i);
}

const char *tco_ini_section_as_written(const tco_ini *ini, const char *name)
{
    for (int i = 0; i < ini->n_sections; i++)
        if (strcasecmp(ini->sections[i], name) == 0)
            return ini->sections[i];
    return name;
}

const char **tco_ini_keys(const tco_ini *ini, const char *section, int *count)
{
    char sec[1100];
    entry_name(sec, sizeof sec, section, "");
    sec[strlen(sec) - 1] = '\0';
    int n = iniparser_getsecnkeys(ini->dict, sec);
    *count = 0;
    if (n <= 0)
        return NULL;
    const char **keys = calloc((size_t)n, sizeof *keys);
    if (keys == NULL)
        return NULL;
    if (iniparser_getseckeys(ini->dict, sec, keys) == NULL) {
        free(keys);
        return NULL;
    }
    *count = n;
    return keys;
}

bool tco_parse_number(const char *text, double *out)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    const char *start = p;
    if (*p == '+' || *p == '-')
        p++;
    size_t digits = 0;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p))
            p++, digits++;
    }
    if (digits == 0)
        return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    const char *end = p;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '\0')
        return false;
    char buf[64];
    size_t len = (size_t)(end - start);
    if (len >= sizeof buf)
        return false;
    memcpy(buf, start, len);
    buf[len] = '\0';
    double v = strtod(buf, NULL);
    if (!isfinite(v) || !tco_number_is_normal(buf, v))
        return false;
    *out = v;
    return true;
}

bool tco_number_tiny(const char *text)
{
    char *end;
    double v = strtod(text, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    return end != text && *end == '\0' && isfinite(v) && !tco_number_is_normal(text, v);
}

tco_error tco_ini_number(const tco_ini *ini, const char *section, const char *key, bool required,
                         double *out, bool *found, tco_diag *diag)
{
    const char *s = tco_ini_get(ini, section, key);
    if (found)
        *found = s != NULL;
    if (s == NULL) {
        if (!required)
            return TCO_OK;
        return tco_diag_set(diag, TCO_ERR_INI, "%s [%s] %s: expected a number, found no such key", ini->path,
                            section, key);
    }
    if (!tco_parse_number(s, out))
        return tco_diag_set(diag, TCO_ERR_INI,
                            "%s [%s] %s: expected %s, found '%s'", ini->path, section, key,
                            tco_number_tiny(s) ? TCO_NORMAL_EXPECTED
                                               : "a number (digits, '.' for decimals, no thousands separators)",
                            s);
    return TCO_OK;
}

size_t tco_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return (size_t)-1;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag_prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            size_t best = diag_prev + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag_prev = up;
        }
    }
    return row[lb];
}
