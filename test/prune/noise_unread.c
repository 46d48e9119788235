/* N symbolic choices change a value no check reads, then a check on another input:
 * every state at a choice is subsumed by the finished subtree of its sibling, so forks grow
 * linearly in N under --interpolate (2^(N+1) - 1 without). */
#include <assert.h>
#include <klee/klee.h>

#include "choices.h"
int main(void) {
  int p[N], y;
  klee_make_symbolic(p, sizeof p, "p");
  klee_make_symbolic(&y, sizeof y, "y");
  int noise = 0;
  NOISE_CHOICES(p, noise);
  if (y > 1000) assert(y != 999);
  return 0;
}
