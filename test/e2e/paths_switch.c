/* A switch on a symbolic value with five case values going to three distinct blocks, plus the
 * default block. clang emits one `switch` instruction whose cases 1,2 share a block, 3,4
 * share a block and 5 has its own; like KLEE, symq forks once per distinct feasible target
 * block, so there are exactly 4 paths (not 6), each completed with one test. The asserts in
 * each block are implied by the path condition and must not fork or fail. */
// EXPECT: completed=4 errors=0 tests=4
// EXPECT-OBJECTS: x:4
// SEARCH-INVARIANT
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int r;
  switch (x) {
  case 1:
  case 2:
    klee_assert((x == 1) | (x == 2));
    r = 10;
    break;
  case 3:
  case 4:
    klee_assert((x == 3) | (x == 4));
    r = 20;
    break;
  case 5:
    klee_assert(x == 5);
    r = 30;
    break;
  default:
    klee_assert((x < 1) | (x > 5));
    r = 0;
    break;
  }
  return r;
}
