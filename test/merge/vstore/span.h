/* The span loop of test/merge/vstore's drivers: strspn in small, its body testing each byte
 * against a set (so its exits are many states with few distinct lengths, and a CFG fallback),
 * over a string of symbolic length n <= CAP terminated by s[n] = 0. */
#ifndef VSTORE_SPAN_H
#define VSTORE_SPAN_H

#include <klee/klee.h>
#include <stddef.h>

#ifndef CAP
#define CAP 3
#endif

static int in_set(char c, const char *set) {
  for (; *set; set++)
    if (*set == c) return 1;
  return 0;
}

static unsigned span(const char *s, const char *set) {
  unsigned n = 0;
  while (s[n] && in_set(s[n], set)) n++;
  return n;
}

/* s (CAP + 1 bytes) made a symbolic string of symbolic length n <= CAP. */
static void symbolic_terminated(char *s) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, CAP + 1, "s");
  s[n] = 0;
}

#endif
