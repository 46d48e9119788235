/*
 * Chained memspn (drivers/memspn_twice.c) at capacity 36: the 'a' prefix, then the 'b' run
 * after it. Under --merge=cfg the first loop's states merge into a disjunction, and every
 * fork of the second loop asks Z3 about it (~300,000 effort a fork where the first loop's
 * cost ~200): by its 64th fork that loop's region has spent more solver effort than the
 * budget of the --max-region-states this test gives (256 × 12,000). But its tree's estimate
 * has nothing left to explore beside its dive — the effort is spent, and giving the region up
 * would only send its waiting states on forked under the same disjunction (Z3 effort 17.3 M
 * → 27.7 M). Both loops' regions merge at both exits.
 * EXPECT: max-region-states=256
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAPACITY 36

static size_t span(const char *s, size_t n, char c) {
  size_t i = 0;
  for (; i < n; i++)
    if (s[i] != c) break;
  return i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t a = span(s, n, 'a');
  size_t b = span(s + a, n - a, 'b');
  klee_assert(a + b <= n);
  return 0;
}
