/* Two counters over N choices (x counts the p[i] > 100, y adds 2 for each other one), then a
 * check reading both that fails on some paths: with variables for the counters
 * (--interpolate=wp, prune/data.h), a node's interpolant is a formula over x and y; states
 * with other counts are compared through it, and none may hide a failing path. */
#include <assert.h>
#include <klee/klee.h>
#ifndef N
#define N 6
#endif
int main(void) {
  int p[N];
  klee_make_symbolic(p, sizeof p, "p");
  int x = 0, y = 0;
  for (int i = 0; i < N; i++) {
    if (p[i] > 100) x += 1;
    else
      y += 2;
  }
  if (x > 2) assert(y != 2 * (N - 3)); /* fails when exactly three are > 100 */
  return 0;
}
