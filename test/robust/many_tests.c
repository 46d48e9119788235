/* kill9: 1024 paths, each ending quickly with a test, so tests are written steadily while
 * the run is killed.
 * disk-full (run_output.py, with -DBIG_TESTS): the paths with exactly three inputs over 100
 * also make an 8 KB object symbolic, so under a 4 KB file size limit (RLIMIT_FSIZE) the
 * first of their tests cannot be written, after several others have been.
 * sigpipe (run_output.py, with -DINPUTS=40): 2^40 paths, so the run is still exploring when
 * the signal comes, however fast the machine is. */
#include <klee/klee.h>

#ifndef INPUTS
#define INPUTS 10
#endif

int main(void) {
  unsigned char in[INPUTS];
  klee_make_symbolic(in, sizeof in, "in");
  int k = 0;
  for (int i = 0; i < INPUTS; i++)
    if (in[i] > 100) k++;
#ifdef BIG_TESTS
  if (k == 3) {
    static unsigned char big[8192];
    klee_make_symbolic(big, sizeof big, "big");
    return big[0];
  }
#endif
  return k;
}
