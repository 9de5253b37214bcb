/* fx.c - exchange rates from pricing/fx.ini, and --set fx.CODE=RATE (fx.h). */
#include "read/fx.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "read/dates.h"

bool tco_fx_code_valid(const char *s)
{
    return strlen(s) == 3 && isalpha((unsigned char)s[0]) && isalpha((unsigned char)s[1]) &&
           isalpha((unsigned char)s[2]);
}

bool tco_fx_rate(const tco_fx *fx, const char *code, double *rate)
{
    if (strcasecmp(code, fx->reporting) == 0) {
        *rate = 1;
        return true;
    }
    for (size_t i = 0; i < fx->n; i++)
        if (strcasecmp(fx->codes[i], code) == 0) {
            *rate = fx->rates[i];
            return true;
        }
    return false;
}

tco_error tco_fx_set(tco_fx *fx, const char *arg, const char *code, const char *value, tco_diag *diag)
{
    if (strcasecmp(code, fx->reporting) == 0)
        return tco_diag_at_set(diag, TCO_ERR_INI, arg, "fx", code, "%s is the reporting currency (its rate is 1)",
                               fx->reporting);
    size_t i = 0;
    while (i < fx->n && strcasecmp(fx->codes[i], code) != 0)
        i++;
    if (i == fx->n) {
        tco_strbuf codes = {0};
        for (size_t k = 0; k < fx->n; k++)
            tco_strbuf_printf(&codes, "%s%c%c%c", k ? ", " : "", tolower((unsigned char)fx->codes[k][0]),
                              tolower((unsigned char)fx->codes[k][1]), tolower((unsigned char)fx->codes[k][2]));
        tco_error e = tco_diag_at_set(diag, TCO_ERR_INI, arg, "fx", code, "no rate '%s' in %s [fx] (it has %s)", code,
                                      fx->path, codes.len ? tco_strbuf_str(&codes) : "none");
        tco_strbuf_free(&codes);
        return e;
    }
    double rate;
    if (!tco_parse_number(value, &rate) || !(rate >= TCO_FX_MIN_RATE) || !(rate <= TCO_FX_MAX_RATE))
        return tco_diag_at_set(diag, TCO_ERR_INI, arg, "fx", code,
                               "expected %s per %s as a number from 0.000001 to 1000000, found '%s'", fx->reporting,
                               fx->codes[i], value);
    if (fx->set_args == NULL) {
        fx->set_args = calloc(fx->n, sizeof *fx->set_args);
        fx->file_rates = malloc(fx->n * sizeof *fx->file_rates);
        if (fx->set_args == NULL || fx->file_rates == NULL)
            return tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        memcpy(fx->file_rates, fx->rates, fx->n * sizeof *fx->rates);
    }
    fx->set_args[i] = arg;
    fx->rates[i] = rate;
    return TCO_OK;
}

void tco_fx_no_rate(const tco_fx *fx, const char *code, tco_strbuf *out)
{
    tco_strbuf_printf(out, "no exchange rate for %s in %s (it has ", code, fx->path ? fx->path : "the rates");
    for (size_t k = 0; k < fx->n; k++)
        tco_strbuf_printf(out, "%s%s", k ? ", " : "", fx->codes[k]);
    tco_strbuf_printf(out, "%s): add %c%c%c = RATE (%s per %s) to its [fx] section to use this quote",
                      fx->n ? "" : "none", tolower((unsigned char)code[0]), tolower((unsigned char)code[1]),
                      tolower((unsigned char)code[2]), fx->reporting, code);
}

void tco_fx_free(tco_fx *fx)
{
    free(fx->codes);
    free(fx->rates);
    free(fx->set_args);
    free(fx->file_rates);
    free(fx->path);
    memset(fx, 0, sizeof *fx);
}

tco_error tco_fx_load(const char *path, const char *display, tco_fx *fx, tco_diag *diag)
{
    return tco_fx_load_shared(path, display, NULL, fx, diag);
}

tco_error tco_fx_load_shared(const char *path, const char *display, tco_ini_cache *files, tco_fx *fx,
                             tco_diag *diag)
{
    memset(fx, 0, sizeof *fx);
    tco_error pe = tco_shown_path_check(display ? display : path, "exchange rates' path", diag);
    if (pe != TCO_OK)
        return pe;
    tco_ini_cache own = {0}; /* without a cache given, the file is read for this call alone */
    const tco_ini *held = NULL;
    tco_error e = tco_ini_cache_load(files ? files : &own, path, display, &held, diag);
    if (e != TCO_OK)
        return e;
    const char *rep = tco_ini_get(held, "fx", "reporting");
    const char *as_of = tco_ini_get(held, "fx", "as_of");
    if (rep == NULL || !tco_fx_code_valid(rep))
        e = tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = held->path, .section = "fx", .key = "reporting"},
                        "expected a currency code such as CNY, found %s%s%s", rep ? "'" : "", rep ? rep : "no such key",
                        rep ? "'" : "");
    else if (as_of == NULL)
        e = tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = held->path, .section = "fx", .key = "as_of"},
                        "expected the rates' date as YYYY-MM-DD, found no such key");
    else {
        char why[TCO_DIAG_MAX];
        if (!tco_date_check(as_of, &fx->as_of, why, sizeof why))
            e = tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = held->path, .section = "fx", .key = "as_of"}, "%s",
                            why);
    }
    if (e == TCO_OK) {
        for (int i = 0; i < 3; i++)
            fx->reporting[i] = (char)toupper((unsigned char)rep[i]);
        int n;
        const char **keys = tco_ini_keys(held, "fx", &n);
        fx->codes = calloc((size_t)(n > 0 ? n : 1), sizeof *fx->codes);
        fx->rates = calloc((size_t)(n > 0 ? n : 1), sizeof *fx->rates);
        fx->path = tco_strdup(held->path);
        if (fx->codes == NULL || fx->rates == NULL || fx->path == NULL)
            e = tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory");
        for (int k = 0; k < n && e == TCO_OK; k++) {
            const char *key = strchr(keys[k], ':') + 1;
            if (strcmp(key, "reporting") == 0 || strcmp(key, "as_of") == 0 || strstr(key, "_source"))
                continue;
            double rate;
            if (!tco_fx_code_valid(key))
                e = tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = held->path, .section = "fx", .key = key},
                                "expected a currency code (USD = 7.1), found a key of %zu characters", strlen(key));
            else if (!tco_parse_number(tco_ini_get(held, "fx", key), &rate) || !(rate >= TCO_FX_MIN_RATE) ||
                     !(rate <= TCO_FX_MAX_RATE))
                e = tco_diag_at(diag, TCO_ERR_INI, &(tco_place){.file = held->path, .section = "fx", .key = key},
                                "expected %s per unit as a number from 0.000001 to 1000000, found '%s'", fx->reporting,
                                tco_ini_get(held, "fx", key));
            else {
                for (int i = 0; i < 3; i++)
                    fx->codes[fx->n][i] = (char)toupper((unsigned char)key[i]);
                fx->rates[fx->n++] = rate;
            }
        }
        free(keys);
    }
    tco_ini_cache_free(&own);
    if (e != TCO_OK)
        tco_fx_free(fx);
    return e;
}
