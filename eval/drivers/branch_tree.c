/* 2^12 paths of independent branches over a symbolic buffer: measures forking, the solver
 * chain's caches and test writing. */
#include <klee/klee.h>
int main(void) {
  unsigned char b[12];
  klee_make_symbolic(b, sizeof b, "b");
  int n = 0;
  for (int i = 0; i < 12; i++)
    if (b[i] > 100) n++;
  return n;
}
