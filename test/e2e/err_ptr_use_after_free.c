/* Use after free: the block is freed, then read when c > 0. symq never reuses an address, so
 * the dangling pointer lands in no object: a ptr error at the read. c <= 0 completes.
 * 1 completed + 1 error = 2 tests. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: ptr line=@uaf
// EXPECT-OBJECTS: c:4
#include <stdlib.h>
#include <klee/klee.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  int *p = malloc(sizeof *p);
  *p = 1;
  free(p);
  if (c > 0) return *p; /* @uaf */
  return 0;
}
