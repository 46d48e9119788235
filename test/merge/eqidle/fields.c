/*
 * wget res_parse in small: a loop over a string of symbolic length n <= CAP that holds
 * another loop (a field of letters and digits), where the states that c_isalnum's cases send
 * to `return 1` are merged as equal snapshots and the merged state reads the next character
 * and forks again. Those merges pay: the region keeps its incremental part
 * (test/merge/eqidle.py).
 */
#ifndef CAP
#define CAP 6
#endif

#include "text.h"

static int is_alnum(int c) {
  switch (c) {
  case '0': case '1': case '2': case 'a': case 'b': case 'c': case 'x': case 'y':
    return 1;
  default:
    return 0;
  }
}

int main(void) {
  char s[CAP + 1];
  symbolic_text(s);
  const char *p = s;
  int fields = 0;
  while (*p) {
    const char *b = p;
    while (*p && (is_alnum(*p) || *p == '-')) p++;
    if (p != b) fields++;
    if (*p) p++;
  }
  klee_assert(fields <= CAP);
  return 0;
}
