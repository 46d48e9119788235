/* N rounds of a nondet choice that the final check reads (through the noise): states with
 * different noise must not be subsumed by one another, renaming or not; reach_error when
 * every choice took c > 100. */
#include "nondet.h"
int main(void) {
  int noise = 0;
  NONDET_CHOICES(noise);
  if (noise == 3 * N) reach_error();
  return 0;
}
