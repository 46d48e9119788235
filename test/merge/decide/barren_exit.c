/*
 * A loop PAT cannot merge by pattern (its body branches without leaving the loop: an odd byte
 * counts) with an error exit: a byte '!' returns -1 from inside the loop, and the caller only
 * tests the result. The states at that exit have nothing left to ask but that one test, so
 * their CFG merge would save at most n − 1 cheap queries and make the merged state ask over
 * the members' disjunction: the fallback is declined ("declined: nothing left to ask after
 * the exit", docs/merging.md "Merge decisions") and they continue forked, as --merge=none's.
 * The loop's normal exit, whose count main reads, is merged as before.
 * The error: CAPACITY (4) bytes before the terminator, three of them odd (w = 3 + 4).
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 4
#endif

static int weigh(const char *s, size_t n, unsigned *w) {
  unsigned odd = 0;
  size_t i = 0;
  for (; i < n; i++) {
    if (s[i] == 0) break;
    if (s[i] == '!') return -1;
    if (s[i] & 1) odd++;
  }
  *w = odd + (unsigned)i;
  return 0;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  unsigned w = 0;
  if (weigh(s, n, &w) == 0) klee_assert(w != 7);
  return 0;
}
