/* wget uri_merge: a relative link of symbolic length n <= CAP resolved against the base
 * "http://h/a/b?q". Checks that the result is a string, that a link with a scheme is
 * returned as it is, and that an empty link gives the base. */
#include <string.h>

#include "common.h"
#include "url.h"

int main(void) {
  char s[CAP + 1];
  symbolic_string(s, "n", "link");
  const char *base = "http://h/a/b?q";
  char *merged = uri_merge(base, s);
  klee_assert(merged != NULL);
  if (url_has_scheme(s)) klee_assert(strcmp(merged, s) == 0);
  if (s[0] == 0) klee_assert(strcmp(merged, base) == 0);
  xfree(merged);
  return 0;
}
