/* A path that calls exit() is a completed path, like one that returns from main (KLEE's
 * rule). x == 1 exits, x == 2 returns 1, anything else returns 0: 3 completed paths, 3 tests,
 * none of them an error. */
// EXPECT: completed=3 errors=0 tests=3
// EXPECT-OBJECTS: x:4
#include <stdlib.h>
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 1) {
    exit(3);
  }
  if (x == 2) return 1;
  return 0;
}
