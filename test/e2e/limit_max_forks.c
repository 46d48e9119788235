/* --max-forks=1: the first branch forks; after that no state may fork, so every later
 * branch with two feasible sides follows only its true side. Three independent branches
 * give 2 completed paths instead of 8, and the run is not exhaustive. */
// ARGS: --max-forks=1
// EXPECT: completed=2 errors=0 tests=2 exhausted=false
// EXPECT-EARLY: max-forks: a feasible side was not explored
// EXPECT-OBJECTS: a:1 b:1 c:1
#include <klee/klee.h>

int main(void) {
  unsigned char a, b, c;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  int k = 0;
  if (a > 10) k += 1;
  if (b > 10) k += 2;
  if (c > 10) k += 4;
  return k;
}
