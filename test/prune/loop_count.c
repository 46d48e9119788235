/* A loop counting its rounds, then a check on the count: no state at the loop's head is
 * among an ancestor's states (the count differs), so nothing is covered, and the bug at the
 * third round is found. */
#include "nondet.h"
int main(void) {
  int x = 0;
  while (__VERIFIER_nondet_int() != 0) {
    x++;
    if (x == 3 && __VERIFIER_nondet_int() == 7) reach_error();
  }
  return 0;
}
