/* The noise is read by the check: states at a choice with different noise must not be
 * subsumed by one another. reach_error when every p[i] > 100. */
#include <klee/klee.h>

#include "choices.h"
void reach_error(void);
int main(void) {
  int p[N];
  klee_make_symbolic(p, sizeof p, "p");
  int noise = 0;
  NOISE_CHOICES(p, noise);
  if (noise == 3 * N) reach_error();
  return 0;
}
