/*
 * A loop over a string of symbolic length n <= 40 whose body forks on every byte and whose
 * sides cannot be joined by --incremental-merge: a '$' is escaped, so the two sides leave the
 * output pointer p at different places (an address: merge/incremental.c's address_differs)
 * and no two states are ever equal. Breadth-first, the region's frontier doubles every byte;
 * every path waits — for its turn or at an exit — for all 2^n: no path completes within the
 * budget. The region gives up once more than --max-region-states states wait, for their turn
 * and at the exits together, and its states go on forked: pat-inc completes about as many
 * paths as none within the same instruction budget.
 * EXPECT: stall max-instructions=60000
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 40

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
