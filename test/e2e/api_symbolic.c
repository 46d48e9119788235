/* The driver API's ways to make inputs: klee_range, klee_int, symq_range, symq_int,
 * klee_make_symbolic with a NULL name (written as "unnamed", KLEE's rule) and
 * symq_make_symbolic. Each is one object in call order, of the variable's size; the range
 * functions constrain without forking (the asserts must not fail). The only fork is the
 * switch on r in [10, 13): three distinct case blocks and an infeasible default: 3
 * completed paths. */
// EXPECT: completed=3 errors=0 tests=3
// EXPECT-OBJECTS: r:4 k:4 s:4 t:4 unnamed:2 h:2
#include <klee/klee.h>
#include <symq.h>

int main(void) {
  int r = klee_range(10, 13, "r");
  int k = klee_int("k");
  int s = symq_range(-2, 2, "s");
  int t = symq_int("t");
  unsigned char raw[2];
  klee_make_symbolic(raw, sizeof raw, 0);
  unsigned short h;
  symq_make_symbolic(&h, sizeof h, "h");

  klee_assert((r >= 10) & (r < 13));
  klee_assert((s >= -2) & (s < 2));
  klee_assume(k == t);
  symq_assume(raw[0] == raw[1]);
  symq_assert((k - t == 0) & (raw[0] == raw[1]));

  switch (r) {
  case 10:
    return 1;
  case 11:
    return 2;
  case 12:
    return 3;
  default:
    klee_assert(0);
    return 4;
  }
}
