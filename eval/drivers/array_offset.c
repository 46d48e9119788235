/* A 160-byte array of ints written and read at the symbolic byte offset 8*i (an array of
 * 20 pairs, indexed by a symbolic i), the shape of SV-COMP's array-memsafety programs: each
 * round writes one pair at a symbolic slot and checks what a read at another symbolic slot
 * sees. The queries are reads over writes at symbolic indices, which is what the solver's
 * array handling is measured on. */
#include <klee/klee.h>

#define SLOTS 20

int main(void) {
  int a[2 * SLOTS]; /* 160 bytes */
  for (int k = 0; k < 2 * SLOTS; k++)
    a[k] = 0;
  unsigned i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < SLOTS);
  klee_assume(j < SLOTS);
  for (int round = 1; round <= 3; round++) {
    a[2 * i] = round;
    a[2 * i + 1] = -round;
    if (a[2 * j] == round)
      klee_assert(i == j && a[2 * j + 1] == -round);
    i = (i + 1) % SLOTS;
  }
  int sum = 0;
  for (int k = 0; k < SLOTS; k++)
    sum += a[2 * k] + a[2 * k + 1];
  klee_assert(sum == 0);
  return 0;
}
