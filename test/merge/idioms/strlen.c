/* KLEE's idiom: a fixed buffer, a symbolic length n assumed below its capacity, the
 * terminator written at n, then strlen's loop. n is a size twice over (assumed bound,
 * terminating write); the loop reads it through s's update list. */
#include <klee/klee.h>
#define CAP 6
int main(void) {
  char s[CAP];
  unsigned n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n < CAP);
  s[n] = 0;
  unsigned len = 0;
  while (s[len]) len++;
  klee_assert(len != 4);
  return 0;
}
