/* A loop whose body calls a function is one region: the callee runs inside it. is_digit's
 * `c >= '0' && c <= '9'` has three outcomes per byte (below '0', above '9', a digit), so
 * s[0..n) with n ≤ 3 forks 3^0 + 3^1 + 3^2 + 3^3 = 40 paths; they all leave by the one exit
 * edge (i < n false) and merge into 1 state. Tests: the 40 constituents (the merged state
 * ends as merged: its paths are theirs, and it writes none). */
// ARGS: --merge=cfg --validate-merges
// EXPECT: completed=1 errors=0 tests=40
// EXPECT-OBJECTS: n:8 s
#include <klee/klee.h>
#include <stdlib.h>

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 3);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  int digits = 0;
  for (size_t i = 0; i < n; i++)
    if (is_digit(s[i]))
      digits++;
  klee_assert(digits <= 3);
  return digits;
}
