/*
 * A loop over a string of symbolic length n <= 8 that copies the bytes other than ' ' (APR's
 * apr_collapse_spaces in small): its branch words fit no formula pattern that PAT can use, so
 * the states at its exit (511) are merged the CFG way, and with --tests-per-merge=all each
 * member merged away gets its test. The member's model is taken when it pauses at the exit,
 * while the counterexample cache still holds it; asked at the release, after hundreds of
 * other members, it went to Z3.
 * EXPECT: merged-tests-from-pause
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 8

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  char out[CAP + 1];
  size_t j = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] != s[i + 1]) out[j++] = s[i];
  return 0;
}
