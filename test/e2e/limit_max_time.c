/* --max-time stops a run that would never end: the only state spins forever in a concrete
 * loop, and after the time limit it ends early with a test. */
// ARGS: --max-time=1s
// EXPECT: completed=0 errors=0 tests=1 early=1 exhausted=false
// EXPECT-EARLY: halted: max-time
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  volatile unsigned spin = 0;
  for (;;) spin += (unsigned)x;
  return 0;
}
