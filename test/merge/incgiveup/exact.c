/*
 * stall.c's loop at n <= 8, explored to the end: the region gives up (its 511 paths pass the
 * test's --max-region-states of 256) before it could merge anything (no two sides join), so
 * pat-inc must explore exactly none's paths, each once — the same completed paths, tests and
 * instructions — whatever the give-up resumed, in whatever order.
 * EXPECT: exact
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 8

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1), out[2 * CAP + 1], *p = out;
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '$') *p++ = '\\';
    *p++ = s[i];
  }
  *p = 0;
  klee_assert(p - out <= 2 * (long)n);
  return 0;
}
