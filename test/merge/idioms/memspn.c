/* KLEE's idiom with memspn's loop: two exits (the count reached n, or a byte not 'a'). */
#include <klee/klee.h>
#define CAP 6
int main(void) {
  char s[CAP];
  unsigned n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n < CAP);
  s[n] = 0;
  unsigned i = 0;
  for (; i < n; i++)
    if (s[i] != 'a') break;
  klee_assert(i != 3 || n == 3);
  return 0;
}
