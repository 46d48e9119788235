/* A scanner that advances its cursor through the cursor's address (apr_fnmatch's
 * `fnmatch_ch(&pattern, &string, …)`): the cursor stays in memory, and each arm of the loop
 * ends with `continue`, so the arms meet at the loop's header. An escape moves the cursor 3
 * bytes, any other byte 1: joined there, the cursor in memory would become an ite and every
 * later read through it a read at a symbolic index. Incremental merging keeps such sides
 * forked (a pointer kept in memory differs), as it does when an address register differs
 * (test/merge/joinaddr.py; 2.8x none's Z3 effort with the join, 0.20x without).
 * EXPECT: effort_over_none<=1
 */
#include <stddef.h>

#ifndef CAP
#define CAP 5
#endif
#include "../../../drivers/symbolic_string.h"

static int step(const char **cursor) {
  const char *s = *cursor;
  if (s[0] == '%' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9') {
    *cursor = s + 3;
    return 1;
  }
  *cursor = s + 1;
  return 0;
}

int main(void) {
  char s[CAP + 1];
  size_t n = symbolic_string(s, "n", "s");
  const char *cursor = s;
  int escapes = 0, blanks = 0;
  while (*cursor) {
    if (*cursor == ' ') {
      blanks++;
      cursor++;
      continue;
    }
    if (step(&cursor)) {
      escapes++;
      continue;
    }
  }
  klee_assert(3 * escapes + blanks <= (int)n);
  klee_assert(!(escapes == 1 && n == 3 && blanks == 0 && s[1] == '4')); /* "%4D": every mode */
  return 0;
}
