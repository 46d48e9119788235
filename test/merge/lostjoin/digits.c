/*
 * strtod's digit loop in small (runtime/lib/strtod.c): a callee makes each symbolic digit one
 * constant per path, and the loop's sides, one per digit value, meet at its latch.
 *
 * By default the callee concretizes as strtod's digit_value does (klee_get_value, then
 * `value == example`): sides that parted there are not joined (merge_decide_concretized) —
 * the program asked for a constant, and an ite would make the value symbolic again. With
 * -DBRANCHES the callee computes the digit by testing its bits instead: nothing is
 * concretized, the sides are joined with ite at the latch, and compared with a reference
 * digit by digit afterwards the joined digits cost little (the joins pay: far fewer paths
 * than forking's). With -DFLOAT the digits are also converted to a double, as strtod's fast
 * path does: symq computes floating point on constants only, so a joined state ends early
 * there (`unsupported: symbolic floating point (sitofp)`) where each side, forked, would have
 * converted its constants; once one has, the loop's join site joins no more
 * (merge/incremental.c, merge_inc_state_unsupported). test/merge/lostjoin.py runs the four.
 * A measuring loop first forks per length (-DFLOAT), as json-c's strdup does before strtod,
 * so that each length's digit loop is a region of its own and the later ones learn from the
 * first.
 */
#ifndef CAP
#define CAP 3
#endif

#include <stddef.h>

#include <klee/klee.h>

#ifdef BRANCHES
/* value is in 0..9 (the loop's condition): one branch per bit, a constant per path */
__attribute__((noinline)) static int digit_value(int value) {
  int digit = 0;
  if (value & 1) digit += 1;
  if (value & 2) digit += 2;
  if (value & 4) digit += 4;
  if (value & 8) digit += 8;
  return digit;
}
#else
__attribute__((noinline)) static int digit_value(int value) {
  if (!klee_is_symbolic((size_t)value)) return value;
  for (;;) {
    int example = klee_get_value_i32(value);
    if (value == example) return example;
  }
}
#endif

int main(void) {
  char s[CAP + 1];
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, sizeof s, "s");
  s[n] = 0;
#ifdef FLOAT
  size_t len = 0;
  while (s[len]) len++;
#endif
  char digits[CAP];
  size_t nd = 0;
  for (const char *p = s; *p >= '0' && *p <= '9'; p++) {
    char c = (char)digit_value(*p - '0');
    if (nd == 0 && c == 0) continue; /* leading zeros */
    digits[nd++] = c;
  }
#ifdef FLOAT
  long d = 0;
  for (size_t i = 0; i < nd; i++) d = d * 10 + digits[i];
  double v = (double)d; /* strtod's fast path: (double)d times a power of ten */
  klee_assert(v >= 0 && len >= nd);
#else
  /* compared with a reference digit by digit, as strtod's big_cmp compares its limbs */
  static const char ref[CAP] = {3, 1, 4};
  int cmp = 0;
  for (size_t i = 0; i < nd && cmp == 0; i++)
    if (digits[i] != ref[i]) cmp = digits[i] < ref[i] ? -1 : 1;
  klee_assert(nd > 0 || cmp == 0);
#endif
  return 0;
}
