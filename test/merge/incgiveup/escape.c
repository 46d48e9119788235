/*
 * A loop over a string of symbolic length n <= CAP whose body forks on every byte and whose
 * sides cannot be joined by --incremental-merge: a '$' is escaped, so the two sides leave the
 * output pointer p at different places (an address: merge/incremental.c's address_differs)
 * and no two states are ever equal. Breadth-first, the region's frontier doubles every byte,
 * and every path waits — for its turn or at an exit — for all 2^n. test/merge/incgiveup.py
 * runs it three ways:
 * - as it is (n <= 40) under an instruction budget: without a give-up no path completes; the
 *   region gives up once more than --max-region-states states wait, for their turn and at the
 *   exits together, and pat-inc completes about as many paths as none;
 * - with -DCAP=8, to the end: the region gives up before it merged anything, and pat-inc
 *   explores exactly none's 511 paths, each once;
 * - with -DCAP=8 -DSPACES: a second branch, on a space, whose sides join (they differ only
 *   in the count `spaces`: an ite), so the region merges nodes incrementally before it gives
 *   up (on its frontier's share: the joins do not keep down what the escapes double); its
 *   snapshots are dropped, every merge validates and every path has its one test.
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAP
#define CAP 40
#endif

int main(void) {
  size_t n, spaces = 0;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1), out[2 * CAP + 1], *p = out;
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  for (size_t i = 0; i < n; i++) {
#ifdef SPACES
    if (s[i] == ' ') spaces++;
#endif
    if (s[i] == '$') *p++ = '\\';
    *p++ = s[i];
  }
  *p = 0;
  klee_assert(p - out <= 2 * (long)n && spaces <= n);
  return 0;
}
