/* strspn, strcspn and strpbrk with constant sets over a symbolic string of 4 bytes: each
 * byte continues the scan or stops it, one branch — not one per byte of the set, which
 * would make strspn(s, "0123456789") 10^4 paths. strspn and strcspn stop at byte 0..3 or at
 * the terminator (5 paths each); strpbrk stops at byte 0..3 on a set byte or a NUL, then
 * tells the two apart, or reaches the terminator (9). With the 3-way switch: 19 paths. */
// EXPECT: completed=19
#include <string.h>

#include "harness.h"

int main(void) {
  char s[5];
  klee_make_symbolic(s, sizeof s, "s");
  s[4] = '\0';
  switch (sym_int_in("which", 0, 2)) {
  case 0: check_uint("strspn", strspn(s, "0123456789")); break;
  case 1: check_uint("strcspn", strcspn(s, " \t\r\n,;")); break;
  case 2: check_ptr("strpbrk", strpbrk(s, "+-*/"), s); break;
  }
  return 0;
}
