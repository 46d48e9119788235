/*
 * xalloc — allocation that cannot fail: out of memory ends the run through expr_oom (one
 * message, abort), so callers never check for NULL. A size of 0 still yields a unique
 * pointer that free() accepts.
 */
#ifndef SYMQ_XALLOC_H
#define SYMQ_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
