/* A failing assert() from <assert.h> (glibc expands it to a call of __assert_fail): x = 42
 * fails, an assert error at the assert's line; any other x completes. 1 completed + 1 error
 * = 2 tests. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: assert line=@the_assert
// EXPECT-OBJECTS: x:4
#include <assert.h>
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  assert(x != 42); /* @the_assert */
  return 0;
}
