/*
 * text — a growable NUL-terminated text buffer, and bounded formatting into a fixed one.
 * A text_buf starts as {0}; every append keeps b->s NUL-terminated (b->s stays NULL until
 * the first append) and allocates through xalloc, so an append never fails. text_free
 * releases it. text_format_to writes at most size bytes into dst (nothing when dst is NULL
 * or size is 0): for the error strings callers hand in.
 */
#ifndef SYMQ_TEXT_H
#define SYMQ_TEXT_H

#include <stddef.h>

typedef struct text_buf {
  char *s;
  size_t len, cap;
} text_buf;

void text_add(text_buf *b, const char *s, size_t n);
void text_puts(text_buf *b, const char *s);
void text_putc(text_buf *b, char c);
void text_printf(text_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void text_free(text_buf *b);

void text_format_to(char *dst, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
