/* Under --external-calls=concrete (KLEE's meaning), a call whose argument may take more
 * than one value on its path is not made: the path ends early, "external call with
 * symbolic argument". x == 7 has one value, so that path calls zlib's adler32 natively
 * (adler32(x, NULL, 0) is 1 whatever x) and completes. */
// ARGS: --external-calls=concrete --link-native=libz.so.1
// EXPECT: completed=1 errors=0 early=1 tests=2 exhausted=false
// EXPECT-EARLY: external call with symbolic argument: adler32 line=@sym_call
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>
#include <zlib.h>

int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 7) {
    klee_assert(adler32(x, Z_NULL, 0) == 1);
    return 0;
  }
  return (int)adler32(x, Z_NULL, 0); /* @sym_call */
}
