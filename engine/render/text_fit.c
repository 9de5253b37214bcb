/* text_fit.c - how wide text is and how many lines it takes in a wrapped cell, in Calibri 11 as Excel
 * lays it out: row heights, column widths and the split of a calculation sheet's label and source
 * columns (declared in workbook_kit.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/names.h"
#include "render/workbook_kit.h"

/* The share of a wrapped cell's room that its lines fill: LibreOffice (Carlito at print resolution) breaks
 * lines a little earlier than these advance widths say; at 1.00, 26 rows of cluster32 held their text in a
 * line fewer than LibreOffice needs (tests/row_heights_test.py: Cash flow row 25's first line over the row
 * above); at 0.97 still 5 of the rows of cluster32, team, solo and team-70b-dm2; at 0.95 none of the rows
 * of the shipped budgets (with quotes, risk and sensitivity), advice and comparison. */
#define WRAP_FILL 0.95

/* Advance widths of Calibri's printable ASCII characters (32 to 126), in 1/2048 of an em: the default
 * font of every workbook tco writes (Carlito, which LibreOffice prints it with, has the same metrics). */
static const unsigned short calibri_width[95] = {
    463,  667,  821,  1020, 1038, 1463, 1397, 452,  621,  621,  1020, 1020, 511,  627,  517,  792,  /*  !"#$%&'()*+,-./ */
    1038, 1038, 1038, 1038, 1038, 1038, 1038, 1038, 1038, 1038, 548,  548,  1020, 1020, 1020, 941,  /* 0-9:;<=>? */
    1823, 1185, 1114, 1092, 1260, 1000, 941,  1292, 1276, 516,  653,  1064, 861,  1751, 1322, 1356, /* @A-O */
    1058, 1378, 1112, 941,  998,  1314, 1162, 1822, 1063, 998,  959,  627,  792,  627,  1020, 1020, /* P-Z[\]^_ */
    567,  981,  1076, 866,  1076, 1019, 625,  964,  1076, 470,  490,  931,  470,  1636, 1076, 1080, /* `a-o */
    1076, 1076, 714,  801,  686,  1076, 925,  1464, 887,  927,  809,  640,  943,  640,  1020,       /* p-z{|}~ */
};

/* Width of one character (its first byte @p c) at 11 points in pixels, as Excel lays it out (a digit 7
 * pixels, the unit of a column's width); a UTF-8 sequence counts as wide as a capital, its continuation
 * bytes nothing. */
static double char_px(unsigned char c)
{
    if (c >= 32 && c < 127)
        return calibri_width[c - 32] * 7.0 / 1038;
    return (c & 0xC0) == 0x80 || c < 32 ? 0 : 1300 * 7.0 / 1038;
}

/* A word of a text, measured: its bytes and width in pixels (char_px()); n == 0: a newline. */
typedef struct wb_word {
    const char *p;
    size_t n;
    double px;
} wb_word;

/* The next word of *@p p (spaces skipped) into @p w, *@p p moved past it; false at the text's end. */
static bool next_word(const char **p, wb_word *w)
{
    while (**p == ' ')
        (*p)++;
    if (**p == '\0')
        return false;
    w->p = *p, w->n = **p == '\n' ? 0 : strcspn(*p, " \n"), w->px = 0;
    for (size_t k = 0; k < w->n; k++)
        w->px += char_px((unsigned char)(*p)[k]);
    *p += w->n ? w->n : 1;
    return true;
}

/* Word @p w laid after the @p x pixels of the current line, @p room wide, as Excel wraps: at spaces (a
 * word wider than the line breaks anywhere); a newline starts a line. */
static void place_word(const wb_word *w, double room, double *x, size_t *lines)
{
    double at = *x > 0 ? *x + char_px(' ') : 0;
    if (w->n == 0) {
        (*lines)++, *x = 0;
    } else if (at + w->px <= room) {
        *x = at + w->px;
    } else if (w->px <= room) {
        (*lines)++, *x = w->px;
    } else { /* broken wherever the line is full */
        if (*x > 0)
            (*lines)++;
        *x = 0;
        for (size_t k = 0; k < w->n; k++) {
            double c = char_px((unsigned char)w->p[k]);
            if (*x + c > room)
                (*lines)++, *x = 0;
            *x += c;
        }
    }
}

/* The pixels a wrapped cell of a column @p width characters wide fills before it starts a line: the
 * column's pixels (7 a character and 5) less the cell's padding and an indent, counted full at
 * WRAP_FILL of them, as LibreOffice wraps a little earlier than the metrics say. */
static double wb_wrap_room(size_t width)
{
    return ((double)width * 7 + 5 - 14) * WRAP_FILL;
}

/* Lines @p text takes in a wrapped column @p width characters wide (place_word()), in Calibri 11
 * (char_px()), within the column's pixels (7 a character and 5) less the cell's padding and an indent. */
size_t wb_text_lines(const char *text, size_t width)
{
    if (text == NULL || *text == '\0')
        return 0;
    double room = wb_wrap_room(width), x = 0;
    size_t lines = 1;
    wb_word w;
    for (const char *p = text; next_word(&p, &w);)
        place_word(&w, room, &x, &lines);
    return lines;
}

/* A right-aligned header's padding: the cell's margins, no indent. */
#define HEADER_PAD_PX 9

/* Calls @p piece for each piece of @p text a header line may not break: words, split after a hyphen; a
 * space before the piece (@p space) when it does not start a word or a line of the text. */
static void header_pieces(const char *text, void (*piece)(double px, bool space, bool newline, void *ctx), void *ctx)
{
    double x = 0;
    bool space = false, newline = false, started = false;
    for (const char *p = text ? text : ""; *p; p++) {
        if (*p == ' ' || *p == '\n') {
            if (started)
                piece(x, space, newline, ctx);
            space = *p == ' ', newline = *p == '\n', started = false, x = 0;
            continue;
        }
        x += char_px((unsigned char)*p);
        started = true;
        if (*p == '-' && p[1] && p[1] != ' ' && p[1] != '\n') {
            piece(x, space, newline, ctx);
            space = newline = false, started = false, x = 0;
        }
    }
    if (started)
        piece(x, space, newline, ctx);
}

static void widest_piece(double px, bool space, bool newline, void *ctx)
{
    (void)space, (void)newline;
    double *widest = ctx;
    if (px > *widest)
        *widest = px;
}

double wb_header_width(const char *text, double min)
{
    double widest = 0;
    header_pieces(text, widest_piece, &widest);
    double need = ceil((widest + HEADER_PAD_PX - 5) / 7);
    return need > min ? need : min;
}

struct header_fill {
    double room, x;
    size_t lines;
};

static void fill_piece(double px, bool space, bool newline, void *ctx)
{
    struct header_fill *f = ctx;
    double at = f->x > 0 && space ? f->x + char_px(' ') : f->x;
    if (newline || (f->x > 0 && at + px > f->room))
        f->lines++, at = 0;
    f->x = at + px;
}

size_t wb_header_lines(const char *text, double width)
{
    if (text == NULL || *text == '\0')
        return 0;
    struct header_fill f = {width * 7 + 5 - HEADER_PAD_PX, 0, 1};
    header_pieces(text, fill_piece, &f);
    return f.lines;
}

double wb_text_width(const char *text, double min)
{
    double px = 0;
    for (const char *p = text ? text : ""; *p; p++)
        px += char_px((unsigned char)*p);
    double need = ceil((px + 14 - 5) / 7);
    return need > min ? need : min;
}

/* A text of wb_split_label_width() measured once: its words (v[first] on, n of them), and its width on
 * one line (HUGE_VAL with a newline): no wider than the room, it takes one line, as wb_text_lines() says,
 * since x only grows word by word. */
typedef struct measured {
    const char *text;
    size_t first, n;
    double one;
} measured;

/* The distinct texts of one wb_split_label_width() question (text 0 is the empty text), their words, and
 * its distinct rows: a label and a source (texts a and b) and how many rows have them. */
typedef struct split_pool {
    measured *t;
    size_t n_t, cap_t;
    wb_word *v;
    size_t n_v, cap_v;
    size_t *a, *b, *count, n_rows;
    size_t *slots, mask; /* open addressing over texts, then over rows: index + 1, 0 free */
} split_pool;

/* wb_text_lines() of measured text @p t (its words in @p v) in @p room pixels. */
static size_t measured_lines(const measured *t, const wb_word *v, double room)
{
    if (t->text == NULL)
        return 0;
    if (t->one <= room)
        return 1;
    double x = 0;
    size_t lines = 1;
    for (size_t k = 0; k < t->n; k++)
        place_word(&v[t->first + k], room, &x, &lines);
    return lines;
}

static bool grow_to(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? 2 * *cap : 1024;
    void *more = realloc(*p, cap2 * size);
    if (more != NULL)
        *p = more, *cap = cap2;
    return more != NULL;
}

/* The index in @p q of text @p text, measured when it is new; SIZE_MAX when out of memory. */
static size_t pool_text(split_pool *q, const char *text)
{
    if (text == NULL || *text == '\0')
        return 0;
    size_t len = strlen(text), at = (size_t)tco_fingerprint(text, len) & q->mask;
    for (; q->slots[at]; at = (at + 1) & q->mask)
        if (strcmp(q->t[q->slots[at] - 1].text, text) == 0)
            return q->slots[at] - 1;
    if (!grow_to((void **)&q->t, &q->cap_t, q->n_t + 1, sizeof *q->t))
        return SIZE_MAX;
    measured *m = &q->t[q->n_t];
    double x = 0;
    bool newline = false;
    wb_word w;
    *m = (measured){.text = text, .first = q->n_v};
    for (const char *p = text; next_word(&p, &w); q->v[q->n_v++] = w) {
        if (!grow_to((void **)&q->v, &q->cap_v, q->n_v + 1, sizeof *q->v))
            return SIZE_MAX;
        newline |= w.n == 0;
        x = (x > 0 ? x + char_px(' ') : 0) + w.px;
    }
    m->n = q->n_v - m->first, m->one = newline ? HUGE_VAL : x;
    q->slots[at] = ++q->n_t;
    return q->n_t - 1;
}

/* Measures the texts of @p n rows into @p q and counts the rows of each distinct pair; false when out of
 * memory. */
static bool pool_rows(split_pool *q, const char *const *labels, const char *const *sources, size_t n)
{
    size_t size = 16;
    while (size < 4 * n)
        size *= 2;
    q->mask = size - 1;
    q->t = calloc(1, sizeof *q->t), q->cap_t = q->n_t = 1; /* text 0: the empty text */
    q->slots = calloc(size, sizeof *q->slots);
    size_t *ta = malloc((n + 1) * sizeof *ta), *tb = malloc((n + 1) * sizeof *tb);
    bool ok = q->t && q->slots && ta && tb;
    for (size_t i = 0; ok && i < n; i++)
        ok = (ta[i] = pool_text(q, labels[i])) != SIZE_MAX && (tb[i] = pool_text(q, sources[i])) != SIZE_MAX;
    q->a = ta, q->b = tb, q->count = calloc(n + 1, sizeof *q->count);
    if (!ok || q->count == NULL)
        return false;
    memset(q->slots, 0, size * sizeof *q->slots);
    for (size_t i = 0; i < n; i++) { /* rows in place: a row's pair goes to the first row of it */
        size_t key = ta[i] * 0x9E3779B97F4A7C15u ^ tb[i], at = (key ^ key >> 29) & q->mask;
        while (q->slots[at] && (ta[q->slots[at] - 1] != ta[i] || tb[q->slots[at] - 1] != tb[i]))
            at = (at + 1) & q->mask;
        if (q->slots[at] == 0) {
            ta[q->n_rows] = ta[i], tb[q->n_rows] = tb[i];
            q->slots[at] = ++q->n_rows;
        }
        q->count[q->slots[at] - 1]++;
    }
    return true;
}

size_t wb_split_label_width(const char *const *labels, const char *const *sources, size_t n, size_t total,
                            size_t min)
{
    if (total < 2 * min)
        return min;
    split_pool q = {0};
    bool pooled = pool_rows(&q, labels, sources, n);
    size_t best = min, best_lines = SIZE_MAX, rows = pooled ? q.n_rows : n;
    for (size_t label = min; label + min <= total; label++) {
        size_t lines = 0;
        double room_a = wb_wrap_room(label), room_b = wb_wrap_room(total - label);
        for (size_t i = 0; i < rows && lines <= best_lines; i++) {
            size_t a = pooled ? measured_lines(&q.t[q.a[i]], q.v, room_a) : wb_text_lines(labels[i], label);
            size_t b = pooled ? measured_lines(&q.t[q.b[i]], q.v, room_b) : wb_text_lines(sources[i], total - label);
            lines += (a > b ? a : b) * (pooled ? q.count[i] : 1);
        }
        if (lines <= best_lines)
            best = label, best_lines = lines;
    }
    free(q.t), free(q.v), free(q.a), free(q.b), free(q.count), free(q.slots);
    return best;
}
