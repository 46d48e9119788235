/* Executing `unreachable` (what __builtin_unreachable() compiles to) when x = 9 is an exec
 * error at that line; any other x completes. 1 completed + 1 error = 2 tests. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: exec line=@unreach
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 9) __builtin_unreachable(); /* @unreach */
  return 0;
}
