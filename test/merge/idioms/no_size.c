/* No size at all: the loop's bound is a constant and its branch reads only the bytes, so
 * under --merge-loops=size it opens no region (the skip is counted). */
#include <klee/klee.h>
#define CAP 5
int main(void) {
  char s[CAP];
  klee_make_symbolic(s, sizeof s, "s");
  unsigned i = 0;
  while (i < CAP - 1 && s[i] != 'x') i++;
  klee_assert(i != 3);
  return 0;
}
