/* A memcpy whose length is symbolic: symq makes the length concrete (one value the path
 * allows), so the other lengths are not explored. That is no early path, but the run is not
 * exhaustive either: dropped_reasons names the concretization and the verdict line says
 * "exploration incomplete". One path, one test. */
// EXPECT: completed=1 errors=0 tests=1 exhausted=false
// EXPECT-EARLY: concretized: a memcpy/memmove/memset length
// EXPECT-OBJECTS: n:1
#include <klee/klee.h>

int main(void) {
  unsigned char n;
  char src[8] = "abcdefg", dst[8];
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n < 8);
  __builtin_memcpy(dst, src, n); /* the intrinsic, not the libc model's loop */
  return 0;
}
