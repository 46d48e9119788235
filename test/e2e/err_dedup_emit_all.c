/* err_dedup.c with --emit-all-errors: each of the 3 failing paths writes its own test and
 * .err at the same line: 1 completed + 3 errors = 4 tests. */
// ARGS: --emit-all-errors
// EXPECT: completed=1 errors=3 tests=4
// EXPECT-ERROR: assert line=@same_place count=3
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
