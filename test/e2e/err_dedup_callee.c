/* Deduplication is per instruction, whatever the call stack: check() is called from two call
 * sites, and its abort() is the same instruction both times.
 *   a = 0           abort from the first call: reported (test + .err)
 *   a != 0, b = 0   abort from the second call: same instruction, ends without a test
 *   otherwise       completed
 * 1 completed + 2 error paths; 1 + 1 = 2 tests, one .err naming the line inside check(). */
// EXPECT: completed=1 errors=2 tests=2
// EXPECT-ERROR: abort line=@in_check
// EXPECT-OBJECTS: a:4 b:4
#include <stdlib.h>
#include <klee/klee.h>

static void check(int v) {
  if (v == 0) abort(); /* @in_check */
}

int main(void) {
  int a, b;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  check(a);
  check(b);
  return 0;
}
