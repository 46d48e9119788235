/* covering-new: eight independent branches, each side with its own code: 256 paths, 16
 * branch sides. A test for a path only when it covers new code must still take, over all
 * tests, every side of every branch. */
#include <klee/klee.h>

int main(void) {
  unsigned char in[8];
  klee_make_symbolic(in, sizeof in, "in");
  int k = 0;
  if (in[0] > 100) k += 1; else k ^= 3;
  if (in[1] > 100) k += 5; else k ^= 7;
  if (in[2] > 100) k += 9; else k ^= 11;
  if (in[3] > 100) k += 13; else k ^= 15;
  if (in[4] > 100) k += 17; else k ^= 19;
  if (in[5] > 100) k += 21; else k ^= 23;
  if (in[6] > 100) k += 25; else k ^= 27;
  if (in[7] > 100) k += 29; else k ^= 31;
  return k;
}
