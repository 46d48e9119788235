// VERDICT: true
/* calloc whose product overflows returns NULL (glibc), never a wrapped-around object. */
#include <stdlib.h>
extern unsigned long __VERIFIER_nondet_ulong(void);
extern void __VERIFIER_assume(int);
void reach_error(void);
int main() {
  unsigned long n = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(n >= 4 && n <= 6);
  char *p = calloc(n, 1ul << 62);
  if (p != 0) reach_error();
  return 0;
}
