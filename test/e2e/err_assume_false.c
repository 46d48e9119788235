/* An assumption that cannot hold on the current path is a user error (KLEE: "invalid
 * klee_assume call (provably false)"). x > 5 is assumed first; then
 *   c = 1   klee_assume(x < 3)  is provably false: user error
 *   c = 2   symq_assume(x == 0) is provably false: user error
 *   other   klee_assume(x < 10) is satisfiable and only narrows x: completed
 * 1 completed + 2 errors = 3 tests. */
// EXPECT: completed=1 errors=2 tests=3
// EXPECT-ERROR: user line=@assume_klee msg="provably false"
// EXPECT-ERROR: user line=@assume_symq
// EXPECT-OBJECTS: x:4 c:4
#include <klee/klee.h>
#include <symq.h>

int main(void) {
  int x, c;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_assume(x > 5);
  if (c == 1) klee_assume(x < 3);  /* @assume_klee */
  if (c == 2) symq_assume(x == 0); /* @assume_symq */
  klee_assume(x < 10);
  klee_assert((x > 5) & (x < 10));
  return 0;
}
