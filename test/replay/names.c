/* Two inputs of different names and sizes, for the name/size mismatch checks: the runner
 * replays symq's tests unchanged (no mismatch), then with an object renamed, resized or
 * missing (each a ktest mismatch). a > 5 forks: 2 tests. */
#include <klee/klee.h>

int main(void) {
  int a;
  unsigned short b;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  if (a > 5)
    return 1;
  return b == 7;
}
