/* A symbolic size with no bound on its path gets --capacity bytes and size ≤ capacity on the
 * path. With --capacity=4, p = malloc(n) then p[3]: in bounds only when n == 4 (one completed
 * path), out of bounds for n ≤ 3 (one error). The sizes above 4 are not explored, so the
 * run is not exhaustive (dropped_reasons says "capacity"). */
// ARGS: --capacity=4
// EXPECT: completed=1 errors=1 tests=2 exhausted=false
// EXPECT-EARLY: capacity: a larger symbolic size was not explored
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
