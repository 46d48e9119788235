/* What gnulib asks of the locale (wget's URL parser reaches both): MB_CUR_MAX (glibc's
 * __ctype_get_mb_cur_max()) is 1 and nl_langinfo(CODESET) is "ANSI_X3.4-1968" in the "C"
 * locale, the only one symq's libc has; the path completes instead of ending at an
 * unsupported external call. 1 completed path, 1 test. */
// EXPECT: completed=1 errors=0 tests=1
// EXPECT-OBJECTS: (none)
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <klee/klee.h>

int main(void) {
  klee_assert(MB_CUR_MAX == 1);
  klee_assert(strcmp(nl_langinfo(CODESET), "ANSI_X3.4-1968") == 0);
  return 0;
}
