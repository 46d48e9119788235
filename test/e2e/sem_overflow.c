/* The checked-arithmetic builtins, which clang emits as llvm.{s,u}{add,sub,mul}.with.overflow
 * returning {result, overflow bit}. Each probe uses its own variables:
 *     if (__builtin_OP_overflow(a, b, &r)) { assert(it did overflow); return k; }
 *     assert(it did not overflow and r is exact);
 * Both outcomes are feasible for each of the 6 builtins => 7 completed paths. The multiply
 * probes use 8-bit operands so that the solver's proofs stay cheap. */
// EXPECT: completed=7 errors=0 tests=7
// EXPECT-OBJECTS: sa:4 sb:4 ua:4 ub:4 da:4 db:4 va:4 vb:4 ma:1 mb:1 na:1 nb:1
#include <klee/klee.h>

int main(void) {
  int sa, sb, sr, da, db, dr;
  unsigned ua, ub, ur, va, vb, vr;
  signed char ma, mb, mr;
  unsigned char na, nb, nr;
  klee_make_symbolic(&sa, sizeof sa, "sa");
  klee_make_symbolic(&sb, sizeof sb, "sb");
  klee_make_symbolic(&ua, sizeof ua, "ua");
  klee_make_symbolic(&ub, sizeof ub, "ub");
  klee_make_symbolic(&da, sizeof da, "da");
  klee_make_symbolic(&db, sizeof db, "db");
  klee_make_symbolic(&va, sizeof va, "va");
  klee_make_symbolic(&vb, sizeof vb, "vb");
  klee_make_symbolic(&ma, sizeof ma, "ma");
  klee_make_symbolic(&mb, sizeof mb, "mb");
  klee_make_symbolic(&na, sizeof na, "na");
  klee_make_symbolic(&nb, sizeof nb, "nb");

  /* sadd: overflow iff both operands have one sign and the wrapped sum the other. */
  if (__builtin_add_overflow(sa, sb, &sr)) {
    klee_assert(((sa > 0) & (sb > 0) & (sr < 0)) | ((sa < 0) & (sb < 0) & (sr >= 0)));
    return 1;
  }
  klee_assert((long long)sa + (long long)sb == (long long)sr);
  /* uadd: overflow iff the wrapped sum is below an operand. */
  if (__builtin_add_overflow(ua, ub, &ur)) {
    klee_assert(ur < ua);
    return 2;
  }
  klee_assert((ur >= ua) & (ur - ua == ub));
  /* ssub */
  if (__builtin_sub_overflow(da, db, &dr)) {
    klee_assert((long long)da - (long long)db != (long long)dr);
    return 3;
  }
  klee_assert((long long)da - (long long)db == (long long)dr);
  /* usub: overflow iff va < vb. */
  if (__builtin_sub_overflow(va, vb, &vr)) {
    klee_assert(va < vb);
    return 4;
  }
  klee_assert((va >= vb) & (vr + vb == va));
  /* smul (8-bit): overflow iff the exact product leaves -128..127. */
  if (__builtin_mul_overflow(ma, mb, &mr)) {
    klee_assert((ma * mb < -128) | (ma * mb > 127));
    return 5;
  }
  klee_assert(ma * mb == mr);
  /* umul (8-bit): overflow iff the exact product exceeds 255. */
  if (__builtin_mul_overflow(na, nb, &nr)) {
    klee_assert(na * nb > 255);
    return 6;
  }
  klee_assert(na * nb == nr);
  return 0;
}
