/* Double free: the block is freed, and freed again when c = 1: a free error at the second
 * free (the kind for double free; KLEE itself says ptr). c != 1 completes.
 * 1 completed + 1 error = 2 tests. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: free line=@double_free
// EXPECT-OBJECTS: c:4
#include <stdlib.h>
#include <klee/klee.h>

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  char *p = malloc(4);
  free(p);
  if (c == 1) free(p); /* @double_free */
  return 0;
}
