/*
 * forks_then_memspn — four paths fork on a symbolic mode before a memspn loop over a buffer
 * of symbolic size: `symq run --jobs 2` hands those paths to parts, and each part's memspn
 * loop opens its own merge region (--merge=pat), as in the single run.
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAPACITY 6

static size_t span(const char *s, size_t n, char c) {
  size_t i = 0;
  for (; i < n; i++)
    if (s[i] != c) break;
  return i;
}

int main(void) {
  unsigned mode;
  size_t n;
  klee_make_symbolic(&mode, sizeof mode, "mode");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char c = 'a';
  if (mode & 1) c = 'b';
  if (mode & 2) c = (char)(c + 2);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t count = span(s, n, c);
  klee_assert(count <= n);
  return 0;
}
