/* A strchr-style loop over a NUL-terminated buffer of symbolic size: the first 'x' or the
 * end. Two loop exits (found, end of string). */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 10
#endif

static const char *find(const char *s, char c) {
  for (; *s; s++)
    if (*s == c) return s;
  return NULL;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  const char *p = find(s, 'x');
  klee_assert(!p || (p >= s && p < s + n && *p == 'x'));
  return p ? (int)(p - s) : -1;
}
