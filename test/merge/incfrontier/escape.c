/*
 * A loop over a string of symbolic length n <= CAP whose body forks on every byte and whose
 * sides cannot be joined by --incremental-merge: a '$' is escaped, so the two sides leave the
 * output pointer p at different places (an address) and no two states are equal. Breadth-
 * first, the region's frontier doubles every byte and merging never collapses it: the queue
 * of states waiting for their turn holds about half the forks made. test/merge/incfrontier.py
 * runs it under an instruction budget with the default --max-region-states (4,096): the region
 * must give up as soon as its queue is long (256 states), on its share of the forks, not when
 * 4,096 states wait.
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
