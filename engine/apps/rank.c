/* rank.c - a Rank workbook: the options an advice lists, one row each, the live ones' figures formulas
 * over each option's own sheets (written as in a comparison, compare.c), the others' the values tco
 * computed, all ranked by a live formula with the advisor's tie-break (rank.h, tco_workbook_write_rank()). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/formula.h"
#include "render/report.h"
#include "render/workbook_kit.h"
#include "apps/rank.h"
#include "render/compare.h"

/* The least print scale of the Rank sheet: 75% (11 pt at 8.25 pt), above the workbook's PRINT_MIN_SCALE.  Its
 * page count is foreseen from 15-point lines (pages_tall()); at 73-74% the rows LibreOffice wraps longer
 * spilled a page-column of team-70b's risk ranking onto a 4th page, where 75% prints 3. */
#define RANK_MIN_SCALE 75

/* The Rank sheet's columns before the figures, and after them. */
enum { RK_RANK = 0, RK_OPTION = 1, RK_SHEETS = 2, RK_FIGURES = 3 };
/* Widths in characters of the Option column (at most: as wide as its widest label, at least RK_OPTION_MIN)
 * and of the reasons (wrapped) after the figures: at least RK_WHY_WIDTH, as wide as their page leaves beside
 * Rank and Option.  Every other column is as wide as its header (wrapped in at most RK_HEAD_LINES lines,
 * no word broken), its numbers as formatted and its texts (wrapped in at most RK_TEXT_LINES) need
 * (column_widths()): a count or a share needs far less than "1,211,674 CNY". */
#define RK_OPTION_WIDTH 30
#define RK_OPTION_MIN 12
#define RK_WHY_WIDTH 100
#define RK_HEAD_LINES 3
#define RK_TEXT_LINES 2

/* The column of the candidate numbers: after the figures and the value columns (then the gate, the reasons). */
static int candidate_col(const tco_rank_sheet *s)
{
    return RK_FIGURES + (int)s->n_columns + (int)s->n_values;
}

/* What the Rank workbook shows: n options, row i of the Rank sheet being model i's, the first n_live
 * live (a model each), the rest rows of values (tco_rank_row.values). */
typedef struct rank_ctx {
    tco_model *const *models;
    const tco_rank_row *rows;
    size_t n_rows, n_live;
    const tco_rank_sheet *sheet;
    const double *width; /* the width in characters of each column up to Checks pass (column_widths()) */
    int last; /* the last column of the table's first printed page: the notes below it wrap within it */
} rank_ctx;

/* The value model @p m gives scalar line @p name (NaN when it holds text or is missing), and its text. */
static double line_value(const tco_model *m, const char *name, const char **text)
{
    int i = tco_model_find(m, name);
    *text = i >= 0 ? wb_item_text(&m->items[i]) : "n.a.: no such line";
    return i >= 0 && *text == NULL ? m->items[i].value : NAN;
}

/* What a row of values shows for a figure that is no number (NaN). */
#define RK_VALUE_NA "n.a."

/* The figure of column @p col for row @p i as cached: the line's value when the option passes its gate
 * (check_feasible = 1), else the text the formula gives; a row of values' own value, or its text. */
static double figure(const rank_ctx *c, size_t i, size_t col, const char **text)
{
    const tco_rank_row *r = &c->rows[i];
    if (r->values) {
        double v = r->values[col];
        *text = !r->passes ? TCO_RANK_FAILS : isnan(v) ? RK_VALUE_NA : NULL;
        return *text ? NAN : v;
    }
    if (line_value(c->models[i], c->sheet->gate, text) != 1) {
        *text = TCO_RANK_FAILS;
        return NAN;
    }
    return line_value(c->models[i], c->sheet->columns[col].name, text);
}

/* Two figures within this share of the row's own are equal on the Rank sheet (rank_formula()). */
#define RK_EQUAL_SHARE 1e-12

/* Whether @p x is below @p r, and whether the two are equal, as the Rank formula compares them: equal
 * within RK_EQUAL_SHARE of |r|, the bounds computed as the formula computes them. */
static bool below(double x, double r)
{
    return x < r - fabs(r) * RK_EQUAL_SHARE;
}
static bool equal(double x, double r)
{
    return x >= r - fabs(r) * RK_EQUAL_SHARE && x <= r + fabs(r) * RK_EQUAL_SHARE;
}

/* Whether speed @p x goes before speed @p r: the higher when the sheet says so (tokens/s), else the lower
 * (days a training run); equal within RK_EQUAL_SHARE as below(). */
static bool faster(const tco_rank_sheet *s, double x, double r)
{
    return s->speed_high_first ? x > r + fabs(r) * RK_EQUAL_SHARE : below(x, r);
}

/* Row @p i's rank among the rows as the sheet's formula computes it (the cache of its Rank cell): 1 + the
 * ranked rows before it, a row being before when its key is lower, or equal with a lower tie value, or
 * equal in both and faster (its speed), or equal in all three with a lower candidate number (equal: within
 * RK_EQUAL_SHARE, rank_formula()).  0 when row @p i is not ranked (no number for its key). */
static int rank_of(const rank_ctx *c, size_t i)
{
    const char *t;
    const tco_rank_sheet *s = c->sheet;
    double ki = figure(c, i, s->key, &t), ti, si;
    if (t != NULL)
        return 0;
    ti = figure(c, i, s->tie, &t);
    si = figure(c, i, s->speed, &t);
    int rank = 1;
    for (size_t j = 0; j < c->n_rows; j++) {
        double kj = figure(c, j, s->key, &t), tj, sj;
        if (t != NULL || j == i)
            continue;
        tj = figure(c, j, s->tie, &t);
        sj = figure(c, j, s->speed, &t);
        rank += below(kj, ki) ||
                (equal(kj, ki) &&
                 (below(tj, ti) ||
                  (equal(tj, ti) && (faster(s, sj, si) ||
                                     (equal(sj, si) && c->rows[j].candidate < c->rows[i].candidate)))));
    }
    return rank;
}

/* "C5:C14" with absolute rows, for the column @p col over every option row. */
static void column_range(const rank_ctx *c, int col, tco_strbuf *out)
{
    char l[4];
    wb_col_letters(col, l);
    tco_strbuf_printf(out, "%s$%d:%s$%d", l, ROW_FIRST + 1, l, ROW_FIRST + (int)c->n_rows);
}

/* The live Rank formula of the row at 0-based @p row:
 *   IF(ISNUMBER(Kr), 1 + SUMPRODUCT(ISNUMBER(K) * ((K < Kr-) + (K >= Kr-) * (K <= Kr+) * ((T < Tr-) +
 *      (T >= Tr-) * (T <= Tr+) * ((S < Sr-) + (S >= Sr-) * (S <= Sr+) * (N < Nr))))), "not ranked")
 * K the key column (cost per unit), T the tie-break (capex), S the speed (days a training run; for a
 * sheet whose higher speed goes first, tokens/s, S > Sr+ instead of S < Sr-), N the candidate numbers,
 * x- and x+ the bounds x -/+ ABS(x) * RK_EQUAL_SHARE: 1 + the rows before this one, a lower key, or an
 * equal key and a lower capex, or both equal and faster, or all three equal and an earlier candidate, so
 * the ranks run 1, 2, 3 in the advisor's order.  Equal
 * is within the bounds, not to the last bit: a row of values holds tco's figure, a live row the figure the
 * application computes, and the two of one cost differ in their last bits (Gnumeric's sums are not
 * tco's; a number cell keeps 16 digits, Excel reads 15).  A key that is text (an option failing a check)
 * is neither ranked nor counted: it is multiplied by ISNUMBER() = 0, and its comparisons give no error. */
static void rank_formula(const rank_ctx *c, int row, tco_strbuf *f)
{
    const tco_rank_sheet *s = c->sheet;
    char k[4], t[4], sp[4], n[4];
    wb_col_letters(RK_FIGURES + (int)s->key, k);
    wb_col_letters(RK_FIGURES + (int)s->tie, t);
    wb_col_letters(RK_FIGURES + (int)s->speed, sp);
    wb_col_letters(candidate_col(s), n);
    tco_strbuf K = {0}, T = {0}, S = {0}, N = {0};
    column_range(c, RK_FIGURES + (int)s->key, &K);
    column_range(c, RK_FIGURES + (int)s->tie, &T);
    column_range(c, RK_FIGURES + (int)s->speed, &S);
    column_range(c, candidate_col(s), &N);
    const char *kr = tco_strbuf_str(&K), *tr = tco_strbuf_str(&T), *sr = tco_strbuf_str(&S), *nr = tco_strbuf_str(&N);
    int r = row + 1;
    char klo[64], khi[64], tlo[64], thi[64], slo[64], shi[64], sfast[96];
    snprintf(klo, sizeof klo, "%s%d-ABS(%s%d)*%G", k, r, k, r, RK_EQUAL_SHARE);
    snprintf(khi, sizeof khi, "%s%d+ABS(%s%d)*%G", k, r, k, r, RK_EQUAL_SHARE);
    snprintf(tlo, sizeof tlo, "%s%d-ABS(%s%d)*%G", t, r, t, r, RK_EQUAL_SHARE);
    snprintf(thi, sizeof thi, "%s%d+ABS(%s%d)*%G", t, r, t, r, RK_EQUAL_SHARE);
    snprintf(slo, sizeof slo, "%s%d-ABS(%s%d)*%G", sp, r, sp, r, RK_EQUAL_SHARE);
    snprintf(shi, sizeof shi, "%s%d+ABS(%s%d)*%G", sp, r, sp, r, RK_EQUAL_SHARE);
    /* faster: a higher speed above the upper bound, or a lower one below the lower bound */
    snprintf(sfast, sizeof sfast, "%s%s%s", sr, s->speed_high_first ? ">" : "<", s->speed_high_first ? shi : slo);
    tco_strbuf_printf(f, "=IF(ISNUMBER(%s%d),1+SUMPRODUCT(ISNUMBER(%s)*((%s<%s)+(%s>=%s)*(%s<=%s)*((%s<%s)+(%s>=%s)*"
                      "(%s<=%s)*((%s)+(%s>=%s)*(%s<=%s)*(%s<%s%d))))),\"%s\")",
                      k, r, kr, kr, klo, kr, klo, kr, khi, tr, tlo, tr, tlo, tr, thi, sfast, sr, slo, sr, shi, nr, n, r,
                      TCO_RANK_UNRANKED);
    tco_strbuf_free(&K);
    tco_strbuf_free(&T);
    tco_strbuf_free(&S);
    tco_strbuf_free(&N);
}

/* The row whose rank is @p rank, as the cache of INDEX(..., MATCH(rank, ranks, 0)); -1 if none. */
static int row_ranked(const int *ranks, size_t n, int rank)
{
    for (size_t i = 0; i < n; i++)
        if (ranks[i] == rank)
            return (int)i;
    return -1;
}

/* The labels of the lines below the table (write_best()). */
static const char *const rk_below[] = {"Best (rank 1)", "Runner-up (rank 2)", "Best: cheaper per unit than the runner-up",
                                       "tco advise, at the inputs as written", "An option's full budget workbook"};

/* The line below the table on how to get an option's budget workbook, appended to @p f. */
static void budget_text(const tco_rank_sheet *s, tco_strbuf *f)
{
    tco_strbuf_printf(f, "tco advise %s --save-scenario FILE.ini --pick RANK, then tco --scenario FILE.ini: "
                      "the option of that rank as a scenario, and its budget workbook (every sheet)", s->question);
}

/* A label of the lines below the table, in the Option column: wrapped, its row as tall as it needs. */
static void write_label(writer *w, lxw_worksheet *ws, const rank_ctx *c, int row, const char *label)
{
    wb_write_text(w, ws, row, RK_OPTION, label, w->text_wrap);
    wb_set_row_lines(w, ws, row, wb_text_lines(label, (size_t)c->width[RK_OPTION]));
}

/* Below the table: the best and the runner-up by the live ranks, and how much cheaper per unit the best is,
 * (runner-up - best) / runner-up of the key column, as the advisor's one line says it. */
static void write_best(writer *w, lxw_worksheet *ws, const rank_ctx *c, const int *ranks, int row)
{
    tco_strbuf ranks_r = {0}, labels = {0}, keys = {0}, f = {0};
    column_range(c, RK_RANK, &ranks_r);
    column_range(c, RK_OPTION, &labels);
    column_range(c, RK_FIGURES + (int)c->sheet->key, &keys);
    const char *R = tco_strbuf_str(&ranks_r), *L = tco_strbuf_str(&labels), *K = tco_strbuf_str(&keys);
    int ranked = 0;
    for (size_t i = 0; i < c->n_rows; i++)
        ranked += ranks[i] > 0;
    for (int k = 0; k < 2; k++) {
        write_label(w, ws, c, row + k, rk_below[k]);
        f.len = 0;
        tco_strbuf_printf(&f, "=IF(COUNT(%s)>=%d,INDEX(%s,MATCH(%d,%s,0)),\"none: %s\")", R, k + 1, L, k + 1, R,
                          k ? "fewer than two options ranked" : "no option ranked");
        int at = row_ranked(ranks, c->n_rows, k + 1);
        const char *cached = at >= 0 ? c->rows[at].label : k ? "none: fewer than two options ranked"
                                                              : "none: no option ranked";
        wb_write_formula_or_text(w, ws, row + k, RK_SHEETS, tco_strbuf_str(&f), w->text, 0, cached);
    }
    write_label(w, ws, c, row + 2, rk_below[2]);
    f.len = 0;
    tco_strbuf_printf(&f, "=IF(COUNT(%s)>=2,(INDEX(%s,MATCH(2,%s,0))-INDEX(%s,MATCH(1,%s,0)))/INDEX(%s,MATCH(2,%s,0)),"
                      "\"n.a.: fewer than two options ranked\")",
                      R, K, R, K, R, K, R);
    double share = 0;
    const char *why = NULL, *text = ranked >= 2 ? NULL : "n.a.: fewer than two options ranked";
    if (text == NULL) {
        const char *t;
        double best = figure(c, (size_t)row_ranked(ranks, c->n_rows, 1), c->sheet->key, &t);
        double second = figure(c, (size_t)row_ranked(ranks, c->n_rows, 2), c->sheet->key, &t), diff = 0;
        /* The cache follows the evaluator's own arithmetic (tco_formula_arith()), as the Compare sheet's. */
        if (tco_formula_arith(TCO_OP_SUB, second, best, &diff, &why) != TCO_OK ||
            tco_formula_arith(TCO_OP_DIV, diff, second, &share, &why) != TCO_OK) {
            if (w->err == TCO_OK)
                w->err = tco_diag_set(w->diag, TCO_ERR_EVAL, "Rank sheet, the best against the runner-up: %s", why);
            text = "n.a.";
        }
    }
    wb_write_formula_or_text(w, ws, row + 2, RK_SHEETS, tco_strbuf_str(&f), w->fmt[TCO_FMT_PERCENT], share, text);
    if (c->sheet->explanation) {
        write_label(w, ws, c, row + 3, rk_below[3]);
        wb_write_across(w, ws, row + 3, RK_SHEETS, c->last, c->sheet->explanation,
                        w->text_wrap);
    }
    if (c->sheet->question) { /* the options' other sheets are hidden: the way to a whole budget */
        f.len = 0;
        budget_text(c->sheet, &f);
        write_label(w, ws, c, row + 4, rk_below[4]);
        wb_write_across(w, ws, row + 4, RK_SHEETS, c->last, tco_strbuf_str(&f),
                        w->text_wrap);
    }
    tco_strbuf_free(&ranks_r);
    tco_strbuf_free(&labels);
    tco_strbuf_free(&keys);
    tco_strbuf_free(&f);
}

/* The lines of row @p i's tallest cell but its reasons at the widths c->width: a text in a narrow column
 * ("values at run", "n.a.: fails a check") wraps within it, its row as tall as its tallest cell (and its
 * reasons, print_layout()), so that printed text never runs into the next column's. */
static size_t row_lines(const rank_ctx *c, size_t i)
{
    const tco_rank_row *r = &c->rows[i];
    const tco_rank_sheet *s = c->sheet;
    size_t lines = 1, n;
    if (r->values && (n = wb_text_lines(TCO_RANK_VALUES, (size_t)c->width[RK_SHEETS])) > lines)
        lines = n;
    for (size_t k = 0; r->values && k < s->n_columns; k++) {
        const char *text;
        figure(c, i, k, &text);
        if (text && (n = wb_text_lines(text, (size_t)c->width[RK_FIGURES + k])) > lines)
            lines = n;
    }
    for (size_t k = 0; k < s->n_values; k++) {
        const tco_rank_values *v = &s->values[k];
        if (v->text && v->text[i] &&
            (n = wb_text_lines(v->text[i], (size_t)c->width[RK_FIGURES + s->n_columns + k])) > lines)
            lines = n;
    }
    return lines;
}

/* One option's row: its rank, label, sheets, figures, candidate number, gate and reasons, a text in a narrow
 * column wrapped (@p wrap_right for a figure's; its height: row_lines()). */
static void write_row(writer *w, lxw_worksheet *ws, const rank_ctx *c, size_t i, int rank, lxw_format *const *fmts,
                      lxw_format *wrap_right, const wb_options *o)
{
    const tco_rank_row *r = &c->rows[i];
    const tco_rank_sheet *s = c->sheet;
    int row = ROW_FIRST + (int)i, col_cand = candidate_col(s);
    tco_strbuf f = {0};
    wb_write_text(w, ws, row, RK_OPTION, r->label, w->text);
    wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)col_cand, r->candidate, w->fmt[TCO_FMT_COUNT]),
             "candidate");
    if (r->reasons)
        wb_write_text(w, ws, row, col_cand + 2, r->reasons, w->text_wrap);
    else if (r->passes) /* printed, the reasons' page lists every row: a passing one says so, not nothing */
        wb_write_text(w, ws, row, col_cand + 2, "none at run: every check passed", w->source);
    const char *np = r->values ? "" : o->np[i];
    rank_formula(c, row, &f);
    if (rank > 0)
        wb_write_formula(w, ws, row, RK_RANK, tco_strbuf_str(&f), w->fmt[TCO_FMT_COUNT], rank);
    else
        wb_write_formula_or_text(w, ws, row, RK_RANK, tco_strbuf_str(&f), w->text_right, 0, TCO_RANK_UNRANKED);
    if (r->values) {
        wb_write_text(w, ws, row, RK_SHEETS, TCO_RANK_VALUES, w->text_wrap);
    } else if (i < o->visible) {
        f.len = 0;
        tco_strbuf_printf(&f, "internal:'%sSummary'!A1", o->sp[i]);
        char shown[8];
        snprintf(shown, sizeof shown, "%c", (char)('A' + i));
        wb_check(w, worksheet_write_url_opt(ws, (lxw_row_t)row, RK_SHEETS, tco_strbuf_str(&f), NULL, shown, NULL),
                 "sheet link");
    } else {
        char shown[40];
        snprintf(shown, sizeof shown, "%c (hidden)", (char)('A' + i));
        wb_write_text(w, ws, row, RK_SHEETS, shown, w->text);
    }
    for (size_t k = 0; k < s->n_columns; k++) {
        const char *text;
        double v = figure(c, i, k, &text);
        if (r->values) { /* as tco computed it: the number, or the text a live formula would give */
            if (text)
                wb_write_text(w, ws, row, RK_FIGURES + (int)k, text, wrap_right);
            else
                wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)(RK_FIGURES + (int)k), v, fmts[k]),
                         "value");
            continue;
        }
        f.len = 0;
        tco_strbuf_printf(&f, "=IF(%s%s=1,%s%s,\"%s\")", np, s->gate, np, s->columns[k].name, TCO_RANK_FAILS);
        wb_write_formula_or_text(w, ws, row, RK_FIGURES + (int)k, tco_strbuf_str(&f), fmts[k], v, text);
    }
    for (size_t k = 0; k < s->n_values; k++) {
        const tco_rank_values *v = &s->values[k];
        int col = RK_FIGURES + (int)s->n_columns + (int)k;
        if (v->text && v->text[i])
            wb_write_text(w, ws, row, col, v->text[i], wrap_right);
        else
            wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)col, v->v[i],
                                               v->share ? w->fmt[TCO_FMT_PERCENT] : fmts[s->key]), "value");
    }
    if (r->values) {
        wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)(col_cand + 1), r->passes,
                                           w->fmt[TCO_FMT_YESNO]), "value");
    } else {
        f.len = 0;
        tco_strbuf_printf(&f, "=%s%s", np, s->gate);
        const char *text;
        double gate = line_value(c->models[i], s->gate, &text);
        wb_write_formula(w, ws, row, col_cand + 1, tco_strbuf_str(&f), w->fmt[TCO_FMT_YESNO], gate);
    }
    tco_strbuf_free(&f);
}

/* The width in characters a cell needs to show @p v in number format @p f on one line: the text the formats
 * tco writes give (grouped digits, the decimals they show, optional ones counted as shown, a percent sign, a
 * quoted suffix such as " CNY", the scientific 0.00E+00, a first section's literal "yes"), measured as
 * wb_text_width() measures text. */
static double number_width(const lxw_format *f, double v)
{
    const char *nf = f->num_format;
    char body[64], text[160], lit[64] = "";
    if (strstr(nf, "E+") != NULL) {
        snprintf(text, sizeof text, "%.2E", v);
        return wb_text_width(text, 0);
    }
    int dec = 0;
    const char *dot = strchr(nf, '.');
    for (const char *p = dot ? dot + 1 : ""; *p == '0' || *p == '#'; p++)
        dec++;
    /* The first section's literal: a suffix (" CNY"), or the whole text ("yes") */
    const char *q = strchr(nf, '"'), *semi = strchr(nf, ';');
    if (q != NULL && (semi == NULL || q < semi)) {
        size_t n = strcspn(q + 1, "\"");
        snprintf(lit, sizeof lit, "%.*s", (int)(n < sizeof lit - 1 ? n : sizeof lit - 1), q + 1);
        if (q == nf) /* "yes";"yes";"no": its texts, the longer */
            return wb_text_width(lit, wb_text_width("no", 0));
    }
    bool pct = strchr(nf, '%') != NULL;
    tco_format_grouped(pct ? v * 100 : v, dec, body, sizeof body);
    snprintf(text, sizeof text, "%s%s%s%s", body, pct ? "%" : "", *lit ? " " : "", lit);
    return wb_text_width(text, 0);
}

/* The width in characters a wrapped header @p text needs in at most @p lines lines, no word broken. */
static double header_need(const char *text, size_t lines)
{
    double w = wb_header_width(text, 0);
    while (wb_header_lines(text, w) > lines)
        w++;
    return w;
}

/* The width in characters a wrapped text @p text needs in at most @p lines lines, no word broken. */
static double text_need(const char *text, size_t lines)
{
    double w = 0;
    char word[256];
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, " ");
        snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word - 1 ? n : sizeof word - 1), p);
        w = wb_text_width(word, w);
        p += n;
        p += strspn(p, " ");
    }
    while (wb_text_lines(text, (size_t)w) > lines)
        w++;
    return w;
}

/* The width of each column of the table (@p width: Rank to Checks pass) from what it holds: its header, its
 * numbers in the formats @p fmts (a figure's) and the key's or a share's (a value column's), its texts,
 * wrapped in at most RK_TEXT_LINES (a row of values' "n.a.: fails a check"; a live row's text result is
 * counted alike, though its cell, in the figure's format, does not wrap), a rank's "not ranked", the
 * @p ranks and candidate numbers; in
 * @p one, the width each needs for its wrapped texts on one line (at least its @p width). */
static void column_widths(const rank_ctx *c, const writer *w, lxw_format *const *fmts, const int *ranks,
                          double *width, double *one)
{
    lxw_format *share = w->fmt[TCO_FMT_PERCENT], *count = w->fmt[TCO_FMT_COUNT];
    const tco_rank_sheet *s = c->sheet;
    int col_cand = candidate_col(s);
    width[RK_RANK] = header_need("Rank", 1);
    width[RK_OPTION] = RK_OPTION_MIN;
    width[RK_SHEETS] = wb_text_width("Sheets", 0) + 1; /* its header is indented */
    for (size_t k = 0; k < s->n_columns + s->n_values; k++)
        width[RK_FIGURES + (int)k] = header_need(k < s->n_columns ? s->columns[k].header
                                                                   : s->values[k - s->n_columns].header, RK_HEAD_LINES);
    width[col_cand] = header_need("Candidate", 2);
    width[col_cand + 1] = header_need("Checks pass", 2);
    for (size_t i = 0; i < c->n_rows; i++) {
        const tco_rank_row *r = &c->rows[i];
        width[RK_RANK] = fmax(width[RK_RANK], ranks[i] > 0 ? number_width(count, ranks[i])
                                                           : wb_text_width(TCO_RANK_UNRANKED, 0));
        width[RK_OPTION] = wb_text_width(r->label, width[RK_OPTION]);
        width[RK_SHEETS] = wb_text_width(r->values ? TCO_RANK_VALUES : i < s->visible ? "A" : "A (hidden)",
                                         width[RK_SHEETS]);
        for (size_t k = 0; k < s->n_columns; k++) {
            const char *t;
            double v = figure(c, i, k, &t), need = t == NULL ? number_width(fmts[k], v) : text_need(t, RK_TEXT_LINES);
            if (need > width[RK_FIGURES + (int)k])
                width[RK_FIGURES + (int)k] = need;
            if (t != NULL)
                one[RK_FIGURES + (int)k] = wb_text_width(t, one[RK_FIGURES + (int)k]);
        }
        for (size_t k = 0; k < s->n_values; k++) {
            const tco_rank_values *v = &s->values[k];
            int col = RK_FIGURES + (int)(s->n_columns + k);
            double need = v->text && v->text[i] ? text_need(v->text[i], RK_TEXT_LINES)
                                                : number_width(v->share ? share : fmts[s->key], v->v[i]);
            if (need > width[col])
                width[col] = need;
            if (v->text && v->text[i])
                one[col] = wb_text_width(v->text[i], one[col]);
        }
        width[col_cand] = fmax(width[col_cand], number_width(count, r->candidate));
        width[col_cand + 1] = fmax(width[col_cand + 1], number_width(w->fmt[TCO_FMT_YESNO], r->passes));
    }
    if (width[RK_OPTION] > RK_OPTION_WIDTH)
        width[RK_OPTION] = RK_OPTION_WIDTH;
    for (int col = RK_RANK; col <= col_cand + 1; col++)
        one[col] = fmax(one[col], width[col]);
}

/* The columns before which the printed table breaks (@p breaks, 0-ended, room for every column and two):
 * none when Rank to Checks pass fit one page wide at RANK_MIN_SCALE in LibreOffice; else the first value
 * column (the Monte Carlo figures on a page of their own) when both parts then fit, or else each column that
 * would run past a page, Rank and Option repeated on every page.  Then the reasons' column, on pages of its
 * own.  Returns the last column of the first page. */
static int table_breaks(lxw_worksheet *ws, const tco_rank_sheet *s, lxw_col_t *breaks)
{
    int col_cand = candidate_col(s), last = col_cand + 1, n = 0;
    double page = PRINT_WIDTH_PX * 100 / RANK_MIN_SCALE / PRINT_LO_WIDER, rep = wb_cols_px(ws, RK_RANK, RK_OPTION);
    int values = RK_FIGURES + (int)s->n_columns;
    if (wb_cols_px(ws, RK_RANK, last) > page) {
        if (s->n_values > 0 && wb_cols_px(ws, RK_RANK, values - 1) <= page &&
            rep + wb_cols_px(ws, values, last) <= page)
            breaks[n++] = (lxw_col_t)values;
        else
            for (int col = RK_SHEETS, start = RK_SHEETS; col <= last; col++)
                if (col > start && (start == RK_SHEETS ? 0 : rep) + wb_cols_px(ws, start == RK_SHEETS ? RK_RANK : start,
                                                                                col) > page)
                    breaks[n++] = (lxw_col_t)col, start = col;
    }
    breaks[n++] = (lxw_col_t)(col_cand + 2);
    breaks[n] = 0;
    return (int)breaks[0] - 1;
}

/* The width in characters of the reasons' column printed at @p scale (%): as wide as its pages leave beside
 * Rank and Option in LibreOffice, at least RK_WHY_WIDTH. */
static size_t why_width(lxw_worksheet *ws, int scale)
{
    double room = PRINT_WIDTH_PX * 100 / scale / PRINT_LO_WIDER - wb_cols_px(ws, RK_RANK, RK_OPTION) - 5;
    return room / 7 > RK_WHY_WIDTH ? (size_t)(room / 7) : RK_WHY_WIDTH;
}

/* Width in pixels of columns @p first to @p last at the widths @p width, as wb_cols_px() counts them. */
static double span_px(const double *width, int first, int last)
{
    double px = 0;
    for (int col = first; col <= last; col++)
        px += floor(width[col] * 7 + 0.5) + 5;
    return px;
}

/* Rank and Option (columns A and B) print again on every page after the first (the reasons' pages, a risk
 * table's): a title or note written from A printed there cut at B's edge ("team-70b: Team inference: 70B",
 * the note's first words).  So A1 holds the question's name ("team-70b: options ranked"), whole within A:B,
 * and the note, across from Sheets (C) to the first page's last column, starts with the full title. */
static void rank_title(const tco_rank_sheet *s, tco_strbuf *out)
{
    const char *name = s->question, *colon = strchr(s->title, ':');
    if (name)
        tco_strbuf_printf(out, "%s: options ranked", name);
    else if (colon)
        tco_strbuf_printf(out, "%.*s: options ranked", (int)(colon - s->title), s->title);
    else
        tco_strbuf_append(out, "Options ranked");
}

/* The note under the title (rank_title()): the full title, then what is ranked and how. */
static void rank_note(const tco_rank_sheet *s, tco_strbuf *out)
{
    tco_strbuf_printf(out, "%s. %s", s->title, s->note ? s->note : "");
}

/* Lines @p text takes merged across columns @p first to c->last, as wb_write_across() counts them. */
static size_t across_lines(const rank_ctx *c, int first, const char *text)
{
    double chars = (span_px(c->width, first, c->last) - 5) / 7;
    return wb_text_lines(text, chars > 10 ? (size_t)chars : 10);
}

/* The header row's lines at the widths c->width: its tallest header's (at most RK_HEAD_LINES), at least 2
 * (the Candidate and Checks pass headers). */
static size_t header_lines(const rank_ctx *c)
{
    const tco_rank_sheet *s = c->sheet;
    size_t head = 2;
    for (size_t k = 0; k < s->n_columns + s->n_values; k++) {
        const char *t = k < s->n_columns ? s->columns[k].header : s->values[k - s->n_columns].header;
        size_t n = wb_header_lines(t, c->width[RK_FIGURES + (int)k]);
        head = n > head ? n : head;
    }
    return head;
}

/* Pages tall the sheet prints on at @p scale (%) with its reasons @p why characters wide, at the widths
 * c->width: its rows as the writers make them (20 pixels a line), each page 97% of one (rounding; as
 * wb_print_layout() counts), the later ones under the repeated header row. */
static size_t pages_tall(const rank_ctx *c, int scale, size_t why)
{
    const tco_rank_sheet *s = c->sheet;
    tco_strbuf note = {0};
    rank_note(s, &note);
    /* title, note, gap */
    size_t head = header_lines(c), lines = 3 + across_lines(c, RK_SHEETS, tco_strbuf_str(&note)) + head + 1;
    tco_strbuf_free(&note);
    for (size_t i = 0; i < c->n_rows; i++) {
        size_t n = c->rows[i].reasons ? wb_text_lines(c->rows[i].reasons, why) : 1, other = row_lines(c, i);
        lines += n > other ? n : other;
    }
    tco_strbuf budget = {0};
    if (s->question)
        budget_text(s, &budget);
    const char *across[] = {NULL, NULL, NULL, s->explanation, s->question ? tco_strbuf_str(&budget) : NULL};
    for (size_t k = 0; k < sizeof rk_below / sizeof rk_below[0]; k++) {
        if (k >= 3 && across[k] == NULL)
            continue;
        size_t n = wb_text_lines(rk_below[k], (size_t)c->width[RK_OPTION]);
        size_t m = across[k] ? across_lines(c, RK_SHEETS, across[k]) : 1;
        lines += n > m ? n : m;
    }
    tco_strbuf_free(&budget);
    double px = 20.0 * (double)lines, page = PRINT_HEIGHT_PX * 100 / scale * 0.97, rep = 20.0 * (double)head;
    return px <= page ? 1 : 1 + (size_t)ceil((px - page) / (page - rep));
}

/* The largest scale at which each page of the table fits (@p breaks: the first page's columns, the later
 * ones' with Rank and Option), at least RANK_MIN_SCALE. */
static int table_scale(lxw_worksheet *ws, const lxw_col_t *breaks)
{
    double rep = wb_cols_px(ws, RK_RANK, RK_OPTION);
    int widest = wb_fit_scale(wb_cols_px(ws, RK_RANK, breaks[0] - 1) * PRINT_LO_WIDER);
    for (size_t k = 0; breaks[k + 1] != 0; k++) {
        int s = wb_fit_scale((rep + wb_cols_px(ws, breaks[k], breaks[k + 1] - 1)) * PRINT_LO_WIDER);
        widest = s < widest ? s : widest;
    }
    return widest > RANK_MIN_SCALE ? widest : RANK_MIN_SCALE;
}

/* The scale, from @p widest down to RANK_MIN_SCALE, at which the sheet prints the fewest pages tall (the
 * reasons as wide as each scale leaves, why_width()), the largest of those. */
static int best_scale(lxw_worksheet *ws, const rank_ctx *c, int widest)
{
    int best = widest;
    size_t fewest = SIZE_MAX;
    for (int s = widest; s >= RANK_MIN_SCALE; s--) {
        size_t pages = pages_tall(c, s, why_width(ws, s));
        if (pages < fewest)
            fewest = pages, best = s;
    }
    return best;
}

/* The print scale of the written sheet, its reasons' width and its option rows' heights: the reasons print on
 * pages of their own beside Rank and Option, as wide as those pages leave (the rows of the rejected options are
 * as tall as their reasons), at best_scale() from the widest that fits each page of the table (@p breaks).  The
 * scale is set here, not by wb_print_layout(): the reasons' width is made for it. */
static void print_layout(writer *w, lxw_worksheet *ws, const rank_ctx *c, const lxw_col_t *breaks)
{
    int best = best_scale(ws, c, table_scale(ws, breaks));
    size_t why = why_width(ws, best);
    int col_why = candidate_col(c->sheet) + 2;
    worksheet_set_column(ws, (lxw_col_t)col_why, (lxw_col_t)col_why, (double)why, NULL);
    for (size_t i = 0; i < c->n_rows; i++) {
        size_t n = c->rows[i].reasons ? wb_text_lines(c->rows[i].reasons, why) : 1, other = row_lines(c, i);
        wb_set_row_lines(w, ws, ROW_FIRST + (int)i, n > other ? n : other);
    }
    worksheet_set_print_scale(ws, (uint16_t)best);
}

/* A table printed at @p scale (%) below the width's (broken at a column, @p breaks, table_breaks(), at
 * RANK_MIN_SCALE; or one page wide, made smaller to print fewer pages tall) fills each of its pages in
 * LibreOffice: the room a page's columns leave (a character of it to spare) goes first to each of its figure
 * columns whose texts then fit one line (@p one, when all of the page's do), then shared out among them (not
 * Rank, Option and Sheets), whole characters each, in @p width and on @p ws, so that their texts, the rows
 * they make tall and the notes below the table take fewer lines. */
static void fill_pages(const lxw_col_t *breaks, double *width, const double *one, int scale)
{
    double page = PRINT_WIDTH_PX * 100 / scale / PRINT_LO_WIDER - 7, rep = span_px(width, RK_RANK, RK_OPTION);
    for (size_t k = 0; breaks[k] != 0; k++) { /* page k: up to the k-th break */
        int first = k == 0 ? RK_FIGURES : (int)breaks[k - 1], last = (int)breaks[k] - 1;
        double used = rep + span_px(width, k == 0 ? RK_SHEETS : first, last), lines = 0;
        for (int col = first; col <= last; col++)
            lines += 7 * (one[col] - width[col]);
        for (int col = first; used + lines <= page && col <= last; col++)
            width[col] = one[col];
        used = rep + span_px(width, k == 0 ? RK_SHEETS : first, last);
        double extra = floor((page - used) / 7 / (last - first + 1));
        for (int col = first; extra > 0 && col <= last; col++)
            width[col] += extra;
    }
}

static void fill_rank(writer *base, void *vctx)
{
    rank_ctx cw = *(const rank_ctx *)vctx;
    const rank_ctx *c = &cw;
    const tco_rank_sheet *s = c->sheet;
    base->m = c->models[0];
    base->footer = s->title;
    lxw_worksheet *ws = wb_add_sheet(base, "Rank", 0xC00000, true);
    base->footer = NULL;
    if (ws == NULL) {
        tco_strbuf_free(&base->text_buf);
        return;
    }
    /* The live options' sheets (the rows of values have none). */
    const char *labels[26] = {NULL};
    for (size_t i = 0; i < c->n_live && i < 26; i++)
        labels[i] = c->rows[i].label;
    wb_options o = {.models = c->models, .n = c->n_live, .visible = s->visible, .title = s->title, .labels = labels};
    wb_write_options(base, &o);
    writer *w = base;
    w->m = c->models[0];
    w->np = "";
    w->sp = "";
    int *ranks = calloc(c->n_rows ? c->n_rows : 1, sizeof *ranks);
    lxw_format **fmts = calloc(s->n_columns ? s->n_columns : 1, sizeof *fmts);
    double *vals = calloc(c->n_rows ? c->n_rows : 1, sizeof *vals);
    int col_cand = candidate_col(s);
    double *width = calloc((size_t)col_cand + 2, sizeof *width), *one = calloc((size_t)col_cand + 2, sizeof *one),
           *trial = calloc((size_t)col_cand + 2, sizeof *trial);
    lxw_col_t *breaks = calloc((size_t)col_cand + 4, sizeof *breaks);
    if (ranks == NULL || fmts == NULL || vals == NULL || width == NULL || one == NULL || trial == NULL ||
        breaks == NULL) {
        if (w->err == TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    }
    for (size_t k = 0; w->err == TCO_OK && k < s->n_columns; k++) {
        /* One format for the column, from every option's value (as a Compare row's). */
        size_t n = 0;
        for (size_t i = 0; i < c->n_rows; i++) {
            const char *t;
            double v = figure(c, i, k, &t);
            if (!isnan(v))
                vals[n++] = v;
        }
        int idx = tco_model_find(w->m, s->columns[k].name);
        if (idx < 0) {
            w->err = tco_diag_set(w->diag, TCO_ERR_UNKNOWN_NAME, "Rank sheet: the template has no line '%s'",
                                  s->columns[k].name);
            break;
        }
        fmts[k] = wb_values_format(w, &w->m->items[idx], vals, n, false);
    }
    for (size_t i = 0; w->err == TCO_OK && i < c->n_rows; i++)
        ranks[i] = rank_of(c, i);
    if (w->err != TCO_OK) {
        free(ranks), free(fmts), free(vals), free(width), free(one), free(trial), free(breaks);
        tco_strbuf_free(&base->text_buf);
        return;
    }
    /* Printed: the table one page wide where it fits at RANK_MIN_SCALE (its headers wrap, each column as
     * wide as it needs), else broken at a column, Rank and Option repeated; then the reasons on pages of their
     * own (manual breaks before them; wb_print_layout() sets the scale from the first page's columns). */
    column_widths(c, w, fmts, ranks, width, one);
    for (int col = RK_RANK; col <= col_cand + 1; col++)
        worksheet_set_column(ws, (lxw_col_t)col, (lxw_col_t)col, width[col], NULL);
    cw.width = width;
    cw.last = table_breaks(ws, s, breaks);
    /* A table broken at a column fills its pages at RANK_MIN_SCALE; one page wide, it fills the page at the
     * scale, from its width's down to RANK_MIN_SCALE, at which it then prints the fewest pages tall (its notes
     * and texts in fewer lines), the largest of those: its width's when a smaller one saves no page. */
    int widest = table_scale(ws, breaks), scale = widest;
    if (breaks[1] != 0)
        fill_pages(breaks, width, one, RANK_MIN_SCALE);
    else {
        size_t fewest = SIZE_MAX;
        for (int sc = widest; sc >= RANK_MIN_SCALE; sc--) {
            memcpy(trial, width, ((size_t)col_cand + 2) * sizeof *trial);
            if (sc < widest)
                fill_pages(breaks, trial, one, sc);
            cw.width = trial;
            size_t pages = pages_tall(c, sc, why_width(ws, sc));
            if (pages < fewest)
                fewest = pages, scale = sc;
        }
        cw.width = width;
        if (scale < widest)
            fill_pages(breaks, width, one, scale);
    }
    for (int col = RK_FIGURES; col <= col_cand + 1; col++)
        worksheet_set_column(ws, (lxw_col_t)col, (lxw_col_t)col, width[col], NULL);
    /* A figure's text (a rejected option's "n.a.: fails a check"), right-aligned as the numbers, wrapped. */
    lxw_format *wrap_right = workbook_add_format(w->wb);
    format_set_align(wrap_right, LXW_ALIGN_RIGHT);
    format_set_text_wrap(wrap_right);
    tco_strbuf head = {0}, note = {0};
    rank_title(s, &head);
    rank_note(s, &note);
    if (head.failed || note.failed) {
        if (w->err == TCO_OK)
            w->err = tco_diag_set(w->diag, TCO_ERR_NOMEM, "out of memory");
    } else {
        wb_write_text(w, ws, ROW_TITLE, 0, tco_strbuf_str(&head), w->title);
        wb_write_across(w, ws, ROW_NOTE, RK_SHEETS, cw.last, tco_strbuf_str(&note), w->note_wrap);
    }
    tco_strbuf_free(&head);
    tco_strbuf_free(&note);
    wb_write_text(w, ws, ROW_HEADER, RK_RANK, "Rank", w->header_wrap);
    wb_write_text(w, ws, ROW_HEADER, RK_OPTION, "Option", w->header);
    wb_write_text(w, ws, ROW_HEADER, RK_SHEETS, "Sheets", w->header);
    for (size_t k = 0; k < s->n_columns; k++)
        wb_write_text(w, ws, ROW_HEADER, RK_FIGURES + (int)k, s->columns[k].header, w->header_wrap);
    for (size_t k = 0; k < s->n_values; k++)
        wb_write_text(w, ws, ROW_HEADER, RK_FIGURES + (int)(s->n_columns + k), s->values[k].header, w->header_wrap);
    wb_write_text(w, ws, ROW_HEADER, col_cand, "Candidate", w->header_wrap);
    wb_write_text(w, ws, ROW_HEADER, col_cand + 1, "Checks pass", w->header_wrap);
    wb_write_text(w, ws, ROW_HEADER, col_cand + 2, "Why not (a rejected option's failing checks)", w->header);
    wb_set_row_lines(w, ws, ROW_HEADER, header_lines(c));
    for (size_t i = 0; w->err == TCO_OK && i < c->n_rows; i++)
        write_row(w, ws, c, i, ranks[i], fmts, wrap_right, &o);
    if (w->err == TCO_OK)
        write_best(w, ws, c, ranks, ROW_FIRST + (int)c->n_rows + 1);
    if (w->err == TCO_OK)
        print_layout(w, ws, c, breaks);
    wb_check(w, worksheet_set_v_pagebreaks(ws, breaks), "page break");
    wb_check(w, worksheet_repeat_columns(ws, RK_RANK, RK_OPTION), "print titles");
    worksheet_activate(ws);
    free(ranks);
    free(fmts);
    free(vals);
    free(width);
    free(one);
    free(trial);
    free(breaks);
    tco_strbuf_free(&base->text_buf);
}

tco_error tco_workbook_write_rank(tco_model *const *models, const tco_rank_row *rows, size_t n,
                                  const tco_rank_sheet *sheet, const char *path, const tco_workbook_options *opts,
                                  tco_diag *diag)
{
    if (n < 1 || n > 26)
        return tco_diag_set(diag, TCO_ERR_USAGE, "a Rank workbook takes 1 to 26 options, found %zu", n);
    if (sheet->key >= sheet->n_columns || sheet->tie >= sheet->n_columns || sheet->speed >= sheet->n_columns)
        return tco_diag_set(diag, TCO_ERR_USAGE, "a Rank sheet ranks by two of its own columns");
    size_t live = 0;
    while (live < n && rows[live].values == NULL)
        live++;
    for (size_t i = 0; i < n; i++)
        if ((i < live) != (rows[i].values == NULL && models[i] != NULL))
            return tco_diag_set(diag, TCO_ERR_USAGE, "a Rank workbook takes its live options (a model each) "
                                "first, then its rows of values (no model), at least one live");
    if (live == 0)
        return tco_diag_set(diag, TCO_ERR_USAGE, "a Rank workbook takes its live options (a model each) "
                            "first, then its rows of values (no model), at least one live");
    rank_ctx c = {models, rows, n, live, sheet, NULL, 0};
    tco_strbuf comments = {0};
    if (live == n)
        tco_strbuf_printf(&comments, "Generated by tco advise: %zu options, each with its sheets (A to %c), ranked "
                          "live.", n, (char)('A' + n - 1));
    else
        tco_strbuf_printf(&comments, "Generated by tco advise: %zu options, %zu live with their sheets (A to %c), "
                          "%zu as values computed by tco; ranked live.", n, live, (char)('A' + live - 1), n - live);
    tco_error e = comments.failed ? tco_diag_set(diag, TCO_ERR_NOMEM, "out of memory")
                                  : wb_write_book(path, opts, sheet->title, "TCO advice", tco_strbuf_str(&comments),
                                                  fill_rank, &c, diag);
    tco_strbuf_free(&comments);
    return e;
}
