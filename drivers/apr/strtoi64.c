/* APR apr_strtoi64 (and apr_atoi64): a number of symbolic length n <= CAP in base 0, 10 or
 * 16 (chosen symbolically). Checks that the end pointer stays within the text, that no
 * digits means a 0 result with the end at the start, and that apr_atoi64 agrees in base 10. */
#include <errno.h>

#include <apr_strings.h>

#include "common.h"

int main(void) {
  char s[CAP + 1];
  size_t n = symbolic_string(s, "n", "s");
  int base;
  klee_make_symbolic(&base, sizeof base, "base");
  klee_assume((base == 0) | (base == 10) | (base == 16));
  char *end;
  errno = 0;
  apr_int64_t v = apr_strtoi64(s, &end, base);
  klee_assert(end >= s && end <= s + n);
  if (end == s) klee_assert(v == 0);
  if (base == 10) klee_assert(apr_atoi64(s) == v);
  return 0;
}
