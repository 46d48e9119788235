/* A shift by at least the bit width is an error of kind overshift (KLEE checks it by
 * default): x << k with k symbolic forks the error (k ≥ 32) from the shift (k < 32, one
 * completed path). A constant shift in range needs no fork. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: overshift line=@shift msg="overshift error"
// EXPECT-OBJECTS: x:4 k:4
#include <klee/klee.h>

int main(void) {
  unsigned x, k;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&k, sizeof k, "k");
  unsigned y = x << 3;
  return (int)(y << k); /* @shift */
}
