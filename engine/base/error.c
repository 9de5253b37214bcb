/* error.c - tco_error messages and the diagnostic formatter. */
#include "base/error.h"
#include "base/utf8.h"

#include <stdarg.h>
#include <stdio.h>

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

tco_error tco_diag_set(tco_diag *diag, tco_error err, const char *fmt, ...)
{
    if (diag == NULL)
        return err;
    diag->code = err;
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
