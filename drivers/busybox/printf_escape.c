/* busybox bb_process_escape_sequence (echo -e, printf, tr): the text after a backslash, of
 * symbolic length n <= CAP. Checks that it consumes at most 3 characters (\NNN octal, \xHH
 * hex), never moves past the end of the string, leaves the pointer in place exactly when
 * it returns a literal backslash for an unknown escape, and that a one-digit octal escape
 * is that digit's value. */
#include "common.h"

int main(void) {
  char s[CAP + 1];
  size_t n = busybox_symbolic_string(s, "text");
  const char *p = s;
  char c = bb_process_escape_sequence(&p);
  size_t used = (size_t)(p - s);
  klee_assert(used <= 3 && used <= n);
  if (used == 0) klee_assert(c == '\\');
  if (n >= 1 && s[0] >= '0' && s[0] <= '7' && !(s[1] >= '0' && s[1] <= '7'))
    klee_assert(used == 1 && c == s[0] - '0');
  return 0;
}
