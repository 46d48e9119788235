/* A loop over a buffer of symbolic size (merged by --merge=pat|cfg), then N symbolic choices
 * that change a value no check reads, then checks on the merged value and another input:
 * proved true, and the states at the choices, all below the merged state, are subsumed —
 * forks grow linearly in N. */
#include <assert.h>
#include <klee/klee.h>
#include <stdlib.h>

#include "choices.h"
#include "merged_span.h"
int main(void) {
  size_t n, span;
  int p[N], y;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  klee_make_symbolic(p, sizeof p, "p");
  klee_make_symbolic(&y, sizeof y, "y");
  s[n] = 0;
  SPAN_OF_A(s, n, span);
  int noise = 0;
  NOISE_CHOICES(p, noise);
  assert(span <= n);
  if (y > 1000) assert(y != 999);
  return 0;
}
