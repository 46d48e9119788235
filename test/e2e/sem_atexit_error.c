/* atexit handlers run when main returns (not only on exit()): a handler's error is found.
 * x == 7 makes the handler fail; any other x completes. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: assert line=@check
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>
#include <stdlib.h>

static int x;

static void handler(void) { klee_assert(x != 7); /* @check */ }

int main(void) {
  klee_make_symbolic(&x, sizeof x, "x");
  atexit(handler);
  return 0;
}
