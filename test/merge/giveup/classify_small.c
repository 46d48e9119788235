/*
 * classify.c's loop at a capacity of 6: 3^6 paths go through it and about 1,500 states reach
 * its exits, fewer than --max-region-states, so the estimate (each switch case not yet run as
 * large as the one beside it) keeps the region open to the end and the states at its exits are
 * merged.
 * EXPECT: giveup=0
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 6

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
