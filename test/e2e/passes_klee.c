/* --passes=klee runs simplifycfg after mem2reg, as KLEE prepares a module: the diamond
 * `if (a > 10) k = 1;` becomes a select, so the two independent branches that give 4
 * paths under the default pipeline (passes_default.c) give 1 here, KLEE's count.
 * 1 completed path, 1 test. */
// EXPECT: completed=1 errors=0 tests=1
// EXPECT-OBJECTS: a:1 b:1
// ARGS: --passes=klee
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
