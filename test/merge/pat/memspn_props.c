/*
 * memspn's result checked by the solver on PAT's merged states (pat-merge.md §5): after the
 * loop, count is K and the pc holds ∀i ≤ K. s[i−1] = 'a'; each property below must follow
 * from it (no error), and the last one is false on one path (one error in every mode).
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 6
#endif

static size_t memspn(const char *s, size_t n, const char *chars, size_t nchars) {
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
  size_t count = memspn(s, n, "a", 1);
  klee_assert(count <= n);
  if (count < n) klee_assert(s[count] != 'a');
  else klee_assert(count == n);
  if (count > 0) klee_assert(s[count - 1] == 'a');
  if (count > 2) klee_assert(s[0] == 'a' && s[1] == 'a');
  klee_assert(count != 3 || n != 5); /* false for "aaa?x" */
  return 0;
}
