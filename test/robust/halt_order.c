/* halt-order: eight branches, each on its own line, then a loop that never ends. Under dfs
 * the halt (--max-instructions) finds nine states: the one in the loop (eight formulas in
 * its path condition) and one sibling forked at each branch (as many formulas as the
 * branch's depth), each paused at its branch's line. */
#include <klee/klee.h>

int main(void) {
  unsigned char in[8];
  klee_make_symbolic(in, sizeof in, "in");
  volatile int k = 0;
  if (in[0] > 100) k += 1;
  if (in[1] > 100) k += 5;
  if (in[2] > 100) k += 9;
  if (in[3] > 100) k += 13;
  if (in[4] > 100) k += 17;
  if (in[5] > 100) k += 21;
  if (in[6] > 100) k += 25;
  if (in[7] > 100) k += 29;
  for (;;) k++;
}
