/* APR apr_strnatcmp: natural-order comparison ("a2" < "a10") of two strings of symbolic
 * lengths <= CAP. Checks antisymmetry (cmp(a, b) = -cmp(b, a)) and that a string equals
 * itself. */
#include <apr_strings.h>

#include "common.h"

int main(void) {
  char a[CAP + 1], b[CAP + 1];
  symbolic_string(a, "n", "a");
  symbolic_string(b, "m", "b");
  int ab = apr_strnatcmp(a, b), ba = apr_strnatcmp(b, a);
  klee_assert((ab > 0) == (ba < 0) && (ab == 0) == (ba == 0));
  klee_assert(apr_strnatcmp(a, a) == 0);
  return 0;
}
