/* exit-on-error: 256 paths reach an assertion that fails when in[0] == 7 and a division by
 * zero when in[1] == 9; many states are still waiting when the first error is found. */
#include <klee/klee.h>

int main(void) {
  unsigned char in[10];
  klee_make_symbolic(in, sizeof in, "in");
  int k = 0;
  for (int i = 2; i < 10; i++)
    if (in[i] > 100) k++;
  if (in[0] == 7) klee_assert(0);
  if (in[1] == 9) k = 100 / (in[1] - 9);
  return k;
}
