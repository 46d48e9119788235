/* Concrete work: ~5.7M instructions of array arithmetic, then one symbolic branch. Measures
 * the interpreter's speed when the solver has nothing to do. */
#include <klee/klee.h>
int a[1000];
int main(void) {
  unsigned s = 0;
  for (int r = 0; r < 300; r++)
    for (int i = 0; i < 1000; i++) {
      a[i] = a[i] + i * r;
      s += a[i] ^ (s >> 3);
    }
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  return x == (int)s;
}
