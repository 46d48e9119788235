/* SV-COMP style: each of N choices reads its own __VERIFIER_nondet_int (a fresh input made
 * in a private slot, prune/slots.h), changes a value no check reads, then a check on another
 * nondet value. States at a choice hold the same expressions over inputs each made on its
 * own: subsumed up to a renaming (prune/rename.h), so forks grow linearly in N. */
#include "nondet.h"
int main(void) {
  int noise = 0;
  NONDET_CHOICES(noise);
  int y = __VERIFIER_nondet_int();
  if (y > 1000)
    if (y == 999) reach_error();
  return 0;
}
