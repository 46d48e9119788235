/* A call to a function defined nowhere (not in the driver, not in symq's runtime) cannot be
 * executed: the path ends early with the reason "unsupported: external call NAME" (KLEE's
 * "partially completed" path, neither completed nor an error). As in KLEE, the early path
 * still gets a test (with a .early file): x = 5 ends early, any other x completes.
 * 1 completed + 1 early = 2 tests. The run is not exhaustive: the verdict line says
 * "exploration incomplete: 1 path ended early", and where: the .early file and the verdict
 * name the call's line. (A name of our own, so that the libc model cannot supply it later.) */
// EXPECT: completed=1 errors=0 early=1 tests=2 exhausted=false
// EXPECT-EARLY: unsupported: external call mystery_external line=@the_call
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>

int mystery_external(int v);

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 5) return mystery_external(x); /* @the_call */
  return 0;
}
