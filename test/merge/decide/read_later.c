/*
 * A loop PAT can merge by pattern whose exit values are then read by the branches that
 * follow: acc (0, 1, 4, 13, … — no template a·K + b fits, so a merge makes it an ite on K)
 * decides every branch after the loop. The cost estimate (merge/decide.h) declines the
 * merge ("declined: merged values read by later queries"); --merge-decide=always merges.
 * The error: acc = 13 (three leading 'a').
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 5
#endif

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t i = 0;
  unsigned acc = 0;
  while (i < n && s[i] == 'a') {
    i++;
    acc = acc * 3 + 1;
  }
  int r = 0;
  if (acc > 10) r++;
  if (acc % 2) r++;
  if (acc == 4) r += 2;
  if (acc == 13) r += 5;
  klee_assert(r < 5);
  return r;
}
