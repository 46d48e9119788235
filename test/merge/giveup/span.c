/*
 * A loop that pays: the span of 'a' bytes over a string of symbolic length n <= 64, with a
 * diamond in the body (memspn's `found` flag). Every iteration that goes on takes one path
 * (the side without the flag leaves at once), so the region's tree is estimated at about the
 * number of iterations: it never gives up, and the states at its exit merge.
 * EXPECT: giveup=0
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 64

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t i = 0;
  for (; i < n; i++) {
    int found = 0;
    if (s[i] == 'a') found = 1;
    if (!found) break;
  }
  klee_assert(i <= n);
  return 0;
}
