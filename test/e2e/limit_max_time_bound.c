/* --max-time holds with thousands of states waiting: breadth-first search forks up to 2^14
 * states that each spin for a million iterations, so when the limit strikes hundreds to
 * thousands are waiting, and each needs a model for its test. The halt writes tests for 5% of the limit
 * (at least 1 s) and ends the rest without solving (a line each in lost.early, counted in
 * tests_lost), so exploration ends at about the limit + the budget (11 s). The bound adds a
 * generous slack for a loaded machine; before the budget, the halt took a model and two
 * fsyncs per waiting state, ~10 ms each. An upper bound only, never a claim about speed:
 * a slower machine makes fewer states, and the bound still holds. */
// ARGS: --search=bfs --max-time=10s
// EXPECT: completed=0+ errors=0 tests=1+ early=1+ exhausted=false
// EXPECT-EARLY: halted: max-time
// EXPECT-OBJECTS: x:4
// EXPECT-TIME-AT-MOST: 17
#include <klee/klee.h>

int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  unsigned h = 0;
  for (int i = 0; i < 14; i++)
    if (x & (1u << i)) h += (unsigned)i;
  /* millions of instructions per state, so none ends in time under symq; natively (replay
   * runs every test) a few milliseconds */
  volatile unsigned spin = 0;
  for (unsigned i = 0; i < 1000000; i++) spin += h;
  return 0;
}
