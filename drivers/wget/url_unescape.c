/* wget url_escape and url_unescape: a string of symbolic length n <= CAP %-escaped, then
 * unescaped in place. Checks that escaping never shrinks the string, that the escaped text
 * unescapes back to the original, and that unescaping the original never grows it. */
#include <string.h>

#include "common.h"
#include "url.h"

int main(void) {
  char s[CAP + 1], t[CAP + 1];
  symbolic_string(s, "n", "s");
  char *escaped = url_escape(s);
  klee_assert(strlen(escaped) >= strlen(s));
  url_unescape(escaped);
  klee_assert(strcmp(escaped, s) == 0);
  xfree(escaped);
  memcpy(t, s, sizeof t);
  url_unescape(t);
  klee_assert(strlen(t) <= strlen(s));
  return 0;
}
