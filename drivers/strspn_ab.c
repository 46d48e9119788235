/*
 * The paper's strspn "ab" example for incremental merging (its §4): the length of the
 * prefix of a NUL-terminated buffer of CAPACITY symbolic bytes made of 'a' and 'b'. Each
 * byte is 'a', or not 'a' but 'b', or neither (the loop stops), so forking leaves
 * 2^0 + … + 2^CAPACITY paths at the loop's exit (15 for CAPACITY 3), which standard and
 * pattern merging then merge; incremental merging joins the two ways to go on at every
 * byte, leaving CAPACITY + 1 (4). The loop depends on symbolic bytes, not on a symbolic
 * size: run it with --merge-loops=symbolic.
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 3
#endif

static size_t span_ab(const char *s) {
  size_t n = 0;
  while (s[n] == 'a' || s[n] == 'b')
    n++;
  return n;
}

int main(void) {
  char s[CAPACITY + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[CAPACITY] = 0;
  size_t k = span_ab(s);
  klee_assert(k <= CAPACITY);
  return 0;
}
