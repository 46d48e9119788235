/* y > 5 holds above N choices; each choice assumes a bound on y stronger than any before it
 * (y > 100 + 2i on one side, y > 101 + 2i on the other: never implied by the path so far),
 * then a check needs only y != 3. Deletion interpolants keep the bounds the first path
 * assumed (the conjuncts the check's core needs): a state whose path assumed a weaker bound
 * is not subsumed by them. The weakest-precondition interpolant of the check, pushed back
 * over an assumed bound, is true (the bound alone implies y != 3; abduction drops every
 * other conjunct): every state at a choice but the first's is subsumed. */
#include <klee/klee.h>
void reach_error(void);
void __VERIFIER_assume(int);
#ifndef N
#define N 4
#endif
int main(void) {
  int p[N], y;
  klee_make_symbolic(p, sizeof p, "p");
  klee_make_symbolic(&y, sizeof y, "y");
  __VERIFIER_assume(y > 5);
  for (int i = 0; i < N; i++)
    if (p[i] > 100) __VERIFIER_assume(y > 100 + 2 * i);
    else
      __VERIFIER_assume(y > 101 + 2 * i);
  if (y == 3) reach_error();
  return 0;
}
