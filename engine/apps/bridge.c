/* bridge.c - the budget bridge, tco diff OLD.json NEW.json (bridge.h). */
#include "apps/bridge.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include "model/model.h"
#include "base/names.h"
#include "read/fx.h"
#include "render/report.h"
#include "read/scenarios.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "load/load.h"
#include "model/evaluate.h"
#include "read/ini.h"
#include "read/root.h"
#include "model/formula.h"
#include "model/ranges.h"
#include "price/pricing.h"
#include "price/run.h"

/* Largest JSON summary read: a summary of the shipped scenarios is about 200 KB. */
#define BRIDGE_MAX_BYTES ((long long)256 << 20)
/* Most structural inputs moved (each one a reload) and most --set values a reload takes. */
#define BRIDGE_MAX_SHAPE 64

/* One budget version: a JSON summary read back. */
typedef struct version {
    const char *path;
    json_t *doc;
    json_t *inputs; /* borrowed from doc */
    const char *scenario, *currency, *title;
    const char *template_file, *template_fingerprint; /* NULL when the JSON has no template identity */
    double tco;
    int years;
    uint64_t fingerprint; /* of the file's bytes */
} version;

/* The run's state: the request, the two versions, the bridge being filled and OLD's scenario file. */
typedef struct ctx {
    const tco_bridge_request *req;
    version old, new_;
    tco_bridge *b;
    char *spath;
    tco_diag *d;
    bool canonical; /* the files' names are in the model's spelling (canonical_version()) */
} ctx;

/* A changed input: one step to take. */
typedef struct change {
    const char *name, *tier; /* borrowed from the JSON */
    json_t *from, *to, *entry; /* entry: NEW's input object */
    const tco_item *it;        /* the model's input (items do not move while the steps run) */
    double alone;
    size_t index; /* file order */
} change;

static tco_error oom(tco_diag *d)
{
    return tco_diag_set(d, TCO_ERR_NOMEM, "out of memory");
}

/* ---- reading a summary ----------------------------------------------------------------------- */

/* ---- the texts a summary gives, checked as it is read ----------------------------------------- */

/* Longest text a summary holds where the table or the workbook shows it, in bytes: a label, a title, a tier
 * code, a text value (each an INI value or a --set value, at most 1,022 bytes, as tco writes them). */
#define BRIDGE_MAX_TEXT 1022
/* Longest unit, in UTF-16 units: a template's unit (part of its input's data-validation message). */
#define BRIDGE_MAX_UNIT 64
/* Longest --set key SECTION.KEY, in bytes (--set takes a section and a key of at most 127 bytes each). */
#define BRIDGE_MAX_SET 255
/* Longest template file name, in bytes (a path). */
#define BRIDGE_MAX_PATH 4096

/* The place of a part of summary @p v (@p key: "inputs.pue", "currency"), as data and in the message:
 * "FILE: KEY: TEXT". */
#define AT_KEY(v, k) (&(tco_place){.file = (v)->path, .key = (k), .part = (k)})

/* Whether @p key is one of the @p n names of @p list; when not, *@p near is the nearest within two edits
 * (fewer than the key's length), else NULL. */
static bool is_member(const char *key, const char *const *list, size_t n, const char **near)
{
    size_t best = 3;
    *near = NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], key) == 0)
            return true;
    for (size_t i = 0; i < n; i++) {
        size_t dist = tco_edit_distance(list[i], key);
        if (dist < best && dist < strlen(key))
            best = dist, *near = list[i];
    }
    return false;
}

/* @p s as a message shows a key that is not a name: printable ASCII as it is, every other byte \xHH
 * (a terminal never gets a control character, C1 included, from the file). */
static const char *ascii_shown(const char *s, char out[TCO_SHOWN_MAX])
{
    size_t n = 0, i = 0;
    for (; s[i] && n + 8 < TCO_SHOWN_MAX && i < 100; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F)
            out[n++] = (char)c;
        else
            n += (size_t)snprintf(out + n, TCO_SHOWN_MAX - n, "\\x%02X", c);
    }
    snprintf(out + n, TCO_SHOWN_MAX - n, "%s", s[i] ? "..." : "");
    return out;
}

/* Check text @p s, the @p what of @p key in summary @p v, that the table or the workbook shows: UTF-8 XML
 * text without a control character (C0 with tab and line ends, DEL, C1) and at most @p max_bytes bytes and
 * @p max_units UTF-16 units (0: no such limit).  TCO_ERR_INI naming the file, the key and the character. */
static tco_error shown_text(const version *v, const char *key, const char *what, const char *s, size_t max_bytes,
                            size_t max_units, tco_diag *d)
{
    size_t len = strlen(s), bad = len;
    long cp = 0;
    bool ok = tco_xml_text_valid(s, len, &bad, &cp);
    if (ok)
        bad = len;
    for (size_t i = 0; i < bad; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7F || (c == 0xC2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 &&
                                     (unsigned char)s[i + 1] <= 0x9F)) {
            ok = false, bad = i, cp = c == 0xC2 ? (unsigned char)s[i + 1] : c;
            break;
        }
    }
    if (!ok) {
        const char *kind = cp < 0 ? "a byte that is not UTF-8" : tco_is_noncharacter(cp) ? "a non-character"
                                                                                              : "a control character";
        char code[24];
        if (cp < 0)
            snprintf(code, sizeof code, "0x%02X", (unsigned char)s[bad]);
        else
            snprintf(code, sizeof code, "U+%04lX", (unsigned long)cp);
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, key),
                           "%s holds %s (%s) at character %zu; expected UTF-8 text without control characters "
                           "or non-characters (the table and the workbook show it)",
                           what, kind, code, tco_utf8_chars_n(s, bad) + 1);
    }
    size_t units = max_units ? tco_utf16_units(s) : 0;
    if (units > max_units)
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, key), "%s is %zu characters long; at most %zu are allowed", what,
                           units, max_units);
    if (len > max_bytes)
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, key), "%s is %zu bytes long; at most %zu are allowed", what, len,
                           max_bytes);
    return TCO_OK;
}

/* Check member @p member of object @p obj (the place @p key of @p v), when present: a text (@p what) shown
 * as shown_text() checks it.  *@p out is the text, or NULL when absent. */
static tco_error shown_member(const version *v, const json_t *obj, const char *member, const char *key,
                              const char *what, size_t max_bytes, size_t max_units, const char **out, tco_diag *d)
{
    json_t *m = json_object_get(obj, member);
    if (out)
        *out = NULL;
    if (m == NULL)
        return TCO_OK;
    if (!json_is_string(m))
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, key), "%s is not a text", what);
    if (out)
        *out = json_string_value(m);
    return shown_text(v, key, what, json_string_value(m), max_bytes, max_units, d);
}

/* True when @p s is an input name: 1 to TCO_NAME_MAX_LEN ASCII letters, digits and '_', not starting with
 * a digit (every name a template gives, tco_name_check()). */
static bool input_name_ok(const char *s)
{
    size_t n = 0;
    for (const char *p = s; *p; p++, n++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || (n > 0 && *p >= '0' && *p <= '9')))
            return false;
    return n > 0 && n <= TCO_NAME_MAX_LEN;
}

/* The keys of a JSON object with their places in the file, sorted in the canonical spelling. */
typedef struct keyed {
    const char *key;
    size_t index;
} keyed;

/* Two names in their canonical spelling, ignoring case as tco reads names: a tier code in any script
 * (tco_utf8_casecmp()), an input name in ASCII (as tco_model_find()). */
static int same_name(const char *a, const char *b, bool tiers)
{
    return tiers ? tco_utf8_casecmp(a, b) : strcasecmp(a, b);
}

/* Keys in their canonical spelling, then in file order: tier codes, input names (same_name()). */
static int by_tier_code(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = same_name(a->key, b->key, true);
    return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

static int by_input_name(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = same_name(a->key, b->key, false);
    return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

/* Refuse object @p obj (at @p key of @p v; @p what names its keys in the message) naming one entry twice in
 * its canonical spelling ("C30" and "c30", "pue" and "PUE": the same tier, the same input, to every other
 * part of tco), which would be read as two entries; @p tiers selects the comparison (by_canonical()). */
static tco_error check_keys_once(const version *v, json_t *obj, const char *key, const char *what, bool tiers,
                                 tco_diag *d)
{
    size_t n = json_object_size(obj), i = 0;
    if (n < 2)
        return TCO_OK;
    keyed *k = malloc(n * sizeof *k);
    if (k == NULL)
        return oom(d);
    const char *name;
    json_t *value;
    json_object_foreach(obj, name, value) {
        if (i < n)
            k[i] = (keyed){name, i}, i++;
    }
    qsort(k, i, sizeof *k, tiers ? by_tier_code : by_input_name);
    tco_error e = TCO_OK;
    for (size_t j = 1; j < i && e == TCO_OK; j++) {
        if (same_name(k[j - 1].key, k[j].key, tiers) == 0)
            e = tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, key),
                            "%s '%s' (entry %zu) and '%s' (entry %zu) name the same %s, as tco compares names "
                            "(ignoring case); give each once", what, TCO_SHOWN(k[j - 1].key), k[j - 1].index + 1,
                            TCO_SHOWN(k[j].key), k[j].index + 1, tiers ? "tier" : "input");
    }
    free(k);
    return e;
}

/* Check the texts of the object of tier rows @p rows (@p member of input @p key), when present: each tier
 * code, and each text row when @p texts (by_tier), each --set key (set_by_tier). */
static tco_error check_rows(const version *v, const json_t *entry, const char *member, const char *key, tco_diag *d)
{
    json_t *rows = json_object_get(entry, member), *row;
    const char *tier;
    if (!json_is_object(rows))
        return TCO_OK; /* absent, or said by the shape check */
    bool sets = strcmp(member, "set_by_tier") == 0;
    char what[64];
    tco_error e = TCO_OK;
    json_object_foreach(rows, tier, row) {
        snprintf(what, sizeof what, "a tier code of \"%s\"", member);
        if (tier[0] == '\0') {
            e = tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, key), "%s is empty; expected the code of a tier of the "
                            "catalog (C30, D-M, ...)", what);
            break;
        }
        if ((e = shown_text(v, key, what, tier, BRIDGE_MAX_TEXT, 0, d)) != TCO_OK)
            break;
        snprintf(what, sizeof what, "\"%s\" %s", member, sets ? "--set key" : "text");
        if (sets && !json_is_string(row) && !json_is_null(row))
            e = tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, key), "%s is not a text", what);
        else if (json_is_string(row))
            e = shown_text(v, key, what, json_string_value(row), sets ? BRIDGE_MAX_SET : BRIDGE_MAX_TEXT, 0, d);
        if (e != TCO_OK)
            break;
    }
    if (e == TCO_OK) {
        snprintf(what, sizeof what, "the tier codes of \"%s\"", member);
        e = check_keys_once(v, rows, key, what, true, d);
    }
    return e;
}

/* Check the texts of summary @p v the table and the workbook show, and their shapes: the file's name, the
 * scenario, title, currency and template, each input's name, label, unit, --set keys, texts and tier codes. */
static tco_error check_texts(version *v, tco_diag *d)
{
    tco_error e = tco_shown_path_check(v->path, "JSON summary's name", d);
    if (e != TCO_OK)
        return e;
    if (!tco_scenario_name_ok(v->scenario))
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, "scenario"),
                           "'%s': expected a scenario name (at most 200 letters, digits, '-', '_')",
                           ascii_shown(v->scenario, (char[TCO_SHOWN_MAX]){0}));
    const char *title = NULL;
    if ((e = shown_member(v, v->doc, "title", "title", "the title", BRIDGE_MAX_TEXT, 0, &title, d)) != TCO_OK)
        return e;
    v->title = title ? title : v->scenario;
    json_t *cur = json_object_get(v->doc, "currency");
    if (cur && !json_is_string(cur))
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, "currency"),
                           "not a text: expected the code of the run's reporting currency (CNY, USD, ...)");
    v->currency = cur ? json_string_value(cur) : "CNY";
    if (!tco_fx_code_valid(v->currency))
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, "currency"),
                           "'%s': expected the code of the run's reporting currency, three letters (CNY, USD, ...)",
                           ascii_shown(v->currency, (char[TCO_SHOWN_MAX]){0}));
    json_t *t = json_object_get(v->doc, "template");
    if (json_is_object(t)) {
        const char *file = NULL, *print = NULL;
        if ((e = shown_member(v, t, "file", "template.file", "the template's file", BRIDGE_MAX_PATH, 0, &file,
                              d)) != TCO_OK ||
            (e = shown_member(v, t, "fingerprint", "template.fingerprint", "the template's fingerprint", 16, 0,
                              &print, d)) != TCO_OK)
            return e;
        if (file && print) {
            v->template_file = file;
            v->template_fingerprint = print;
        }
    }
    const char *name;
    json_t *entry;
    char key[TCO_NAME_MAX_LEN + 16];
    if ((e = check_keys_once(v, v->inputs, "inputs", "the input names", false, d)) != TCO_OK)
        return e;
    json_object_foreach(v->inputs, name, entry) {
        if (!input_name_ok(name))
            return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, "inputs"),
                               "key '%s': expected an input name (1 to %d letters, digits and '_', not starting with "
                               "a digit)",
                               ascii_shown(name, (char[TCO_SHOWN_MAX]){0}), TCO_NAME_MAX_LEN);
        snprintf(key, sizeof key, "inputs.%s", name);
        json_t *value = json_object_get(entry, "value");
        if ((e = shown_member(v, entry, "label", key, "\"label\"", BRIDGE_MAX_TEXT, 0, NULL, d)) != TCO_OK ||
            (e = shown_member(v, entry, "unit", key, "\"unit\"", BRIDGE_MAX_TEXT, BRIDGE_MAX_UNIT, NULL, d)) !=
                TCO_OK ||
            (json_object_get(entry, "set") && !json_is_null(json_object_get(entry, "set")) &&
             (e = shown_member(v, entry, "set", key, "\"set\"", BRIDGE_MAX_SET, 0, NULL, d)) != TCO_OK) ||
            (json_is_string(value) &&
             (e = shown_text(v, key, "\"value\"", json_string_value(value), BRIDGE_MAX_TEXT, 0, d)) != TCO_OK) ||
            (e = check_rows(v, entry, "by_tier", key, d)) != TCO_OK ||
            (e = check_rows(v, entry, "given_by_tier", key, d)) != TCO_OK ||
            (e = check_rows(v, entry, "set_by_tier", key, d)) != TCO_OK)
            return e;
    }
    return TCO_OK;
}

/* JSON value @p j as a message quotes what was found: a text quoted ('abc', escaped by ascii_shown()), a
 * number, true, false, null, "an object", "an array". */
static const char *json_shown(const json_t *j, char out[TCO_SHOWN_MAX])
{
    if (json_is_string(j)) {
        char inner[TCO_SHOWN_MAX];
        snprintf(out, TCO_SHOWN_MAX, "the text '%.400s'", ascii_shown(json_string_value(j), inner));
    } else if (json_is_number(j))
        tco_format_double(json_number_value(j), out);
    else
        snprintf(out, TCO_SHOWN_MAX, "%s", json_is_true(j) ? "true" : json_is_false(j) ? "false" : json_is_null(j) ? "null"
                                           : json_is_object(j) ? "an object" : "an array");
    return out;
}

static tco_error refuse(const version *v, tco_diag *d, const char *what)
{
    return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = v->path},
                       "%s; tco diff takes two summaries of one scenario's runs, "
                       "tco --scenario NAME --format json",
                       what);
}

/* Read @p path into @p v: the bytes (fingerprinted), then the JSON, then its shape. */
static tco_error read_version(const char *path, version *v, tco_diag *d)
{
    memset(v, 0, sizeof *v);
    v->path = path;
    /* A FIFO or a device is refused before it is opened: opening a FIFO waits for a writer. */
    struct stat first;
    if (stat(path, &first) == 0 && !S_ISREG(first.st_mode))
        return tco_diag_at(d, TCO_ERR_NOINPUT, &(tco_place){.file = path}, "%s", tco_not_file_reason(first.st_mode));
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return tco_diag_at(d, TCO_ERR_NOINPUT, &(tco_place){.file = path}, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return tco_diag_at(d, TCO_ERR_NOINPUT, &(tco_place){.file = path}, "%s", tco_not_file_reason(st.st_mode));
    }
    if ((long long)st.st_size > BRIDGE_MAX_BYTES) {
        fclose(f);
        return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = path},
                           "%lld bytes; a JSON summary is at most %lld bytes", (long long)st.st_size, BRIDGE_MAX_BYTES);
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *text = malloc(cap);
    if (text == NULL) {
        fclose(f);
        return oom(d);
    }
    n = fread(text, 1, cap, f);
    bool bad = ferror(f) != 0 || n == cap; /* n == cap: the file grew while read */
    fclose(f);
    if (bad) {
        free(text);
        return tco_diag_at(d, TCO_ERR_NOINPUT, &(tco_place){.file = path}, "read error");
    }
    v->fingerprint = tco_fingerprint(text, n);
    /* A UTF-8 byte-order mark (an editor on Windows writes one) is skipped, as an INI file's is. */
    size_t bom = n >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    json_error_t je;
    v->doc = json_loadb(text + bom, n - bom, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (v->doc == NULL)
        return tco_diag_set(d, TCO_ERR_INI, "%s:%d:%d: not JSON: %s; expected a summary, tco --scenario NAME "
                            "--format json", path, je.line, je.column, ascii_shown(je.text, (char[TCO_SHOWN_MAX]){0}));
    if (json_is_array(v->doc))
        return refuse(v, d, "a JSON array, as --scenario all and --compare print (one object per scenario)");
    if (!json_is_object(v->doc))
        return refuse(v, d, "JSON, but not an object");
    if (json_object_get(v->doc, "question"))
        return refuse(v, d, "the answer of tco advise (it has a \"question\"), not a run's summary");
    if (json_object_get(v->doc, "problems"))
        return refuse(v, d, "the report of tco quotes check (it has \"problems\"), not a run's summary");
    if (json_object_get(v->doc, "steps") && json_object_get(v->doc, "other"))
        return refuse(v, d, "the output of tco diff (it has \"steps\"), not a run's summary");
    json_t *scenario = json_object_get(v->doc, "scenario"), *tco = json_object_get(v->doc, "tco");
    v->inputs = json_object_get(v->doc, "inputs");
    if (!json_is_string(scenario) || !json_is_object(v->inputs) || tco == NULL)
        return refuse(v, d, "not a tco JSON summary: expected the keys \"scenario\" (a name), \"inputs\" (an object) "
                      "and \"tco\"");
    v->scenario = json_string_value(scenario);
    /* Every member is one a summary has (docs/tco.schema.json, $defs/scenario, which allows no other): a
     * key tco never writes was typed by someone, and would be ignored without a word. */
    static const char *const members[] = {"budget", "capex", "cash_flow", "currency", "fingerprint", "inputs",
                                          "monte_carlo", "opex_by_year", "opex_total", "outputs", "periods",
                                          "quotes", "scenario", "schedule", "sensitivity", "tco",
                                          "tco_per_card_year", "template", "title", "warnings", "workbook", "years"};
    const char *key;
    json_t *member;
    json_object_foreach(v->doc, key, member) {
        const char *near;
        if (!is_member(key, members, sizeof members / sizeof members[0], &near))
            return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = v->path},
                               "\"%s\": not a member of a run's summary (docs/tco.schema.json)%s%s%s; a key tco does "
                               "not write would be ignored", ascii_shown(key, (char[TCO_SHOWN_MAX]){0}),
                               near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
    }
    /* Each reason once: null is what tco writes when the template gives no TCO; anything else is quoted. */
    if (json_is_null(tco))
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, "tco"), "null, not a number (the template names no [model] "
                           "tco line, or it has no number): there is no TCO to bridge");
    if (!json_is_number(tco))
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, "tco"), "expected the run's TCO, a number, found %s",
                           json_shown(tco, (char[TCO_SHOWN_MAX]){0}));
    v->tco = json_number_value(tco);
    /* The analysis period, in the table's and the workbook's title: 1 to 100 years (0 when not given). */
    json_t *years = json_object_get(v->doc, "years");
    if (years && (!json_is_integer(years) || json_integer_value(years) < 1 || json_integer_value(years) > 100))
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(v, "years"), "expected a whole number of years from 1 to 100, found %s",
                           json_shown(years, (char[TCO_SHOWN_MAX]){0}));
    v->years = years ? (int)json_integer_value(years) : 0;
    tco_error texts = check_texts(v, d);
    if (texts != TCO_OK)
        return texts;
    /* The input that chose the currency says the same code: else every money value is in doubt. */
    json_t *chosen = json_object_get(json_object_get(v->inputs, "currency"), "value");
    if (json_is_string(chosen) && strcasecmp(json_string_value(chosen), v->currency) != 0)
        return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = v->path},
                           "\"currency\" is %s, and inputs.currency is %s: the file contradicts "
                           "itself (edited by hand?); expected the run's reporting currency in both",
                           v->currency, json_string_value(chosen));
    /* Every input entry is an object with a value (a number or text) or a by_tier object; a money input of
     * a run in another currency has its CNY value too, a number "given" or an object of numbers
     * "given_by_tier". */
    const char *name;
    json_t *e;
    json_object_foreach(v->inputs, name, e) {
        json_t *value = json_object_get(e, "value"), *by_tier = json_object_get(e, "by_tier");
        json_t *given = json_object_get(e, "given"), *given_rows = json_object_get(e, "given_by_tier");
        bool ok = json_is_object(e) && ((value && (json_is_number(value) || json_is_string(value))) ||
                                        json_is_object(by_tier));
        const char *k;
        json_t *row;
        if (ok && by_tier)
            json_object_foreach(by_tier, k, row) ok &= json_is_number(row) || json_is_string(row);
        if (!ok)
            return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = v->path},
                               "inputs.%s: expected an object with \"value\" (a number or a "
                               "text) or \"by_tier\" (an object of numbers or texts)",
                               name);
        /* Each member one an input entry has (docs/tco.schema.json $defs/input, which allows no other). */
        static const char *const entry_members[] = {"label", "unit", "value", "given", "range", "source", "set",
                                                    "by_tier", "given_by_tier", "range_by_tier", "set_by_tier"};
        const char *mk;
        json_t *mv;
        json_object_foreach(e, mk, mv) {
            const char *near;
            if (!is_member(mk, entry_members, sizeof entry_members / sizeof entry_members[0], &near))
                return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = v->path},
                                   "inputs.%s: \"%s\" is not a member of an input (docs/tco.schema.json)%s%s%s; a key "
                                   "tco does not write would be ignored", name, ascii_shown(mk, (char[TCO_SHOWN_MAX]){0}),
                                   near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
        }
        ok = (given == NULL || json_is_number(given)) && (given_rows == NULL || json_is_object(given_rows));
        if (ok && given_rows)
            json_object_foreach(given_rows, k, row) ok &= json_is_number(row);
        if (!ok)
            return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = v->path},
                               "inputs.%s: expected \"given\" to be a number and "
                               "\"given_by_tier\" an object of numbers (the value in CNY)",
                               name);
    }
    return TCO_OK;
}

/* ---- the model ------------------------------------------------------------------------------- */

/* True when JSON values @p a and @p b are the same number or the same text. */
static bool same_value(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b);
    return json_is_string(a) && json_is_string(b) && strcmp(json_string_value(a), json_string_value(b)) == 0;
}

/* TCO texts as JSON prints them (16 digits): what "reproduces" and "holds" mean. */
static bool same_printed(double a, double b)
{
    char x[40], y[40];
    snprintf(x, sizeof x, "%.16G", a);
    snprintf(y, sizeof y, "%.16G", b);
    return strcmp(x, y) == 0;
}

/* The number input @p it of @p m holds in row @p r (-1 for a single value), in the units --set takes: for
 * a money input of a run in another currency (in_report) its CNY value, the JSON's "given". */
static double held_number(const tco_item *it, int r)
{
    if (it->in_report)
        return r >= 0 ? it->base_tiers[r] : it->base_value;
    return r >= 0 ? it->tiers[r] : it->value;
}

/* True when input @p it of @p m (row @p tier, or NULL) holds JSON value @p v (as entry_values() gives it):
 * the same text, or a number the JSON prints as @p v (16 digits, which do not always pin a double down:
 * the model's own value is then kept). */
static bool model_holds(const tco_model *m, const tco_item *it, const char *tier, const json_t *v)
{
    int r = tco_model_tier_row(m, tier);
    if (tier && r < 0)
        return false;
    const char *text = tier ? (it->tier_texts ? it->tier_texts[r] : NULL) : it->text;
    if (text)
        return json_is_string(v) && strcmp(text, json_string_value(v)) == 0;
    return json_is_number(v) && same_printed(json_number_value(v), held_number(it, r));
}

/* The value input @p name (row @p tier, or NULL) of @p m holds, as a new JSON value in *@p out (for a
 * money input in another currency its CNY value, as set_value() takes it). */
static tco_error model_value(const tco_model *m, const char *name, const char *tier, json_t **out, tco_diag *d)
{
    const tco_item *it = &m->items[tco_model_find(m, name)]; /* find_changes() found it */
    int r = tco_model_tier_row(m, tier);
    const char *text = tier ? (it->tier_texts ? it->tier_texts[r] : NULL) : it->text;
    *out = text ? json_string(text) : json_real(held_number(it, r));
    return *out ? TCO_OK : oom(d);
}

/*
 * The values of input @p name's @p entry in version @p v that model input @p it is compared and set by:
 * "value" and "by_tier", but for a money input of a run in another currency (in_report) "given" and
 * "given_by_tier", its value in CNY as --set takes it (the JSON's "value" is that over fx_report, so
 * every money value moves with the rate: the rate is its own step).  Borrowed; either may be NULL
 * when the entry has none.  Errors: TCO_ERR_INI for a money input without its CNY value.
 */
static tco_error entry_values(const version *v, const char *name, const json_t *entry, const tco_item *it,
                              json_t **value, json_t **rows, tco_diag *d)
{
    *value = json_object_get(entry, it->in_report ? "given" : "value");
    *rows = json_object_get(entry, it->in_report ? "given_by_tier" : "by_tier");
    if (it->in_report && *value == NULL && *rows == NULL)
        return tco_diag_at(d, TCO_ERR_INI, &(tco_place){.file = v->path},
                           "inputs.%s: a money input of a run in %s without \"%s\", its value "
                           "in CNY (the JSON of an older tco): run it again, or bridge two runs in CNY",
                           name, v->currency, it->kind == TCO_ITEM_TIER_INPUT ? "given_by_tier" : "given");
    return TCO_OK;
}

/* Text of JSON value @p v for messages and --set values: the text, or the shortest number. */
static const char *value_text(const json_t *v, char buf[32])
{
    if (json_is_string(v))
        return json_string_value(v);
    tco_format_double(json_number_value(v), buf);
    return buf;
}

/* The unit of money input @p it's CNY value, the catalog's ("CNY/kWh"), from its unit in the reporting
 * currency @p unit ("USD/kWh"): tco_model_set_currency() wrote the code over the catalog's CNY. */
static char *given_unit(const tco_item *it, const char *unit)
{
    if (!it->in_report || strlen(unit) < 3)
        return tco_strdup(unit);
    tco_strbuf u = {0};
    tco_strbuf_printf(&u, "CNY%s", unit + 3);
    return tco_strbuf_take(&u);
}

/* Check number @p v for model input @p it (named @p name, row @p tier or NULL) in the units --set takes, as
 * --set checks it (tco_input_number()): within the bounds (for a money input of a run in another currency
 * its CNY bounds) and whole if it must be; an error names @p file, the input, the bounds and the unit
 * ("expected a number >= 0 CNY/kWh, found -1"). */
static tco_error check_given(const tco_item *it, const char *file, const char *name, const char *tier, double v,
                             tco_diag *d)
{
    tco_item given = *it; /* a view of the input in the units --set takes: only its bounds and unit differ */
    if (it->in_report) {
        given.min = it->base_min;
        given.max = it->base_max;
    }
    char *unit = given_unit(it, it->unit ? it->unit : "");
    tco_strbuf place = {0}; /* the input in the file, as the place's part */
    tco_strbuf_printf(&place, "inputs.%s%s%s%s", name, tier ? " [" : "", tier ? tier : "", tier ? "]" : "");
    if (unit == NULL || place.failed) {
        free(unit);
        tco_strbuf_free(&place);
        return oom(d);
    }
    given.unit = unit;
    char text[32];
    double parsed;
    tco_format_double(v, text);
    tco_error e =
        tco_input_number(&given, &(tco_place){.file = file, .part = tco_strbuf_str(&place)}, text, &parsed, d);
    free(unit);
    tco_strbuf_free(&place);
    return e;
}

/* Set input @p name (row @p tier, or NULL) of @p m to JSON value @p v (as entry_values() gives it),
 * through the model's API; an error names @p file, the input and the value. */
static tco_error set_value(tco_model *m, const char *file, const char *name, const char *tier, const json_t *v,
                           tco_diag *d)
{
    tco_diag why = {0};
    tco_error e;
    int idx = tco_model_find(m, name);
    /* A number in the units --set takes: CNY for a money input, the rate for fx_report (which converts
     * every money input again), refused as --set refuses it. */
    if (json_is_number(v) && idx >= 0 &&
        (e = check_given(&m->items[idx], file, name, tier, json_number_value(v), d)) != TCO_OK)
        return e;
    if (json_is_number(v))
        e = tco_model_set_given_input(m, name, tier, json_number_value(v), &why);
    else if (tier)
        e = tco_diag_set(&why, TCO_ERR_INI, "a text row cannot be set on a loaded model");
    else
        e = tco_model_set_text_input(m, name, json_string_value(v), &why);
    if (e == TCO_OK)
        return TCO_OK;
    char buf[32];
    return tco_diag_at(d, e == TCO_ERR_NOMEM ? e : TCO_ERR_INI, &(tco_place){.file = file},
                       "inputs.%s%s%s%s = %s: the model refuses it: %s", name, tier ? " [" : "", tier ? tier : "",
                       tier ? "]" : "", value_text(v, buf), why.message);
}

/* The members of an input entry whose keys are tier codes. */
static const char *const tier_members[] = {"by_tier", "given_by_tier", "set_by_tier", "range_by_tier", NULL};

/* @p obj with each key in its canonical spelling (a new reference; NULL when out of memory): the model's
 * (an input's name, a tier's code) when the model has it, else the spelling of the same key in @p other
 * (OLD's object, NULL for OLD itself), else as written.  The file names no key twice in the canonical
 * spelling (check_keys_once()), so no two keys become one. */
static json_t *canonical_keys(const tco_model *m, json_t *obj, json_t *other, bool tiers)
{
    json_t *out = json_object(), *value;
    const char *key;
    json_object_foreach(obj, key, value) {
        const char *canon = key;
        int at = tiers ? tco_model_tier_row(m, key) : tco_model_find(m, key);
        if (at >= 0)
            canon = tiers ? m->tier_names[at] : m->items[at].name;
        else if (other) {
            const char *k2;
            json_t *v2;
            json_object_foreach(other, k2, v2) {
                if (same_name(k2, key, tiers) == 0) {
                    canon = k2;
                    break;
                }
            }
        }
        if (out == NULL || json_object_set(out, canon, value) != 0) {
            json_decref(out);
            return NULL;
        }
    }
    return out;
}

/* Put the keys of version @p v (the input names and the tier codes of each input) in their canonical
 * spelling (canonical_keys()), so that both files and the model name an input or a tier alike: "PUE" in
 * NEW is OLD's "pue", "c30" the catalog's "C30", not two entries.  @p old: OLD's version when @p v is NEW. */
static tco_error canonical_version(const tco_model *m, version *v, const version *old, tco_diag *d)
{
    json_t *inputs = canonical_keys(m, v->inputs, old ? old->inputs : NULL, false);
    if (inputs == NULL || json_object_set_new(v->doc, "inputs", inputs) != 0)
        return oom(d);
    v->inputs = inputs;
    const char *name;
    json_t *entry;
    json_object_foreach(v->inputs, name, entry) {
        if (!json_is_object(entry))
            continue;
        for (size_t k = 0; tier_members[k]; k++) {
            json_t *rows = json_object_get(entry, tier_members[k]);
            if (!json_is_object(rows))
                continue;
            json_t *other = old ? json_object_get(json_object_get(old->inputs, name), tier_members[k]) : NULL;
            json_t *renamed = canonical_keys(m, rows, json_is_object(other) ? other : NULL, true);
            if (renamed == NULL || json_object_set_new(entry, tier_members[k], renamed) != 0)
                return oom(d);
        }
    }
    return TCO_OK;
}

/* The structural inputs moved to NEW's value in a reload (names borrowed from the model's JSON). */
typedef struct shape {
    const char *moved[BRIDGE_MAX_SHAPE];
    size_t n;
} shape;

static bool shape_moved(const shape *s, const char *name)
{
    for (size_t i = 0; s && i < s->n; i++)
        if (strcmp(s->moved[i], name) == 0)
            return true;
    return false;
}

/*
 * Load OLD's scenario as a run (run.h) reported in OLD's currency, as tco --currency does, and set it to a
 * version: the structural inputs at NEW's value when @p s names them, else at OLD's (given with --set
 * SECTION.KEY=VALUE, the JSON's `set`, and reloaded: they fix the model's shape); every other input at
 * @p values' value, through the model's API.  *@p out is the run (NULL on error).
 */
static tco_error load_state(ctx *c, const version *values, const shape *s, tco_run **out)
{
    *out = NULL;
    tco_run *run = NULL;
    tco_override sets[BRIDGE_MAX_SHAPE];
    char args[BRIDGE_MAX_SHAPE][700];
    const char *set_input[BRIDGE_MAX_SHAPE];  /* the input each --set gives */
    const version *set_from[BRIDGE_MAX_SHAPE]; /* the file whose value it is */
    size_t n_sets = 0;
    tco_model *m = NULL;
    tco_error e = TCO_OK;
    for (int pass = 0; pass < 2; pass++) {
        /* CNY is the catalog's own: no rates are read for it. */
        tco_run_options ro = {.root = c->req->root, .scenario_path = c->spath,
                              .load = {.overrides = sets, .n_overrides = n_sets},
                              .currency = strcmp(c->old.currency, "CNY") == 0 ? NULL : c->old.currency};
        if ((e = tco_run_open(&ro, &run, c->d)) != TCO_OK) {
            /* A value the loader refuses is the file's: named by the file and its key, not by a --set the
             * user never typed (the loader names it by its --set, section and key). */
            for (size_t i = 0; i < n_sets && c->d && c->d->file[0] == '\0'; i++) {
                const char *text = NULL;
                if (c->d->text > 0 && strcasecmp(sets[i].section, c->d->section) == 0 &&
                    strcasecmp(sets[i].key, c->d->key) == 0)
                    text = c->d->message + c->d->text; /* the place as data: the text after it */
                if (text == NULL)
                    continue;
                char copy[TCO_DIAG_MAX], key[TCO_NAME_MAX_LEN + 16];
                snprintf(copy, sizeof copy, "%s", text);
                snprintf(key, sizeof key, "inputs.%s", set_input[i]);
                e = tco_diag_at(c->d, e, AT_KEY(set_from[i], key), "%s", copy);
                break;
            }
            break;
        }
        m = run->model;
        /* Once, at the first model loaded: both files' names in the model's spelling, before any is looked up. */
        if (!c->canonical && ((e = canonical_version(m, &c->old, NULL, c->d)) != TCO_OK ||
                              (e = canonical_version(m, &c->new_, &c->old, c->d)) != TCO_OK))
            break;
        c->canonical = true;
        size_t wanted = 0;
        for (size_t i = 0; i < m->n_items && e == TCO_OK; i++) {
            const tco_item *it = &m->items[i];
            if (it->kind != TCO_ITEM_INPUT || !it->structural)
                continue;
            const version *from = shape_moved(s, it->name) ? &c->new_ : &c->old;
            json_t *entry = json_object_get(from->inputs, it->name), *v = json_object_get(entry, "value");
            if (v == NULL || model_holds(m, it, NULL, v))
                continue;
            wanted++;
            json_t *set = json_object_get(entry, "set");
            const char *key = json_is_string(set) ? json_string_value(set) : it->set_key;
            char buf[32];
            if (pass == 1 || key == NULL || n_sets == BRIDGE_MAX_SHAPE)
                e = tco_diag_at(c->d, TCO_ERR_INI, &(tco_place){.file = from->path},
                                "inputs.%s = %s sets the model's shape, and %s", it->name, value_text(v, buf),
                                pass == 1 ? "loading the model with it gives another value: the template changed"
                                          : "no --set key gives it (no \"set\" in the JSON, none in the template)");
            else {
                char shown_key[TCO_NAME_MAX_LEN + 16];
                snprintf(shown_key, sizeof shown_key, "inputs.%s", it->name);
                int len = snprintf(args[n_sets], sizeof args[n_sets], "%s=%s", key, value_text(v, buf));
                tco_diag why = {0};
                if (len < 0 || (size_t)len >= sizeof args[n_sets] ||
                    tco_override_parse(args[n_sets], &sets[n_sets], &why) != TCO_OK)
                    e = tco_diag_at(c->d, TCO_ERR_INI, AT_KEY(from, shown_key),
                                    "%s sets the model's shape, given as --set %s=VALUE, and that cannot take %s: "
                                    "expected a --set key SECTION.KEY of at most 127 bytes each side and a value of "
                                    "at most 511 bytes", it->name, TCO_SHOWN(key), TCO_SHOWN(value_text(v, buf)));
                set_input[n_sets] = json_object_iter_key(json_object_iter_at(from->inputs, it->name));
                set_from[n_sets] = from;
                n_sets++;
            }
        }
        if (e != TCO_OK || wanted == 0)
            break;
        tco_run_free(run);
        run = NULL;
        m = NULL;
    }
    /* Every other input at the version's value, in the JSON's order. */
    const char *name;
    json_t *entry;
    json_object_foreach(values->inputs, name, entry) {
        if (e != TCO_OK)
            break;
        int idx = tco_model_find(m, name);
        if (idx < 0 || (m->items[idx].kind != TCO_ITEM_INPUT && m->items[idx].kind != TCO_ITEM_TIER_INPUT) ||
            m->items[idx].structural)
            continue; /* not in the model (reported by the caller), or set above */
        const tco_item *it = &m->items[idx];
        json_t *v = NULL, *by_tier = NULL;
        if ((e = entry_values(values, name, entry, it, &v, &by_tier, c->d)) != TCO_OK)
            break;
        if (it->kind == TCO_ITEM_INPUT && v && !model_holds(m, it, NULL, v))
            e = set_value(m, values->path, name, NULL, v, c->d);
        const char *tier;
        json_t *row;
        if (it->kind == TCO_ITEM_TIER_INPUT && by_tier)
            json_object_foreach(by_tier, tier, row) {
                if (e == TCO_OK && tco_model_tier_row(m, tier) >= 0 && json_is_number(row) && !model_holds(m, it, tier, row))
                    e = set_value(m, values->path, name, tier, row, c->d);
            }
    }
    if (e != TCO_OK) {
        tco_run_free(run);
        return e;
    }
    *out = run;
    return TCO_OK;
}

/* ---- the bridge ------------------------------------------------------------------------------ */

static tco_error add_other(tco_bridge *b, const char *kind, const char *input, tco_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static tco_error add_other(tco_bridge *b, const char *kind, const char *input, tco_diag *d, const char *fmt, ...)
{
    /* Entries about one input each are as many as a file has inputs: the first TCO_BRIDGE_MAX_OTHER are
     * listed, the rest counted (a "not_listed" entry says how many); the entries about the files and the
     * structural steps (at most BRIDGE_MAX_SHAPE) always are.  The list grows by doubling. */
    bool one_input = input && strcmp(kind, "structural") != 0;
    if (one_input && b->other_inputs >= TCO_BRIDGE_MAX_OTHER) {
        b->other_unlisted++;
        return TCO_OK;
    }
    if (b->n_other == b->other_cap) {
        size_t cap = b->other_cap ? 2 * b->other_cap : 16;
        tco_bridge_other *grown = realloc(b->other, cap * sizeof *grown);
        if (grown == NULL)
            return oom(d);
        b->other = grown;
        b->other_cap = cap;
    }
    tco_bridge_other *o = &b->other[b->n_other];
    tco_strbuf msg = {0};
    va_list ap;
    va_start(ap, fmt);
    tco_strbuf_vprintf(&msg, fmt, ap);
    va_end(ap);
    o->kind = kind;
    o->input = input ? tco_strdup(input) : NULL;
    o->message = tco_strbuf_take(&msg);
    b->n_other++;
    b->other_inputs += one_input;
    return o->message == NULL || (input && o->input == NULL) ? oom(d) : TCO_OK;
}

/* "NAME" or "NAME [TIER]" into @p out. */
static const char *input_label(const char *name, const char *tier, tco_strbuf *out)
{
    out->len = 0;
    tco_strbuf_printf(out, tier ? "%s [%s]" : "%s", name, tier ? tier : "");
    return tco_strbuf_str(out);
}

/* The differences of the two files that are not inputs: scenario, template, currency. */
static tco_error compare_headers(ctx *c, const tco_model *m)
{
    tco_bridge *b = c->b;
    tco_error e = TCO_OK;
    if (strcmp(c->old.scenario, c->new_.scenario) != 0)
        e = add_other(b, "scenario_changed", NULL, c->d, "the scenario differs: %s in %s, %s in %s; the bridge starts "
                      "from %s's scenario file and moves its inputs to %s's values", c->old.scenario, c->old.path,
                      c->new_.scenario, c->new_.path, c->old.path, c->new_.path);
    char now[17];
    snprintf(now, sizeof now, "%016llx", (unsigned long long)m->template_fingerprint);
    const version *vs[2] = {&c->old, &c->new_};
    for (int k = 0; k < 2 && e == TCO_OK; k++) {
        const version *v = vs[k];
        if (v->template_fingerprint == NULL)
            e = add_other(b, "template_unknown", NULL, c->d, "%s names no template fingerprint (written before tco "
                          "recorded one): whether the template changed since is not known", v->path);
        else if (strcmp(v->template_fingerprint, now) != 0 || strcmp(v->template_file, m->template_file) != 0)
            e = add_other(b, "template_changed", NULL, c->d, "the template changed since %s was written: it names %s "
                          "(fingerprint %s), the model now loads %s (fingerprint %s)", v->path, v->template_file,
                          v->template_fingerprint, m->template_file, now);
    }
    return e;
}

/* The input of @p m named @p name (a single or per-tier input), or NULL. */
static const tco_item *model_input(const tco_model *m, const char *name)
{
    int idx = tco_model_find(m, name);
    const tco_item *it = idx >= 0 ? &m->items[idx] : NULL;
    return it && (it->kind == TCO_ITEM_INPUT || it->kind == TCO_ITEM_TIER_INPUT) ? it : NULL;
}

/* True when @p name is the rate of a vendor quote's currency (fx_usd, ...: pricing.c adds one per currency
 * quoted in a run with --quotes; a template cannot name an input fx_...), not the reporting rate. */
static bool quote_rate(const tco_model *m, const char *name)
{
    return strncmp(name, "fx_", 3) == 0 && strcasecmp(name, TCO_FX_REPORT) != 0 && model_input(m, name) == NULL;
}

/* A quote rate @p name that differs between the files, or is in one only (@p eo, @p en: its entries, or
 * NULL): said as such, since the model tco diff loads has no quotes and so no such input. */
static tco_error quote_rate_other(ctx *c, const char *name, const json_t *eo, const json_t *en)
{
    char a[32], b[32];
    const json_t *vo = json_object_get(eo, "value"), *vn = json_object_get(en, "value");
    if (eo && en && same_value(vo, vn))
        return TCO_OK;
    tco_strbuf where = {0};
    if (eo && en)
        tco_strbuf_printf(&where, "%s in %s, %s in %s", json_is_number(vo) ? value_text(vo, a) : "?", c->old.path,
                          json_is_number(vn) ? value_text(vn, b) : "?", c->new_.path);
    else
        tco_strbuf_printf(&where, "in %s only", eo ? c->old.path : c->new_.path);
    tco_error e = where.failed ? oom(c->d)
                               : add_other(c->b, "quote_rate", name, c->d, "%s (%s) is the exchange rate of a vendor "
                                           "quote's currency, an input only of a run with --quotes; tco diff loads the "
                                           "scenario without quotes, so no step moves it: the prices the quotes gave "
                                           "are inputs of the files, and a price that moved with the rate is a step of "
                                           "its own", name, tco_strbuf_str(&where));
    tco_strbuf_free(&where);
    return e;
}

/* Compare the inputs of the two files: the changes to step through into @p out (heap), the structural
 * changes into @p s, the rest as other entries. */
static tco_error find_changes(ctx *c, const tco_model *m, change **out, size_t *n_out, shape *s)
{
    tco_bridge *b = c->b;
    change *v = NULL;
    size_t n = 0, cap = 0;
    tco_error e = TCO_OK;
    tco_strbuf lab = {0};
    const char *name;
    json_t *eo;
    json_object_foreach(c->old.inputs, name, eo) {
        if (e != TCO_OK)
            break;
        json_t *en = json_object_get(c->new_.inputs, name);
        const tco_item *it = model_input(m, name);
        if (quote_rate(m, name)) {
            e = quote_rate_other(c, name, eo, en);
            continue;
        }
        if (en == NULL) {
            e = add_other(b, "only_in_old", name, c->d, "%s is an input of %s only: it keeps %s's value", name,
                          c->old.path, c->old.path);
            continue;
        }
        if (it == NULL) {
            e = add_other(b, "not_in_model", name, c->d, "%s is an input of both files, but the model has no such "
                          "input now: it cannot be moved", name);
            continue;
        }
        json_t *vo, *vn, *to, *tn;
        if ((e = entry_values(&c->old, name, eo, it, &vo, &to, c->d)) != TCO_OK ||
            (e = entry_values(&c->new_, name, en, it, &vn, &tn, c->d)) != TCO_OK)
            break;
        bool tiered = it->kind == TCO_ITEM_TIER_INPUT;
        if ((tiered && (to == NULL || tn == NULL)) || (!tiered && (vo == NULL || vn == NULL)) ||
            (!tiered && json_is_string(vo) != json_is_string(vn))) {
            e = add_other(b, "type_changed", name, c->d, "%s has another kind of value in the two files (a %s in the "
                          "model): it cannot be moved", name, tiered ? "per-tier input" : "single value");
            continue;
        }
        const char *row_name = NULL; /* the tier row of this change, NULL for a single value */
        json_t *pair[2] = {vo, vn};
        const char *tier = NULL;
        json_t *row;
        void *iter = tiered ? json_object_iter(to) : NULL;
        /* One pass for a single value; one per OLD tier row for a per-tier input. */
        for (bool more = true; more && e == TCO_OK;) {
            if (tiered) {
                if (iter == NULL)
                    break;
                tier = json_object_iter_key(iter);
                row = json_object_iter_value(iter);
                iter = json_object_iter_next(to, iter);
                pair[0] = row;
                pair[1] = json_object_get(tn, tier);
                row_name = tier;
                const char *shown = input_label(name, tier, &lab);
                if (pair[1] == NULL) {
                    e = add_other(b, "only_in_old", shown, c->d, "tier %s of %s is in %s only: it keeps its value",
                                  tier, name, c->old.path);
                    continue;
                }
                if (same_value(pair[0], pair[1]))
                    continue;
                if (tco_model_tier_row(m, tier) < 0) {
                    e = add_other(b, "not_in_model", shown, c->d, "the tier catalog has no tier %s now: %s cannot be "
                                  "moved", tier, shown);
                    continue;
                }
                if (!json_is_number(pair[0]) || !json_is_number(pair[1])) {
                    char b0[32], b1[32];
                    e = add_other(b, "not_settable", shown, c->d, "%s differs (%s in %s, %s in %s), and a text row of "
                                  "the tier table cannot be set on a loaded model: it is not moved", shown,
                                  value_text(pair[0], b0), c->old.path, value_text(pair[1], b1), c->new_.path);
                    continue;
                }
            } else {
                more = false;
                if (same_value(vo, vn))
                    break;
                if (it->structural) {
                    if (s->n == BRIDGE_MAX_SHAPE)
                        e = tco_diag_at(c->d, TCO_ERR_INI, &(tco_place){.file = c->new_.path},
                                        "more than %d structural inputs differ", BRIDGE_MAX_SHAPE);
                    else
                        s->moved[s->n++] = name;
                    break;
                }
            }
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                change *g = realloc(v, cap * sizeof *g);
                if (g == NULL) {
                    e = oom(c->d);
                    break;
                }
                v = g;
            }
            v[n] = (change){.name = name, .tier = row_name, .from = pair[0], .to = pair[1], .entry = en, .it = it,
                            .index = n};
            n++;
        }
    }
    json_t *en;
    json_object_foreach(c->new_.inputs, name, en) {
        if (e != TCO_OK)
            break;
        json_t *eo2 = json_object_get(c->old.inputs, name);
        if (eo2 == NULL && quote_rate(m, name))
            e = quote_rate_other(c, name, NULL, en);
        else if (eo2 == NULL)
            e = add_other(b, "only_in_new", name, c->d, "%s is an input of %s only: no step moves it", name,
                          c->new_.path);
        /* The rows compared: by_tier, or for a money input of a run in another currency given_by_tier (as
         * the loop over OLD's inputs took them, which checked both entries). */
        json_t *to = json_object_get(eo2, "by_tier"), *tn = json_object_get(en, "by_tier"), *unused;
        const tco_item *it = model_input(m, name);
        if (e == TCO_OK && eo2 && it && it->kind == TCO_ITEM_TIER_INPUT &&
            (e = entry_values(&c->old, name, eo2, it, &unused, &to, c->d)) == TCO_OK)
            e = entry_values(&c->new_, name, en, it, &unused, &tn, c->d);
        const char *tier;
        json_t *row;
        if (eo2 && to && tn)
            json_object_foreach(tn, tier, row) {
                if (e == TCO_OK && json_object_get(to, tier) == NULL)
                    e = add_other(b, "only_in_new", input_label(name, tier, &lab), c->d, "tier %s of %s is in %s "
                                  "only: no step moves it", tier, name, c->new_.path);
            }
    }
    for (size_t i = 0; i < m->n_items && e == TCO_OK; i++) {
        const tco_item *it = &m->items[i];
        if ((it->kind == TCO_ITEM_INPUT || it->kind == TCO_ITEM_TIER_INPUT) &&
            json_object_get(c->old.inputs, it->name) == NULL)
            e = add_other(b, "not_in_old", it->name, c->d, "the model has an input %s that %s does not name: it "
                          "keeps the value the files give it now", it->name, c->old.path);
    }
    tco_strbuf_free(&lab);
    *out = v;
    *n_out = n;
    return e;
}

/* Largest absolute effect first; ties in file order. */
static int by_effect(const void *pa, const void *pb)
{
    const change *a = pa, *b = pb;
    double x = fabs(a->alone), y = fabs(b->alone);
    if (x != y)
        return x > y ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* The TCO of @p m, or an error naming @p what. */
static tco_error tco_of(const tco_model *m, const char *what, double *v, tco_diag *d)
{
    if (tco_model_role_value(m, m->role_tco, v))
        return TCO_OK;
    return tco_diag_set(d, TCO_ERR_EVAL, "%s: the model gives no TCO (no [model] tco line, or it has no number)",
                        what);
}

/* Append the next step to the bridge: input @p it of the model (@p name; row ch->tier for change
 * @p ch, or NULL for a structural step) moved from @p from to @p to, TCO after it @p t. */
static tco_error add_step(tco_bridge *b, const change *ch, const tco_item *it, const char *name, const json_t *from,
                          const json_t *to, const json_t *entry, double alone, double t, bool structural, tco_diag *d)
{
    tco_bridge_step *s = &b->steps[b->n_steps];
    memset(s, 0, sizeof *s);
    double before = b->n_steps ? b->steps[b->n_steps - 1].tco : b->tco_from;
    json_t *set = json_object_get(entry, "set"), *set_tier = json_object_get(entry, "set_by_tier");
    const char *tier = ch ? ch->tier : NULL;
    if (tier)
        set = json_object_get(set_tier, tier);
    const char *label = json_string_value(json_object_get(entry, "label")),
               *unit = json_string_value(json_object_get(entry, "unit"));
    s->input = tco_strdup(name);
    s->tier = tier ? tco_strdup(tier) : NULL;
    s->set = json_is_string(set) ? tco_strdup(json_string_value(set)) : NULL;
    s->label = tco_strdup(label ? label : name);
    s->unit = given_unit(it, unit ? unit : "");
    if (json_is_string(from)) {
        s->from_text = tco_strdup(json_string_value(from));
        s->to_text = tco_strdup(json_string_value(to));
    } else {
        s->from = json_number_value(from);
        s->to = json_number_value(to);
    }
    s->tco = t;
    s->delta = t - before;
    s->alone = structural ? s->delta : alone;
    s->structural = structural;
    b->n_steps++;
    bool lost = s->input == NULL || (tier && s->tier == NULL) || (json_is_string(set) && s->set == NULL) ||
                s->label == NULL || s->unit == NULL || (json_is_string(from) && (!s->from_text || !s->to_text));
    return lost ? oom(d) : TCO_OK;
}

/* A difference of two TCOs for a message, with its sign: to the cent ("+12.50"), or past 10^15 (a
 * hand-edited figure) to 6 significant digits ("-1e+308"), never a double's 309 digits. */
static const char *signed_figure(double v, char out[48])
{
    snprintf(out, 48, fabs(v) < 1e15 ? "%+.2f" : "%+.6g", v);
    return out;
}

/* Report each money input of version @p v whose value (in the reporting currency) is not the model's, its
 * given (CNY) over fx_report, when @p m holds the version's given and rate: a value edited by hand, which
 * the bridge does not compare (it moves money by given). */
static tco_error check_values(ctx *c, const version *v, const tco_model *m)
{
    const tco_item *rate = model_input(m, TCO_FX_REPORT);
    json_t *fx = json_object_get(json_object_get(v->inputs, TCO_FX_REPORT), "value");
    if (rate == NULL || !model_holds(m, rate, NULL, fx))
        return TCO_OK;
    tco_error e = TCO_OK;
    tco_strbuf lab = {0};
    const char *name;
    json_t *entry;
    json_object_foreach(v->inputs, name, entry) {
        const tco_item *it = model_input(m, name);
        if (e != TCO_OK || it == NULL || !it->in_report)
            continue;
        json_t *given = json_object_get(entry, "given"), *value = json_object_get(entry, "value");
        json_t *rows = json_object_get(entry, "given_by_tier"), *values = json_object_get(entry, "by_tier");
        const char *tier;
        void *iter = it->kind == TCO_ITEM_TIER_INPUT ? json_object_iter(rows) : NULL;
        /* One pass for a single value; one per given_by_tier row for a per-tier input. */
        for (bool more = it->kind == TCO_ITEM_INPUT; (more || iter) && e == TCO_OK; more = false) {
            tier = NULL;
            if (iter) {
                tier = json_object_iter_key(iter);
                given = json_object_iter_value(iter);
                value = json_object_get(values, tier);
                iter = json_object_iter_next(rows, iter);
            }
            int r = tco_model_tier_row(m, tier);
            if (!json_is_number(value) || !json_is_number(given) || (tier && r < 0) || !model_holds(m, it, tier, given))
                continue;
            double now = r >= 0 ? it->tiers[r] : it->value;
            if (same_printed(json_number_value(value), now))
                continue;
            char a[32], g[32], f[32], w[32];
            char *unit = given_unit(it, it->unit ? it->unit : "");
            tco_format_double(now, w);
            const char *shown = input_label(name, tier, &lab);
            e = unit == NULL ? oom(c->d)
                             : add_other(c->b, "value_not_given", shown, c->d, "%s: inputs.%s: value %s (%s) is not "
                                         "its given %s %s over fx_report %s, which is %s: edited by hand? tco diff "
                                         "compares and moves money inputs by given (the value in CNY), so it does not "
                                         "use this value", v->path, shown, value_text(value, a), it->unit,
                                         value_text(given, g), unit, value_text(fx, f), w);
            free(unit);
        }
    }
    tco_strbuf_free(&lab);
    return e;
}

/* Whether the model @p m, as the bridge evaluated it for side @p side (0 OLD, 1 NEW), passes its master
 * check, and the warning of each failing check when it does not (bridge.h, feasible). */
static tco_error judge_feasible(tco_bridge *b, int side, const tco_model *m, tco_diag *d)
{
    b->feasible[side] = -1;
    if (m == NULL || m->n_checks == 0)
        return TCO_OK;
    const tco_item *master = &m->items[m->checks[0]];
    b->feasible[side] = master->text == NULL && master->value == 1;
    if (b->feasible[side])
        return TCO_OK;
    for (size_t i = 0; i <= m->n_items; i++) {
        tco_strbuf t = {0};
        const char *check = NULL;
        if (i < m->n_items && tco_report_warning_text(m, i, &t))
            check = m->items[i].name;
        else if (i == m->n_items && b->n_reasons[side] == 0) { /* a gate without a warning: its label */
            tco_strbuf_printf(&t, "%s: no", master->label);
            check = master->name;
        }
        if (check == NULL) {
            tco_strbuf_free(&t);
            continue;
        }
        tco_bridge_reason *grown = realloc(b->reasons[side], (b->n_reasons[side] + 1) * sizeof *grown);
        char *text = tco_strbuf_take(&t), *name = tco_strdup(check);
        if (grown)
            b->reasons[side] = grown;
        if (grown == NULL || text == NULL || name == NULL) {
            free(text);
            free(name);
            return oom(d);
        }
        b->reasons[side][b->n_reasons[side]++] = (tco_bridge_reason){name, text};
    }
    return TCO_OK;
}

static tco_error run(ctx *c)
{
    tco_bridge *b = c->b;
    tco_diag *d = c->d;
    tco_error e;
    if (strcmp(c->old.currency, c->new_.currency) != 0)
        return tco_diag_set(d, TCO_ERR_INI, "%s is in %s and %s in %s: tco diff bridges two runs in one currency; "
                            "run both with the same --currency", c->old.path, c->old.currency, c->new_.path,
                            c->new_.currency);
    /* Both scenario names are names (check_texts()). */
    tco_strbuf rel = {0};
    tco_strbuf_printf(&rel, "scenarios/%s.ini", c->old.scenario);
    c->spath = rel.failed ? NULL : tco_path_join(c->req->root, tco_strbuf_str(&rel));
    tco_strbuf_free(&rel);
    if (c->spath == NULL)
        return oom(d);
    struct stat st;
    if (stat(c->spath, &st) != 0)
        return tco_diag_at(d, TCO_ERR_NOINPUT, &(tco_place){.file = c->old.path},
                           "cannot open %s, the scenario %s names: %s (give --root DIR, the "
                           "project that ran it)",
                           c->spath, c->old.path, strerror(errno));
    /* A question or a comparison is not a scenario: said as --scenario says it, naming the file. */
    if (tco_scenario_file_is_question(c->spath))
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(&c->old, "scenario"),
                           "%s is a question ([advise] section), not a scenario: run it with tco advise %s; tco diff "
                           "takes two summaries of one scenario's runs, tco --scenario NAME --format json",
                           c->spath, c->old.scenario);
    if (tco_scenario_file_is_comparison(c->spath))
        return tco_diag_at(d, TCO_ERR_INI, AT_KEY(&c->old, "scenario"),
                           "%s is a comparison ([compare] section), not a scenario: run it with tco --compare %s; "
                           "tco diff takes two summaries of one scenario's runs, tco --scenario NAME --format json",
                           c->spath, c->old.scenario);
    if ((b->old_path = tco_strdup(c->old.path)) == NULL || (b->new_path = tco_strdup(c->new_.path)) == NULL ||
        (b->scenario = tco_strdup(c->old.scenario)) == NULL || (b->new_scenario = tco_strdup(c->new_.scenario)) == NULL ||
        (b->title = tco_strdup(c->old.title)) == NULL || (b->currency = tco_strdup(c->old.currency)) == NULL)
        return oom(d);
    b->years = c->old.years;
    b->new_years = c->new_.years;
    b->order = c->req->order;
    b->tco_old = c->old.tco;
    b->tco_new = c->new_.tco;
    b->old_fingerprint = c->old.fingerprint;
    b->new_fingerprint = c->new_.fingerprint;

    tco_run *run = NULL;
    if ((e = load_state(c, &c->old, NULL, &run)) != TCO_OK)
        return e;
    tco_model *m = run->model;
    b->template_fingerprint = m->template_fingerprint;
    change *ch = NULL;
    size_t n = 0;
    shape s = {0};
    if ((b->template_file = tco_strdup(m->template_file)) == NULL)
        e = oom(d);
    if (e == TCO_OK)
        e = tco_of(m, c->old.path, &b->tco_from, d);
    if (e == TCO_OK)
        e = judge_feasible(b, 0, m, d);
    if (e == TCO_OK)
        e = compare_headers(c, m);
    /* Reproduced: the bridge starts from OLD's own figure (the same to 16 digits), so that the deltas add up
     * to the files' NEW - OLD. */
    if (e == TCO_OK && same_printed(b->tco_from, c->old.tco))
        b->tco_from = c->old.tco;
    else if (e == TCO_OK) {
        char x[32], y[32];
        tco_format_double(b->tco_from, x);
        tco_format_double(c->old.tco, y);
        char z[48];
        e = add_other(b, "old_not_reproduced", NULL, d, "%s's inputs give a TCO of %s now, and %s says %s (%s): the "
                      "model or the template changed since it was written; the steps start from %s", c->old.path, x,
                      c->old.path, y, signed_figure(b->tco_from - c->old.tco, z), x);
    }
    if (e == TCO_OK)
        e = check_values(c, &c->old, m);
    if (e == TCO_OK)
        e = find_changes(c, m, &ch, &n, &s);
    /* Each change's effect alone, moved from OLD and undone: the order of --order effect, and shown. */
    for (size_t i = 0; e == TCO_OK && i < n; i++) {
        double t = 0;
        json_t *held = NULL; /* the model's own value, put back exactly (a USD price is more than 16 digits) */
        if ((e = model_value(m, ch[i].name, ch[i].tier, &held, d)) == TCO_OK &&
            (e = set_value(m, c->new_.path, ch[i].name, ch[i].tier, ch[i].to, d)) == TCO_OK &&
            (e = tco_of(m, c->new_.path, &t, d)) == TCO_OK) {
            ch[i].alone = t - b->tco_from;
            e = set_value(m, c->old.path, ch[i].name, ch[i].tier, held, d);
        }
        json_decref(held);
    }
    if (e == TCO_OK && c->req->order == TCO_BRIDGE_ORDER_EFFECT && n > 1)
        qsort(ch, n, sizeof *ch, by_effect);
    if (e == TCO_OK && (b->steps = calloc(n + s.n + 1, sizeof *b->steps)) == NULL)
        e = oom(d);
    /* The steps, each one input moved on the one loaded model. */
    for (size_t i = 0; e == TCO_OK && i < n; i++) {
        double t = 0;
        if ((e = set_value(m, c->new_.path, ch[i].name, ch[i].tier, ch[i].to, d)) == TCO_OK &&
            (e = tco_of(m, c->new_.path, &t, d)) == TCO_OK)
            e = add_step(b, &ch[i], ch[i].it, ch[i].name, ch[i].from, ch[i].to, ch[i].entry, ch[i].alone, t, false,
                         d);
    }
    /* The structural inputs, last: the model loaded again with each moved to NEW's value in turn. */
    for (size_t k = 0; e == TCO_OK && k < s.n; k++) {
        tco_run_free(run);
        run = NULL;
        m = NULL;
        shape moved = {.n = k + 1};
        memcpy(moved.moved, s.moved, (k + 1) * sizeof *s.moved);
        double t = 0;
        const char *name = s.moved[k];
        json_t *en = json_object_get(c->new_.inputs, name);
        if ((e = load_state(c, &c->new_, &moved, &run)) == TCO_OK && (m = run->model) != NULL &&
            (e = tco_of(m, c->new_.path, &t, d)) == TCO_OK &&
            tco_model_find(m, name) < 0) /* load_state() moved it: the model has it */
            e = tco_diag_at(d, TCO_ERR_EVAL, &(tco_place){.file = c->new_.path},
                            "the model has no input %s after loading it again", name);
        if (e == TCO_OK)
            e = add_step(b, NULL, &m->items[tco_model_find(m, name)], name,
                         json_object_get(json_object_get(c->old.inputs, name), "value"), json_object_get(en, "value"),
                         en, 0, t, true, d);
    }
    if (e == TCO_OK && s.n > 0) { /* under other too: the order did not place these */
        for (size_t k = 0; e == TCO_OK && k < s.n; k++)
            e = add_other(b, "structural", s.moved[k], d, "%s sets the workbook's shape (structural): it cannot move "
                          "on a loaded model, so its step comes last, measured by loading the model again with %s's "
                          "value", s.moved[k], c->new_.path);
    }
    if (e == TCO_OK) /* the model now holds NEW's values, where the steps moved them */
        e = check_values(c, &c->new_, m);
    if (e == TCO_OK)
        e = judge_feasible(b, 1, m, d);
    b->tco_to = b->n_steps ? b->steps[b->n_steps - 1].tco : b->tco_from;
    if (e == TCO_OK && b->n_steps > 0 && same_printed(b->tco_to, c->new_.tco)) {
        /* Reproduced: the last step ends at NEW's own figure (the same to 16 digits). */
        tco_bridge_step *last = &b->steps[b->n_steps - 1];
        double before = b->n_steps > 1 ? b->steps[b->n_steps - 2].tco : b->tco_from;
        b->tco_to = last->tco = c->new_.tco;
        last->delta = last->tco - before;
        if (!last->structural && b->n_steps == 1)
            last->alone = last->delta;
    } else if (e == TCO_OK && !same_printed(b->tco_to, c->new_.tco)) {
        char x[32], y[32];
        tco_format_double(b->tco_to, x);
        tco_format_double(c->new_.tco, y);
        char z[48];
        e = add_other(b, "new_not_reproduced", NULL, d, "after the last step the TCO is %s, and %s says %s (%s): "
                      "what differs is listed above (or the model changed since %s was written)", x, c->new_.path, y,
                      signed_figure(b->tco_to - c->new_.tco, z), c->new_.path);
    }
    /* Exact: the deltas, added as doubles in step order (as a reader of the JSON adds them), give the
     * double TCO_to - TCO_from: each delta is a difference of two TCOs rounded to a double. */
    double sum = 0;
    for (size_t k = 0; k < b->n_steps; k++)
        sum += b->steps[k].delta;
    b->exact = sum == b->tco_to - b->tco_from;
    if (e == TCO_OK && !b->exact)
        e = add_other(b, "inexact", NULL, d, "the deltas, added in step order, give %.17G, and TCO_to - TCO_from is "
                      "%.17G: they differ by rounding doubles", sum, b->tco_to - b->tco_from);
    if (e == TCO_OK && b->other_unlisted > 0)
        e = add_other(b, "not_listed", NULL, d, "%zu further differences about one input each were found and counted "
                      "but not listed: a bridge lists the first %d", b->other_unlisted, TCO_BRIDGE_MAX_OTHER);
    free(ch);
    tco_run_free(run);
    return e;
}

tco_error tco_bridge_run(const tco_bridge_request *req, tco_bridge *out, tco_diag *diag)
{
    memset(out, 0, sizeof *out);
    ctx c = {.req = req, .b = out, .d = diag};
    tco_error e = read_version(req->old_path, &c.old, diag);
    if (e == TCO_OK)
        e = read_version(req->new_path, &c.new_, diag);
    if (e == TCO_OK)
        e = run(&c);
    json_decref(c.old.doc);
    json_decref(c.new_.doc);
    free(c.spath);
    return e;
}

void tco_bridge_free(tco_bridge *b)
{
    for (size_t k = 0; b->steps && k < b->n_steps; k++) {
        tco_bridge_step *s = &b->steps[k];
        free(s->input);
        free(s->tier);
        free(s->set);
        free(s->label);
        free(s->unit);
        free(s->from_text);
        free(s->to_text);
    }
    free(b->steps);
    for (size_t k = 0; k < b->n_other; k++) {
        free(b->other[k].input);
        free(b->other[k].message);
    }
    free(b->other);
    for (int side = 0; side < 2; side++) {
        for (size_t k = 0; k < b->n_reasons[side]; k++) {
            free(b->reasons[side][k].check);
            free(b->reasons[side][k].message);
        }
        free(b->reasons[side]);
    }
    free(b->old_path);
    free(b->new_path);
    free(b->scenario);
    free(b->new_scenario);
    free(b->title);
    free(b->currency);
    free(b->template_file);
    memset(b, 0, sizeof *b);
}
