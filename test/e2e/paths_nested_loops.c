/* Nested loops over symbolic bounds n <= 3 (outer) and m <= 2 (inner), bounded with
 * klee_assume. Each loop test `i < n` / `j < m` forks while both outcomes are feasible, so
 * the paths are the distinct (n, m) pairs that the loops can tell apart:
 *   n = 0: the inner loop never runs, m is never compared: 1 path;
 *   n in {1,2,3}: the first inner loop splits m into {0,1,2}: 3 x 3 = 9 paths.
 * 10 completed paths. The assert (sum = m * n(n+1)/2) is implied on every path. */
// EXPECT: completed=10 errors=0 tests=10
// EXPECT-OBJECTS: n:4 m:4
// SEARCH-INVARIANT
#include <klee/klee.h>

int main(void) {
  unsigned n, m;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(&m, sizeof m, "m");
  klee_assume(n <= 3);
  klee_assume(m <= 2);
  unsigned sum = 0;
  for (unsigned i = 0; i < n; i++) {
    for (unsigned j = 0; j < m; j++) {
      sum += i + 1;
    }
  }
  klee_assert(sum == m * (n * (n + 1) / 2));
  return (int)sum;
}
