/*
 * read_after.c's span, its exit a CFG fallback of many states with few distinct lengths, and
 * the store s[len] = 0 at the merged length — but nothing reads s afterwards: the code after
 * it branches on another input (and subtracts len from it). A store at a merged index costs
 * later queries only through the loads that read the object it writes: the merge still pays.
 * EXPECT: decision="fallback cfg (too many candidate patterns)"
 */
#include "span.h"

int main(void) {
  char s[CAP + 1];
  symbolic_terminated(s);
  unsigned len = span(s, "0123456789");
  s[len] = 0;
  int t;
  klee_make_symbolic(&t, sizeof t, "t");
  for (int i = 0; i < 3; i++)
    if (t > i) t -= (int)len;
  klee_assert(t != 7);
  return t;
}
