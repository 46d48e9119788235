/* Division and remainder by zero with symbolic divisors: `a / b` forks b = 0 (a div error at
 * the sdiv) from b != 0; on the b != 0 path `c % d` forks d = 0 (a div error at the urem).
 * 1 completed + 2 errors = 3 tests. */
// EXPECT: completed=1 errors=2 tests=3
// EXPECT-ERROR: div line=@div_zero
// EXPECT-ERROR: div line=@rem_zero
// EXPECT-OBJECTS: a:4 b:4 c:4 d:4
// SEARCH-INVARIANT
#include <klee/klee.h>

int main(void) {
  int a, b;
  unsigned c, d;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_make_symbolic(&d, sizeof d, "d");
  klee_assume(a != -2147483647 - 1); /* keep INT_MIN / -1 out of the picture */
  int q = a / b;      /* @div_zero */
  unsigned r = c % d; /* @rem_zero */
  return q + (int)r;
}
