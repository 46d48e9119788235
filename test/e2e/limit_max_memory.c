/* --max-memory=1 (MB): symq itself always uses more, so the run halts before the first
 * instruction: the one state ends early with its test, and the run is not exhaustive.
 * (test/robust's max-memory scenario checks a limit that is reached while running.) */
// ARGS: --max-memory=1
// EXPECT: completed=0 errors=0 tests=1 early=1 exhausted=false
// EXPECT-EARLY: halted: max-memory
// EXPECT-OBJECTS: (none)
#include <klee/klee.h>

int main(void) {
  unsigned char a, b, c;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  int k = 0;
  if (a > 10) k += 1;
  if (b > 10) k += 2;
  if (c > 10) k += 4;
  return k;
}
