/*
 * text.c — the growable text buffer the JSON writer and the output formats append to (see
 * text.h): doubling growth through xalloc, formatted appends in one pass when they fit.
 */
#include "engine/core/text.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

static void grow(text_buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  b->s = xrealloc(b->s, cap);
  b->cap = cap;
}

void text_add(text_buf *b, const char *s, size_t n) {
  grow(b, n);
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

void text_puts(text_buf *b, const char *s) { text_add(b, s, strlen(s)); }

void text_putc(text_buf *b, char c) { text_add(b, &c, 1); }

void text_printf(text_buf *b, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  assert(n >= 0 && "a format symq cannot print");
  if ((size_t)n < sizeof small) {
    text_add(b, small, (size_t)n);
    return;
  }
  grow(b, (size_t)n);
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void text_free(text_buf *b) {
  free(b->s);
  *b = (text_buf){0};
}

void text_format_to(char *dst, size_t size, const char *fmt, ...) {
  if (!dst || size == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dst, size, fmt, ap);
  va_end(ap);
}
