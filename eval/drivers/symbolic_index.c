/* Reads and writes at symbolic offsets of one array, with branches on what they return:
 * measures the memory model's array views and the solver on array theory. */
#include <klee/klee.h>
int main(void) {
  unsigned char buf[32] = {0};
  unsigned idx[6];
  klee_make_symbolic(idx, sizeof idx, "idx");
  for (int k = 0; k < 6; k++) {
    klee_assume(idx[k] < 32);
    buf[idx[k]] = (unsigned char)(k + 1);
  }
  int hits = 0;
  for (int k = 0; k < 4; k++)
    if (buf[k] == 3) hits++;
  return hits;
}
