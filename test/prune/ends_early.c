/* One path calls a function symq has no body for: it ends early, so the run proves
 * nothing (verdict unknown), though no error is reachable where symq looked. */
#include <klee/klee.h>

#include "choices.h"
int external_function(int);
int main(void) {
  int p[N];
  klee_make_symbolic(p, sizeof p, "p");
  int noise = 0;
  NOISE_CHOICES(p, noise);
  if (p[0] == 7) return external_function(p[0]);
  return 0;
}
