/* memspn with plain forking (--merge=none): with n ≤ 4 every count m = 0..4 is a path, exiting
 * either because i == n or, for m < n, because s[m] != 'a': exactly 2·4 + 1 = 9 completed
 * paths, one test each (merge_memspn_cfg.c is the same driver merged). */
// ARGS: --merge=none
// EXPECT: completed=9 errors=0 tests=9
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
