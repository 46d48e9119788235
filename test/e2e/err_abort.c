/* abort() when x = 3: an abort error at the call; any other x completes.
 * 1 completed + 1 error = 2 tests. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: abort line=@the_abort
// EXPECT-OBJECTS: x:4
#include <stdlib.h>
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 3) abort(); /* @the_abort */
  return 0;
}
