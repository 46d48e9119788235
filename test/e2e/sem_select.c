/* select: at -O0 with only mem2reg, clang's `?:` stays a branch, but __builtin_abs and
 * __builtin_llabs are emitted as neg + icmp + select. A select on a symbolic condition must
 * become an ite expression without forking. (INT_MIN is excluded where abs would be
 * poison.) Identities first (no fork), then probes on separate variables, shape
 * `if (P) { assert(what P forces); return k; }`: 3 probes => 4 completed paths. A select
 * that forked would add paths. */
// EXPECT: completed=4 errors=0 tests=4
// EXPECT-OBJECTS: y:4 x:4 l:8 z:4
#include <limits.h>
#include <klee/klee.h>

int main(void) {
  int y, x, z;
  long long l;
  klee_make_symbolic(&y, sizeof y, "y");
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&l, sizeof l, "l");
  klee_make_symbolic(&z, sizeof z, "z");
  klee_assume(y != INT_MIN);
  klee_assume(z != INT_MIN);

  /* Identities over all y but INT_MIN. */
  int ay = __builtin_abs(y);
  klee_assert(ay >= 0);
  klee_assert((ay == y) | (ay == -y));
  klee_assert((ay == y) == (y >= 0));

  /* P1: |x| = 5 for x = 5 and x = -5: one fork on the comparison, none on the select. */
  if (__builtin_abs(x) == 5) {
    klee_assert((x == 5) | (x == -5));
    return 1;
  }
  /* P2: 64-bit select: |l| = 10^12 with l negative pins l. */
  if ((__builtin_llabs(l) == 1000000000000LL) & (l < 0)) {
    klee_assert(l == -1000000000000LL);
    return 2;
  }
  /* P3: |z| < 3 iff -2 <= z <= 2 (z != INT_MIN). */
  if (__builtin_abs(z) < 3) {
    klee_assert((z >= -2) & (z <= 2));
    return 3;
  }
  return 0;
}
