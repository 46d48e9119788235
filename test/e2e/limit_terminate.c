/* SIGTERM stops a run the same way as SIGINT: the one state left ends early with a test. */
// SIGNAL: TERM 1
// EXPECT: completed=0 errors=0 tests=1 early=1 exhausted=false
// EXPECT-EARLY: halted: interrupted
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  volatile unsigned spin = 0;
  for (;;) spin += (unsigned)x;
  return 0;
}
