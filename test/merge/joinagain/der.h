/* The input of test/merge/joinagain's programs: der, CAP symbolic bytes of which the first
 * len (symbolic, 2 <= len <= CAP) are the encoding. */
#include <klee/klee.h>

static int symbolic_der(unsigned char der[CAP]) {
  int len;
  klee_make_symbolic(&len, sizeof len, "len");
  klee_assume(len >= 2 & len <= CAP);
  klee_make_symbolic(der, CAP, "der");
  return len;
}
