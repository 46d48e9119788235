/* The check below the choices reads p[0] and p[N-1]: a subtree that is safe because
 * p[0] <= 100 held above it must not subsume a state where p[0] > 100 (its interpolant
 * keeps p[0]'s constraint). reach_error when p[0] > 100, p[N-1] <= 100 and y == 5. */
#include <klee/klee.h>

#include "choices.h"
void reach_error(void);
int main(void) {
  int p[N], y;
  klee_make_symbolic(p, sizeof p, "p");
  klee_make_symbolic(&y, sizeof y, "y");
  int noise = 0;
  NOISE_CHOICES(p, noise);
  if (y == 5) {
    int a = p[0] > 100, b = p[N - 1] <= 100;
    if (a && b) reach_error();
  }
  return 0;
}
