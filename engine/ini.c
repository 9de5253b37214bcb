/* ini.c - iniparser wrapper with strict values and located diagnostics. */
#include "ini.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

tco_error tco_ini_load(const char *path, const char *display, tco_ini *out, tco_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (display == NULL)
        display = path;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return tco_diag_set(diag, TCO_ERR_NOINPUT, "%s: cannot open: %s", display, strerror(errno));
    fclose(f);
    parser_message[0] = '\0';
    iniparser_set_error_callback(capture_error);
    dictionary *d = iniparser_load(path);
    iniparser_set_error_callback(NULL);
    if (d == NULL) {
        /* Trim iniparser's trailing blanks. */
        size_t n = strlen(parser_message);
        while (n > 0 && isspace((unsigned char)parser_message[n - 1]))
            parser_message[--n] = '\0';
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
    if (!isfinite(v))
        return false;
    *out = v;
    return true;
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
                            "%s [%s] %s: expected a number (digits, '.' for decimals, no thousands "
                            "separators), found '%s'",
                            ini->path, section, key, s);
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
