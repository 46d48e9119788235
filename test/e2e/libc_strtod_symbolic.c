/* strtod on symbolic text forks on its syntax like any libc model here, and symq computes
 * floating point on concrete values only: where a digit's value is needed and the path
 * allows several, the path forks once per value, so every path converts concrete digits
 * exactly and none ends early. s is one symbolic digit then NUL: s[0] == '0' (the hex
 * check forks on it) is a single value; the other nine fork into nine paths. On all ten
 * the result is the digit. */
// EXPECT: completed=10 errors=0 tests=10
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
