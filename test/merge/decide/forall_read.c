/*
 * memspn inlined, then the buffer its ∀ constrains is read by the branches that follow: a
 * merge by pattern would add ∀i. 1 ≤ i ≤ K → s[i−1] = 'a' to every later query over s.
 * The cost estimate declines it ("declined: quantified array read by later queries");
 * --merge-decide=always merges. (The count itself is K, a template: not what declines.)
 * The error: s[0] = 'b' and s[2] = 'c'.
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
  while (i < n && s[i] == 'a') i++;
  int r = 0;
  if (s[0] == 'b') r++;
  if (n > 2 && s[2] == 'c') r++;
  if (n > 1 && s[1] == 'd') r += 3;
  klee_assert(r != 2);
  return (int)i + r;
}
