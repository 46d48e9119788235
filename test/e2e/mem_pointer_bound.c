/* --max-pointer-objects=2: a pointer that may point into 4 objects forks into 2 of them;
 * the state left for the other two ends early with its reason (and a test). */
// ARGS: --max-pointer-objects=2
// EXPECT: completed=2 errors=0 tests=3 early=1 exhausted=false
// EXPECT-EARLY: max-pointer-objects
// EXPECT-OBJECTS: i:4 j:4
#include <klee/klee.h>

int a[2], b[2], c[2], d[2];
int *table[4] = {a, b, c, d};

int main(void) {
  unsigned i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < 4);
  klee_assume(j < 2);
  int *p = table[i] + j;
  *p = 1;
  return 0;
}
