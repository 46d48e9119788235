/* Paths that die inside a region while incremental merging runs: memspn over "ab" whose
 * loop also reads the byte after a 'b' (its value unused) — out of bounds when that 'b' is
 * the last byte — so some members end with a pointer error inside the loop while others merge.
 * Nothing above such a path may be merged away (its test is written), and the errors must
 * be those of plain forking. */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 4
#endif

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  size_t i = 0;
  for (; i < n; i++) {
    int found = 0;
    if (s[i] == 'a') found = 1;
    if (s[i] == 'b') {
      found = 1;
      char next = s[i + 1]; /* out of bounds when i + 1 == n; the value is dead */
      (void)next;
    }
    if (!found) break;
  }
  klee_assert(i <= n);
  return 0;
}
