/*
 * memspn — the example of "State Merging with Quantifiers" (Trabish et al.): the length of
 * the longest prefix of s[0..n) made only of the bytes in `chars`, over a buffer whose
 * length n is symbolic (0 ≤ n ≤ CAPACITY).
 *
 * Plain forking explores 2·CAPACITY + 1 paths: for each count m, either s[0..m) are all 'a'
 * and m = n, or they are and s[m] ≠ 'a' with m < n. Pattern-based merging folds them into
 * one state per loop exit.
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 10
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

/* The paper's driver idiom: a buffer of symbolic size n + 1 (n ≤ CAPACITY), terminated. */
int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t count = memspn(s, n, "a", 1);
  klee_assert(count <= n);
  return 0;
}
