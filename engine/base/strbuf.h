/*
 * strbuf.h - a growable, always NUL-terminated byte string.
 *
 * Used wherever tco builds text of unknown length (formula text, JSON, messages
 * longer than a diagnostic).  Never overflows: on allocation failure the buffer
 * keeps its previous content and `failed` is set, which callers check once at
 * the end (tco_strbuf_take() returns NULL then).
 */
#ifndef TCO_STRBUF_H
#define TCO_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/** A growable string.  Zero-initialise ({0}) before use. */
typedef struct tco_strbuf {
    /** Heap buffer, NUL-terminated once anything was appended; may be NULL if empty. */
    char *data;
    /** Bytes used, excluding the NUL. */
    size_t len;
    /** Bytes allocated. */
    size_t cap;
    /** Set when an allocation failed; later appends are ignored. */
    bool failed;
} tco_strbuf;

/** Append @p n bytes of @p s. */
void tco_strbuf_append_n(tco_strbuf *b, const char *s, size_t n);
/** tco_strbuf_append_n() inline when the @p n bytes fit the room the buffer has (short pieces of formula
 *  and reference text, written many times over); otherwise that call. */
static inline void tco_strbuf_put(tco_strbuf *b, const char *s, size_t n)
{
    if (!b->failed && b->cap - b->len > n) { /* cap is 0 while data is NULL */
        memcpy(b->data + b->len, s, n);
        b->len += n;
        b->data[b->len] = '\0';
    } else {
        tco_strbuf_append_n(b, s, n);
    }
}
/** Empty @p b, keeping its allocation for the next text; an earlier failure is forgotten (the buffer freed). */
void tco_strbuf_clear(tco_strbuf *b);
/** Append the NUL-terminated string @p s. */
void tco_strbuf_append(tco_strbuf *b, const char *s);
/** Append printf-style formatted text from a va_list (which it consumes, as vprintf). */
void tco_strbuf_vprintf(tco_strbuf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/** Append printf-style formatted text. */
void tco_strbuf_printf(tco_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/** The current text; "" when empty.  Valid until the next append or free. */
const char *tco_strbuf_str(const tco_strbuf *b);
/**
 * Hand the heap string to the caller (who frees it) and reset @p b.
 * Returns NULL if an allocation failed at any point (the buffer is freed).
 */
char *tco_strbuf_take(tco_strbuf *b);
/** Release the buffer and reset @p b to empty. */
void tco_strbuf_free(tco_strbuf *b);

#endif /* TCO_STRBUF_H */
