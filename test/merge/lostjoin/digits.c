/*
 * strtod's digit loop in small (runtime/lib/strtod.c): a callee makes each symbolic digit one
 * constant per path (digit_value: klee_get_value, then `value == example`), and the loop's
 * sides, one per digit value, are joined with ite at its latch. Compared with a reference
 * digit by digit afterwards, the joined digits cost little (13 paths, forking's 1,111 at
 * CAP 3: the joins pay). With -DFLOAT the digits are also converted to a double, as strtod's
 * fast path does: symq computes floating point on constants only, so a joined state ends
 * early there (`unsupported: symbolic floating point (sitofp)`) where each side, forked, would
 * have converted its constants; once one has, the loop's join site joins no more
 * (merge/incremental.c, merge_inc_state_unsupported; test/merge/lostjoin.py). A measuring
 * loop first forks per length, as json-c's strdup does before strtod, so that each length's
 * digit loop is a region of its own and the later ones learn from the first.
 */
#ifndef CAP
#define CAP 3
#endif

#include <stddef.h>

#include <klee/klee.h>

__attribute__((noinline)) static int digit_value(int value) {
  if (!klee_is_symbolic((size_t)value)) return value;
  for (;;) {
    int example = klee_get_value_i32(value);
    if (value == example) return example;
  }
}

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
