/* A manual region (klee_open_merge/klee_close_merge, as in KLEE drivers): the three
 * independent branches inside give 8 paths; every one reaches klee_close_merge, where they
 * merge into one state (its k is an ite over their tails), which then completes. */
// ARGS: --merge=cfg --validate-merges
// EXPECT: completed=1 errors=0 tests=9
// EXPECT-OBJECTS: a:1 b:1 c:1
#include <klee/klee.h>

int main(void) {
  unsigned char a, b, c;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  int k = 0;
  klee_open_merge();
  if (a > 10) k += 1;
  if (b > 10) k += 2;
  if (c > 10) k += 4;
  klee_close_merge();
  klee_assert(k < 8);
  return k;
}
