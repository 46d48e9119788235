/* The noise is read by the check: states at a choice with different noise must not be
 * subsumed by one another. reach_error when every p[i] > 100. */
#include <klee/klee.h>
#ifndef N
#define N 4
#endif
void reach_error(void);
int main(void) {
  int p[N];
  klee_make_symbolic(p, sizeof p, "p");
  int noise = 0;
  for (int i = 0; i < N; i++) {
    if (p[i] > 100) noise += 3;
    else noise -= 1;
  }
  if (noise == 3 * N) reach_error();
  return 0;
}
