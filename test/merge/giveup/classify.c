/*
 * The shape of wget's base64 decoder: a loop over a string of symbolic length n <= 16 that
 * classifies each byte in a function (a switch: blank, digit '0' or '1', anything else) and
 * gives up on the first byte of no class (`return -1`, one of the loop's exits). The switch's
 * cases are no diamonds — each returns to the loop, which goes on — so 3^n paths go through
 * the loop. The region's tree is estimated by counting a case not yet run as large as the
 * one explored beside it (both go back to the loop); it gives up once the estimate passes
 * --max-region-states and its states go on as forked ones: pat completes paths as none does
 * within the same instruction budget. Counted as one state each, the cases would keep the
 * estimate near the number of exits and the region would hold every state it reaches, until
 * 4,096 wait: within the budget no path completes.
 * EXPECT: giveup=1 max-instructions=30000
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAP /* classify_small.c includes this file at a capacity of 6 */
#define CAP 16
#endif

static int classify(char c) {
  switch (c) {
  case ' ':
  case '\t':
    return 0;
  case '0':
    return 1;
  case '1':
    return 2;
  default:
    return -1;
  }
}

static int decode(const char *s, size_t n, unsigned *out) {
  unsigned value = 0;
  for (size_t i = 0; i < n; i++) {
    int k = classify(s[i]);
    if (k < 0) return -1;
    if (k) value = 2 * value + (unsigned)(k - 1);
  }
  *out = value;
  return 0;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  unsigned value;
  if (decode(s, n, &value) == 0) klee_assert(value < (1u << CAP));
  return 0;
}
