/* symq computes floating point on concrete values only: converting a symbolic integer to a
 * double (busybox's sleep turns a parsed count into a duration this way) ends the path early
 * with a reason that names the instruction, here "uitofp". x < 3 never converts and
 * completes; the other side ends early at the conversion: 1 completed + 1 early = 2 tests,
 * and the run says it is not exhaustive, naming the conversion's line. */
// EXPECT: completed=1 errors=0 early=1 tests=2 exhausted=false
// EXPECT-EARLY: unsupported: symbolic floating point (uitofp) line=@the_conversion
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>

int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x < 3) return 0;
  double d = (double)x; /* @the_conversion */
  return d > 1e9;
}
