/* --max-memory=1 (MB): symq itself always uses more, so from the start no state may fork and
 * each branch with two feasible sides follows only its true side: one completed path of three
 * branches, and the run is not exhaustive. */
// ARGS: --max-memory=1
// EXPECT: completed=1 errors=0 tests=1 exhausted=false
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
