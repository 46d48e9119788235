/* Coverage of tests that crash: the lines of fail() run only on the path that aborts, so
 * they count in `symq cov` only if the replay library writes gcov's counters when the test
 * dies of SIGABRT. x = 3 aborts (an abort error); any other x completes: 2 tests. */
#include <stdlib.h>
#include <klee/klee.h>

static int calls;

static void fail(int code) {
  calls += code;   /* @only_on_crash */
  abort();
}

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 3)
    fail(x);
  return calls;
}
