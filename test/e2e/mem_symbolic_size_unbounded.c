/* A symbolic size with no bound on its path gets --capacity bytes and size ≤ capacity on the
 * path. With --capacity=4, p = malloc(n) then p[3]: in bounds only when n == 4 (one completed
 * path), out of bounds for n ≤ 3 (one error). */
// ARGS: --capacity=4
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: ptr line=@fourth
// EXPECT-OBJECTS: n:8
#include <klee/klee.h>
#include <stdlib.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *p = malloc(n);
  p[3] = 1; /* @fourth */
  return 0;
}
