/*
 * A loop whose body both merges and grows, as busybox's chmod_parse_mode does: a space is
 * counted (the two sides differ only in `spaces` and join: an ite), but six other bytes are
 * escaped, each its own way, so those sides leave the output pointer p at different places
 * (an address) and never join. Breadth-first every byte merges a node per state and
 * multiplies the frontier by seven: a node merged per eight forks, yet the states waiting for
 * their turn keep 0.43 of the forks. test/merge/incfrontier.py runs it under an instruction
 * budget with the default --max-region-states (4,096): the region must give up on that share
 * as soon as its queue is long (256 states), not when 4,096 states wait.
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 40

int main(void) {
  size_t n, spaces = 0;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1), out[7 * CAP + 1], *p = out;
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == ' ') spaces++;
    if (s[i] == '$') {
      *p++ = '$';
    } else if (s[i] == '%') {
      *p++ = '%';
      *p++ = '%';
    } else if (s[i] == '&') {
      *p++ = '&';
      *p++ = '&';
      *p++ = '&';
    } else if (s[i] == '#') {
      *p++ = '#';
      *p++ = '#';
      *p++ = '#';
      *p++ = '#';
    } else if (s[i] == '@') {
      *p++ = '@';
      *p++ = '@';
      *p++ = '@';
      *p++ = '@';
      *p++ = '@';
    } else if (s[i] == '!') {
      *p++ = '!';
      *p++ = '!';
      *p++ = '!';
      *p++ = '!';
      *p++ = '!';
      *p++ = '!';
    }
    *p++ = s[i];
  }
  *p = 0;
  klee_assert(p - out <= 7 * (long)n && spaces <= n);
  return 0;
}
