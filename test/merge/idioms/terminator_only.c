/* Only the terminating write makes n a size: its bound is a branch, not an assumption. */
#include <klee/klee.h>
#define CAP 6
int main(void) {
  char s[CAP];
  unsigned char n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  if (n >= CAP) return 1;
  s[n] = 0;
  unsigned len = 0;
  while (s[len] && s[len] != '/') len++;
  klee_assert(len != 2 || s[len] == 0);
  return 0;
}
