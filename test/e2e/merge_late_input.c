/* An input made after a merged loop is in every test, the tests of the paths merged away
 * included. The loop over s, bounded by a symbolic n <= 7, stops at an 'a': 8 ways out, the
 * merge writes a test for each before the driver makes `late` and branches on it. Those
 * tests are written again when a path of the merged state ends, from a model of the
 * member's path and that path's (engine/core/member_tests.h), with `late` in them; before,
 * 21 of the 25 tests lacked it and did not replay. Replayed natively by replay/e2e.
 * merge_late_input_cfg.c runs the same driver under --merge=cfg (merged at the release). */
// ARGS: --merge=pat --validate-merges
// EXPECT: completed=4 errors=0 tests=25
// EXPECT-OBJECTS: s:8 n:4 late:4
#include <klee/klee.h>

int main(void) {
  char s[8];
  unsigned n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 7);
  unsigned k = 0;
  while (k < n && s[k] != 'a') k++;
  int late;
  klee_make_symbolic(&late, sizeof late, "late");
  if (late == (int)k) return 1;
  return 0;
}
