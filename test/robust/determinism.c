/* determinism: forks, a loop over a buffer of symbolic size (a merge region under
 * --merge=cfg), errors found on some paths and a libc call, so that the searches order
 * states differently and every output file has something to differ in. */
#include <klee/klee.h>
#include <stdlib.h>
#include <string.h>

static size_t span(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && s[i] == 'a') i++;
  return i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 6);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  size_t m = span(s, n);
  if (x > 100 && m == 3) {
    int a[4] = {0};
    a[x & 7] = 1; /* out of bounds for some x */
  }
  if (x < -5 && strlen(s) == 2) klee_assert(m != 2);
  free(s);
  return (int)m;
}
