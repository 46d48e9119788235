/* Invalid frees: of a stack variable's address (c = 2) and of a global's (c = 3); each is a
 * free error at its call. Any other c completes. 1 completed + 2 errors = 3 tests. */
// EXPECT: completed=1 errors=2 tests=3
// EXPECT-ERROR: free line=@stack_free
// EXPECT-ERROR: free line=@global_free
// EXPECT-OBJECTS: c:4
#include <stdlib.h>
#include <klee/klee.h>

int g = 9;

int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  int local = 3;
  if (c == 2) free(&local); /* @stack_free */
  if (c == 3) free(&g);     /* @global_free */
  return local + g;
}
