/* Three independent symbolic branches. Every combination of outcomes is feasible, so a
 * forking executor explores 2^3 = 8 paths, all of which return from main: 8 completed paths,
 * 8 tests, no errors. All three objects are made symbolic before the first fork, so every
 * test holds a, b and c in call order. The assert only sees a concrete n on each path (n is
 * a phi of constants), so it never forks. */
// EXPECT: completed=8 errors=0 tests=8
// EXPECT-OBJECTS: a:4 b:4 c:4
// SEARCH-INVARIANT
#include <klee/klee.h>

int main(void) {
  int a, b, c;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  int n = 0;
  if (a > 0) n += 1;
  if (b < 100) n += 2;
  if (c == 7) n += 4;
  klee_assert((n >= 0) & (n < 8));
  return n;
}
