/* Each of N rounds reads a nondet c and checks it under a guard that depends on the previous
 * round (flag, dead once the guard is taken). States that reach the guard with a different
 * flag are not subsumed there, but below it the check needs only the guard's constraint on
 * c: the inner node's interpolant names c, an input the later state does not have, and the
 * state is subsumed through σ(Ψ), its own c renamed in (prune/rename.h) — one solver query
 * each. reach_error is unreachable. */
#include "nondet.h"
int main(void) {
  int flag = 0;
  for (int i = 0; i < N; i++) {
    int c = __VERIFIER_nondet_int();
    if (c > 5 + flag)
      if (c < 3) reach_error();
    if (c > 1000) flag = 1;
    else
      flag = 0;
  }
  return 0;
}
