/*
 * stall.c's loop with a second branch in the body, on a space, whose sides join (they differ
 * only in the count `spaces`: an ite): the region merges nodes incrementally before its
 * frontier — still doubling on the '$' — passes the test's --max-region-states and it gives
 * up. The snapshots left are dropped (never merged after the give-up), and every path is
 * still explored once: every merge validates, and every path that ended has its one test.
 * EXPECT: merged
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 8

int main(void) {
  size_t n, spaces = 0;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1), out[2 * CAP + 1], *p = out;
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == ' ') spaces++;
    if (s[i] == '$') *p++ = '\\';
    *p++ = s[i];
  }
  *p = 0;
  klee_assert(p - out <= 2 * (long)n && spaces <= n);
  return 0;
}
