/* udiv, sdiv, urem and srem: C rounds signed division toward zero and gives the remainder the
 * dividend's sign (LLVM sdiv/srem, SMT bvsdiv/bvsrem — not bvsmod, not floor division); the
 * unsigned forms must not be confused with the signed ones. Every divisor is a nonzero
 * constant or assumed nonzero, so no division forks a div error.
 * The identities come first (no fork). They use 8-bit operands: Z3 alone takes minutes on
 * 16-bit ones and ~0.7 s on these (a multiplier undoing a divider); the expression builder
 * now rewrites (x / y) * y + x % y to x (engine/core/expr.c), so a wrong rewrite shows here
 * as an assert error. Then probes, each on its own variables, each of shape
 *     if (P) { assert(the value(s) P forces under C semantics); return k; }
 * adding one completed path when P is satisfiable and refutable: 6 probes => 7 completed
 * paths. With floor/smod semantics or signed/unsigned mixed up, P1..P6 become unsatisfiable
 * (a missing path) or admit other values (an assert error). */
// EXPECT: completed=7 errors=0 tests=7
// EXPECT-OBJECTS: n8:1 d8:1 p8:1 q8:1 x:4 nn:4 d:4 u:4 v:4 e:4 f:4 g:4 k:4
#include <klee/klee.h>

int main(void) {
  signed char n8, d8;
  unsigned char p8, q8;
  int x, nn, d, e, f;
  unsigned u, v, g, k;
  klee_make_symbolic(&n8, sizeof n8, "n8");
  klee_make_symbolic(&d8, sizeof d8, "d8");
  klee_make_symbolic(&p8, sizeof p8, "p8");
  klee_make_symbolic(&q8, sizeof q8, "q8");
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&nn, sizeof nn, "nn");
  klee_make_symbolic(&d, sizeof d, "d");
  klee_make_symbolic(&u, sizeof u, "u");
  klee_make_symbolic(&v, sizeof v, "v");
  klee_make_symbolic(&e, sizeof e, "e");
  klee_make_symbolic(&f, sizeof f, "f");
  klee_make_symbolic(&g, sizeof g, "g");
  klee_make_symbolic(&k, sizeof k, "k");
  klee_assume(d8 != 0);
  klee_assume(q8 != 0);
  klee_assume((x >= -20) & (x <= 20));
  klee_assume(nn == -7);
  klee_assume((d >= -8) & (d <= 8) & (d != 0));
  klee_assume(v > 0xFFFFFFF0u);
  klee_assume(e == 7);
  klee_assume((f >= -5) & (f <= 5) & (f != 0));
  klee_assume(g == 0xFFFFFFF0u);
  klee_assume((k >= 1) & (k <= 20));

  /* Identities (8-bit operands promoted to int, so INT_MIN / -1 cannot occur). */
  klee_assert((n8 / d8) * d8 + n8 % d8 == n8);
  klee_assert((n8 % d8 == 0) | ((n8 % d8 < 0) == (n8 < 0)));
  klee_assert(((unsigned)p8 / q8) * q8 + (unsigned)p8 % q8 == p8);
  klee_assert((unsigned)p8 % q8 < q8);

  /* P1: -11 / 4 = -2 and -11 % 4 = -3; with floor semantics no x satisfies both. */
  if ((x / 4 == -2) & (x % 4 == -3)) {
    klee_assert(x == -11);
    return 1;
  }
  /* P2: -7 / d = -3 only for d = 2 (floor division would give d = 3). */
  if (nn / d == -3) {
    klee_assert(d == 2);
    return 2;
  }
  /* P3: unsigned: u / 3 = 0x55555555 only for u = 0xFFFFFFFF (as sdiv, -1 / 3 = 0). */
  if (u / 3u == 0x55555555u) {
    klee_assert(u == 0xFFFFFFFFu);
    return 3;
  }
  /* P4: urem: among v > 0xFFFFFFF0 only 4294967289 has v % 10 = 9 (srem would give <= 0). */
  if (v % 10u == 9u) {
    klee_assert(v == 0xFFFFFFF9u);
    return 4;
  }
  /* P5: srem with a negative divisor keeps the dividend's sign: 7 % -2 = 7 % -3 = 1
   * (smod would give -1 and -2, and never 1 for a negative divisor). */
  if ((e % f == 1) & (f < 0)) {
    klee_assert((f == -2) | (f == -3));
    return 5;
  }
  /* P6: udiv by a symbolic divisor: 0xFFFFFFF0 / k = 0x0FFFFFFF only for k = 16. */
  if (g / k == 0x0FFFFFFFu) {
    klee_assert(k == 16u);
    return 6;
  }
  return 0;
}
