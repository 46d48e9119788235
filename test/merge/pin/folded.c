/*
 * A decoding loop whose error return (-1, a byte 0xff) is taken at every iteration, keeping a
 * running sum in the caller's variable (each member's a different expression). After the
 * exit the caller tests `scan(...) == 0`, a branch every member computes to the same constant
 * (the callee returns -1 in each), and reads the sum only under it: no member runs that code,
 * merged or forked. The old estimate counted its sites as reading merged values and declined
 * the merge at both exits; the sites under the branch's dead side are no longer counted, and
 * the group at the error exit merges by pattern (the success exit's is still declined).
 * EXPECT: decision="merged by pattern"
 */
#include <klee/klee.h>

#ifndef CAP
#define CAP 4
#endif

static int scan(const unsigned char *d, int len, int *acc) {
  for (int i = 0; i < len; i++) {
    if (d[i] == 0xff) return -1;
    *acc += d[i] * 3 + 1;
  }
  return 0;
}

int main(void) {
  unsigned char d[CAP];
  int len, acc = 0;
  klee_make_symbolic(d, sizeof d, "d");
  klee_make_symbolic(&len, sizeof len, "len");
  klee_assume(len >= 0 && len <= CAP);
  int r = 0;
  if (scan(d, len, &acc) == 0) {
    int a = acc; /* every branch below reads the sum */
    if (a > 50) r += 1;
    if (a > 30) r += 2;
    if (a == 7) r += 3;
    if (a < 20) r += 4;
    if (a < 10) r += 5;
    if (a > 100) r += 6;
    if (a == 40) r += 7;
    klee_assert(a != 12345);
  }
  return r;
}
