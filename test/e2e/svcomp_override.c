/* symq's __VERIFIER_nondet_X are weak: a program that defines its own (a KLEE-style
 * harness) keeps it, so its objects carry its names; the others still come from symq.
 * The declarations without a prototype, as older benchmarks write them, link too. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: mine:4 nondet_long:8
#include <klee/klee.h>

int __VERIFIER_nondet_int(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "mine");
  return x;
}
extern long __VERIFIER_nondet_long();

int main() {
  int x = __VERIFIER_nondet_int();
  long y = __VERIFIER_nondet_long();
  if (x < y) return 1;
  return 0;
}
