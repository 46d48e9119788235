/* wget wget_base64_decode and wget_base64_encode: text of symbolic length n <= CAP decoded
 * from base64 (padding, invalid characters), and the result encoded again. Checks that a
 * successful decode gives at most 3 bytes per 4 characters, and that encoding them back
 * gives a padded text (a multiple of 4 characters) whose length encode reports. */
#include <string.h>

#include "common.h"
#include "utils.h"

int main(void) {
  char s[CAP + 1];
  size_t n = symbolic_string(s, "n", "text");
  unsigned char out[CAP];
  char back[2 * CAP + 4];
  ssize_t len = wget_base64_decode(s, out, sizeof out);
  if (len >= 0) {
    klee_assert((size_t)len <= (n + 3) / 4 * 3);
    size_t blen = wget_base64_encode(out, (size_t)len, back);
    klee_assert(blen == strlen(back) && blen % 4 == 0);
  }
  return 0;
}
