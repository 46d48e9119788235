/* Only an assumed bound makes n a size: no terminator, the loop runs to n. */
#include <klee/klee.h>
#define CAP 5
int main(void) {
  char s[CAP];
  int n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 0);
  klee_assume(n <= CAP);
  int count = 0;
  for (int i = 0; i < n; i++)
    if (s[i] == 'x') count++;
  klee_assert(count < 4);
  return 0;
}
