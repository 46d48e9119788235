/*
 * compete.c — a merge region competing with many states outside any region: one side of the
 * first branch scans a buffer of symbolic size n (a loop that opens a region, merged by
 * pattern), the other forks 2^BUSY paths through a loop of concrete bound (no region). Under
 * bfs or a random searcher without fast-forwarding, the region's states take their turns
 * among the busy side's and the region is released late; fast-forwarded, they run to the
 * region's exits first. test/merge/searchers.py reads the order the tests were written in.
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 8
#endif
#ifndef BUSY
#define BUSY 8
#endif

static size_t span(const char *s, size_t n) {
  size_t i = 0;
  for (; i < n; i++)
    if (s[i] != 'a') break;
  return i;
}

static unsigned busy(const unsigned char *c) {
  unsigned acc = 0;
  for (unsigned i = 0; i < BUSY; i++)
    if (c[i] & 1) acc += i;
  return acc;
}

int main(void) {
  int side;
  klee_make_symbolic(&side, sizeof side, "side");
  if (side) {
    unsigned char c[BUSY];
    klee_make_symbolic(c, sizeof c, "c");
    klee_assert(busy(c) <= BUSY * (BUSY - 1) / 2);
    return 0;
  }
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  klee_assert(span(s, n) <= n);
  return 0;
}
