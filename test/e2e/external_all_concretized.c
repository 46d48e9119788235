/* Under --external-calls=all (KLEE's meaning) a symbolic argument is concretized: one
 * value, added to the path, and the other values given up (dropped_reasons, so the run is
 * not exhaustive). adler32(x, NULL, 0) is 1 whatever the value chosen; the path goes on
 * past the call with x fixed, so only one side of x == 7 is left. */
// ARGS: --external-calls=all --link-native=libz.so.1
// EXPECT: completed=1 errors=0 tests=1 exhausted=false
// EXPECT-EARLY: concretized: an argument of external call adler32
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>
#include <zlib.h>

int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_assert(adler32(x, Z_NULL, 0) == 1);
  if (x == 7) return 1;
  return 0;
}
