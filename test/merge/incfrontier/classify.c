/*
 * A loop whose body sorts each byte sixteen ways and whose sides join after the switch (they
 * differ only in the value v: an ite), so --incremental-merge keeps its frontier down: each
 * iteration forks fifteen times and merges the cases back into one state. The queue holds up
 * to a switch's width for a while, more than --max-region-states/16 at the test's 256, but a
 * small share of the forks made: test/merge/incfrontier.py checks that the region does not
 * give up and explores what none explores.
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
  unsigned sum = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    switch (s[i]) {
    case 'a': v = 1; break;
    case 'b': v = 2; break;
    case 'c': v = 3; break;
    case 'd': v = 4; break;
    case 'e': v = 5; break;
    case 'f': v = 6; break;
    case 'g': v = 7; break;
    case 'h': v = 8; break;
    case 'i': v = 9; break;
    case 'j': v = 10; break;
    case 'k': v = 11; break;
    case 'l': v = 12; break;
    case 'm': v = 13; break;
    case 'n': v = 14; break;
    case 'o': v = 15; break;
    default: v = 0; break;
    }
    sum += v;
  }
  klee_assert(sum <= 15 * n);
  return 0;
}
