/* bridge_report.c - what tco diff prints: the bridge as JSON and as the terminal's table, its warnings and
 * its period (bridge.h).  The bridge itself is computed in bridge.c, its workbook written in bridge_book.c. */
#include "apps/bridge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/text.h"
#include "base/utf8.h"
#include "render/report.h"

/* A number as the shortest text that reads back as the same double. */
static void json_exact(FILE *out, double v)
{
    char buf[32];
    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    tco_format_double(v, buf);
    fputs(buf, out);
}

static void json_value(FILE *out, const char *text, double v)
{
    if (text)
        tco_report_json_string(out, text);
    else
        json_exact(out, v);
}

static const char *order_name(tco_bridge_order o)
{
    return o == TCO_BRIDGE_ORDER_FILE ? "file" : "effect";
}

/* @p prefix (", \"key\": "), then @p s as a JSON string, or null. */
static void json_text(FILE *out, const char *prefix, const char *s)
{
    fputs(prefix, out);
    if (s)
        tco_report_json_string(out, s);
    else
        fputs("null", out);
}

void tco_bridge_print_json(const tco_bridge *b, FILE *out)
{
    json_text(out, "{\n  \"from\": ", b->old_path);
    json_text(out, ",\n  \"to\": ", b->new_path);
    json_text(out, ",\n  \"scenario\": ", b->scenario);
    json_text(out, ",\n  \"currency\": ", b->currency);
    /* The analysis period of each file (null when it gives none): the bridge's TCOs are over them. */
    const int yv[] = {b->years, b->new_years};
    for (int k = 0; k < 2; k++)
        fprintf(out, yv[k] > 0 ? ",\n  \"%s\": %d" : ",\n  \"%s\": null", k ? "years_new" : "years_old", yv[k]);
    fprintf(out, ",\n  \"order\": \"%s\"", order_name(b->order));
    /* Each side's master check as the bridge evaluated it, and why a side is not feasible. */
    for (int side = 0; side < 2; side++)
        fprintf(out, ",\n  \"feasible_%s\": %s", side ? "new" : "old",
                b->feasible[side] < 0 ? "null" : b->feasible[side] ? "true" : "false");
    for (int side = 0; side < 2; side++) {
        fprintf(out, ",\n  \"not_feasible_%s\": [", side ? "new" : "old");
        for (size_t k = 0; k < b->n_reasons[side]; k++) {
            json_text(out, k ? ", {\"check\": " : "{\"check\": ", b->reasons[side][k].check);
            json_text(out, ", \"message\": ", b->reasons[side][k].message);
            fputc('}', out);
        }
        fputc(']', out);
    }
    fprintf(out, ",\n  \"fingerprints\": {\"from\": \"%016llx\", \"to\": \"%016llx\", \"template\": \"%016llx\"}",
            (unsigned long long)b->old_fingerprint, (unsigned long long)b->new_fingerprint,
            (unsigned long long)b->template_fingerprint);
    const char *keys[] = {"tco_old", "tco_new", "tco_from", "tco_to", "difference"};
    const double vals[] = {b->tco_old, b->tco_new, b->tco_from, b->tco_to, b->tco_to - b->tco_from};
    for (int k = 0; k < 5; k++) {
        fprintf(out, ",\n  \"%s\": ", keys[k]);
        json_exact(out, vals[k]);
    }
    fprintf(out, ",\n  \"exact\": %s", b->exact ? "true" : "false");
    fputs(",\n  \"steps\": [", out);
    for (size_t k = 0; k < b->n_steps; k++) {
        const tco_bridge_step *s = &b->steps[k];
        json_text(out, k ? ",\n    {\"input\": " : "\n    {\"input\": ", s->input);
        if (s->tier)
            json_text(out, ", \"tier\": ", s->tier);
        json_text(out, ", \"label\": ", s->label);
        json_text(out, ", \"unit\": ", s->unit);
        json_text(out, ", \"set\": ", s->set);
        fputs(", \"from\": ", out);
        json_value(out, s->from_text, s->from);
        fputs(", \"to\": ", out);
        json_value(out, s->to_text, s->to);
        const char *nums[] = {", \"alone\": ", ", \"delta\": ", ", \"tco\": "};
        const double v[] = {s->alone, s->delta, s->tco};
        for (int n = 0; n < 3; n++) {
            fputs(nums[n], out);
            json_exact(out, v[n]);
        }
        fprintf(out, ", \"structural\": %s}", s->structural ? "true" : "false");
    }
    fputs(b->n_steps ? "\n  ],\n  \"other\": [" : "],\n  \"other\": [", out);
    for (size_t k = 0; k < b->n_other; k++) {
        const tco_bridge_other *o = &b->other[k];
        fprintf(out, "%s{\"kind\": \"%s\"", k ? ",\n    " : "\n    ", o->kind);
        json_text(out, ", \"input\": ", o->input);
        json_text(out, ", \"message\": ", o->message);
        fputs("}", out);
    }
    fputs(b->n_other ? "\n  ]\n}\n" : "]\n}\n", out);
}

/* Number @p v for the table: grouped, with the decimals that give it 6 significant digits, trailing
 * zeros dropped (95,000; 0.85; 7.1; 13,380.3; 0.0985915). */
static void table_number(double v, char *buf, size_t size)
{
    int decimals = v == 0 || !isfinite(v) ? 0 : 5 - (int)floor(log10(fabs(v)));
    tco_format_grouped(v, decimals < 0 ? 0 : decimals > 15 ? 15 : decimals, buf, size);
    if (strchr(buf, '.') == NULL || strchr(buf, 'e') != NULL)
        return;
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
}

/* Step @p s's from and to values for the table: texts as they are, numbers to 6 significant digits, or
 * where that shows two different values alike, both as the shortest decimals that read back as them
 * (0.7 and 0.70000001). */
static void table_values(const tco_bridge_step *s, char *from, char *to, size_t size)
{
    if (s->from_text) {
        snprintf(from, size, "%s", s->from_text);
        snprintf(to, size, "%s", s->to_text);
        return;
    }
    table_number(s->from, from, size);
    table_number(s->to, to, size);
    if (strcmp(from, to) != 0 || s->from == s->to)
        return;
    char a[32], b[32];
    tco_format_double(s->from, a);
    tco_format_double(s->to, b);
    snprintf(from, size, "%s", a);
    snprintf(to, size, "%s", b);
}

/* A money figure for the table, grouped, with its sign when @p sign ("+210,416"). */
static void table_money(double v, bool sign, char *buf, size_t size)
{
    char g[48]; /* a double's 309 digits would not fit; money figures have at most 20 with separators */
    tco_format_grouped(v, 0, g, sizeof g);
    size_t n = 0;
    if (sign && g[0] != '-' && strcmp(g, "0") != 0 && size > 1)
        buf[n++] = '+';
    size_t len = strlen(g);
    if (len > size - 1 - n)
        len = size - 1 - n;
    memcpy(buf + n, g, len);
    buf[n + len] = '\0';
}

/* @p s padded with spaces to @p width characters (UTF-8), left- or right-aligned. */
/* Text from a summary file on the terminal: separators and bidi controls escaped (tco_text_put_terminal). */
static void term(FILE *out, const char *s)
{
    tco_text_put_terminal(out, s, strlen(s));
}

static void pad(FILE *out, const char *s, size_t width, bool right)
{
    size_t n = tco_utf8_chars(s);
    if (right)
        for (size_t i = n; i < width; i++)
            fputc(' ', out);
    term(out, s);
    if (!right)
        for (size_t i = n; i < width; i++)
            fputc(' ', out);
}

void tco_bridge_period(const tco_bridge *b, tco_strbuf *out)
{
    if (b->years == b->new_years && b->years > 0)
        tco_strbuf_printf(out, "TCO over %d years", b->years);
    else if (b->years > 0 && b->new_years > 0)
        tco_strbuf_printf(out, "TCO over %d years (OLD) and %d years (NEW)", b->years, b->new_years);
    else if (b->years > 0 || b->new_years > 0)
        tco_strbuf_printf(out, "TCO over %d years (%s; %s gives no period)", b->years > 0 ? b->years : b->new_years,
                          b->years > 0 ? "OLD" : "NEW", b->years > 0 ? "NEW" : "OLD");
    else
        tco_strbuf_append(out, "TCO (neither file gives its period)");
}

/* What a side that is not feasible means for the difference (the table, the warning and the sheet say it
 * alike). */
static const char *const infeasible_what[2] = {
    "its TCO is the cost of a configuration that does not do the job, so NEW - OLD is no like-for-like change",
    "its TCO is the cost of a configuration that does not do the job, so NEW - OLD is no saving"};

const char *tco_bridge_infeasible_meaning(int side)
{
    return infeasible_what[side ? 1 : 0];
}

size_t tco_bridge_print_warnings(const tco_bridge *b, FILE *out)
{
    size_t n = 0;
    for (int side = 0; side < 2; side++) {
        if (b->feasible[side] != 0)
            continue;
        fprintf(out, "tco: warning: %s (", side ? "NEW" : "OLD");
        term(out, side ? b->new_path : b->old_path);
        fputs(") is not feasible (", out);
        for (size_t k = 0; k < b->n_reasons[side]; k++)
            fputs(k ? "; " : "", out), term(out, b->reasons[side][k].check), fputs(": ", out),
                term(out, b->reasons[side][k].message);
        fprintf(out, "): %s\n", infeasible_what[side]);
        n++;
    }
    return n;
}

void tco_bridge_print_table(const tco_bridge *b, FILE *out)
{
    tco_strbuf period = {0};
    tco_bridge_period(b, &period);
    fputs("Budget bridge: ", out), term(out, b->scenario);
    fprintf(out, ", %s in %s\n", period.failed ? "TCO" : tco_strbuf_str(&period), b->currency);
    tco_strbuf_free(&period);
    fputs("From ", out), term(out, b->old_path), fputs(" to ", out), term(out, b->new_path);
    fprintf(out, ", order: %s\n\n",
            b->order == TCO_BRIDGE_ORDER_FILE ? "as the inputs appear in the file" : "largest effect first");
    /* A side that is not feasible is said before any figure: its TCO buys nothing that does the job. */
    for (int side = 0; side < 2; side++) {
        if (b->feasible[side] != 0)
            continue;
        fprintf(out, "%s (", side ? "NEW" : "OLD"), term(out, side ? b->new_path : b->old_path);
        fprintf(out, ") is NOT FEASIBLE, its checks fail: %s.\n", infeasible_what[side]);
        for (size_t k = 0; k < b->n_reasons[side]; k++)
            fputs("  ", out), term(out, b->reasons[side][k].check), fputs(": ", out),
                term(out, b->reasons[side][k].message), fputc('\n', out);
    }
    if (b->feasible[0] == 0 || b->feasible[1] == 0)
        fputc('\n', out);
    /* Column widths from the content. */
    /* Unit last: the unit of From and To, as --set takes them (a money input of a run in another currency
     * in CNY); Delta and Running TCO are in the reporting currency. */
    enum { C_INPUT, C_FROM, C_TO, C_DELTA, C_RUN, C_UNIT, NCOL };
    const char *diff_label = b->feasible[1] == 0 ? "NEW - OLD (no saving: NEW not feasible)"
                             : b->feasible[0] == 0 ? "NEW - OLD (OLD not feasible)" : "NEW - OLD";
    size_t w[NCOL] = {strlen(diff_label), 4, 2, 5, 11, 4};
    char cell[NCOL][512];
    tco_strbuf lab = {0};
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            pad(out, "Input", w[C_INPUT], false);
            fputs("  ", out), pad(out, "From", w[C_FROM], true);
            fputs("  ", out), pad(out, "To", w[C_TO], true);
            fputs("  ", out), pad(out, "Delta", w[C_DELTA], true);
            fputs("  ", out), pad(out, "Running TCO", w[C_RUN], true);
            fputs("  Unit\n", out);
        }
        for (size_t k = 0; k <= b->n_steps + 1; k++) {
            const tco_bridge_step *s = k >= 1 && k <= b->n_steps ? &b->steps[k - 1] : NULL;
            memset(cell, 0, sizeof cell);
            if (s) {
                lab.len = 0;
                tco_strbuf_printf(&lab, "%s%s%s%s%s", s->input, s->tier ? " [" : "", s->tier ? s->tier : "",
                                  s->tier ? "]" : "", s->structural ? " (structural)" : "");
                snprintf(cell[C_INPUT], sizeof cell[C_INPUT], "%s", tco_strbuf_str(&lab));
                table_values(s, cell[C_FROM], cell[C_TO], sizeof cell[C_FROM]);
                table_money(s->delta, true, cell[C_DELTA], sizeof cell[C_DELTA]);
                table_money(s->tco, false, cell[C_RUN], sizeof cell[C_RUN]);
                snprintf(cell[C_UNIT], sizeof cell[C_UNIT], "%s", s->unit ? s->unit : "");
            } else {
                snprintf(cell[C_INPUT], sizeof cell[C_INPUT], "%s (%s)%s", k == 0 ? "OLD" : "NEW",
                         k == 0 ? b->old_path : b->new_path, b->feasible[k == 0 ? 0 : 1] == 0 ? ", not feasible" : "");
                table_money(k == 0 ? b->tco_from : b->tco_to, false, cell[C_RUN], sizeof cell[C_RUN]);
            }
            for (int col = 0; col < NCOL; col++) {
                size_t n = tco_utf8_chars(cell[col]);
                if (pass == 0 && n > w[col])
                    w[col] = n;
            }
            if (pass == 1) {
                pad(out, cell[C_INPUT], w[C_INPUT], false);
                for (int col = C_FROM; col < C_UNIT; col++)
                    fputs("  ", out), pad(out, cell[col], w[col], true);
                if (cell[C_UNIT][0]) /* left-aligned, last: no trailing blanks */
                    fputs("  ", out), term(out, cell[C_UNIT]);
                fputc('\n', out);
            }
        }
    }
    tco_strbuf_free(&lab);
    char diff[64];
    table_money(b->tco_to - b->tco_from, true, diff, sizeof diff);
    pad(out, diff_label, w[C_INPUT], false);
    fputs("  ", out), pad(out, "", w[C_FROM], true);
    fputs("  ", out), pad(out, "", w[C_TO], true);
    fputs("  ", out), pad(out, diff, w[C_DELTA], true);
    fprintf(out, "\n\n%zu step%s; %s.\n", b->n_steps, b->n_steps == 1 ? "" : "s",
            b->exact ? "the deltas add up exactly to NEW - OLD (the figures are rounded for display)"
                     : "the deltas do not add up exactly (see below)");
    if (strcmp(b->currency, "CNY") != 0)
        fprintf(out, "From and To in their Unit, as --set takes them (money in CNY); Delta and Running TCO in %s.\n",
                b->currency);
    if (b->n_other > 0) {
        fputs("\nOther differences (no step moves them):\n", out);
        for (size_t k = 0; k < b->n_other; k++)
            fprintf(out, "  %s: ", b->other[k].kind), term(out, b->other[k].message), fputc('\n', out);
    }
}
