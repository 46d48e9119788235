/* busybox bb_uuencode then decode_base64 (base64, uuencode -m): n <= CAP/2 symbolic bytes
 * (any values, NUL included) encoded with bb_uuenc_tbl_base64, then decoded. Checks that the
 * encoding has 4*ceil(n/3) characters, all from the alphabet or '=', and that decoding
 * gives back the n bytes. */
#include "common.h"

int main(void) {
  unsigned char in[CAP / 2 + 1];
  size_t n;
  bb_errno = __errno_location();
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP / 2);
  klee_make_symbolic(in, sizeof in, "bytes");
  char text[4 * (CAP / 2 + 3) / 3 + 1];
  bb_uuencode(text, in, (int)n, bb_uuenc_tbl_base64);
  size_t len = strlen(text);
  klee_assert(len == (n + 2) / 3 * 4);
  static const char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
  klee_assert(strspn(text, alphabet) == len);
  char out[CAP / 2 + 3];
  const char *src = text;
  char *end = decode_base64(out, &src);
  klee_assert((size_t)(end - out) == n);
  klee_assert(memcmp(out, in, n) == 0);
  return 0;
}
