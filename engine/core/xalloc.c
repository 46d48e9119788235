#include "engine/core/xalloc.h"

#include <stdlib.h>
#include <string.h>

#include "engine/core/expr.h"

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) expr_oom();
  return p;
}

void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) expr_oom();
  return p;
}

void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) expr_oom();
  return p;
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = xmalloc(n);
  memcpy(d, s, n);
  return d;
}
