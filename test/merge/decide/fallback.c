/*
 * A loop PAT cannot merge by pattern: its body branches without leaving the loop (an odd
 * byte counts), so the words at each exit do not follow one regular pattern. Under
 * --merge=pat these states continue forked (--pat-fallback=fork, the default): the same
 * paths, tests and error as --merge=none; --pat-fallback=cfg merges them the CFG way.
 * The error: n = 3 odd bytes (w = 3 + 3).
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 4
#endif

static unsigned weight(const char *s, size_t n) {
  unsigned w = 0;
  size_t i = 0;
  for (; i < n; i++) {
    if (s[i] == 0) break;
    if (s[i] & 1) w++;
  }
  return w + (unsigned)i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  unsigned w = weight(s, n);
  klee_assert(w != 6);
  return 0;
}
