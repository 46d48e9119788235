/* Standard merging of the paper's memspn (pat-merge.md §1): with n ≤ 4 forking gives
 * 2·4 + 1 = 9 paths; CFG mode opens one region on the loop (its exit branch i < n depends on
 * the symbolic size n) and merges the 9 paths into one state per loop exit edge (i == n, and
 * s[i] != 'a'): 2 completed paths. --tests-per-merge=all (the default) writes a test for
 * each of the 9 constituents before merging; a merged state that then ends with no
 * constraint added writes none of its own (its constituents' tests are its paths): 9 tests. */
// ARGS: --merge=cfg --validate-merges
// EXPECT: completed=2 errors=0 tests=9
// EXPECT-OBJECTS: n:8 s
// SEARCH-INVARIANT
#include <klee/klee.h>
#include <stdlib.h>

static size_t memspn(const char *s, size_t n, char c) {
  size_t i = 0;
  for (; i < n; i++) /* the paper's form: two exit edges, i < n and the break */
    if (s[i] != c)
      break;
  return i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 4);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t count = memspn(s, n, 'a');
  klee_assert(count <= n);
  return 0;
}
