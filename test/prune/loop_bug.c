/* A `while (1)` loop whose bug needs two rounds: `seen` is set in one round and the check
 * reads it in the next. Covering by an ancestor at the loop's head must not cover a state
 * whose `seen` differs from the ancestor's (the relevant register differs, or, under wp, its
 * variable's definition contradicts), so the bug is found. */
#include "nondet.h"
int main(void) {
  int seen = 0;
  while (1) {
    if (__VERIFIER_nondet_int() == 0) break;
    if (seen) {
      if (__VERIFIER_nondet_int() == 5) reach_error();
    }
    if (__VERIFIER_nondet_int() > 100) seen = 1;
  }
  return 0;
}
