/* add, sub and mul with wrap-around, plus the zext/trunc/sext that C's promotions put around
 * them. Each probe uses its own symbolic variable and has the shape
 *     if (P(v)) { assert(v is the value P forces); return k; }
 * so each probe adds exactly one completed path when P is both satisfiable and refutable
 * under LLVM's exact (two's-complement, wrapping) semantics: 7 probes => 8 completed paths.
 * A wrong semantics shows up as a missing path (P unsatisfiable or always true) or as an
 * assert error (P admits another value). The first asserts are identities that must hold
 * for every input and never fork. */
// EXPECT: completed=8 errors=0 tests=8
// EXPECT-OBJECTS: u1:4 u2:4 m8:1 a:4 b:4 s:4 w:8 t:4 h:2
#include <stdint.h>
#include <klee/klee.h>

int main(void) {
  unsigned u1, u2, a, s;
  unsigned char m8;
  int b, t;
  unsigned long long w;
  short h;
  klee_make_symbolic(&u1, sizeof u1, "u1");
  klee_make_symbolic(&u2, sizeof u2, "u2");
  klee_make_symbolic(&m8, sizeof m8, "m8");
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&s, sizeof s, "s");
  klee_make_symbolic(&w, sizeof w, "w");
  klee_make_symbolic(&t, sizeof t, "t");
  klee_make_symbolic(&h, sizeof h, "h");

  /* Identities over all inputs. */
  klee_assert((u1 - u2) + u2 == u1);
  klee_assert(u1 * 2u == u1 + u1);
  klee_assert(u1 * 0xFFFFFFFFu == 0u - u1);

  /* m8 is zero-extended, multiplied in 32 bits, truncated to 8 bits and sign-extended back:
   * 3 * m8 = 249 (mod 256) only for m8 = 83 in 0..255. */
  if ((int8_t)(m8 * 3) == -7) {
    klee_assert(m8 == 83);
    return 1;
  }
  /* 32-bit unsigned addition wraps: a + 2^31 = 5 (mod 2^32) only for a = 0x80000005. */
  if (a + 0x80000000u == 5u) {
    klee_assert(a == 0x80000005u);
    return 2;
  }
  /* b + 1 wraps below b only at INT_MAX. */
  if ((int)((unsigned)b + 1u) < b) {
    klee_assert(b == INT32_MAX);
    return 3;
  }
  /* s - 10 wraps to a value >= 2^32 - 10 exactly when s < 10. */
  if (s - 10u >= 0xFFFFFFF6u) {
    klee_assert(s < 10u);
    return 4;
  }
  /* 0x10001 is odd, so multiplication by it is a bijection mod 2^64: one solution. */
  if (w * 0x10001ull == 0x1234567890ABCDEFull) {
    klee_assert(w == 0x7E7893BBC2BCCDEFull);
    return 5;
  }
  /* Signed multiplication by a negative constant. */
  klee_assume((t > -1000) & (t < 1000));
  if (t * -7 == 4242) {
    klee_assert(t == -606);
    return 6;
  }
  /* 16-bit wrap: h - 30000 truncated to 16 bits is 30000 only for h = -5536. */
  if ((short)(h - 30000) == 30000) {
    klee_assert(h == -5536);
    return 7;
  }
  return 0;
}
