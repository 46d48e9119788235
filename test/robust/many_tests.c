/* kill9: 1024 paths, each ending quickly with a test, so tests are written steadily while
 * the run is killed. */
#include <klee/klee.h>

int main(void) {
  unsigned char in[10];
  klee_make_symbolic(in, sizeof in, "in");
  int k = 0;
  for (int i = 0; i < 10; i++)
    if (in[i] > 100) k++;
  return k;
}
