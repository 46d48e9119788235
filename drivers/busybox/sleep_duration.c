/* busybox parse_duration_str (sleep, timeout, watch -n): a duration of symbolic length
 * n <= CAP, "5", "1.5m", "2h", "0.25d" (with a '.', strtod reads the number, then the
 * suffix is multiplied in; a bad argument shows usage and exits 1). Checks that an integer
 * with a suffix is its value times the suffix's multiplier and that the string is left as
 * it was given (parse_duration_str writes into it and restores it). */
#include "common.h"

int main(void) {
  char s[CAP + 1], copy[CAP + 1];
  size_t n = busybox_symbolic_string(s, "duration");
  memcpy(copy, s, n + 1);
  duration_t d = parse_duration_str(s);
  klee_assert(memcmp(copy, s, n + 1) == 0);
  if (n == 2 && s[0] >= '0' && s[0] <= '9') {
    unsigned v = (unsigned)(s[0] - '0');
    if (s[1] == 'm') klee_assert(d == v * 60);
    if (s[1] == 'h') klee_assert(d == v * 3600);
    if (s[1] == 'd') klee_assert(d == v * 86400);
  }
  return 0;
}
