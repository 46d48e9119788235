/* busybox decode_base64 (base64 -d, uudecode, httpd's Basic authentication): base64 text of
 * symbolic length n <= CAP decoded into a buffer. Checks that it writes at most 3 bytes per
 * 4 characters read, stops within the string, and that text made only of full unpadded
 * quadruples of the alphabet is consumed to its end. */
#include "common.h"

int main(void) {
  char s[CAP + 1];
  size_t n = busybox_symbolic_string(s, "text");
  char out[CAP];
  const char *src = s;
  char *end = decode_base64(out, &src);
  size_t read = (size_t)(src - s), written = (size_t)(end - out);
  klee_assert(read <= n);
  klee_assert(written <= (read + 3) / 4 * 3);
  static const char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  if (n % 4 == 0 && strspn(s, alphabet) == n) klee_assert(read == n && written == n / 4 * 3);
  return 0;
}
