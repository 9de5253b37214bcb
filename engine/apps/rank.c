/* rank.c - a Rank workbook: the options an advice lists, one row each, the live ones' figures formulas
 * over each option's own sheets (written as in a comparison, compare.c), the others' the values tco
 * computed, all ranked by a live formula with the advisor's tie-break (rank.h, tco_workbook_write_rank()). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/formula.h"
#include "render/workbook_kit.h"
#include "apps/rank.h"
#include "render/compare.h"

/* The Rank sheet's columns before the figures, and after them. */
enum { RK_RANK = 0, RK_OPTION = 1, RK_SHEETS = 2, RK_FIGURES = 3 };
/* Widths in characters of the Option column and of the reasons (wrapped) after the figures: at least
 * RK_WHY_WIDTH, as wide as their page leaves beside Rank and Option (why_width()). */
#define RK_OPTION_WIDTH 30
#define RK_WHY_WIDTH 100
/* Widths in characters of the Sheets column and of each figure or value column. */
#define RK_SHEETS_WIDTH 13
#define RK_FIGURE_WIDTH 13

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

/* A label of the lines below the table, in the Option column: wrapped, its row as tall as it needs. */
static void write_label(writer *w, lxw_worksheet *ws, int row, const char *label)
{
    wb_write_text(w, ws, row, RK_OPTION, label, w->text_wrap);
    wb_set_row_lines(w, ws, row, wb_text_lines(label, RK_OPTION_WIDTH));
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
    static const char *const heads[] = {"Best (rank 1)", "Runner-up (rank 2)"};
    for (int k = 0; k < 2; k++) {
        write_label(w, ws, row + k, heads[k]);
        f.len = 0;
        tco_strbuf_printf(&f, "=IF(COUNT(%s)>=%d,INDEX(%s,MATCH(%d,%s,0)),\"none: %s\")", R, k + 1, L, k + 1, R,
                          k ? "fewer than two options ranked" : "no option ranked");
        int at = row_ranked(ranks, c->n_rows, k + 1);
        const char *cached = at >= 0 ? c->rows[at].label : k ? "none: fewer than two options ranked"
                                                              : "none: no option ranked";
        wb_write_formula_or_text(w, ws, row + k, RK_SHEETS, tco_strbuf_str(&f), w->text, 0, cached);
    }
    write_label(w, ws, row + 2, "Best: cheaper per unit than the runner-up");
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
        write_label(w, ws, row + 3, "tco advise, at the inputs as written");
        wb_write_across(w, ws, row + 3, RK_SHEETS, candidate_col(c->sheet) + 1, c->sheet->explanation,
                        w->text_wrap);
    }
    if (c->sheet->question) { /* the options' other sheets are hidden: the way to a whole budget */
        f.len = 0;
        tco_strbuf_printf(&f, "tco advise %s --save-scenario FILE.ini --pick RANK, then tco --scenario FILE.ini: "
                          "the option of that rank as a scenario, and its budget workbook (every sheet)",
                          c->sheet->question);
        write_label(w, ws, row + 4, "An option's full budget workbook");
        wb_write_across(w, ws, row + 4, RK_SHEETS, candidate_col(c->sheet) + 1, tco_strbuf_str(&f),
                        w->text_wrap);
    }
    tco_strbuf_free(&ranks_r);
    tco_strbuf_free(&labels);
    tco_strbuf_free(&keys);
    tco_strbuf_free(&f);
}

/* One option's row: its rank, label, sheets, figures, candidate number, gate and reasons.  A text in a
 * narrow column ("values at run", "n.a.: fails a check") wraps within it (@p wrap_right for a figure's),
 * its row as tall as its tallest cell, so that printed text never runs into the next column's. */
static void write_row(writer *w, lxw_worksheet *ws, const rank_ctx *c, size_t i, int rank, lxw_format *const *fmts,
                      lxw_format *wrap_right, const wb_options *o, size_t why)
{
    const tco_rank_row *r = &c->rows[i];
    const tco_rank_sheet *s = c->sheet;
    int row = ROW_FIRST + (int)i, col_cand = candidate_col(s);
    tco_strbuf f = {0};
    size_t lines = 1;
    wb_write_text(w, ws, row, RK_OPTION, r->label, w->text);
    wb_check(w, worksheet_write_number(ws, (lxw_row_t)row, (lxw_col_t)col_cand, r->candidate, w->fmt[TCO_FMT_COUNT]),
             "candidate");
    if (r->reasons) {
        wb_write_text(w, ws, row, col_cand + 2, r->reasons, w->text_wrap);
        lines = wb_text_lines(r->reasons, why);
    } else if (r->passes) /* printed, the reasons' page lists every row: a passing one says so, not nothing */
        wb_write_text(w, ws, row, col_cand + 2, "none at run: every check passed", w->source);
    const char *np = r->values ? "" : o->np[i];
    rank_formula(c, row, &f);
    if (rank > 0)
        wb_write_formula(w, ws, row, RK_RANK, tco_strbuf_str(&f), w->fmt[TCO_FMT_COUNT], rank);
    else
        wb_write_formula_or_text(w, ws, row, RK_RANK, tco_strbuf_str(&f), w->text_right, 0, TCO_RANK_UNRANKED);
    if (r->values) {
        wb_write_text(w, ws, row, RK_SHEETS, TCO_RANK_VALUES, w->text_wrap);
        size_t n = wb_text_lines(TCO_RANK_VALUES, RK_SHEETS_WIDTH);
        lines = n > lines ? n : lines;
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
            if (text) {
                wb_write_text(w, ws, row, RK_FIGURES + (int)k, text, wrap_right);
                size_t n = wb_text_lines(text, RK_FIGURE_WIDTH);
                lines = n > lines ? n : lines;
            } else
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
        if (v->text && v->text[i]) {
            wb_write_text(w, ws, row, col, v->text[i], wrap_right);
            size_t n = wb_text_lines(v->text[i], RK_FIGURE_WIDTH);
            lines = n > lines ? n : lines;
        } else
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
    wb_set_row_lines(w, ws, row, lines);
    tco_strbuf_free(&f);
}

static void fill_rank(writer *base, void *vctx)
{
    const rank_ctx *c = vctx;
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
    if (ranks == NULL || fmts == NULL || vals == NULL) {
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
    int col_cand = candidate_col(s);
    /* Printed: the table one page wide (its headers wrap), then the reasons on pages of their own, with
     * Rank and Option repeated (a manual break before them; wb_print_layout() sets the scale). */
    worksheet_set_column(ws, RK_RANK, RK_RANK, 10, NULL);
    worksheet_set_column(ws, RK_OPTION, RK_OPTION, RK_OPTION_WIDTH, NULL);
    worksheet_set_column(ws, RK_SHEETS, RK_SHEETS, RK_SHEETS_WIDTH, NULL);
    worksheet_set_column(ws, RK_FIGURES, (lxw_col_t)(col_cand - 1), RK_FIGURE_WIDTH, NULL); /* "1,211,674 CNY" */
    /* A figure's text (a rejected option's "n.a.: fails a check"), right-aligned as the numbers, wrapped. */
    lxw_format *wrap_right = workbook_add_format(w->wb);
    format_set_align(wrap_right, LXW_ALIGN_RIGHT);
    format_set_text_wrap(wrap_right);
    worksheet_set_column(ws, (lxw_col_t)col_cand, (lxw_col_t)(col_cand + 1), 10, NULL);
    /* The reasons print on pages of their own beside Rank and Option, at the scale of the table (at least
     * PRINT_MIN_SCALE): as wide as those pages leave, in fewer lines (the rows of the rejected options are as
     * tall as their reasons). */
    int table_scale = wb_fit_scale(wb_cols_px(ws, RK_RANK, col_cand + 1) * PRINT_LO_WIDER);
    double room = PRINT_WIDTH_PX * 100 / (table_scale > PRINT_MIN_SCALE ? table_scale : PRINT_MIN_SCALE) /
                      PRINT_LO_WIDER - wb_cols_px(ws, RK_RANK, RK_OPTION) - 5;
    size_t why = room / 7 > RK_WHY_WIDTH ? (size_t)(room / 7) : RK_WHY_WIDTH;
    worksheet_set_column(ws, (lxw_col_t)(col_cand + 2), (lxw_col_t)(col_cand + 2), (double)why, NULL);
    wb_write_text(w, ws, ROW_TITLE, 0, s->title, w->title);
    wb_write_across(w, ws, ROW_NOTE, 0, col_cand + 1, s->note, w->note_wrap);
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
    /* The header row as tall as its tallest header (up to 3 lines); the Candidate and Checks pass headers
     * take 2. */
    size_t head = 2;
    for (size_t k = 0; k < s->n_columns + s->n_values; k++) {
        const char *t = k < s->n_columns ? s->columns[k].header : s->values[k - s->n_columns].header;
        size_t n = wb_text_lines(t, RK_FIGURE_WIDTH);
        head = n > head ? n : head;
    }
    wb_set_row_lines(w, ws, ROW_HEADER, head);
    for (size_t i = 0; w->err == TCO_OK && i < c->n_rows; i++)
        ranks[i] = rank_of(c, i);
    for (size_t i = 0; w->err == TCO_OK && i < c->n_rows; i++)
        write_row(w, ws, c, i, ranks[i], fmts, wrap_right, &o, why);
    if (w->err == TCO_OK)
        write_best(w, ws, c, ranks, ROW_FIRST + (int)c->n_rows + 1);
    lxw_col_t breaks[] = {(lxw_col_t)(col_cand + 2), 0};
    wb_check(w, worksheet_set_v_pagebreaks(ws, breaks), "page break");
    wb_check(w, worksheet_repeat_columns(ws, RK_RANK, RK_OPTION), "print titles");
    worksheet_activate(ws);
    free(ranks);
    free(fmts);
    free(vals);
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
    rank_ctx c = {models, rows, n, live, sheet};
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
