/*
 * The shape of APR's apr_escape_shell: a loop over a string of symbolic length n <= 40 whose
 * body forks a diamond on every byte (a special byte is counted, to be escaped), then the
 * string written out escaped and checked. 2^n paths go through the loop: a region there
 * would hold every one of them until its exits had seen them all — no path completes — so it
 * gives up once its tree is estimated to end with more than --max-region-states states
 * (after about 12 bytes), and its states go on as forked ones: pat completes paths as none
 * does within the same instruction budget.
 * EXPECT: giveup=1 max-instructions=40000
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 40

static int special(char c) { return c == '$'; }

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1), out[2 * CAP + 1];
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t need = 0;
  for (size_t i = 0; i < n; i++) {
    if (special(s[i])) need++;
    need++;
  }
  size_t w = 0;
  for (size_t i = 0; i < n; i++) {
    if (special(s[i])) out[w++] = '\\';
    out[w++] = s[i];
  }
  out[w] = 0;
  klee_assert(w == need && need <= 2 * n);
  return 0;
}
