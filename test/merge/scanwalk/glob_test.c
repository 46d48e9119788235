/*
 * APR fnmatch's driver in small (issue 26: pat covered 12 lines fewer than forking): strpbrk
 * over a symbolic string of length n <= 8 merges by pattern — a ∀ that s[0..K) holds none of
 * "*?[\\" — and the state where it finds none calls glob_test (apr_fnmatch_test), which scans
 * the same string again to its terminator, a query on every byte. The scan is a loop of a
 * callee, bounded by the bytes the ∀ constrains, not by K: each of its queries carries the ∀
 * (at CAP 10 under the old decision: 14,333 of 14,574 queries, 6.9x forking's solver
 * effort), as the fnmatch driver's 52,018 of 54,384 did. The ∀ merge must be declined as a
 * walk of its range. Not registered in CMakeLists.txt until merge/decide.c's k_walks counts
 * a callee's loop bounded by a byte the ∀ constrains (see the commit message).
 * EXPECT: declined="declined: a later loop walks the quantified range again by K" forall="(not:1 (eq:1 92:8 (read:8 s@u1 (add:64 18446744073709551615:64 i!"
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CAP 8

/* apr_fnmatch_test: is p a glob pattern? */
static int glob_test(const char *p) {
  int nesting = 0;
  while (*p) {
    switch (*p) {
    case '?':
    case '*':
      return 1;
    case '\\':
      if (*++p == '\0') return 0;
      break;
    case '[':
      ++nesting;
      break;
    case ']':
      if (nesting) return 1;
      break;
    }
    ++p;
  }
  return 0;
}

/* strpbrk(s, "*?[\\") as a loop with an early return per byte of the set — the libc model's
 * strpbrk is branch-free in the set since, and its own exit test reads s[K] where the ∀ is
 * made; this driver is about the callee's walk, so it keeps the loop of APR's shape. */
static const char *find_glob_char(const char *s) {
  for (; *s; s++)
    for (const char *c = "*?[\\"; *c; c++)
      if (*s == *c) return s;
  return NULL;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  if (!find_glob_char(s)) return glob_test(s) ? 2 : 0;
  return 1;
}
