/* Nested loops whose inner loop leaves no ∀: the sum of the symbolic lengths len[r] ≤ CAPACITY
 * of the first n ≤ ROWS rows, counted byte by byte. Forking makes Σ_{k ≤ ROWS}
 * (CAPACITY + 1)^k paths; under --merge=pat each row's loop is merged first (K = len[r], a
 * cell of the outer region's array) and the outer loop's exits merge by pattern too where the
 * cost estimate lets them (--merge-decide=always: one state after the nest). */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 10
#endif
#define ROWS 3

int main(void) {
  size_t len[ROWS], n, total = 0;
  klee_make_symbolic(len, sizeof len, "len");
  for (int r = 0; r < ROWS; r++)
    klee_assume(len[r] <= CAPACITY);
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= ROWS);
  for (size_t r = 0; r < n; r++)
    for (size_t j = 0; j < len[r]; j++)
      total++;
  klee_assert(total <= n * CAPACITY);
  return (int)total;
}
