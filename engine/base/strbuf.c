/* strbuf.c - growable strings. */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(tco_strbuf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) {
        if (cap > ((size_t)-1) / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (p == NULL) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void tco_strbuf_append_n(tco_strbuf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void tco_strbuf_clear(tco_strbuf *b)
{
    if (b->failed)
        tco_strbuf_free(b);
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void tco_strbuf_append(tco_strbuf *b, const char *s)
{
    tco_strbuf_append_n(b, s, strlen(s));
}

/* Formatted once where the text fits, in the buffer's free room or (an empty buffer) 256 bytes of
 * stack, and a second time only into room made for a longer text (it was measured by one vsnprintf()
 * and written by another every time: two passes of printf's format parsing per call). */
void tco_strbuf_vprintf(tco_strbuf *b, const char *fmt, va_list ap)
{
    if (b->failed)
        return;
    char local[256];
    char *at = b->data ? b->data + b->len : local;
    size_t room = b->data ? b->cap - b->len : sizeof local;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(at, room, fmt, ap);
    if (n < 0) {
        b->failed = true;
        if (b->data)
            b->data[b->len] = '\0';
    } else if ((size_t)n < room) {
        if (at == local)
            tco_strbuf_append_n(b, local, (size_t)n);
        else
            b->len += (size_t)n;
    } else if (reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    } else if (b->data)
        b->data[b->len] = '\0'; /* the cut text written into the room is not kept */
    va_end(again);
}

void tco_strbuf_printf(tco_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tco_strbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *tco_strbuf_str(const tco_strbuf *b)
{
    return b->data ? b->data : "";
}

char *tco_strbuf_take(tco_strbuf *b)
{
    if (b->failed) {
        tco_strbuf_free(b);
        return NULL;
    }
    char *s = b->data ? b->data : calloc(1, 1) /* "" */;
    b->data = NULL;
    b->len = b->cap = 0;
    return s;
}

void tco_strbuf_free(tco_strbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
}
