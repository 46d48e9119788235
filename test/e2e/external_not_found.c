/* With --external-calls=concrete, a function with no body, no model and no native symbol
 * (in no --link-native library nor in symq's process) still ends the path early, now
 * saying why. */
// ARGS: --external-calls=concrete
// EXPECT: completed=1 errors=0 early=1 tests=2 exhausted=false
// EXPECT-EARLY: unsupported: external call mystery_external_fn: symbol not found line=@the_call
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>

int mystery_external_fn(int v);

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 5) return mystery_external_fn(x); /* @the_call */
  return 0;
}
