/* Where strtol forks, pinned by the path count: one branch per byte of a number, not two
 * (below '0', above '9'), no fork on a leading '0' under base 10 (a digit like any other
 * there) and none on the overflow test of each digit — the overflow is one branch at the
 * end, taken only where the result differs. Base 10 over 4 symbolic bytes: the first
 * non-blank at byte p (0..3) is '-', '+' or neither, then the digits stop at any later
 * byte or the terminator — 13 + 10 + 7 + 4 paths, and 1 for four blanks: 35. Then
 * "1844674407370955161" (ULLONG_MAX / 10) and 2 symbolic bytes under strtoull: the digits
 * stop at the first byte (1 path), at the second (the 20th digit overflows above '5': 2)
 * or at the terminator (the 21st always overflows: 1): 4. Then the signed limits under
 * strtoll, "922337203685477580" (LLONG_MAX / 10) and "-922337203685477580" with 2 symbolic
 * bytes: the 19th digit passes LLONG_MAX above '7' (LLONG_MIN below -'8'), the 20th always:
 * 4 paths each. The base model took 114. */
// EXPECT: completed=47
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

int main(void) {
  char *end;
  errno = 0;
  int which = sym_int_in("which", 0, 3);
  if (which == 0) {
    char s[5];
    sym_string(s, sizeof s, "s");
    check_int("strtol", strtol(s, &end, 10));
    check_ptr("end", end, s);
  } else if (which == 1) {
    char s[22] = "1844674407370955161";
    char tail[3];
    sym_string(tail, sizeof tail, "tail");
    memcpy(s + 19, tail, sizeof tail);
    check_uint("strtoull", strtoull(s, &end, 10));
    check_ptr("end", end, s);
  } else {
    char s[22] = "-922337203685477580";
    char *digits = which == 2 ? s + 1 : s; /* without the sign, or with it */
    char tail[3];
    sym_string(tail, sizeof tail, "tail");
    memcpy(s + 19, tail, sizeof tail);
    check_int("strtoll", strtoll(digits, &end, 10));
    check_ptr("end", end, digits);
  }
  check_errno("errno");
  return 0;
}
