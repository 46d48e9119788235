/* MB_CUR_MAX (glibc's __ctype_get_mb_cur_max(), which wget reaches through gnulib) is 1 in
 * the "C" locale, the only one symq's libc has: the path completes instead of ending at an
 * unsupported external call. 1 completed path, 1 test. */
// EXPECT: completed=1 errors=0 tests=1
// EXPECT-OBJECTS: (none)
#include <stdlib.h>
#include <klee/klee.h>

int main(void) {
  klee_assert(MB_CUR_MAX == 1);
  return 0;
}
