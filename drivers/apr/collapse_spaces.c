/* APR apr_collapse_spaces and apr_cpystrn: a string of symbolic length n <= CAP (its bytes
 * may hold an earlier NUL) with its white space removed, and copied into a buffer of
 * symbolic size. Checks that the result has no space left, is no longer than the input,
 * and that apr_cpystrn truncates to the buffer and returns the end of what it copied. */
#include <ctype.h>
#include <string.h>

#include <apr_strings.h>

#include "common.h"

int main(void) {
  char s[CAP + 1], out[CAP + 1], copy[CAP + 1];
  size_t n = symbolic_string(s, "n", "s");
  char *end = apr_collapse_spaces(out, s);
  size_t len = (size_t)(end - out);
  klee_assert(len <= n && out[len] == 0);
  for (size_t i = 0; i < len; i++) klee_assert(!isspace((unsigned char)out[i]));
  size_t size;
  klee_make_symbolic(&size, sizeof size, "size");
  klee_assume((size >= 1) & (size <= CAP + 1));
  char *cend = apr_cpystrn(copy, s, size);
  size_t slen = strlen(s);
  klee_assert(*cend == 0 && (size_t)(cend - copy) == (slen < size - 1 ? slen : size - 1));
  return 0;
}
