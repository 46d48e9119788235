/* SIGINT's halt is bounded as --max-time's is: breadth-first search forks up to 2^14 states
 * that each spin for a million iterations; the signal comes once 2,000 are live. The halt
 * writes tests within 5% of the time run so far (at least 1 s) and ends the rest without
 * solving (a line each in lost.early, counted in tests_lost). Before that budget, a model
 * and two fsyncs per waiting state (~10 ms each) made the halt take 20 s or more. The bound
 * is the budget + 5 s of slack for a loaded machine: an upper bound, never a claim about
 * speed (a slower machine signals later and gets a larger budget). */
// ARGS: --search=bfs
// SIGNAL: INT 2000
// EXPECT: completed=0+ errors=0 tests=1+ early=2000+ exhausted=false
// EXPECT-EARLY: halted: interrupted
// EXPECT-OBJECTS: x:4
// EXPECT-TIME-AT-MOST: 5
#include <klee/klee.h>

int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  unsigned h = 0;
  for (int i = 0; i < 14; i++)
    if (x & (1u << i)) h += (unsigned)i;
  /* millions of instructions per state, so none ends before the signal under symq; natively
   * (replay runs every test) a few milliseconds */
  volatile unsigned spin = 0;
  for (unsigned i = 0; i < 1000000; i++) spin += h;
  return 0;
}
