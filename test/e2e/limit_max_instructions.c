/* --max-instructions halts the run: one symbolic branch forks two states, each then spins in
 * a long concrete loop; the limit is reached while both are still running, so both end
 * early (each with a test) and the run is not exhaustive. */
// ARGS: --max-instructions=500
// EXPECT: completed=0 errors=0 tests=2 early=2 exhausted=false
// EXPECT-EARLY: halted: max-instructions
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  volatile int spin = 0;
  if (x > 0) {
    for (int i = 0; i < 100000; i++) spin++;
  } else {
    for (int i = 0; i < 100000; i++) spin--;
  }
  return 0;
}
