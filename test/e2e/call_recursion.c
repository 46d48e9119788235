/* Recursion: a concrete recursion 100 frames deep, a recursion passing the address of each
 * frame's local to the next (every frame has its own stack object), and fact(n) for a
 * symbolic n <= 5. fact's test `n <= 1` forks at each depth while both sides are feasible:
 * n in {0,1} stops at depth 1, n = 2, 3, 4 at depths 2, 3, 4, and at depth 5 (argument
 * n - 4 <= 1) the test is already decided, so n = 5 is the fifth path: 5 completed paths. */
// EXPECT: completed=5 errors=0 tests=5
// EXPECT-OBJECTS: n:4
#include <klee/klee.h>

static unsigned fact(unsigned n) {
  if (n <= 1) return 1;
  return n * fact(n - 1);
}

static int sum_to(int k) { return k == 0 ? 0 : k + sum_to(k - 1); }

static int chain(int k, int *acc) {
  if (k == 0) return *acc;
  int mine = *acc + k;
  int r = chain(k - 1, &mine);
  klee_assert(mine == *acc + k); /* the callee did not clobber this frame's local */
  return r;
}

int main(void) {
  unsigned n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 5);

  klee_assert(sum_to(100) == 5050);
  int zero = 0;
  klee_assert(chain(10, &zero) == 55);

  static const unsigned expected[6] = {1, 1, 2, 6, 24, 120};
  unsigned f = fact(n);
  klee_assert(f == expected[n]);
  return (int)f;
}
