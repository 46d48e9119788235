/*
 * memspn over the characters "ab": the prefix of s[0..n) made of 'a' and 'b' bytes. Each
 * byte compares against two characters, so plain forking explores 3 outcomes per byte
 * ('a', 'b', neither): exponential in CAPACITY. Incremental merging (the paper's §4) makes
 * it linear; standard merging merges per loop exit.
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 6
#endif

size_t memspn(const char *s, size_t n, const char *chars, size_t nchars) {
  size_t i = 0;
  for (; i < n; i++) {
    int found = 0;
    for (size_t j = 0; j < nchars; j++)
      if (s[i] == chars[j]) found = 1;
    if (!found) break;
  }
  return i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t count = memspn(s, n, "ab", 2);
  klee_assert(count <= n);
  return 0;
}
