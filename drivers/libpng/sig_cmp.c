/* libpng png_sig_cmp: 8 symbolic bytes of a file, n <= 8 of them compared with the PNG
 * signature from a symbolic offset start (both in the bytes and in the signature). Checks
 * that it reports a match (0) exactly when bytes[start..start+n) equal the signature's
 * (cut at 8), and a mismatch (-1) without comparing when n is 0 or start is 8 or more. */
#include "common.h"

int main(void) {
  unsigned char bytes[8];
  size_t n, start;
  klee_make_symbolic(bytes, sizeof bytes, "bytes");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(&start, sizeof start, "start");
  klee_assume(n <= 8);
  klee_assume(start <= 9);
  static const unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  int r = png_sig_cmp(bytes, start, n);
  if (start >= 8 || n == 0) {
    klee_assert(r == -1);
    return 0;
  }
  size_t end = start + n < 8 ? start + n : 8;
  int same = 1;
  for (size_t i = start; i < end; i++) same &= bytes[i] == signature[i];
  klee_assert((r == 0) == (same != 0));
  return 0;
}
