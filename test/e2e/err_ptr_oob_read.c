/* Out-of-bounds read: i <= 4 indexes a 4-element stack array, so i = 4 reads the 4 bytes just
 * past its end (the smallest overshoot, which lands in no object whatever the red zone).
 * The load forks: in bounds the path completes; i = 4 is a ptr error at the load.
 * 1 completed path + 1 error = 2 tests. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: ptr line=@oob_read
// EXPECT-OBJECTS: i:4
// SEARCH-INVARIANT
#include <klee/klee.h>

int main(void) {
  int a[4] = {1, 2, 3, 4};
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i <= 4);
  int v = a[i]; /* @oob_read */
  return v;
}
