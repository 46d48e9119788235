/* N symbolic choices that change a value no check reads, then a loop over a buffer of
 * symbolic size (merged by --merge=pat|cfg), then a check on the merged value: the merged
 * state's subtree gives the node at the loop's entry its interpolant (with what the merge
 * relied on), so every later state there is subsumed — forks grow linearly in N. */
#include <assert.h>
#include <klee/klee.h>
#include <stdlib.h>

#include "choices.h"
#include "merged_span.h"
int main(void) {
  size_t n, span;
  int p[N];
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  klee_make_symbolic(p, sizeof p, "p");
  s[n] = 0;
  int noise = 0;
  NOISE_CHOICES(p, noise);
  SPAN_OF_A(s, n, span);
  assert(span <= n);
  return 0;
}
