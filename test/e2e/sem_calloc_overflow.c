/* calloc(n, size) whose product overflows size_t returns NULL, as glibc's does (it must not
 * wrap around to a small object). With n == 0 or n ≥ 4, n * 2^62 overflows exactly when
 * n ≥ 4: that path gets NULL and returns 1 (completed); n == 0 gets a zero-byte object,
 * so p[8] is out of bounds (one error; p[8], not p[0], so that ASan, which backs calloc(0)
 * with one byte, reports it in native replay too). */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: ptr line=@write
// EXPECT-OBJECTS: n:8
#include <klee/klee.h>
#include <stdlib.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n == 0 || n >= 4);
  char *p = calloc(n, (size_t)1 << 62);
  if (p == 0) return n >= 4;
  p[8] = 1; /* @write */
  return 0;
}
