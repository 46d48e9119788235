/* N choices each add 0 or 1 to a counter the assertion reads: states at a choice with the
 * same count are the same state to the code below, so deletion interpolants subsume them:
 * forks grow quadratically in N (N(N+1)/2), not as 2^(N+1) - 1. */
#include <assert.h>
#include <klee/klee.h>
#ifndef N
#define N 4
#endif
int main(void) {
  int p[N];
  klee_make_symbolic(p, sizeof p, "p");
  int x = 0;
  for (int i = 0; i < N; i++)
    if (p[i] > 100) x += 1;
  assert(x <= N);
  return 0;
}
