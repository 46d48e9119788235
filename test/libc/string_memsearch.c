/* memcmp, bcmp, memchr, memrchr, rawmemchr and memmem on symbolic bytes with symbolic
 * lengths: one path per first difference / match position, as a byte loop gives. */
#define _GNU_SOURCE
#include <string.h>

#include "harness.h"

int main(void) {
  unsigned char a[3], b[3];
  klee_make_symbolic(a, sizeof a, "a");
  klee_make_symbolic(b, sizeof b, "b");
  size_t n = (size_t)sym_int_in("n", 0, 3);
  int c = sym_int_in("c", -300, 300);
  switch (sym_int_in("which", 0, 6)) {
  case 0: check_sign("memcmp", memcmp(a, b, n)); break;
  case 1: check_bool("bcmp", bcmp(a, b, n)); break;
  case 2: check_ptr("memchr", memchr(a, c, n), a); break;
  case 3: check_ptr("memrchr", memrchr(a, c, n), a); break;
  case 4: {
    unsigned char s[4] = {a[0], a[1], a[2], (unsigned char)c}; /* c is always found */
    check_ptr("rawmemchr", rawmemchr(s, c), s);
    break;
  }
  case 5: {
    size_t hlen = (size_t)sym_int_in("hlen", 0, 3);
    check_ptr("memmem", memmem(a, hlen, b, n > 2 ? 2 : n), a);
    break;
  }
  case 6: check_sign("memcmp self", memcmp(a, a, n)); break;
  }
  return 0;
}
