/* strtod on concrete text runs to the end (json-c parses every number with a '.' or an
 * exponent this way): the value, *endptr and errno are glibc's, including a correctly
 * rounded long one and an overflow. The only fork is on the symbolic x chosing the text:
 * 2 completed paths, no error, 2 tests. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: x:4
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  const char *text = x > 0 ? "  -12.5e-1]" : "0.1000000000000000055511151231257827";
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (x > 0) klee_assert(v == -1.25 && *end == ']' && errno == 0);
  else klee_assert(v == 0.1 && *end == 0);
  errno = 0;
  klee_assert(strtod("1e999", &end) == HUGE_VAL && errno == ERANGE);
  klee_assert(strtof("0x1.8p1", NULL) == 3.0f && atof("inf") > 1e308);
  return 0;
}
