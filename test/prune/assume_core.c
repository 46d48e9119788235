/* An infeasible assume's interpolant keeps what made it infeasible: above the choices,
 * y < 0 on one side and not on the other; below, the assume of y > 5 cannot hold on the
 * first side (the path ends there) but can on the second, where the bug follows. A
 * subsumption that forgot y < 0 would prune the second side's bug. */
#include <assert.h>
#include <klee/klee.h>

#include "choices.h"
extern void __VERIFIER_assume(int cond);
void reach_error(void) { assert(0); }
int main(void) {
  int p[N], y;
  klee_make_symbolic(p, sizeof p, "p");
  klee_make_symbolic(&y, sizeof y, "y");
  int noise = 0;
  if (y >= 0) noise = 0; /* a branch that changes nothing the code below sees */
  NOISE_CHOICES(p, noise);
  if (p[0] == 5) {
    __VERIFIER_assume(y > 5);
    reach_error();
  }
  return 0;
}
