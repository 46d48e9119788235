/*
 * escape.c's loop at a capacity of 8: 2^8 paths through it, fewer than --max-region-states,
 * so the estimate keeps the region open to the end and its states at the exits are merged
 * (a region that doubles its paths per byte still merges while that pays off in time).
 * EXPECT: giveup=0
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 8

static int special(char c) { return c == '$'; }

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t need = 0;
  for (size_t i = 0; i < n; i++) {
    if (special(s[i])) need++;
    need++;
  }
  klee_assert(need <= 2 * n);
  return 0;
}
