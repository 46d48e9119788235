/* strtod on symbolic text forks on its syntax like any libc model here, but symq computes
 * floating point on concrete values only. Where a digit's value is needed, a digit that the
 * path fixes to one value is that value; otherwise the path goes on with one value the
 * solver picks and a fork ends the others early, naming why (nothing is lost quietly).
 * s is one symbolic digit then NUL: s[0] == '0' (the hex check forks on it) is a single
 * value and completes; for the other nine, one value completes and the rest end early.
 * On both completed paths the result is the digit. 2 completed + 1 early = 3 tests. */
// EXPECT: completed=2 errors=0 early=1 tests=3 exhausted=false
// EXPECT-EARLY: unsupported: external call __symq_unsupported_strtod_symbolic_digits
// EXPECT-OBJECTS: s:2
#include <stdlib.h>
#include <klee/klee.h>

int main(void) {
  char s[2];
  klee_make_symbolic(s, sizeof s, "s");
  klee_assume((s[0] >= '0') & (s[0] <= '9') & (s[1] == 0));
  char *end;
  double v = strtod(s, &end);
  klee_assert(end == s + 1 && (int)v == s[0] - '0');
  return 0;
}
