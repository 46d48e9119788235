/* The same error on several paths is reported once. Two independent branches give 4 paths
 * with k = 0..3; the assert fails at the same instruction on the 3 paths with k != 0. The
 * first of them to get there writes a test and a .err; the other two end there without a
 * test. error_paths counts every path that ended in an error (3), the .err files only the
 * reported one: 1 completed + 3 error paths, 1 + 1 = 2 tests. */
// EXPECT: completed=1 errors=3 tests=2
// EXPECT-ERROR: assert line=@same_place
// EXPECT-OBJECTS: a:1 b:1
// SEARCH-INVARIANT
#include <klee/klee.h>

int main(void) {
  unsigned char a, b;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  int k = 0;
  if (a > 10) k += 1;
  if (b > 10) k += 2;
  klee_assert(k == 0); /* @same_place */
  return 0;
}
