/* APR apr_fnmatch: a shell pattern of symbolic length n <= CAP (*, ?, [classes], escapes)
 * matched against "src/a.c" with APR_FNM_PATHNAME. Checks that the pattern equal to the
 * string matches, that apr_fnmatch_test agrees that a pattern without *, ? or [ has no
 * wildcards, and that the result is a match or APR_FNM_NOMATCH. */
#include <string.h>

#include <apr_fnmatch.h>

#include "common.h"

int main(void) {
  char p[CAP + 1];
  symbolic_string(p, "n", "pattern");
  const char *name = "src/a.c";
  apr_status_t rc = apr_fnmatch(p, name, APR_FNM_PATHNAME);
  klee_assert(rc == APR_SUCCESS || rc == APR_FNM_NOMATCH);
  if (strcmp(p, name) == 0) klee_assert(rc == APR_SUCCESS);
  if (!strpbrk(p, "*?[\\")) klee_assert(!apr_fnmatch_test(p));
  return 0;
}
