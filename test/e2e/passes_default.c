/* The default pipeline (mem2reg) keeps every branch as written: the two diamonds
 * `if (a > 10) k += 1;` and `if (b > 10) k += 2;` fork twice, 4 paths, where
 * --passes=klee (passes_klee.c) folds them into selects: 1 path.
 * 4 completed paths, 4 tests. */
// EXPECT: completed=4 errors=0 tests=4
// EXPECT-OBJECTS: a:1 b:1
// ARGS: --passes=mem2reg
#include <klee/klee.h>

int main(void) {
  unsigned char a, b;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  int k = 0;
  if (a > 10) k += 1;
  if (b > 10) k += 2;
  klee_assert(k <= 3);
  return 0;
}
