/* The SV-COMP error functions, declared but not defined (as the benchmarks' harness expects):
 * reach_error() when x = 1 and __VERIFIER_error() when x = 2, each a reach_error error at
 * its call; any other x completes. 1 completed + 2 errors = 3 tests. */
// EXPECT: completed=1 errors=2 tests=3
// EXPECT-ERROR: reach_error line=@reach
// EXPECT-ERROR: reach_error line=@verifier
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>

void reach_error(void);
void __VERIFIER_error(void);

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 1) reach_error();      /* @reach */
  if (x == 2) __VERIFIER_error(); /* @verifier */
  return 0;
}
