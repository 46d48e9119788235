/* memspn's result fed into a second memspn (the paper's motivating example): the first loop
 * over s (n ≤ 3) merges into its 2 exit states. After the i == n exit nothing is left
 * (n − a = 0: the second loop cannot enter, no fork): 1 path. After the break, the second
 * loop over the rest opens a region of its own and leaves one state per exit: 2 paths.
 * 3 completed paths, one test each (--tests-per-merge=one). */
// ARGS: --merge=cfg --validate-merges --tests-per-merge=one
// EXPECT: completed=3 errors=0 tests=3
// EXPECT-OBJECTS: n:8 s
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
  klee_assume(n <= 3);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  size_t a = memspn(s, n, 'a');
  size_t b = memspn(s + a, n - a, 'b');
  klee_assert(a + b <= n);
  return 0;
}
