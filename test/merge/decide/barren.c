/*
 * read_later.c's loop in a function called on every path over three buffers in a row: each
 * region at the loop is declined (acc feeds the branches after it), so after two such
 * regions the loop opens no more ("the loop's earlier regions merged nothing") and its
 * states run as forked ones, without waiting at its exits. The error: three times "aaa".
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 3
#endif

static int score(const char *s, size_t n) {
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
  if (acc == 13) r += 3;
  return r;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char *s = malloc(n + 1), *t = malloc(n + 1), *u = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  klee_make_symbolic(t, n + 1, "t");
  klee_make_symbolic(u, n + 1, "u");
  s[n] = t[n] = u[n] = 0;
  int total = score(s, n) + score(t, n) + score(u, n);
  klee_assert(total < 15);
  return 0;
}
