/* memcpy, mempcpy, memmove (overlapping both ways), memset, bzero, explicit_bzero, bcopy
 * and memccpy, with a symbolic length n in 0..4 (each forks once per length: the model's
 * loops, unlike the executor's memcpy intrinsic, keep a symbolic length symbolic). The
 * bytes copied are distinct constants: these functions never branch on them, so symbolic
 * bytes would be checked on one arbitrary value per path (zeros, say, which hide a copy
 * in the wrong direction). memccpy does branch on them: its source is symbolic. Every
 * byte of both buffers is compared with glibc's result. */
#define _GNU_SOURCE
#include <string.h>
#include <strings.h>

#include "harness.h"

int main(void) {
  unsigned char src[4] = {'a', 'b', 'c', 'd'}, buf[8] = {'0', '1', '2', '3', '4', '5', '6', '7'};
  unsigned char data[4];
  klee_make_symbolic(data, sizeof data, "data");
  size_t n = (size_t)sym_int_in("n", 0, 4);
  int c = sym_int_in("c", -300, 300);
  unsigned char dst[6] = {'.', '.', '.', '.', '.', '.'};
  void *r = NULL;
  switch (sym_int_in("which", 0, 9)) {
  case 0: r = memcpy(dst, src, n); check_ptr("memcpy", r, dst); break;
  case 1: r = mempcpy(dst, src, n); check_ptr("mempcpy", r, dst); break;
  case 2: r = memmove(buf + 2, buf, n); check_ptr("memmove up", r, buf); break;
  case 3: r = memmove(buf, buf + 3, n); check_ptr("memmove down", r, buf); break;
  case 4: r = memmove(buf, buf, n); check_ptr("memmove same", r, buf); break;
  case 5: r = memset(dst + 1, c, n); check_ptr("memset", r, dst); break;
  case 6: bzero(dst, n); break;
  case 7: explicit_bzero(dst + 2, n); break;
  case 8: bcopy(buf, buf + 1, n); bcopy(src, dst, n); break;
  case 9: r = memccpy(dst, data, c, n); check_ptr("memccpy", r, dst); break;
  }
  check_mem("dst", dst, sizeof dst);
  check_mem("buf", buf, sizeof buf);
  return 0;
}
