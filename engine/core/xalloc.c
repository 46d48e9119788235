/*
 * xalloc.c — allocation that cannot fail, the out-of-memory boundary and the fault
 * injection of its tests (contract in xalloc.h).
 */
#include "engine/core/xalloc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long countdown; /* allocations until the one that fails; 0: none fails */
static void (*oom_handler)(void);

/* SYMQ_FAIL_ALLOC is read before main, so that its count starts with the first allocation
 * of any symq command (a symq that symq starts, as compare does, counts afresh). */
__attribute__((constructor)) static void read_fail_alloc(void) {
  const char *s = getenv("SYMQ_FAIL_ALLOC");
  if (s && *s) countdown = strtoul(s, NULL, 10);
}

void xalloc_fail_after(unsigned long n) { countdown = n; }

void xalloc_on_oom(void (*handler)(void)) { oom_handler = handler; }

/* True when this allocation is the one chosen to fail. Off, it costs a load and a branch:
 * symq allocates tens of millions of times in a long run. */
static inline bool injected_failure(void) { return countdown && --countdown == 0; }

_Noreturn void xalloc_oom(void) {
  static bool ending; /* an allocation made by the handler must not call it again */
  if (!ending) {
    ending = true;
    if (oom_handler) oom_handler();
  }
  fflush(stdout); /* what was printed before stays printed; nothing here allocates */
  fputs("symq: fatal: out of memory\n", stderr);
  _exit(XALLOC_OOM_STATUS);
}

void *xalloc_try_realloc(void *p, size_t n) {
  if (injected_failure()) return NULL;
  return realloc(p, n ? n : 1);
}

void *xmalloc(size_t n) {
  void *p = injected_failure() ? NULL : malloc(n ? n : 1);
  if (!p) xalloc_oom();
  return p;
}

void *xcalloc(size_t n, size_t size) {
  void *p = injected_failure() ? NULL : calloc(n ? n : 1, size ? size : 1);
  if (!p) xalloc_oom();
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = injected_failure() ? NULL : realloc(p, n ? n : 1);
  if (!q) xalloc_oom();
  return q;
}

void *xreallocarray(void *p, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) xalloc_oom();
  return xrealloc(p, n * size);
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = xmalloc(n);
  memcpy(d, s, n);
  return d;
}

char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) xalloc_oom(); /* glibc fails only for want of memory (or a bad format) */
  char *s = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

FILE *xopen_memstream(char **buf, size_t *len) {
  FILE *f = injected_failure() ? NULL : open_memstream(buf, len);
  if (!f) xalloc_oom();
  return f;
}
