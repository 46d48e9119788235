/* Integer comparisons: eq ne slt sle sgt sge ult ule ugt uge at 8 (after promotion), 32 and
 * 64 bits. Identities first (no fork), then probes on separate variables, shape
 * `if (P) { assert(what P forces); return k; }`, each pairing a signed and an unsigned
 * predicate so that swapping one for the other changes the answer: 6 probes => 7 completed
 * paths. */
// EXPECT: completed=7 errors=0 tests=7
// EXPECT-OBJECTS: s:4 t:4 a:4 b:4 c:4 L:8 sc:1 uc:1 e:4
#include <klee/klee.h>

int main(void) {
  int s, t, a, b, c;
  long long L;
  signed char sc;
  unsigned char uc;
  unsigned e;
  klee_make_symbolic(&s, sizeof s, "s");
  klee_make_symbolic(&t, sizeof t, "t");
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_make_symbolic(&L, sizeof L, "L");
  klee_make_symbolic(&sc, sizeof sc, "sc");
  klee_make_symbolic(&uc, sizeof uc, "uc");
  klee_make_symbolic(&e, sizeof e, "e");

  /* Identities over all inputs. */
  klee_assert((s < 0) == ((unsigned)s > 0x7FFFFFFFu));
  klee_assert((s < t) + (s == t) + (s > t) == 1);
  klee_assert((s <= t) == !(s > t));
  klee_assert(((unsigned)s < (unsigned)t) == ((unsigned)t > (unsigned)s));

  /* P1 (sle, uge): a <= -2 and a >= 0xFFFFFFFE unsigned: only a = -2. */
  if ((a <= -2) & ((unsigned)a >= 0xFFFFFFFEu)) {
    klee_assert(a == -2);
    return 1;
  }
  /* P2 (sgt, ugt): b > -3 and b > 0xFFFFFFF0 unsigned: b in {-2, -1} (ugt read as sgt would
   * admit every b > -3). */
  if ((b > -3) & ((unsigned)b > 0xFFFFFFF0u)) {
    klee_assert((b == -2) | (b == -1));
    return 2;
  }
  /* P3 (sge, ule): c >= -5 and c <= 5 unsigned: c in 0..5 (ule read as sle: -5..5). */
  if ((c >= -5) & ((unsigned)c <= 5u)) {
    klee_assert((c >= 0) & (c <= 5));
    return 3;
  }
  /* P4 (slt, ult at 64 bits): negative and below 2^63 + 5 unsigned: the five smallest. */
  if ((L < 0) & ((unsigned long long)L < 0x8000000000000005ull)) {
    klee_assert(L <= -9223372036854775807LL - 1 + 4);
    return 4;
  }
  /* P5: sc is sign-extended and uc zero-extended before ==, so they are equal only in 0..127. */
  if ((sc == uc) & (uc > 100)) {
    klee_assert((uc <= 127) & (sc > 100));
    return 5;
  }
  /* P6 (ne, eq, ugt): a power of two above 2^30 is 2^31. */
  if ((e != 0u) & ((e & (e - 1u)) == 0u) & (e > 0x40000000u)) {
    klee_assert(e == 0x80000000u);
    return 6;
  }
  return 0;
}
