/* APR apr_unescape_url: a URL component of symbolic length n <= CAP with %XX escapes (and
 * '+' as space) decoded, first measured, then written. Checks that the measured and written
 * lengths agree, that the result is never longer than the input, and that a bad escape is
 * reported as APR_BADCH. */
#include <string.h>

#include <apr_escape.h>

#include "common.h"

int main(void) {
  char s[CAP + 1], out[CAP + 1];
  size_t n = symbolic_string(s, "n", "s");
  apr_size_t need = 0, wrote = 0;
  apr_status_t rc = apr_unescape_url(NULL, s, APR_ESCAPE_STRING, NULL, NULL, 1, &need);
  klee_assert(rc == APR_SUCCESS || rc == APR_NOTFOUND || rc == APR_BADCH ||
              rc == APR_EINVAL);
  if (rc == APR_SUCCESS || rc == APR_NOTFOUND) {
    klee_assert(need <= strlen(s) + 1 && strlen(s) <= n);
    klee_assert(apr_unescape_url(out, s, APR_ESCAPE_STRING, NULL, NULL, 1, &wrote) == rc);
    klee_assert(wrote == need);
  }
  return 0;
}
