/* An error inside a merged loop is found as by forking: the loop over a buffer of symbolic
 * size n ≤ 3 asserts on a 'z' byte. Forking gives 3 failing paths (s[m] == 'z' for m = 0,
 * 1, 2) and 4 that leave by i < n. The assertion's failing block cannot reach the back edge,
 * so it lies outside the loop: the 3 failing states wait at that exit like the others, and
 * CFG merging makes one state per exit edge — one error path (the same assertion, at the
 * same line) and one completed path. Tests: the 7 constituents, then the error path's own
 * (the completed merged state's paths are its constituents', whose tests cover them). */
// ARGS: --merge=cfg --validate-merges
// EXPECT: completed=1 errors=1 tests=8
// EXPECT-ERROR: assert line=@no_z
// EXPECT-OBJECTS: n:8 s
#include <klee/klee.h>
#include <stdlib.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 3);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  for (size_t i = 0; i < n; i++)
    klee_assert(s[i] != 'z'); /* @no_z */
  return 0;
}
