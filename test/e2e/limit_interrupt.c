/* SIGINT stops a run cleanly: two states spin forever in concrete loops; once both are live
 * the signal comes, both end early with their tests, stats.json is written, symq exits 0. */
// SIGNAL: INT 2
// EXPECT: completed=0 errors=0 tests=2 early=2 exhausted=false
// EXPECT-EARLY: halted: interrupted
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  volatile unsigned spin = 0;
  if (x > 0)
    for (;;) spin++;
  for (;;) spin--;
  return 0;
}
