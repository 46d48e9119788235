/*
 * Two copy loops in the shape of apr_collapse_spaces (test/merge/decide/big_group.c), one
 * after the other: each loop's exit states fall back from PAT (no pattern) and are merged the
 * CFG way, and between the two a scan of the first string asks its queries in the merged
 * state, whose path condition holds the first merge's disjunction. The run measures what
 * those queries cost Z3 against the others (stats.json effort_split: tagged_queries and
 * tagged_effort), and the second loop's fallback estimate reports the weight (--dump-tree:
 * "measured CFG-merged query weight"), without weighing it (docs/merging.md).
 * EXPECT: cfg-merged-queries-measured
 * The error: a string with a space and at least three 'x', then one with a space.
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 5
#endif

static size_t collapse(const char *s, char *out) {
  char *d = out;
  for (const char *p = s; *p; p++)
    if (*p != ' ') *d++ = *p;
  *d = 0;
  return (size_t)(d - out);
}

int main(void) {
  size_t n, m;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(&m, sizeof m, "m");
  klee_assume(n <= CAPACITY);
  klee_assume(m <= CAPACITY);
  char s[CAPACITY + 1], t[CAPACITY + 1], out[CAPACITY + 1];
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(t, sizeof t, "t");
  s[n] = 0;
  t[m] = 0;
  size_t len = collapse(s, out);
  int xs = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] == 'x') xs++;
  size_t len2 = collapse(t, out);
  klee_assert(len == n || xs < 3 || len2 == m);
  return 0;
}
