/* busybox percent_decode_in_place (httpd's URL and query decoding, strict and not): a URL
 * of symbolic length n <= CAP decoded in place. Checks that the result never grows, that
 * strict decoding refuses a bad escape (NULL) and reports an encoded '/' or NUL (str + 1),
 * and that text without '%' or '+' is left unchanged. */
#include "common.h"

int main(void) {
  char s[CAP + 1], copy[CAP + 1];
  size_t n = busybox_symbolic_string(s, "url");
  int strict;
  klee_make_symbolic(&strict, sizeof strict, "strict");
  klee_assume(strict == 0 || strict == 1);
  memcpy(copy, s, n + 1);
  char *r = percent_decode_in_place(s, strict);
  if (!strict) klee_assert(r == s);
  if (r == s) {
    klee_assert(strlen(s) <= n);
    if (!strpbrk(copy, "%+")) klee_assert(memcmp(s, copy, n + 1) == 0);
  } else {
    klee_assert(strict && (r == NULL || r == s + 1) && strchr(copy, '%'));
  }
  return 0;
}
