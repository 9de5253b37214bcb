/* error.c - tco_error messages and the diagnostic formatter. */
#include "base/error.h"
#include "base/utf8.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const messages[] = {
    [TCO_OK] = "no error",
    [TCO_ERR_USAGE] = "usage error",
    [TCO_ERR_NOINPUT] = "cannot read input",
    [TCO_ERR_INI] = "invalid INI value",
    [TCO_ERR_SYNTAX] = "formula syntax error",
    [TCO_ERR_UNKNOWN_NAME] = "unknown name",
    [TCO_ERR_UNKNOWN_FUNCTION] = "unknown function",
    [TCO_ERR_ARITY] = "wrong number of arguments",
    [TCO_ERR_BAD_NAME] = "invalid name",
    [TCO_ERR_DUPLICATE] = "duplicate definition",
    [TCO_ERR_CYCLE] = "circular reference",
    [TCO_ERR_EVAL] = "evaluation error",
    [TCO_ERR_TOO_DEEP] = "formula nested too deeply",
    [TCO_ERR_CANTCREATE] = "cannot create output",
    [TCO_ERR_NOMEM] = "out of memory",
};

_Static_assert(sizeof messages / sizeof messages[0] == TCO_ERR_COUNT,
               "tco_strerror table out of step with tco_error");

const char *tco_strerror(tco_error err)
{
    if ((unsigned)err >= TCO_ERR_COUNT || messages[err] == NULL)
        return "unknown error";
    return messages[err];
}

/* Copy @p s (NULL: "") into @p out (@p size bytes), cut so that no character is split. */
static void copy_cut(char *out, size_t size, const char *s)
{
    size_t n = s ? tco_utf8_prefix(s, size - 1) : 0;
    memcpy(out, s ? s : "", n);
    out[n] = '\0';
}

/* snprintf() that never cuts inside a character (tco_vformat_cut()). */
static void format_cut(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void format_cut(char *out, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco_vformat_cut(out, size, fmt, ap);
    va_end(ap);
}

/* The place fields of @p diag set from @p place (NULL: none). */
static void set_place(tco_diag *diag, const tco_place *place)
{
    static const tco_place none;
    if (place == NULL)
        place = &none;
    copy_cut(diag->file, sizeof diag->file, place->file);
    diag->line = place->line > 0 ? place->line : 0;
    diag->column = place->column > 0 ? place->column : 0;
    copy_cut(diag->column_name, sizeof diag->column_name, place->column_name);
    copy_cut(diag->section, sizeof diag->section, place->section);
    copy_cut(diag->key, sizeof diag->key, place->key);
    diag->text = 0;
}

tco_place tco_place_column(const tco_place *where, long column)
{
    tco_place at = where ? *where : (tco_place){0};
    at.column = column;
    at.char_column = 1;
    return at;
}

tco_error tco_diag_vat(tco_diag *diag, tco_error err, const tco_place *place, const char *fmt, va_list ap)
{
    if (diag == NULL)
        return err;
    diag->code = err;
    set_place(diag, place);
    /* The place, in the first form of error.h that fits it; the file as given (not cut) in the message. */
    char at[TCO_DIAG_MAX];
    const char *file = place && place->file ? place->file : "";
    const char *section = place && place->section && place->section[0] ? place->section : NULL;
    const char *key = place && place->key && place->key[0] ? place->key : NULL;
    bool char_column = place && place->char_column && diag->column > 0;
    if (file[0] == '\0')
        at[0] = '\0';
    else if (char_column && diag->line > 0)
        snprintf(at, sizeof at, "%ld, column %ld: ", diag->line, diag->column);
    else if (char_column)
        snprintf(at, sizeof at, "%s%s%s%s%s, column %ld: ", section ? " [" : "", section ? section : "",
                 section ? "]" : "", key ? " " : "", key ? key : "", diag->column);
    else if (diag->line > 0 && diag->column > 0 && diag->column_name[0])
        snprintf(at, sizeof at, "%ld: column %ld (%s): ", diag->line, diag->column, place->column_name);
    else if (diag->line > 0 && diag->column > 0)
        snprintf(at, sizeof at, "%ld: column %ld: ", diag->line, diag->column);
    else if (diag->line > 0 && section && key)
        snprintf(at, sizeof at, "%ld: [%s] %s: ", diag->line, section, key);
    else if (diag->line > 0 && section)
        snprintf(at, sizeof at, "%ld: [%s] ", diag->line, section);
    else if (diag->line > 0)
        snprintf(at, sizeof at, "%ld: ", diag->line);
    else if (section && key)
        snprintf(at, sizeof at, " [%s] %s: ", section, key);
    else if (section)
        snprintf(at, sizeof at, " [%s]: ", section);
    else
        snprintf(at, sizeof at, " ");
    char text[TCO_DIAG_MAX];
    tco_vformat_cut(text, sizeof text, fmt, ap);
    const char *arg = place && place->arg ? place->arg : "", *part = place && place->part ? place->part : "";
    /* FILE:LINE... or FILE [SECTION]... or FILE:, else ARG:, then PART: */
    const char *sep = file[0] == '\0' ? "" : diag->line > 0 ? ":" : (section || char_column) ? "" : ":";
    if (file[0] == '\0' && arg[0] != '\0')
        snprintf(at, sizeof at, ": ");
    /* A path of up to 4 KB left no room for the reason (the message holds 1,023 bytes): "tco: /tmp/d...d/d"
     * and no "cannot open".  A file or argument too long for the whole message keeps its start and its end
     * with "..." between, and the reason is said in full; the fields keep the path (diag->file). */
    const char *shown = file[0] ? file : arg;
    char elided[TCO_DIAG_MAX];
    size_t rest = strlen(sep) + strlen(at) + strlen(part) + (part[0] ? 2 : 0) + strlen(text);
    if (strlen(shown) + rest >= sizeof diag->message && strlen(shown) > 400)
        shown = tco_utf8_elide(shown, rest + 400 < sizeof diag->message ? sizeof diag->message - 1 - rest : 400,
                               elided, sizeof elided);
    /* The part belongs to the text (diag->text points at "LOW: ..."): the fields do not hold it. */
    size_t place_len = strlen(shown) + strlen(sep) + strlen(at);
    format_cut(diag->message, sizeof diag->message, "%s%s%s%s%s%s", shown, sep, at, part,
               part[0] ? ": " : "", text);
    diag->text = place_len < strlen(diag->message) ? place_len : 0;
    return err;
}

tco_error tco_diag_at(tco_diag *diag, tco_error err, const tco_place *place, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco_diag_vat(diag, err, place, fmt, ap);
    va_end(ap);
    return err;
}

tco_error tco_diag_at_set(tco_diag *diag, tco_error err, const char *given, const char *section, const char *key,
                          const char *fmt, ...)
{
    char arg[TCO_DIAG_MAX];
    snprintf(arg, sizeof arg, "--set %s", given);
    va_list ap;
    va_start(ap, fmt);
    tco_diag_vat(diag, err, &(tco_place){.arg = arg, .section = section, .key = key}, fmt, ap);
    va_end(ap);
    return err;
}

tco_error tco_diag_set(tco_diag *diag, tco_error err, const char *fmt, ...)
{
    if (diag == NULL)
        return err;
    diag->code = err;
    set_place(diag, NULL);
    va_list ap;
    va_start(ap, fmt);
    tco_vformat_cut(diag->message, sizeof diag->message, fmt, ap); /* never cut inside a character */
    va_end(ap);
    if (diag->message[0] == '\0')
        snprintf(diag->message, sizeof diag->message, "%s", tco_strerror(err));
    return err;
}

int tco_exit_code(tco_error err)
{
    switch (err) {
    case TCO_OK: return 0;
    case TCO_ERR_USAGE: return 64;
    case TCO_ERR_NOINPUT: return 66;
    case TCO_ERR_CANTCREATE: return 73;
    case TCO_ERR_NOMEM: return 71;
    case TCO_ERR_INI: case TCO_ERR_SYNTAX: case TCO_ERR_UNKNOWN_NAME:
    case TCO_ERR_UNKNOWN_FUNCTION: case TCO_ERR_ARITY: case TCO_ERR_BAD_NAME:
    case TCO_ERR_DUPLICATE: case TCO_ERR_CYCLE: case TCO_ERR_EVAL:
    case TCO_ERR_TOO_DEEP:
        return 65;
    case TCO_ERR_COUNT: break;
    }
    return 70;
}
