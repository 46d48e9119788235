/* Nested loops: the lengths of the first n ≤ ROWS rows of a table, each row a buffer of
 * symbolic size len[r] ≤ CAPACITY (KLEE's idiom, terminated at len[r]) whose bytes may hold
 * an early NUL. Forking makes Σ_{k ≤ ROWS} (CAPACITY + 1)^k paths; under --merge=pat each
 * row's loop is merged first (one ∀-merged state per row reached) and the outer loop's
 * ROWS + 1 exits continue forked (a ∀ nested in a ∀ is not expressible). */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 10
#endif
#define ROWS 3

static size_t length(const char *s) {
  size_t i = 0;
  while (s[i])
    i++;
  return i;
}

int main(void) {
  char *row[ROWS];
  size_t len[ROWS], n, total = 0;
  klee_make_symbolic(len, sizeof len, "len");
  for (int r = 0; r < ROWS; r++) {
    klee_assume(len[r] <= CAPACITY);
    row[r] = malloc(len[r] + 1);
    klee_make_symbolic(row[r], len[r] + 1, "row");
    row[r][len[r]] = 0;
  }
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= ROWS);
  for (size_t r = 0; r < n; r++)
    total += length(row[r]);
  klee_assert(total <= n * CAPACITY);
  return (int)total;
}
