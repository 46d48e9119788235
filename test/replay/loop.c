/* Spins forever natively when x = 5, for the timeout check (the runner writes its ktests:
 * symq itself would stop that path at a limit and mark the test .early). */
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  volatile int spin = 1;
  if (x == 5)
    while (spin) {
    }
  return 0;
}
