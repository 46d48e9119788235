/* zext, sext and trunc between 1, 8, 16, 32 and 64 bits. Identities first (no fork), then
 * probes on separate variables, shape `if (P) { assert(what P forces); return k; }`: 5 probes
 * => 6 completed paths. zext and sext swapped make P1 or P2 unsatisfiable. */
// EXPECT: completed=6 errors=0 tests=6
// EXPECT-OBJECTS: u32:4 i32:4 uc:1 sc:1 t:4 ll:8 p:4 q:4
#include <klee/klee.h>

int main(void) {
  unsigned u32, t;
  int i32, p, q;
  unsigned char uc;
  signed char sc;
  long long ll;
  klee_make_symbolic(&u32, sizeof u32, "u32");
  klee_make_symbolic(&i32, sizeof i32, "i32");
  klee_make_symbolic(&uc, sizeof uc, "uc");
  klee_make_symbolic(&sc, sizeof sc, "sc");
  klee_make_symbolic(&t, sizeof t, "t");
  klee_make_symbolic(&ll, sizeof ll, "ll");
  klee_make_symbolic(&p, sizeof p, "p");
  klee_make_symbolic(&q, sizeof q, "q");

  /* Identities: zext 32->64 leaves the top half zero; sext 32->64 fills it with the sign;
   * trunc after ext gives the value back. */
  unsigned long long wide_u = u32;
  long long wide_s = i32;
  klee_assert((wide_u >> 32) == 0);
  klee_assert((wide_s >> 31 == 0) | (wide_s >> 31 == -1));
  klee_assert((unsigned)wide_u == u32);
  klee_assert((int)wide_s == i32);
  klee_assert((unsigned char)(int)uc == uc);

  /* P1 (zext 8->32): only zero extension lets the value exceed 200. */
  int from_u = uc;
  if (from_u > 200) {
    klee_assert(uc > 200);
    return 1;
  }
  /* P2 (sext 8->32): only sign extension makes it negative. */
  int from_s = sc;
  if (from_s < -100) {
    klee_assert((sc < -100) & (from_s >= -128));
    return 2;
  }
  /* P3 (trunc 32->8 and lshr): the low byte and the high 24 bits pin t. */
  if (((unsigned char)t == 0xABu) & ((t >> 8) == 0x123456u)) {
    klee_assert(t == 0x123456ABu);
    return 3;
  }
  /* P4 (trunc 64->16, sext 16->64): the low 16 bits read as -2, bits 16.. are 5. */
  short low = (short)ll;
  long long back = low;
  if ((back == -2) & ((ll >> 16) == 5)) {
    klee_assert(ll == 0x5FFFELL);
    return 4;
  }
  /* P5 (zext i1->32): the sum of two comparisons is 2 only when both hold. */
  int both = (p == 3) + (q == 4);
  if (both == 2) {
    klee_assert((p == 3) & (q == 4));
    return 5;
  }
  return 0;
}
