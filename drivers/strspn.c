/* A strspn-style loop: the length of the prefix of a NUL-terminated buffer of symbolic size
 * made of digits (a range test per byte: three outcomes). */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 8
#endif

static size_t digits(const char *s) {
  size_t i = 0;
  while (s[i] >= '0' && s[i] <= '9')
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
  size_t k = digits(s);
  klee_assert(k <= n);
  return (int)k;
}
