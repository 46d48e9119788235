/* disk-full: 1024 paths with a 10-byte test each, but the paths with exactly three inputs
 * over 100 also make an 8 KB object symbolic: under a 4 KB file size limit (RLIMIT_FSIZE)
 * the first of those tests cannot be written, after several have been. */
#include <klee/klee.h>

int main(void) {
  unsigned char in[10];
  klee_make_symbolic(in, sizeof in, "in");
  int k = 0;
  for (int i = 0; i < 10; i++)
    if (in[i] > 100) k++;
  if (k == 3) {
    static unsigned char big[8192];
    klee_make_symbolic(big, sizeof big, "big");
    return big[0];
  }
  return k;
}
