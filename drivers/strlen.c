/* A strlen-style loop over a buffer of symbolic size whose bytes may hold an early NUL: one
 * path per length. */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 10
#endif

static size_t length(const char *s) {
  size_t i = 0;
  while (s[i])
    i++;
  return i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t len = length(s);
  klee_assert(len <= n);
  return (int)len;
}
