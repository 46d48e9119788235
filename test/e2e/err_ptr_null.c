/* Null dereferences. p is &x only when c = 7 (p is a phi per path, so concrete on each):
 *   c = 7      p valid, c = 8 is infeasible, the store succeeds: completed
 *   c = 8      read through NULL: ptr error at the read
 *   otherwise  write through NULL: ptr error at the store
 * 1 completed + 2 errors = 3 tests. */
// EXPECT: completed=1 errors=2 tests=3
// EXPECT-ERROR: ptr line=@null_read
// EXPECT-ERROR: ptr line=@null_write
// EXPECT-OBJECTS: c:4
// SEARCH-INVARIANT
#include <stddef.h>
#include <klee/klee.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  int x = 0;
  int *p = NULL;
  if (c == 7) p = &x;
  if (c == 8) return *p; /* @null_read */
  *p = 1;                /* @null_write */
  return x;
}
