/* A global whose initializer symq cannot decode (a long double constant) has unknown
 * contents: reading it must not see zeros (g.a would be 0, and the assertion would fail
 * wrongly). The access ends the path early with the decoder's reason instead. */
// EXPECT: completed=0 errors=0 early=1 tests=1 exhausted=false
// EXPECT-EARLY: unsupported: initializer of global g
// EXPECT-OBJECTS: (none)
#include <klee/klee.h>

struct pair {
  long double b;
  int a;
} g = {1.0L, 5};

int main(void) {
  klee_assert(g.a == 5);
  return 0;
}
