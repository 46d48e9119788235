/* strlen and strnlen. strlen on a symbolic string of length 0..4 forks once per length (5
 * paths); strnlen with a bound 0..5 on an unterminated buffer must never read past the
 * bound (symq would report the out-of-bounds read) and forks once per way of stopping:
 * at the bound k = 0..5 or at a NUL at k = 0..4 (11 paths). */
// ARGS: --merge=none
// EXPECT: completed=16 tests=16
#define _GNU_SOURCE
#include <string.h>

#include "harness.h"

int main(void) {
  char s[5];
  sym_string(s, sizeof s, "s");
  int which = sym_int_in("which", 0, 1);
  if (which == 0) {
    check_uint("strlen", strlen(s));
  } else {
    char raw[5]; /* no terminator guaranteed */
    klee_make_symbolic(raw, sizeof raw, "raw");
    size_t max = (size_t)sym_int_in("max", 0, 5);
    check_uint("strnlen", strnlen(raw, max));
  }
  return 0;
}
