/* The quantified-solving options on the paper's memspn under standard merging: they are
 * accepted, change nothing about the paths (same counts as merge_memspn_cfg), and stats.json
 * carries the "quantified" counters under the names scripts rely on, with 0 disagreements.
 * (Under CFG merging no query holds a forall; PAT mode's drivers will exercise the stage.) */
// ARGS: --merge=cfg --validate-qsolver --qsolver-fallback=expand --qsolver-timeout=5
// EXPECT: completed=2 errors=0 tests=9
// EXPECT-OBJECTS: n:8 s
#include <klee/klee.h>
#include <stdlib.h>

static size_t memspn(const char *s, size_t n, char c) {
  size_t i = 0;
  for (; i < n; i++)
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
