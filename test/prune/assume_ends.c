/* N symbolic choices change a value no check reads, and on two sides of each choice the
 * path ends in an assume that cannot hold: a constant __VERIFIER_assume(0), and an assumed
 * condition the path condition makes unsatisfiable. Those ends are normal ends for
 * interpolation (no error, no further behaviour), so every state at a choice but the
 * first's subtree is subsumed, as in noise_unread.c; the second assume's interpolant keeps
 * what made it unsatisfiable (p[i] < -100). Then a check on another input: verdict true. */
#include <assert.h>
#include <klee/klee.h>

#ifndef N
#define N 4
#endif
extern void __VERIFIER_assume(int cond);
int main(void) {
  int p[N], y;
  klee_make_symbolic(p, sizeof p, "p");
  klee_make_symbolic(&y, sizeof y, "y");
  int noise = 0;
  for (int i = 0; i < N; i++) {
    if (p[i] > 100) noise += 3;
    else if (p[i] < -100)
      __VERIFIER_assume(p[i] + 1000 > 2000); /* infeasible here */
    else if (p[i] == 7)
      __VERIFIER_assume(0);
    else
      noise -= 1;
  }
  if (y > 1000) assert(y != 999);
  return 0;
}
