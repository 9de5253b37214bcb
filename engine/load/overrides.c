/* overrides.c - the --set overrides (load.h's tco_override_parse()), applied to the scenario as if its
 * file said them, and which --set gave a value (loader.h). */
#include "load/loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/text.h"
#include "base/utf8.h"
#include "load/load.h"

const char *override_section(const loader *ld, const tco_override *o)
{
    for (size_t r = 0; r < ld->n_refs; r++)
        if (strcasecmp(o->section, ld->refs[r].key) == 0)
            return ld->refs[r].value;
    return o->section;
}

tco_error apply_overrides(loader *ld, int phase)
{
    if (ld->n_overrides == 0)
        return TCO_OK;
    if (ld->originals == NULL && (ld->originals = calloc(ld->n_overrides, sizeof *ld->originals)) == NULL)
        return oom(ld);
    for (size_t i = 0; i < ld->n_overrides; i++) {
        const tco_override *o = &ld->overrides[i];
        if ((strcasecmp(o->section, "scenario") == 0) != (phase == 0))
            continue;
        free(ld->originals[i]);
        ld->originals[i] = NULL;
        const char *sec = override_section(ld, o);
        const char *before = tco_ini_get(&ld->scenario, sec, o->key);
        /* A key set twice for one option (facility.pue=1.2 then facility.pue=1.3, or card.price and D-M.price
         * when the card is D-M) is refused, as an option given twice is: one of the two would be dropped
         * without a word.  (A comparison's NAME:SEC.KEY for one option beside a SEC.KEY for all is not a
         * repeat: the option's own value is meant to win.) */
        for (size_t j = 0; j < i; j++)
            if (strcasecmp(override_section(ld, &ld->overrides[j]), sec) == 0 &&
                strcasecmp(ld->overrides[j].key, o->key) == 0 &&
                tco_utf8_casecmp(ld->overrides[j].option, o->option) == 0)
                return tco_diag_set(ld->diag, TCO_ERR_USAGE, "--set %s: sets [%s] %s again (first --set %s); give "
                                    "each value once", o->arg, sec, o->key, ld->overrides[j].arg);
        for (size_t f = 0; f < ld->n_catalog && before == NULL; f++)
            before = tco_ini_get(ld->catalog[f], sec, o->key);
        if (before && (ld->originals[i] = tco_strdup(before)) == NULL)
            return oom(ld);
        if (!tco_ini_set(&ld->scenario, sec, o->key, o->value))
            return oom(ld);
    }
    return TCO_OK;
}

int override_of(const loader *ld, const char *section, const char *key)
{
    /* The last --set of a key is the one in effect. */
    for (size_t i = ld->n_overrides; i-- > 0;)
        if (strcasecmp(override_section(ld, &ld->overrides[i]), section) == 0 &&
            strcasecmp(ld->overrides[i].key, key) == 0)
            return (int)i;
    return -1;
}

tco_error tco_override_parse(const char *arg, tco_override *out, tco_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->arg = arg;
    const char *colon = strchr(arg, ':'), *first_dot = strchr(arg, '.');
    if (colon != NULL && (first_dot == NULL || colon < first_dot)) { /* OPTION:SECTION.KEY=VALUE */
        if (colon == arg || (size_t)(colon - arg) >= sizeof out->option)
            return tco_diag_set(diag, TCO_ERR_USAGE, "--set %s: expected OPTION:SECTION.KEY=VALUE with the name of "
                                "an option of the comparison before ':'", arg);
        snprintf(out->option, sizeof out->option, "%.*s", (int)(colon - arg), arg);
        arg = colon + 1;
    }
    const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
    if (dot == NULL || eq == NULL || dot > eq || dot == arg || eq == dot + 1)
        return tco_diag_set(diag, TCO_ERR_USAGE, "--set %s: expected SECTION.KEY=VALUE, e.g. facility.pue=1.2 or "
                            "card.price=80000", arg);
    if ((size_t)(dot - arg) >= sizeof out->section || (size_t)(eq - dot - 1) >= sizeof out->key ||
        strlen(eq + 1) >= sizeof out->value)
        return tco_diag_set(diag, TCO_ERR_USAGE,
                            "--set %.*s...: too long; expected a section and a key of at most %zu bytes each and a "
                            "value of at most %zu bytes",
                            (int)tco_utf8_prefix(arg, 60), arg, sizeof out->section - 1, sizeof out->value - 1);
    /* The value may reach the workbook (a text input, the note on Inputs): text a workbook holds.
     * The message shows the argument up to the bad byte only. */
    size_t bad = 0;
    long cp = 0;
    bool xml_ok = tco_xml_text_valid(arg, strlen(arg), &bad, &cp);
    const char *ctl = strpbrk(arg, "\t\r\n");
    if (xml_ok && ctl != NULL)
        bad = (size_t)(ctl - arg), cp = (unsigned char)*ctl;
    if (!xml_ok || ctl != NULL)
        return tco_diag_set(diag, TCO_ERR_USAGE, "--set %.*s...: %s at byte %zu; expected UTF-8 text without control "
                            "characters or non-characters (U+FFFE, U+FFFF, U+FDD0 to U+FDEF, ...)",
                            (int)tco_utf8_prefix(arg, bad < 60 ? bad : 60), arg,
                            cp < 0 ? "not valid UTF-8" : tco_is_control(cp) ? "a control character" : "a non-character",
                            bad + 1);
    snprintf(out->section, sizeof out->section, "%.*s", (int)(dot - arg), arg);
    snprintf(out->key, sizeof out->key, "%.*s", (int)(eq - dot - 1), dot + 1);
    const char *v = eq + 1;
    while (*v == ' ' || *v == '\t') /* as a value in a file: surrounding blanks are not part of it */
        v++;
    snprintf(out->value, sizeof out->value, "%s", v);
    for (char *p = out->value + strlen(out->value); p > out->value && (p[-1] == ' ' || p[-1] == '\t');)
        *--p = '\0';
    return TCO_OK;
}
