/* busybox bb_parse_mode (chmod, mkdir -m, install -m): a mode argument of symbolic length
 * n <= CAP, octal ("0755") or symbolic ("u+x,go-w", "a=rX"), applied to 0644 on a regular
 * file. Checks that a parsed mode keeps the file-type bits and changes nothing outside
 * 07777, that a failure is -1, and that an octal argument is exactly its value. */
#include "common.h"

int main(void) {
  char s[CAP + 1];
  size_t n = busybox_symbolic_string(s, "mode");
  const unsigned current = S_IFREG | 0644;
  int mode = bb_parse_mode(s, current);
  if (mode == -1) return 1;
  klee_assert(((unsigned)mode & ~07777u) == S_IFREG);
  if (n > 0 && n <= 4 && strspn(s, "01234567") == n) {
    unsigned octal = 0;
    for (size_t i = 0; i < n; i++) octal = octal * 8 + (unsigned)(s[i] - '0');
    klee_assert((unsigned)mode == (S_IFREG | octal));
  }
  return 0;
}
