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

static void (*oom_handler)(void);

/* Fault injection costs nothing while it is off (symq allocates tens of millions of times
 * in a long run): the allocators are called through these pointers, which point at the C
 * library's own functions until xalloc_fail_after arms the counting ones. */
static unsigned long countdown; /* allocations until the one that fails; 0: none fails */
static void *(*call_malloc)(size_t) = malloc;
static void *(*call_calloc)(size_t, size_t) = calloc;
static void *(*call_realloc)(void *, size_t) = realloc;

/* True when this allocation is the one chosen to fail (which disarms the injection). */
static bool injected_failure(void) {
  if (!countdown || --countdown) return false;
  xalloc_fail_after(0);
  return true;
}

static void *counted_malloc(size_t n) { return injected_failure() ? NULL : malloc(n); }

static void *counted_calloc(size_t n, size_t size) {
  return injected_failure() ? NULL : calloc(n, size);
}

static void *counted_realloc(void *p, size_t n) {
  return injected_failure() ? NULL : realloc(p, n);
}

void xalloc_fail_after(unsigned long n) {
  countdown = n;
  call_malloc = n ? counted_malloc : malloc;
  call_calloc = n ? counted_calloc : calloc;
  call_realloc = n ? counted_realloc : realloc;
}

/* SYMQ_FAIL_ALLOC is read before main, so that its count starts with the first allocation
 * of any symq command (a symq that symq starts, as compare does, counts afresh). */
__attribute__((constructor)) static void read_fail_alloc(void) {
  const char *s = getenv("SYMQ_FAIL_ALLOC");
  if (s && *s) xalloc_fail_after(strtoul(s, NULL, 10));
}

void xalloc_on_oom(void (*handler)(void)) { oom_handler = handler; }

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

void *xalloc_try_realloc(void *p, size_t n) { return call_realloc(p, n ? n : 1); }

void *xmalloc(size_t n) {
  void *p = call_malloc(n ? n : 1);
  if (!p) xalloc_oom();
  return p;
}

void *xcalloc(size_t n, size_t size) {
  void *p = call_calloc(n ? n : 1, size ? size : 1);
  if (!p) xalloc_oom();
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = call_realloc(p, n ? n : 1);
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
