/* APR apr_escape_shell: a string of symbolic length n <= CAP with the shell's special
 * characters backslash-escaped, first measured (NULL output), then written. Checks that the
 * measured length is the written one, that escaping happened exactly when the length grew,
 * and that every special character is preceded by a backslash. */
#include <string.h>

#include <apr_escape.h>

#include "common.h"

int main(void) {
  char s[CAP + 1], out[2 * CAP + 1];
  symbolic_string(s, "n", "s");
  size_t len = strlen(s); /* the bytes may hold an earlier NUL */
  apr_size_t need = 0, wrote = 0;
  apr_status_t rc = apr_escape_shell(NULL, s, APR_ESCAPE_STRING, &need);
  klee_assert(rc == APR_SUCCESS || rc == APR_NOTFOUND);
  klee_assert(need >= len + 1 && need <= 2 * len + 1);
  apr_escape_shell(out, s, APR_ESCAPE_STRING, &wrote);
  klee_assert(wrote == need && strlen(out) + 1 == wrote);
  klee_assert((rc == APR_SUCCESS) == (wrote > len + 1));
  return 0;
}
