/* Five independent branches, one per byte of a symbolic array, inside a loop with a concrete
 * bound (the loop's own branch is concrete and never forks): 2^5 = 32 completed paths and 32
 * tests. Each byte is tested on a different bit, so all 32 combinations are feasible. */
// EXPECT: completed=32 errors=0 tests=32
// EXPECT-OBJECTS: x:5
// SEARCH-INVARIANT
#include <klee/klee.h>

int main(void) {
  unsigned char x[5];
  klee_make_symbolic(x, sizeof x, "x");
  unsigned mask = 0;
  for (unsigned i = 0; i < 5; i++) {
    if (x[i] & (1u << i)) mask |= 1u << i;
  }
  klee_assert((mask & ~31u) == 0);
  return (int)mask;
}
