/* The paper's idiom for a symbolic-size buffer (pat-merge.md §8): n ≤ 5 symbolic,
 * s = malloc(n + 1), klee_make_symbolic(s, n + 1, "s"), s[n] = 0. Scanning the 'a' prefix
 * gives 2·5 + 1 = 11 paths. Of the two with i == 3 (n == 3, and n > 3 with s[3] != 'a'),
 * reading s[4] is out of bounds only where n == 3: 10 completed paths, 1 error. The ktests
 * hold s truncated to its n + 1 bytes, so their sizes vary (no size in EXPECT-OBJECTS). */
// ARGS: --merge=none
// EXPECT: completed=10 errors=1 tests=11
// EXPECT-ERROR: ptr line=@past_the_end
// EXPECT-OBJECTS: n:8 s
// SEARCH-INVARIANT
#include <klee/klee.h>
#include <stdlib.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 5);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t i = 0;
  while (i < n && s[i] == 'a')
    i++;
  if (i == 3)
    return s[4]; /* @past_the_end */
  return (int)i;
}
