/* shl, lshr and ashr with constant and symbolic amounts (always below the width, assumed so,
 * since an over-wide shift is poison). Identities first (no fork), then probes, each on its
 * own variables, of shape `if (P) { assert(what P forces); return k; }`: 6 probes => 7
 * completed paths. lshr taken for ashr (or the reverse) makes P3..P5 unsatisfiable. */
// EXPECT: completed=7 errors=0 tests=7
// EXPECT-OBJECTS: u1:4 i1:4 sk:4 c:1 lu:4 ai:4 av:4 ak:4 lv:8 lk:4
#include <klee/klee.h>

int main(void) {
  unsigned u1, sk, lu, ak, lk;
  int i1, ai, av;
  unsigned char c;
  unsigned long long lv;
  klee_make_symbolic(&u1, sizeof u1, "u1");
  klee_make_symbolic(&i1, sizeof i1, "i1");
  klee_make_symbolic(&sk, sizeof sk, "sk");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_make_symbolic(&lu, sizeof lu, "lu");
  klee_make_symbolic(&ai, sizeof ai, "ai");
  klee_make_symbolic(&av, sizeof av, "av");
  klee_make_symbolic(&ak, sizeof ak, "ak");
  klee_make_symbolic(&lv, sizeof lv, "lv");
  klee_make_symbolic(&lk, sizeof lk, "lk");
  klee_assume(sk < 32);
  klee_assume(av == -256);
  klee_assume(ak < 32);
  klee_assume(lv == 0x8000000000000000ull);
  klee_assume(lk < 64);

  /* Identities over all inputs. */
  klee_assert((u1 << 1) == u1 + u1);
  klee_assert(((unsigned)i1 >> 31) == (unsigned)(i1 < 0));
  klee_assert((i1 >> 31) == -(i1 < 0));

  /* P1: shl by a symbolic amount: 1 << sk = 0x400 only for sk = 10. */
  if ((1u << sk) == 0x400u) {
    klee_assert(sk == 10u);
    return 1;
  }
  /* P2: shl then truncation to 8 bits: c * 8 = 0x28 (mod 256) iff c = 5 (mod 32). */
  if ((unsigned char)(c << 3) == 0x28u) {
    klee_assert((c & 31u) == 5u);
    return 2;
  }
  /* P3: lshr shifts in zeros: lu >> 28 = 15 iff lu >= 0xF0000000. */
  if ((lu >> 28) == 0xFu) {
    klee_assert(lu >= 0xF0000000u);
    return 3;
  }
  /* P4: ashr shifts in the sign: ai >> 28 = -1 iff -2^28 <= ai < 0. */
  if ((ai >> 28) == -1) {
    klee_assert((ai < 0) & (ai >= -268435456));
    return 4;
  }
  /* P5: ashr by a symbolic amount: -256 >> ak = -1 iff ak >= 8. */
  if ((av >> ak) == -1) {
    klee_assert(ak >= 8u);
    return 5;
  }
  /* P6: 64-bit lshr by a (zero-extended) 32-bit symbolic amount: 2^63 >> lk = 1 iff lk = 63. */
  if ((lv >> lk) == 1ull) {
    klee_assert(lk == 63u);
    return 6;
  }
  return 0;
}
