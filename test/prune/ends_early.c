/* One path calls a function symq has no body for: it ends early, so the run proves
 * nothing (verdict unknown), though no error is reachable where symq looked. */
#include <klee/klee.h>
#ifndef N
#define N 4
#endif
int external_function(int);
int main(void) {
  int p[N];
  klee_make_symbolic(p, sizeof p, "p");
  int noise = 0;
  for (int i = 0; i < N; i++) {
    if (p[i] > 100) noise += 3;
    else noise -= 1;
  }
  if (p[0] == 7) return external_function(p[0]);
  return 0;
}
