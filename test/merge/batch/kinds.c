/*
 * A loop that counts the kinds of the bytes of a string of symbolic length n <= 6 (a function
 * sorts each byte with a switch: 'a', 'b', 'c', or none — which stops the count), then checks
 * the counts. 3^n paths go through the loop — the switch's cases are no diamonds, each goes on
 * with the loop — and about 1,500 states reach its exits, fewer than --max-region-states: the
 * region stays open to the end. Without batches every one of them waits at an exit until the
 * loop is explored, and within the instruction budget no path completes; with them each exit
 * releases its first 512 states merged (or forked, as the decision says), then 1,024, …, and
 * those go on and complete.
 * EXPECT: batch=1 max-instructions=15000
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 6

static int kind(char c) {
  switch (c) {
  case 'a':
    return 0;
  case 'b':
    return 1;
  case 'c':
    return 2;
  default:
    return -1;
  }
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t counts[3] = {0, 0, 0}, i = 0;
  for (; i < n; i++) {
    int k = kind(s[i]);
    if (k < 0) break;
    counts[k]++;
  }
  klee_assert(counts[0] + counts[1] + counts[2] == i && i <= n);
  return 0;
}
