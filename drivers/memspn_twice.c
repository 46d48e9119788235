/*
 * memspn's result fed into a second memspn (the paper's Fig. 1–2 motivation): the 'a' prefix,
 * then the 'b' run after it. Forking explores O(CAPACITY²) paths; standard merging keeps the
 * second loop's states apart per first-loop exit (quadratic ite terms); pattern-based merging
 * stays linear.
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 10
#endif

static size_t span(const char *s, size_t n, char c) {
  size_t i = 0;
  for (; i < n; i++)
    if (s[i] != c) break;
  return i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t a = span(s, n, 'a');
  size_t b = span(s + a, n - a, 'b');
  klee_assert(a + b <= n);
  return 0;
}
