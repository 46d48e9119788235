/* The bug is reachable only through the merged state: x's branch comes first, its false side
 * (x > 5, explored first) is safe only because of x > 5, which the node at the loop's entry
 * must keep in its interpolant although the check runs in the merged state; the other side
 * (x <= 5) is then not subsumed there, and reaches reach_error (x = 3, span = 2). */
#include <klee/klee.h>
#include <stdlib.h>

#include "merged_span.h"
void reach_error(void);
int main(void) {
  size_t n, span;
  int x;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  klee_make_symbolic(&x, sizeof x, "x");
  s[n] = 0;
  int noise = 0;
  if (x <= 5) noise += 1;
  else
    noise -= 1;
  SPAN_OF_A(s, n, span);
  if (x == 3 && span == 2) reach_error();
  return 0;
}
